/**
 * Shape errors followed through forward(): the `# expect: code` markers of the fixture, each where PyTorch
 * itself raises when the model runs (pytorch-forward.json, from scripts/ground-truth/pytorch_forward.py);
 * and no such error anywhere in the realistic, correct models (GPT, ViT, DETR, Perceiver, seq2seq, ...).
 */
import * as assert from 'assert';
import { readFileSync, readdirSync } from 'fs';
import * as path from 'path';
import { FLOW_CODES } from './frameworks.test';
import { analyzeText, ROOT } from './helpers';

const FIXTURE = 'test/fixtures/models/pytorch/forward_errors.py';
/** Fixtures whose mistakes are planted on purpose, each checked against PyTorch by its own test. */
const PLANTED = new Set([path.basename(FIXTURE), 'attention_mistakes.py']);

interface ForwardRecord {
  readonly class: string;
  readonly line: number | null;
  readonly error: { type: string; message: string } | null;
}

suite('shapes followed through forward()', () => {
  test('each marked line, and nothing else, in the forward-error fixture', async () => {
    const text = readFileSync(path.join(ROOT, FIXTURE), 'utf8');
    const lines = text.split('\n');
    const marked = lines.flatMap((l, i) => {
      const code = /# expect: ([a-z-]+)/.exec(l)?.[1];
      return code ? [`${i + 1} ${code}`] : [];
    });
    const analysis = await analyzeText(text);
    assert.deepStrictEqual(
      analysis.findings.map((f) => `${f.span.startLine + 1} ${f.code}`),
      marked,
    );
    for (const f of analysis.findings)
      assert.ok(f.related?.length, `${f.code} at ${f.span.startLine + 1} points at the definitions`);

    const truth = (
      JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-forward.json'), 'utf8')) as {
        files: Record<string, ForwardRecord[]>;
      }
    ).files[FIXTURE];
    for (const r of truth) {
      const cls = analysis.modules.find((m) => m.name === r.class);
      assert.ok(cls, r.class);
      const inside = analysis.findings.filter((f) => f.span.start >= cls.extent.start && f.span.end <= cls.extent.end);
      assert.strictEqual(
        inside.length,
        r.error ? 1 : 0,
        `${r.class}: PyTorch ${r.error ? `raises ${r.error.type} at line ${r.line}` : 'runs it'}`,
      );
      if (r.error && inside[0].code !== 'sequential-mismatch')
        assert.strictEqual(inside[0].span.startLine + 1, r.line, `${r.class}: where PyTorch raises`);
    }
  });

  test('correct models stay clean', async () => {
    const dir = path.join(ROOT, 'test/fixtures/models/pytorch');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.py') && !PLANTED.has(f))) {
      const analysis = await analyzeText(readFileSync(path.join(dir, file), 'utf8'));
      assert.deepStrictEqual(
        analysis.findings.filter((f) => FLOW_CODES.has(f.code)).map((f) => `${f.span.startLine + 1} ${f.message}`),
        [],
        file,
      );
    }
  });

  test('sizes are followed through the GPT MLP and into the DETR transformer', async () => {
    const gpt = await analyzeText(readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py'), 'utf8'));
    assert.deepStrictEqual(
      gpt.hints.filter((h) => h.span.startLine >= 84 && h.span.startLine <= 87).map((h) => Number(h.features.constant)),
      [3072, 3072, 768, 768],
    );
  });
});
