/**
 * The analysis engine the extension asks: on a worker thread, its analyses reach the extension as the same
 * data (polynomials made polynomials again, nothing lost), incremental across versions, with imports read
 * from an editor's text before the disk.
 */
import * as assert from 'assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import type { Analysis } from '../../src/core/analysis/analyze';
import { Poly } from '../../src/core/values/symbolic';
import type { AnalyzeReply } from '../../src/service/documentEngine';
import { WorkerEngine, type Engine } from '../../src/service/engineClient';
import { packReply, unpackReply } from '../../src/service/replyChunks';
import { fromWire, toWire } from '../../src/service/wire';
import { analyzeText, ROOT, SLOW_FACTORIES } from './helpers';

const MODEL = `import torch.nn as nn
import tensorflow as tf
class Block(nn.Module):
    def __init__(self, d=64, h=8):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h)
        self.fc = nn.Linear(d, d * 4)

model = Block(128, 4)
`;

/** Every figure an analysis holds, as text: polynomials as they print, big integers as digits. */
function figures(a: Analysis): string {
  return JSON.stringify(a, (_, v) =>
    v instanceof Poly ? `poly:${v.toString()}` : typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v,
  );
}

const analysisOf = (reply: AnalyzeReply): Analysis => {
  assert.ok('analysis' in reply, 'skipped' in reply ? reply.skipped : 'no analysis');
  return reply.analysis;
};

