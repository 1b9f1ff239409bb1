/**
 * The data of the "Explain attention shapes" walkthrough: one attention layer followed through Q, K, V,
 * the scores, the heads and the output projection, with every shape, parameter tensor, FLOP count and the
 * activations autograd keeps for backward. Pure and exact: sizes not known stay symbols, and the
 * parameter tensors are the very ones the hover lists.
 */
import type { AttentionShape, LayerInstance } from '../values/layer';
import { tensorSize, totalParams } from '../values/layer';
import { dimText } from '../catalog/spec';
import { Poly } from '../values/symbolic';
import { DEFAULT_INPUTS, DTYPES, type ExplainInputs } from '../sizing/explainInputs';
import { bytesText, flopsText } from '../sizing/units';

/** A number or formula, ready to show: exact digits, or the polynomial when a size is a symbol. */
export type Quantity = string;

/** A FLOP count or a size in bytes: exact (digits or formula) and in a unit people read (`5.25 GFLOP`). */
export interface Amount {
  readonly exact: Quantity;
  readonly text: string;
}

export interface Step {
  readonly name: string;
  readonly formula: string;
  readonly shape: string;
  readonly flops: Amount;
  /** What autograd keeps from this step for the backward pass, and how much. */
  readonly saved: string;
  readonly savedElements: Quantity;
  readonly savedBytes: Amount;
  readonly parameters: boolean;
}

type RawStep = Omit<Step, 'flops' | 'savedElements' | 'savedBytes'> & {
  readonly flops: Poly;
  readonly savedElements: Poly;
};

export interface ParameterRow {
  readonly name: string;
  readonly role: string;
  readonly shape: string;
  readonly count: Quantity;
  readonly bytes: Amount;
}

export interface ExplainData {
  /** `nn.MultiheadAttention at model.py:12`: the layer and where it is. */
  readonly title: string;
  readonly name: string;
  readonly where: string;
  readonly layout: AttentionShape['layout'];
  /** Whether queries, keys and values can be one input here (not with cross attention or kdim/vdim ≠ E), and whether they are. */
  readonly selfAttention: { readonly possible: boolean; readonly on: boolean };
  readonly settings: readonly (readonly [string, string])[];
  readonly inputs: ExplainInputs;
  readonly steps: readonly Step[];
  readonly parameters: readonly ParameterRow[];
  readonly totalParameters: Quantity;
  readonly totalBytes: Amount;
  readonly withoutParameters: readonly string[];
  readonly scores: { readonly elements: Quantity; readonly bytes: Amount };
  readonly totalFlops: Amount;
  readonly savedElements: Quantity;
  readonly savedBytes: Amount;
  readonly lowRank?: {
    readonly merged: Quantity;
    readonly separate: Quantity;
    readonly rank: Quantity;
    readonly mergedFlops: Quantity;
    readonly separateFlops: Quantity;
    readonly text: string;
  };
  readonly notes: readonly string[];
}

const q = (p: Poly): Quantity => dimText(p);
const flops = (p: Poly): Amount => ({
  exact: q(p),
  text: p.constant !== undefined ? flopsText(p.constant) : `${q(p)} FLOPs`,
});
const inBytes = (p: Poly): Amount => ({
  exact: q(p),
  text: p.constant !== undefined ? bytesText(p.constant) : `${q(p)} bytes`,
});
const n = (x: number | bigint) => Poly.int(x);
const TWO = n(2);

function dims(...ds: (Poly | string)[]): string {
  return `(${ds.map((d) => (typeof d === 'string' ? d : d.constant !== undefined ? String(d.constant) : d.toString())).join(', ')})`;
}

/** What role each framework tensor plays in the attention formula. */
function roleOf(name: string): string {
  if (/in_proj_weight$/.test(name)) return 'W_Q, W_K, W_V stacked';
  if (/in_proj_bias$/.test(name)) return 'b_Q, b_K, b_V stacked';
  if (/q_proj_weight$|query\/kernel$|Wq\.W$/.test(name)) return 'W_Q';
  if (/k_proj_weight$|key\/kernel$|Wk\.W$/.test(name)) return 'W_K';
  if (/v_proj_weight$|value\/kernel$|Wv\.W$/.test(name)) return 'W_V';
  if (/query\/bias$|Wq\.b$/.test(name)) return 'b_Q';
  if (/key\/bias$|Wk\.b$/.test(name)) return 'b_K';
  if (/value\/bias$|Wv\.b$/.test(name)) return 'b_V';
  if (/out_proj\.weight$|attentionOutput\/kernel$|residual_proj\.W$/.test(name)) return 'W_O';
  if (/out_proj\.bias$|attentionOutput\/bias$|residual_proj\.b$/.test(name)) return 'b_O';
  if (/bias_k$/.test(name)) return 'learned key row';
  if (/bias_v$/.test(name)) return 'learned value row';
  return '';
}

