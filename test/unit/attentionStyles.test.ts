/**
 * Attention in the styles of real model code (Hugging Face ViT, T5 and Whisper, OpenAI CLIP, DETR, Segment Anything's
 * ViT, Swin), written as fixtures and checked against what PyTorch 1.13 does with them (the "styles" of
 * test/fixtures/expected/pytorch-attention.json, written by scripts/ground-truth/pytorch_attention.py): the heads
 * of the scores each attention class really computes, its projections' widths, each build's heads and head size
 * as its tensors have them, the keys and values cached per token, the totals of documented configurations, and no
 * error where PyTorch runs.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, ROOT, widthsByRole } from './helpers';

interface Style {
  readonly totals: Record<string, number>;
  readonly run: string;
  readonly forward: string | null;
  readonly classes: Record<
    string,
    { heads: number; queries: number; keys: number; projections: Record<string, number> }
  >;
  readonly attentionLayers: number;
  readonly multiheadAttention: { embed: number; heads: number; headDim: number }[];
  readonly builds: Record<string, { heads: number; headDim: number }[]>;
  readonly kvPerToken: Record<string, number | null>;
}

const styles = (
  JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/expected/pytorch-attention.json'), 'utf8')) as {
    styles: Record<string, Style>;
  }
).styles;

/** The lens line of each style's attention, as its heads and head size come out of PyTorch's scores. */
const SUMMARIES: Record<string, Record<string, string>> = {
  'hf_modeling_vit.py': { ViTSelfAttention: '12 heads × 64' },
  'hf_modeling_t5.py': { T5Attention: '8 heads × 64' },
  'hf_modeling_whisper.py': { WhisperAttention: '6 heads × 64' },
  'clip_style.py': {},
  'detr_style.py': {},
  // The defaults' build and the run model's: the encoder's forward() loses the sizes before its blocks.
  'sam_vit_style.py': { Attention: '12 or 16 heads' },
  // Swin-T's stages (the defaults) and Swin-B's (the run model), whose first stage loses the sizes on the way.
  'swin_style.py': {
    WindowAttention:
      '3 heads, 4 heads, 6 heads × 32, 8 heads × 32, 12 heads × 32, 16 heads × 32, 24 heads × 32 or 32 heads × 32',
  },
};

async function analyzeFile(file: string, extra = '') {
  return analyzeText(readFileSync(path.join(ROOT, file), 'utf8') + extra, 'python', path.join(ROOT, file));
}