suite('analysis engine', () => {
  test('an analysis through a structured clone is the same analysis, its polynomials polynomials', async () => {
    const analysis = await analyzeText(MODEL);
    const arrived = await fromWire<Analysis>(structuredClone(toWire(analysis)));
    assert.strictEqual(figures(arrived), figures(analysis));
    const total = arrived.instances[0].summary.params;
    assert.ok(total instanceof Poly);
    assert.strictEqual(total.constant, 4n * 128n * 128n + 4n * 128n + 128n * 512n + 512n);
  });

  test('a large analysis arrives in chunks of a few results, each list whole and in order', async () => {
    const blocks = Array.from(
      { length: 40 },
      (_, i) =>
        `class B${i}(nn.Module):\n    def __init__(self, d=${8 + i}):\n        super().__init__()\n        self.a = nn.Linear(d, d)\n        self.b = nn.Linear(d, 2 * d)\n`,
    );
    const analysis = await analyzeText(`import torch.nn as nn\n${blocks.join('')}`);
    assert.strictEqual(analysis.layers.length, 80);
    const reply = { analysis, imports: ['/a.py'], fresh: true, ms: 1 };
    const chunks = packReply(reply);
    // The head, then the 80 layers and 40 classes in chunks of at most 16.
    assert.strictEqual(chunks.length, 1 + 5 + 3);
    const arrived = await unpackReply(structuredClone(chunks));
    assert.ok('analysis' in arrived);
    assert.deepStrictEqual([arrived.imports, arrived.fresh, arrived.ms], [['/a.py'], true, 1]);
    assert.strictEqual(figures(arrived.analysis), figures(analysis));
    assert.strictEqual(arrived.analysis.layers[79].layer.params?.constant, 47n * 94n + 94n);
  });

  test('a reply without an analysis arrives as it was sent', async () => {
    const skipped = { skipped: 'failed', error: 'out of memory' } as const;
    assert.deepStrictEqual(await unpackReply(packReply(skipped)), skipped);
  });

  test('the worker analyses as this thread does, incrementally, and reads an unsaved import first', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'al-engine-'));
    writeFileSync(path.join(folder, 'sizes.py'), 'D = 16\n');
    const file = path.join(folder, 'model.py');
    const script = path.join(ROOT, 'out', 'src', 'service', 'analysisWorker.js');
    const engine: Engine | undefined = await WorkerEngine.start(
      script,
      { folders: [folder], packages: [] },
      () => undefined,
    );
    assert.ok(engine, 'the worker started');
    try {
      const request = (text: string, fresh = false) => ({
        key: 'model',
        language: 'python' as const,
        text,
        fresh,
        file,
      });
      const first = analysisOf(await engine.analyze(request(MODEL, true), new Map()));
      assert.strictEqual(figures(first), figures(await analyzeText(MODEL)));
      const edited = MODEL.replace('Block(128, 4)', 'Block(256, 4)');
      const second = analysisOf(await engine.analyze(request(edited), new Map()));
      assert.strictEqual(figures(second), figures(await analyzeText(edited)));
      const importing = `from sizes import D\nimport torch.nn as nn\nfc = nn.Linear(D, 2)\n`;
      const fromDisk = analysisOf(await engine.analyze(request(importing, true), new Map()));
      assert.strictEqual(fromDisk.layers[0].layer.params?.toString(), '34');
      const unsaved = new Map([[path.join(folder, 'sizes.py'), 'D = 32\n']]);
      const fromEditor = analysisOf(await engine.analyze(request(importing, true), unsaved));
      assert.strictEqual(fromEditor.layers[0].layer.params?.toString(), '66');
    } finally {
      engine.dispose();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a full analysis gives way to a first one asked after it, its last analysis standing; alone, it ends', async () => {
    const script = path.join(ROOT, 'out', 'src', 'service', 'analysisWorker.js');
    const engine = await WorkerEngine.start(script, { folders: [], packages: [] }, () => undefined);
    assert.ok(engine, 'the worker started');
    try {
      const request = (key: string, depth: 'first' | 'full', fresh = false) => ({
        key,
        language: 'python' as const,
        text: SLOW_FACTORIES,
        fresh,
        depth,
      });
      const configurations = (reply: AnalyzeReply) =>
        analysisOf(reply).modules.find((m) => m.name === 'M')!.configurations!.length;
      const first = analysisOf(await engine.analyze(request('a', 'first', true), new Map()));
      assert.strictEqual(first.configurationsCut, true);
      const full = engine.analyze(request('a', 'full'), new Map());
      const other = engine.analyze(request('b', 'first', true), new Map());
      assert.deepStrictEqual(await full, { skipped: 'interrupted' });
      assert.strictEqual(analysisOf(await other).configurationsCut, true);
      // The runs the stopped analysis kept are dropped: the next one of its program runs afresh, and whole.
      const again = await engine.analyze(request('a', 'full'), new Map());
      assert.strictEqual(analysisOf(again).configurationsCut, undefined);
      assert.strictEqual(configurations(again), 41);
    } finally {
      engine.dispose();
    }
  });

  test("an installed package is read from the environment's folder, outside the workspace, once it is given", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'al-workspace-'));
    const site = mkdtempSync(path.join(tmpdir(), 'al-site-packages-'));
    mkdirSync(path.join(site, 'blocks'));
    writeFileSync(
      path.join(site, 'blocks', '__init__.py'),
      'import torch.nn as nn\n\nclass Mlp(nn.Module):\n    def __init__(self, d, hidden=32):\n        super().__init__()\n        self.fc1 = nn.Linear(d, hidden)\n        self.fc2 = nn.Linear(hidden, d)\n',
    );
    const file = path.join(folder, 'model.py');
    const script = path.join(ROOT, 'out', 'src', 'service', 'analysisWorker.js');
    const engine = await WorkerEngine.start(script, { folders: [folder], packages: [] }, () => undefined);
    assert.ok(engine, 'the worker started');
    try {
      const request = {
        key: 'model',
        language: 'python' as const,
        text: 'from blocks import Mlp\nmlp = Mlp(8)\n',
        fresh: true,
        file,
      };
      const total = async () =>
        analysisOf(await engine.analyze(request, new Map())).instances[0]?.summary.params?.toString();
      assert.strictEqual(await total(), undefined);
      engine.setRoots({ folders: [folder], packages: [site] });
      // nn.Linear(8, 32) and nn.Linear(32, 8): 288 + 264.
      assert.strictEqual(await total(), '552');
    } finally {
      engine.dispose();
      rmSync(folder, { recursive: true, force: true });
      rmSync(site, { recursive: true, force: true });
    }
  });
});
