/**
 * Library layers that need PyTorch 2 against the libraries' own counts (library-layers-torch2.json, from
 * scripts/ground-truth/library_layers_torch2.py): bitsandbytes' quantised layers with what they store once
 * quantised, Megatron-core's tensor-parallel layers, apex's fused norms. Transformer Engine builds nothing
 * without CUDA: its cases are the tensors its source registers (transformer_engine/pytorch/module/, 2.x).
 */
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import { analyzeText, classTotals, expandTensors, paramsOf, ROOT } from './helpers';

interface Stored {
  weight_dtype: string;
  weight_bytes: number;
  scale_bytes?: number;
  nested_scale_bytes?: number;
}

const TRUTH = JSON.parse(
  readFileSync(path.join(ROOT, 'test/fixtures/expected/library-layers-torch2.json'), 'utf8'),
) as {
  calls: {
    call: string;
    kind?: string;
    params?: number;
    tensors?: [string, number[]][];
    stored?: Stored;
    error?: { type: string };
  }[];
  fixtures: Record<string, Record<string, number>>;
  peft: Record<string, { line: number; class: string; params: number; trainable: number }[]>;
};

const IMPORTS = [
  'import torch',
  'import bitsandbytes as bnb',
  'from megatron.core import tensor_parallel',
  'from apex.normalization import FusedLayerNorm, FusedRMSNorm, MixedFusedLayerNorm, MixedFusedRMSNorm',
  'import transformer_engine.pytorch as te',
  '',
].join('\n');
const LINE = IMPORTS.split('\n').length - 1;

async function layerOf(call: string) {
  const analysis = await analyzeText(`${IMPORTS}layer = ${call}\n`);
  return analysis.layers.find((l) => l.span.startLine === LINE && l.span.startChar === 8);
}

/** Megatron's kinds carry the module users write: its layers return the bias apart, unlike fairscale's. */
function kindShown(call: string, kind: string): string {
  return call.startsWith('tensor_parallel.') ? `tensor_parallel.${kind}` : kind;
}

suite("libraries' layers on PyTorch 2 against the libraries", () => {
  for (const r of TRUTH.calls)
    test(r.call, async () => {
      const layer = await layerOf(r.call);
      if (r.error) {
        assert.strictEqual(paramsOf(layer!), null);
        assert.ok(layer?.findings.some((f) => f.code === 'constructor-raises'));
        return;
      }
      assert.strictEqual(layer?.layer.kind, kindShown(r.call, r.kind!));
      assert.strictEqual(paramsOf(layer), r.params);
      assert.deepStrictEqual(expandTensors(layer.layer.tensors), r.tensors);
      const s = r.stored;
      const quantised = s && s.weight_dtype !== 'float32';
      assert.deepStrictEqual(
        layer.layer.stored && {
          weightBytes: Number(layer.layer.stored.weightBytes),
          scaleBytes: Number(layer.layer.stored.scaleBytes),
        },
        quantised
          ? { weightBytes: s.weight_bytes, scaleBytes: s.scale_bytes! + (s.nested_scale_bytes ?? 0) }
          : undefined,
      );
    });

  for (const [file, classes] of Object.entries(TRUTH.fixtures))
    test(`${file}: every class's total in the models the file builds`, async () => {
      assert.deepStrictEqual(await classTotals(file), classes);
    });

  for (const [file, models] of Object.entries(TRUTH.peft))
    test(`${file}: each model and PeftModel, with what trains, once get_peft_model has run`, async () => {
      const full = path.join(ROOT, 'test/fixtures/models/pytorch', file);
      const analysis = await analyzeText(readFileSync(full, 'utf8'), 'python', full);
      const rows = analysis.instances
        .map((i) => ({
          line: i.span.startLine + 1,
          class: i.className,
          params: Number(i.summary.params?.constant),
          trainable: Number(i.sizing?.trainable?.constant),
        }))
        .sort((a, b) => a.line - b.line || a.class.localeCompare(b.class));
      assert.deepStrictEqual(rows, models);
    });

  // Each raises in peft 0.21 on a model of the user's (AttributeError, ValueError, NoMatchingPeftModuleError,
  // "Target module Sequential(...) is not supported"): no count, and the model given is left as built.
  for (const options of [
    'target_modules=["q"], task_type=TaskType.CAUSAL_LM',
    'target_modules=None',
    'target_modules=["nothing"]',
    'target_modules=["seq"]',
  ])
    test(`get_peft_model with ${options}: no count`, async () => {
      const analysis = await analyzeText(
        [
          'from torch import nn',
          'from peft import LoraConfig, TaskType, get_peft_model',
          'class M(nn.Module):',
          '    def __init__(self):',
          '        super().__init__()',
          '        self.q = nn.Linear(4, 4)',
          '        self.seq = nn.Sequential(nn.Linear(4, 4))',
          'base = M()',
          `adapted = get_peft_model(base, LoraConfig(${options}))`,
          '',
        ].join('\n'),
      );
      const model = (name: string) => analysis.instances.find((i) => i.className === name)?.summary;
      assert.strictEqual(model('PeftModel')?.params, undefined);
      assert.match(model('PeftModel')?.reason ?? '', /^get_peft_model: /);
      assert.strictEqual(model('M')?.params?.constant, 40n);
    });

  test('a 4-bit layer says sum(p.numel()) counts packed bytes once quantised', async () => {
    const layer = await layerOf('bnb.nn.Linear4bit(64, 32)');
    assert.ok(layer?.layer.notes.some((n) => n.includes('counts its packed bytes')));
    assert.strictEqual(layer!.layer.stored?.format, 'fp4');
  });
});