suite('attention in the styles of real model code', () => {
  test("every style has its truth, and PyTorch runs each style's model forward", () => {
    assert.deepStrictEqual(
      Object.keys(styles)
        .map((f) => path.basename(f))
        .sort(),
      Object.keys(SUMMARIES).sort(),
    );
    for (const [file, style] of Object.entries(styles))
      assert.strictEqual(style.forward, null, `${file}: ${style.run}`);
  });

  for (const [file, style] of Object.entries(styles)) {
    const name = path.basename(file);
    if (Object.keys(style.classes).length)
      test(`${name}: each attention class has the heads of its real scores and the widths of its real projections`, async () => {
        const analysis = await analyzeFile(file, `\nmodel_run = ${style.run}\n`);
        for (const [cls, real] of Object.entries(style.classes)) {
          const found = analysis.modules.find((m) => m.name === cls)?.attention;
          assert.ok(found?.attention, `${cls} is recognised as attention`);
          assert.strictEqual(found.summary, SUMMARIES[name][cls], cls);
          // A class built with other heads elsewhere: the build of the run model's first scores.
          const a = (found.builds?.find((b) => b.attention!.heads.constant === BigInt(real.heads)) ?? found).attention!;
          assert.strictEqual(a.heads.constant, BigInt(real.heads), `${cls} heads`);
          if (!a.headDim && found.builds) continue;
          const headDim = Number(a.headDim!.constant);
          const kvHeads = Number((a.kvHeads ?? a.heads).constant);
          const widths = widthsByRole(found, real.projections);
          assert.strictEqual(widths.get('W_Q'), real.heads * headDim, `${cls}: W_Q is heads × d_k wide`);
          assert.strictEqual(widths.get('W_K'), kvHeads * headDim, `${cls}: W_K is kv heads × d_k wide`);
          assert.strictEqual(widths.get('W_V'), kvHeads * headDim, `${cls}: W_V is kv heads × d_k wide`);
          // Every Linear of the class has its role; ViT keeps its output projection in a sibling class.
          const roles = new Set(
            found.tensors.filter((t) => t.role?.startsWith('W_')).map((t) => t.name.slice(0, t.name.lastIndexOf('.'))),
          );
          assert.deepStrictEqual(
            [...roles].sort(),
            Object.keys(real.projections).sort(),
            `${cls}: projections by role`,
          );
        }
      });

    test(`${name}: each attention class shows each build's heads and head size as its tensors have them, or none`, async () => {
      const analysis = await analyzeFile(file, `\nmodel_run = ${style.run}\n`);
      for (const [cls, real] of Object.entries(style.builds)) {
        const found = analysis.modules.find((m) => m.name === cls)?.attention;
        if (!found) continue; // nn.MultiheadAttention: torch's class, not the file's
        assert.strictEqual(found.summary, SUMMARIES[name][cls], cls);
        const builds = (found.builds ?? [found]).map((b) => ({
          heads: Number(b.attention!.heads.constant),
          headDim: b.attention!.headDim && Number(b.attention!.headDim.constant),
        }));
        // Every build shown is one PyTorch computes (a head size not known is a gap), and every one PyTorch computes is shown.
        for (const b of builds)
          assert.ok(
            real.some((r) => r.heads === b.heads && (b.headDim === undefined || r.headDim === b.headDim)),
            `${cls}: ${JSON.stringify(b)} in ${JSON.stringify(real)}`,
          );
        assert.deepStrictEqual(
          [...new Set(real.map((r) => r.heads))],
          builds.map((b) => b.heads),
          cls,
        );
      }
    });

    if (Object.keys(style.kvPerToken).length)
      test(`${name}: the KV cache a token is what PyTorch's keys and values hold`, async () => {
        const exprs = Object.keys(style.kvPerToken);
        const analysis = await analyzeFile(file, exprs.map((e, i) => `\nmodel_${i} = ${e}\n`).join(''));
        const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n').length;
        const kv = Object.fromEntries(
          exprs.map((e, i) => [
            e,
            Number(
              analysis.instances.find((x) => x.span.startLine + 1 === lines + 1 + 2 * i)?.sizing?.kvPerToken?.constant,
            ),
          ]),
        );
        assert.deepStrictEqual(kv, style.kvPerToken);
      });

    test(`${name}: the run model has PyTorch's attention layers, nn.MultiheadAttention with its heads`, async () => {
      const analysis = await analyzeFile(file, `\nmodel_run = ${style.run}\n`);
      const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n').length;
      const run = analysis.instances.find((i) => i.span.startLine + 1 === lines + 1);
      assert.strictEqual(Number(run?.sizing?.attentionLayers.constant), style.attentionLayers, style.run);
      // The heads each model that builds an nn.MultiheadAttention site gives it, as the hover lists them.
      const built = new Set(
        analysis.layers
          .filter((l) => l.layer.kind === 'MultiheadAttention')
          .flatMap((l) => l.values.map((v) => v.summary)),
      );
      for (const m of style.multiheadAttention)
        assert.ok(
          built.has(`${m.heads} heads × ${m.headDim}`),
          `${m.heads} heads × ${m.headDim} in ${[...built].join(', ')}`,
        );
    });

    test(`${name}: the documented configurations have PyTorch's totals`, async () => {
      const exprs = Object.keys(style.totals);
      const analysis = await analyzeFile(file, exprs.map((e, i) => `\nmodel_${i} = ${e}\n`).join(''));
      const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n').length;
      const totals = Object.fromEntries(
        exprs.map((e, i) => [
          e,
          Number(analysis.instances.find((x) => x.span.startLine + 1 === lines + 1 + 2 * i)?.summary.params?.constant),
        ]),
      );
      assert.deepStrictEqual(totals, style.totals);
    });

    test(`${name}: no diagnostic, as PyTorch builds and runs it`, async () => {
      const analysis = await analyzeFile(file);
      assert.deepStrictEqual(
        analysis.findings.map((f) => `${f.span.startLine + 1} ${f.code}`),
        [],
      );
      const config = file.replace('hf_modeling_', 'hf_configuration_');
      if (config !== file) assert.deepStrictEqual((await analyzeFile(config)).findings, [], config);
    });
  }
});