/** Only the attention's own tensors: inside a TransformerEncoderLayer, those of `self_attn`. */
function attentionTensors(layer: LayerInstance) {
  if (layer.attention?.layout === 'module') return layer.tensors.filter((t) => t.role);
  const own = layer.tensors.filter((t) => roleOf(t.name) !== '');
  const prefix = own.find((t) => t.name.includes('.') && /self_attn\./.test(t.name)) ? 'self_attn.' : '';
  return prefix
    ? own.filter((t) => t.name.includes(prefix) && !t.name.includes('{i}') && !t.name.includes('multihead_attn'))
    : own;
}

export function explain(
  layer: LayerInstance,
  where: string,
  inputs: ExplainInputs = DEFAULT_INPUTS,
): ExplainData | undefined {
  const a = layer.attention;
  // A layer the framework refuses (`MultiheadAttention(-1, -1)`) has no shapes: its sizes are no framework's.
  if (!a || layer.rejected) return undefined;
  const h = a.heads;
  const E = a.embed;
  // One tensor read three times is saved once by autograd, and its length is the keys' length too.
  const possible = !a.cross && a.kdim.equals(E) && a.vdim.equals(E);
  const self = possible && inputs.selfAttention;
  const dk = a.headDim ?? Poly.symbol('d_k');
  // Over sizes that are names, a figure is a formula: the batch and lengths stay names in it too, not a
  // number that reads as part of the layer (`2,048·config.n_embd·…` for 8 × 128).
  const named = [E, h, dk, a.kdim, a.vdim, ...(a.output ?? [])].some((d) => d.constant === undefined);
  const N = named ? Poly.symbol('N') : n(inputs.batch);
  const L = named ? Poly.symbol('L') : n(inputs.queryLength);
  const S = self ? L : named ? Poly.symbol('S') : n(inputs.keyLength);
  const bytes = n(DTYPES[inputs.dtype]);
  const X = (role: string) => (self ? 'X' : `X_${role}`);
  const keras = a.layout === 'keras';
  const written = a.layout === 'module';
  const dv = a.valueHeadDim ?? dk;
  const kvh = a.kvHeads ?? h;
  // PyTorch projects keys and values to E and splits it; Keras, js-pytorch and attention written by hand
  // give each head its own slice (and grouped-query attention fewer key/value heads).
  const qProj = keras || written ? h.mul(dk) : E;
  const kProj = keras || written ? kvh.mul(dk) : E;
  const vProj = keras || written ? kvh.mul(dv) : E;
  const out = a.output ?? [E];
  const outSize = out.reduce((x, d) => x.mul(d), Poly.ONE);
  const seqFirst = a.layout === 'pytorch' && !a.batchFirst;
  const bsd = (len: string, d: Poly | string) => (seqFirst ? dims(len, 'N', d) : dims('N', len, d));
  const extraKv = a.addBiasKv ? ' + 1' : '';
  const Skv = a.addBiasKv ? S.add(Poly.ONE) : S;

  // Attention written by hand has a bias where its projection has one (Whisper's keys have none).
  const roles = written
    ? attentionTensors(layer)
        .map((t) => t.role ?? '')
        .join(', ')
    : '';
  const biased = (r: 'Q' | 'K' | 'V' | 'O') => (written ? roles.includes(`b_${r}`) : a.bias);
  const bias = (r: 'Q' | 'K' | 'V' | 'O', rows: Poly, cols: Poly) => (biased(r) ? rows.mul(cols) : Poly.ZERO);
  const raw: RawStep[] = [
    {
      name: `Q = ${X('q')} · W_Q` + (biased('Q') ? ' + b_Q' : ''),
      formula: keras
        ? 'einsum over the query features into h heads of keyDim'
        : 'one matrix product for all heads at once',
      shape: keras ? dims('N', 'L', h, dk) : bsd('L', qProj),
      flops: TWO.mul(N)
        .mul(L)
        .mul(E)
        .mul(qProj)
        .add(bias('Q', N.mul(L), qProj)),
      saved: self ? 'X, once for Q, K and V (for the gradients of W_Q, W_K and W_V)' : 'X_q (for the gradient of W_Q)',
      savedElements: N.mul(L).mul(E),
      parameters: true,
    },
    {
      name: `K = ${X('k')} · W_K` + (biased('K') ? ' + b_K' : ''),
      formula: a.kdim.equals(E) || keras ? 'keys projected to the heads' : 'kdim ≠ E: keys come in with kdim features',
      shape: keras ? dims('N', 'S', h, dk) : bsd(`S${extraKv}`, kProj),
      flops: TWO.mul(N)
        .mul(S)
        .mul(a.kdim)
        .mul(kProj)
        .add(bias('K', N.mul(S), kProj)),
      saved: self ? 'nothing more: X is already kept' : 'X_k',
      savedElements: self ? Poly.ZERO : N.mul(S).mul(a.kdim),
      parameters: true,
    },
    {
      name: `V = ${X('v')} · W_V` + (biased('V') ? ' + b_V' : ''),
      formula:
        a.vdim.equals(E) || keras ? 'values projected to the heads' : 'vdim ≠ E: values come in with vdim features',
      shape: keras ? dims('N', 'S', h, dv) : bsd(`S${extraKv}`, vProj),
      flops: TWO.mul(N)
        .mul(S)
        .mul(a.vdim)
        .mul(vProj)
        .add(bias('V', N.mul(S), vProj)),
      saved: self ? 'nothing more: X is already kept' : 'X_v',
      savedElements: self ? Poly.ZERO : N.mul(S).mul(a.vdim),
      parameters: true,
    },
    {
      name: 'split into heads',
      formula: keras
        ? 'already per head'
        : written
          ? `a reshape: h · d_k = ${q(h)} · ${q(dk)}${a.kvHeads ? `; keys and values in ${q(kvh)} heads, each shared by ${q(h)} / ${q(kvh)} query heads` : ''}`
          : `a reshape: E = h · d_k = ${q(h)} · ${q(dk)}`,
      shape: `Q ${dims('N', h, 'L', dk)}, K ${dims('N', kvh, `S${extraKv}`, dk)}, V ${dims('N', kvh, `S${extraKv}`, dv)}`,
      flops: Poly.ZERO,
      saved: 'nothing (a view)',
      savedElements: Poly.ZERO,
      parameters: false,
    },
    {
      name: 'scores = Q · Kᵀ / √d_k',
      formula: `every query against every key, in each head; scaled by 1/√${q(dk)}`,
      shape: dims('N', h, 'L', `S${extraKv}`),
      flops: TWO.mul(N).mul(h).mul(L).mul(Skv).mul(dk).add(N.mul(h).mul(L).mul(Skv)),
      saved: 'Q and K (for the gradients of each other)',
      savedElements: N.mul(h).mul(L).mul(dk).add(N.mul(h).mul(Skv).mul(dk)),
      parameters: false,
    },
    {
      name: 'softmax over the keys',
      formula: 'about 5 operations a score (max, subtract, exp, sum, divide)',
      shape: dims('N', h, 'L', `S${extraKv}`),
      flops: n(5).mul(N).mul(h).mul(L).mul(Skv),
      saved: a.dropout ? 'the attention weights, and the dropout mask' : 'the attention weights (its output)',
      savedElements: N.mul(h)
        .mul(L)
        .mul(Skv)
        .mul(a.dropout ? TWO : Poly.ONE),
      parameters: false,
    },
    {
      name: 'weights · V',
      formula: 'each query takes a weighted average of the values',
      shape: dims('N', h, 'L', dv),
      flops: TWO.mul(N).mul(h).mul(L).mul(Skv).mul(dv),
      saved: 'V (the weights are already kept)',
      savedElements: N.mul(h).mul(Skv).mul(dv),
      parameters: false,
    },
    {
      name: 'concatenate the heads',
      formula: `h · d_v = ${q(h.mul(dv))} features`,
      shape: keras ? dims('N', 'L', h, dv) : bsd('L', h.mul(dv)),
      flops: Poly.ZERO,
      saved: 'nothing (a view)',
      savedElements: Poly.ZERO,
      parameters: false,
    },
    ...(written && !a.output
      ? []
      : [
          {
            name: 'output = heads · W_O' + (biased('O') ? ' + b_O' : ''),
            formula: `mixes the heads back into ${q(outSize)} features`,
            shape: keras ? `(N, L, ${out.map((d) => q(d)).join(', ')})` : bsd('L', outSize),
            flops: TWO.mul(N)
              .mul(L)
              .mul(h.mul(dv))
              .mul(outSize)
              .add(bias('O', N.mul(L), outSize)),
            saved: 'the concatenated heads (for the gradient of W_O)',
            savedElements: N.mul(L).mul(h.mul(dv)),
            parameters: true,
          },
        ]),
  ];

  const tensors = attentionTensors(layer);
  const parameters: ParameterRow[] = tensors.map((t) => ({
    name: t.name,
    role: t.role ?? roleOf(t.name),
    shape: `[${t.shape.map((d) => (d.constant !== undefined ? String(d.constant) : d.toString())).join(', ')}]`,
    count: q(tensorSize(t)),
    bytes: inBytes(tensorSize(t).mul(bytes)),
  }));
  const total = totalParams(tensors);
  const scores = N.mul(h).mul(L).mul(Skv);
  // Generating, each of the S positions of N sequences keeps its keys and values for every later token.
  const kvCache = N.mul(S).mul(kvh).mul(dk.add(dv));
  const flopsTotal = raw.reduce((acc, s) => acc.add(s.flops), Poly.ZERO);
  const saved = raw.reduce((acc, s) => acc.add(s.savedElements), Poly.ZERO);
  const steps: Step[] = raw.map((s) => ({
    ...s,
    flops: flops(s.flops),
    savedElements: q(s.savedElements),
    savedBytes: inBytes(s.savedElements.mul(bytes)),
  }));

  // Per head, W_Q·W_Kᵀ is E × kdim of rank at most d_k: two thin matrices hold it in d_k·(E + kdim) numbers.
  const merged = E.mul(a.kdim);
  const separate = dk.mul(E.add(a.kdim));
  const mergedFlops = TWO.mul(L).mul(E).mul(a.kdim).add(TWO.mul(L).mul(S).mul(a.kdim));
  const separateFlops = TWO.mul(L).mul(E).mul(dk).add(TWO.mul(S).mul(a.kdim).mul(dk)).add(TWO.mul(L).mul(S).mul(dk));
  const name = `${layer.framework === 'pytorch' && !written ? 'nn.' : ''}${layer.kind}`;
  return {
    title: `${name} at ${where}`,
    name,
    where,
    layout: a.layout,
    selfAttention: { possible, on: self },
    settings: a.settings,
    inputs: { ...inputs, keyLength: self ? inputs.queryLength : inputs.keyLength, selfAttention: self },
    steps,
    parameters,
    totalParameters: q(total),
    totalBytes: inBytes(total.mul(bytes)),
    withoutParameters: [
      'the scaling by 1/√d_k',
      'the softmax',
      'the weighted sum of the values (weights · V)',
      'splitting and concatenating the heads',
    ],
    scores: { elements: q(scores), bytes: inBytes(scores.mul(bytes)) },
    totalFlops: flops(flopsTotal),
    savedElements: q(saved),
    savedBytes: inBytes(saved.mul(bytes)),
    lowRank: {
      merged: q(merged),
      separate: q(separate),
      rank: q(dk),
      mergedFlops: q(mergedFlops),
      separateFlops: q(separateFlops),
      text: `Only W_Q·W_Kᵀ appears in the scores, yet it is kept as two matrices: per head it is a ${q(E)} × ${q(a.kdim)} matrix of rank at most d_k = ${q(dk)}, stored in ${q(separate)} numbers instead of ${q(merged)}, and applying the two thin matrices to a sequence costs ${q(separateFlops)} FLOPs instead of ${q(mergedFlops)} for the merged one (per head and batch element).`,
    },
    notes: [
      a.layout === 'keras'
        ? 'In Keras-style attention keyDim is the size of each head, so the parameter count grows with the number of heads.'
        : written
          ? `Written by hand: W_Q projects to h · d_k = ${q(qProj)} features and W_K, W_V to ${q(kProj)} and ${q(vProj)}; the heads are a reshape of them.`
          : 'In PyTorch the heads split E into h slices of d_k = E / h, so the parameter count does not depend on the number of heads.',
      `KV cache when generating: N · S · ${q(kvh)} key/value heads · (d_k + d_v) = ${q(kvCache)} numbers (${inBytes(kvCache.mul(bytes)).text}) for this layer${a.kvHeads ? `, ${q(kvh)} / ${q(h)} of what one key/value head per query head would keep` : ''}.`,
      ...(seqFirst ? ['batch_first=False: PyTorch takes and returns (sequence, batch, features).'] : []),
      ...(a.addBiasKv ? ['add_bias_kv=True appends one learned key and value row: S + 1 keys.'] : []),
      'FLOPs count a multiply and an add as two; biases add one per output element.',
      'Kept for backward counts the tensors autograd saves in training (as PyTorch 1.13 does on the CPU: dropout keeps its full-size scaled mask there, a 1-byte mask on a GPU), each once; it leaves out the parameters and their gradients, the optimizer state, the few numbers autograd keeps as Python scalars (8 bytes each), temporary buffers and the allocator’s overhead.',
    ],
  };
}