/**
 * Transformer Engine, from its source: Linear registers its weights, then its biases, `parameters_split` naming
 * them (linear.py, 1712-1797); LayerNormLinear puts layer_norm_weight (and layer_norm_bias for LayerNorm) first;
 * LayerNormMLP's fc1 doubles for gated activations (layernorm_mlp.py, 2095-2106); a bias turned off is no parameter.
 */
const TE: [string, [string, number[]][]][] = [
  [
    'te.Linear(1024, 3072)',
    [
      ['weight', [3072, 1024]],
      ['bias', [3072]],
    ],
  ],
  ['te.Linear(1024, 3072, bias=False, return_bias=False)', [['weight', [3072, 1024]]]],
  [
    "te.Linear(512, 96, parameters_split={'query_': 64, 'key': 32})",
    [
      ['query_weight', [64, 512]],
      ['key_weight', [32, 512]],
      ['query_bias', [64]],
      ['key_bias', [32]],
    ],
  ],
  [
    "te.Linear(512, 1536, bias=False, parameters_split=('query', 'key', 'value'))",
    [
      ['query_weight', [512, 512]],
      ['key_weight', [512, 512]],
      ['value_weight', [512, 512]],
    ],
  ],
  [
    'te.LayerNormLinear(1024, 3072, eps=1e-6)',
    [
      ['layer_norm_weight', [1024]],
      ['layer_norm_bias', [1024]],
      ['weight', [3072, 1024]],
      ['bias', [3072]],
    ],
  ],
  [
    "te.LayerNormLinear(1024, 3072, bias=False, normalization='RMSNorm')",
    [
      ['layer_norm_weight', [1024]],
      ['weight', [3072, 1024]],
    ],
  ],
  [
    'te.LayerNormMLP(1024, 4096)',
    [
      ['layer_norm_weight', [1024]],
      ['layer_norm_bias', [1024]],
      ['fc1_weight', [4096, 1024]],
      ['fc1_bias', [4096]],
      ['fc2_weight', [1024, 4096]],
      ['fc2_bias', [1024]],
    ],
  ],
  [
    "te.LayerNormMLP(1024, 4096, bias=False, normalization='RMSNorm', activation='swiglu')",
    [
      ['layer_norm_weight', [1024]],
      ['fc1_weight', [8192, 1024]],
      ['fc2_weight', [1024, 4096]],
    ],
  ],
  [
    'te.LayerNorm(1024)',
    [
      ['weight', [1024]],
      ['bias', [1024]],
    ],
  ],
  ['te.RMSNorm(1024, eps=1e-6)', [['weight', [1024]]]],
];

suite("Transformer Engine's layers, from its source", () => {
  for (const [call, tensors] of TE)
    test(call, async () => {
      const layer = await layerOf(call);
      assert.deepStrictEqual(expandTensors(layer!.layer.tensors), tensors);
      assert.strictEqual(
        paramsOf(layer!),
        tensors.reduce((n, [, shape]) => n + shape.reduce((x, y) => x * y, 1), 0),
      );
    });

  for (const call of [
    "te.Linear(1024, 10, parameters_split=('a', 'b', 'c'))",
    "te.LayerNormMLP(64, 256, normalization='BatchNorm')",
  ])
    test(`${call}: TE raises, so no count`, async () => {
      const layer = await layerOf(call);
      assert.strictEqual(paramsOf(layer!), null);
      assert.deepStrictEqual(
        layer!.findings.map((f) => f.code),
        ['constructor-raises'],
      );
    });

  test("an activation TE's source does not name leaves the count unknown, not guessed", async () => {
    const layer = await layerOf("te.LayerNormMLP(64, 256, activation='mish')");
    assert.strictEqual(paramsOf(layer!), null);
    assert.deepStrictEqual(layer!.findings, []);
  });
});
