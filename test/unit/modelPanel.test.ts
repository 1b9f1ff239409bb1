/**
 * The data of the "Explain model sizing" panel for GPT-2 small (test/fixtures/models/pytorch/gpt.py): the
 * figures sizing.test.ts and activations.test.ts check against the reference numbers and PyTorch, as the
 * panel shows them; its inputs, checked field by field; its Markdown, escaped.
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { DEFAULT_SIZING } from '../../src/core/sizing/memory';
import { readModelInputs } from '../../src/core/sizing/modelInputs';
import { modelMarkdown } from '../../src/core/present/modelMarkdown';
import { modelPanel, type Figure } from '../../src/core/present/modelPanel';
import { analyzeText, ROOT } from './helpers';

const gpt = async () => {
  const analysis = await analyzeText(readFileSync(path.join(ROOT, 'test/fixtures/models/pytorch/gpt.py'), 'utf8'));
  return analysis.instances.find((i) => i.className === 'GPT')!.sizing!;
};
const exact = (f: Figure) => ('unknown' in f ? `unknown: ${f.unknown}` : f.amount.exact);

suite('model sizing panel', () => {
  test('GPT-2 small: parameters, weights per dtype, training per optimizer, KV cache and FLOPs', async () => {
    const d = modelPanel('GPT', 'gpt.py:202', await gpt(), {
      dtype: 'fp16',
      optimizer: 'adamwMixed',
      batch: 8,
      sequence: 1024,
    });
    assert.deepStrictEqual(
      d.parameters.map((p) => [p.label, p.count]),
      [
        ['total', '124,439,808'],
        ['trainable', '124,439,808'],
        ['frozen', '0'],
        ['embedding', '39,383,808'],
        ['non-embedding', '85,056,000'],
      ],
    );
    assert.deepStrictEqual(
      d.weights.map((w) => [w.dtype, exact(w.bytes)]),
      [
        ['fp32', '497,759,232'],
        ['bf16', '248,879,616'],
        ['fp16', '248,879,616'],
        ['int8', '124,439,808'],
        ['int4', '62,219,904'],
      ],
    );
    // 16 bytes a trainable parameter with AdamW, 12 with SGD and momentum; nothing is frozen.
    assert.deepStrictEqual(
      d.training.map((t) => [t.chosen, exact(t.bytes)]),
      [
        [true, '1,991,036,928'],
        [false, '1,991,036,928'],
        [false, '1,493,277,696'],
      ],
    );
    // 2 · 12 layers · 12 heads · 64 · 2 bytes = 36,864 a token; × 1,024 tokens.
    assert.strictEqual(exact(d.kvCache.perToken), '36,864');
    assert.deepStrictEqual('amount' in d.kvCache.context && d.kvCache.context.amount, {
      exact: '37,748,736',
      text: '36.0 MiB',
    });
    assert.strictEqual(exact(d.flops.forwardPerToken), '284,812,800');
    assert.strictEqual(exact(d.flops.trainingPerToken), '854,438,400');
    assert.strictEqual(exact(d.flops.trainingStep), (854_438_400n * 8n * 1024n).toLocaleString('en-US'));
    // fp16 does not train on the CPU where the activations are checked: the reason, not a number.
    assert.match(exact(d.activations.total), /^unknown: PyTorch 1\.13 does not train in fp16/);
    assert.deepStrictEqual(d.activations.layers, []);
  });

  test('GPT-2 small activations in fp32 for 1 × 1,024 tokens, largest layer first, each with its line', async () => {
    const d = modelPanel('GPT', 'gpt.py:202', await gpt(), {
      ...DEFAULT_SIZING,
      dtype: 'fp32',
      batch: 1,
      sequence: 1024,
    });
    assert.deepStrictEqual('amount' in d.activations.total && d.activations.total.amount, {
      exact: '1,223,912,552',
      text: '1.14 GiB',
    });
    const rows = d.activations.layers.filter((l) => l.bytes.exact !== '0');
    assert.deepStrictEqual(
      rows.map((l) => [l.path, l.kind, l.calls, l.bytes.exact]),
      [
        ['transformer.h', 'Block', 12, (12 * 101_728_264).toLocaleString('en-US')],
        ['transformer.ln_f', 'LayerNorm', 1, '3,153,920'],
        ['transformer.wte', 'Embedding', 1, '8,192'],
        ['transformer.wpe', 'Embedding', 1, '8,192'],
        ['lm_head', 'Linear', 1, '3,072'],
      ],
    );
    assert.strictEqual(rows[0].share, '99.7 %');
    // The block's class name (line 92) and the output layer's call (line 122), 0-based.
    assert.deepStrictEqual(
      rows.map((l) => l.at?.startLine),
      [91, 119, 115, 116, 121],
    );
  });

  test('inputs are checked field by field, with the attention panel’s messages for sizes', () => {
    assert.deepStrictEqual(
      readModelInputs({ batch: '4', sequence: ' 2048 ', dtype: 'bf16', optimizer: 'sgdMomentum' }),
      { inputs: { batch: 4, sequence: 2048, dtype: 'bf16', optimizer: 'sgdMomentum' } },
    );
    assert.deepStrictEqual(readModelInputs({ batch: '0', sequence: '1.5', dtype: 'fp64', optimizer: 'adam' }), {
      errors: {
        batch: '0 is not a size: enter 1 or more.',
        sequence: '1.5 is not a whole number.',
        dtype: 'Pick one of fp32, bf16, fp16, int8, int4.',
        optimizer: 'Pick one of adamwMixed, adamwFp32, sgdMomentum.',
      },
    });
    assert.deepStrictEqual(readModelInputs(undefined).errors?.batch, 'Enter a whole number, 1 or more.');
  });

  test('Markdown: the figures with their exact digits; names from the file in code spans', async () => {
    const text = modelMarkdown(modelPanel('GPT|<b>', 'gpt.py:202', await gpt(), { ...DEFAULT_SIZING, dtype: 'fp32' }));
    assert.ok(text.startsWith('# `GPT|<b>` at `gpt.py:202`'), text.slice(0, 80));
    assert.ok(text.includes('| total | 124,439,808 |'), text);
    assert.ok(text.includes('| 12 × `transformer.h` (Block) | 1.14 GiB (1,220,739,168) | 99.7 % |'), text);
    assert.ok(text.includes('- FLOPs: 285 MFLOP (284,812,800) a token forward'), text);
  });
});
