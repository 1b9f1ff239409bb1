/** `--format sarif` checked against the SARIF 2.1.0 JSON schema, as GitHub code scanning reads it. */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { ruleFor, RULES } from '../../src/cli/rules';
import { ROOT } from './helpers';
import { buildCli, runCli as run, tempFiles } from './cliRun';

/** The schema SchemaStore serves for SARIF 2.1.0 (2.1.0-rtm.5), as shipped by Microsoft's SARIF SDK. */
const SCHEMA = JSON.parse(
  readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
) as object;

// The schema's language-tag pattern is not valid in JavaScript's unicode mode.
const ajv = new Ajv({ allErrors: true, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(SCHEMA);

function assertValid(log: unknown): void {
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 1));
}

interface Log {
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version: string;
        rules: { id: string; shortDescription: { text: string }; help: { text: string } }[];
      };
    };
    invocations: {
      executionSuccessful: boolean;
      exitCode: number;
      toolExecutionNotifications: { level: string; message: { text: string } }[];
    }[];
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: object[];
      relatedLocations?: object[];
    }[];
  }[];
}

suite('attention-lens CLI: SARIF', () => {
  suiteSetup(buildCli);

  test('errors of the fixtures: a valid log with rules, levels and regions relative to the working directory', () => {
    const r = run([
      '--format',
      'sarif',
      'test/fixtures/models/pytorch/shape_errors.py',
      'test/fixtures/models/pytorch/forward_errors.py',
      'test/fixtures/models/pytorch/gpt.py',
    ]);
    assert.strictEqual(r.status, 1, r.stderr);
    const log = JSON.parse(r.stdout) as Log;
    assertValid(log);
    const [run0] = log.runs;
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.deepStrictEqual([run0.tool.driver.name, run0.tool.driver.version], ['attention-lens', version]);
    assert.deepStrictEqual(run0.invocations, [
      { executionSuccessful: true, exitCode: 1, toolExecutionNotifications: [] },
    ]);
    const json = JSON.parse(
      run(['--json', 'test/fixtures/models/pytorch/shape_errors.py', 'test/fixtures/models/pytorch/forward_errors.py'])
        .stdout,
    ) as { files: { diagnostics: unknown[] }[] };
    assert.strictEqual(
      run0.results.length,
      json.files.reduce((n, f) => n + f.diagnostics.length, 0),
    );
    for (const result of run0.results) {
      const rule = run0.tool.driver.rules[result.ruleIndex];
      assert.strictEqual(rule.id, result.ruleId);
      assert.ok(rule.help.text.length > 40 && rule.shortDescription.text.length > 10, rule.id);
    }
    assert.deepStrictEqual(run0.results[0], {
      ruleId: 'heads-divisibility',
      ruleIndex: 0,
      level: 'error',
      message: {
        text: 'embed_dim 768 is not divisible by num_heads 10: PyTorch raises "embed_dim must be divisible by num_heads". Each head takes embed_dim / num_heads features.',
      },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'test/fixtures/models/pytorch/shape_errors.py', uriBaseId: 'SRCROOT' },
            region: { startLine: 16, startColumn: 13, endLine: 16, endColumn: 43 },
          },
        },
      ],
    });
    assert.ok(
      run0.results.some((x) => x.relatedLocations?.length),
      'the shape errors of forward() point at where the sizes come from',
    );
  });

  test('a notebook, a file it cannot analyse and a missing path: still a valid log, the failures as notifications', () => {
    const notebook = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        {
          cell_type: 'code',
          metadata: {},
          outputs: [],
          execution_count: null,
          source: 'import torch.nn as nn\nbad = nn.MultiheadAttention(10, 3)\n',
        },
      ],
    };
    const { dir, remove } = tempFiles({
      'nb.ipynb': JSON.stringify(notebook),
      'broken.ipynb': '{',
      'spaced name.py': 'import torch.nn as nn\nbad = nn.MultiheadAttention(10, 4)\n',
    });
    try {
      const r = run(['--format=sarif', '.', 'missing.py'], { cwd: dir });
      assert.strictEqual(r.status, 2, r.stderr);
      const log = JSON.parse(r.stdout) as Log;
      assertValid(log);
      const [run0] = log.runs;
      assert.deepStrictEqual(
        run0.invocations[0].toolExecutionNotifications.map((n) => [n.level, n.message.text.replace(/\(.*\)/, '(...)')]),
        [
          ['error', 'cannot read missing.py: no such file or directory (...)'],
          ['error', 'broken.ipynb not analysed: not a notebook: invalid JSON (...)'],
        ],
      );
      assert.deepStrictEqual(
        run0.results.map((x) => x.locations[0]),
        [
          {
            physicalLocation: { artifactLocation: { uri: 'nb.ipynb', uriBaseId: 'SRCROOT' } },
            message: { text: 'cell 1, line 2, column 7' },
            properties: { cell: 1, line: 2, column: 7 },
          },
          {
            physicalLocation: {
              artifactLocation: { uri: 'spaced%20name.py', uriBaseId: 'SRCROOT' },
              region: { startLine: 2, startColumn: 7, endLine: 2, endColumn: 35 },
            },
          },
        ],
      );
    } finally {
      remove();
    }
  });

  test('the validator does reject what is not SARIF', () => {
    const log = JSON.parse(run(['--format', 'sarif', 'test/fixtures/models/pytorch/shape_errors.py']).stdout) as Log;
    log.runs[0].results[0].level = 'fatal';
    assert.strictEqual(validate(log), false);
  });

  test('every code of the README table is a rule; a code added later still gets one', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const firstColumns = [...readme.matchAll(/^\| (`[a-z-]+`(?:, `[a-z-]+`)*) \|/gm)].map((m) => m[1]);
    const documented = firstColumns.flatMap((c) => [...c.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]));
    assert.deepStrictEqual([...documented].sort(), RULES.map((r) => r.id).sort());
    assert.deepStrictEqual(ruleFor('new-check').id, 'new-check');
  });
});
