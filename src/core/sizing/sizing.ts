/**
 * The numbers a model is sized with, from its module tree: embedding and non-embedding parameters (the N of
 * scaling laws: every parameter outside the embedding tables, a tied output layer counted once), trainable
 * and frozen parameters, the keys and values its attention keeps per token when generating (2 · kv heads ·
 * head size, per layer), and what its matrix products cost per token.
 */
import type { Activations } from '../activations/program';
import { shapedAs, type LayerInstance } from '../values/layer';
import type { GradOf, ModuleTree } from '../values/modules';
import { totalOf } from '../values/modules';
import { Poly } from '../values/symbolic';

export interface Sizing {
  readonly params: Poly;
  /** Parameters of nn.Embedding / nn.EmbeddingBag tables. */
  readonly embedding: Poly;
  readonly nonEmbedding: Poly;
  /** Parameters that train and parameters whose `requires_grad` the code turned off; undefined when a flag is not known. */
  readonly trainable?: Poly;
  readonly frozen?: Poly;
  /** Numbers the KV cache holds per generated token, all layers; undefined when an attention's size is not known. */
  readonly kvPerToken?: Poly;
  /** Attention layers whose keys and values are counted in `kvPerToken`. */
  readonly attentionLayers: Poly;
  /** Matrix products per token: Σ in · out of every linear layer (one multiply-add each); undefined when a part is not known. */
  readonly matmulPerToken?: Poly;
  /**
   * Per token and per position of context, the widths its self-attention multiplies over: Σ heads · (d_k + d_v)
   * (the scores Q·Kᵀ and the weighted sum of V); undefined when an attention's sizes are not known.
   */
  readonly contextWidth?: Poly;
  /** What autograd keeps for backward, to be sized for a batch and sequence length; or why that is not known. */
  readonly activations: Activations;
}

const EMBEDDINGS = new Set(['Embedding', 'EmbeddingBag']);
/** Catalog layers whose parameters take part in no matrix product. */
const NO_MATMUL = new Set([
  'Embedding',
  'EmbeddingBag',
  'LayerNorm',
  'RMSNorm',
  'GroupNorm',
  'BatchNorm1d',
  'BatchNorm2d',
  'BatchNorm3d',
  'InstanceNorm1d',
  'InstanceNorm2d',
  'InstanceNorm3d',
  'PReLU',
]);

/** What the analysis knows of a node of the tree. */
export interface NodeFacts {
  /**
   * The attention the node computes (written by hand or nn.MultiheadAttention), 'unknown' for an attention
   * whose sizes were not followed there, or undefined for no attention.
   */
  attention(node: ModuleTree): LayerInstance | 'unknown' | undefined;
  /** The catalog layer the node is (nn.Linear, a subclass of it), if it is one. */
  layer(node: ModuleTree): LayerInstance | undefined;
  grad: GradOf;
}

/**
 * Keys and values count only for self-attention: with cross attention (an encoder-decoder) what is cached per
 * token differs by layer, and no total is given.
 */
export function sizing(root: ModuleTree, facts: NodeFacts, activations: Activations): Sizing {
  const params = totalOf(root);
  const embeddings = new Map<number, Poly>();
  let kv: Poly | undefined = Poly.ZERO;
  let layers = Poly.ZERO;
  const visited = new Set<ModuleTree>();
  const visit = (node: ModuleTree, times: Poly, name = '') => {
    if (visited.has(node)) return;
    visited.add(node);
    const here = node.repeat ? times.mul(node.repeat) : times;
    if (EMBEDDINGS.has(shapedAs(node.kind)))
      for (const p of node.params.values()) if (!embeddings.has(p.id)) embeddings.set(p.id, here.mul(p.numel));
    const found = facts.attention(node);
    const inner = found ? undefined : innerAttention(node, name);
    if (inner) {
      layers = layers.add(here);
      kv = kv && inner !== 'unknown' ? kv.add(inner.mul(Poly.int(2)).mul(here)) : undefined;
      return;
    }
    if (found === 'unknown') {
      layers = layers.add(here);
      kv = undefined;
      return;
    }
    const a = found?.attention;
    if (a) {
      const count = here.mul(a.count ?? Poly.ONE);
      layers = layers.add(count);
      // PyTorch's nn.MultiheadAttention projects keys and values to E (kdim/vdim in); written by hand, to
      // kv heads · head size.
      const perLayer =
        a.cross || a.withCross
          ? undefined
          : a.layout === 'module'
            ? a.headDim
              ? (a.kvHeads ?? a.heads).mul(a.headDim.add(a.valueHeadDim ?? a.headDim))
              : undefined
            : a.embed.mul(Poly.int(2));
      kv = kv && perLayer ? kv.add(perLayer.mul(count)) : undefined;
      return;
    }
    for (const [key, child] of node.children) visit(child, here, key);
  };
  visit(root, Poly.ONE);
  const embedding = [...embeddings.values()].reduce((s, p) => s.add(p), Poly.ZERO);
  return {
    params,
    embedding,
    nonEmbedding: params.sub(embedding),
    ...trainableOf(root, facts.grad),
    kvPerToken: layers.equals(Poly.ZERO) ? undefined : kv,
    attentionLayers: layers,
    ...matmulsOf(root, facts),
    activations,
  };
}

/**
 * The width E of an nn.MultiheadAttention inside a torch layer's tree (a TransformerEncoderLayer's `self_attn`,
 * kept where a subclass of nn.Transformer replaced its decoder), read from its tensors: its keys and values are
 * E wide each. Under another name than `self_attn` (a decoder's `multihead_attn`) it attends over another input.
 */
function innerAttention(node: ModuleTree, name: string): Poly | 'unknown' | undefined {
  const weight = node.params.get('in_proj_weight') ?? node.params.get('q_proj_weight');
  const embed = node.children.get('out_proj')?.params.get('weight')?.shape[0];
  if (!weight || !embed) return undefined;
  return name === 'self_attn' ? embed : 'unknown';
}

/** Every distinct parameter once, as trainable or frozen; neither when one's flag is not known. */
function trainableOf(root: ModuleTree, grad: GradOf): { trainable?: Poly; frozen?: Poly } {
  let trainable = Poly.ZERO;
  let frozen = Poly.ZERO;
  let known = true;
  const seen = new Set<number>();
  const visited = new Set<ModuleTree>();
  const visit = (n: ModuleTree, times: Poly) => {
    if (visited.has(n)) return;
    visited.add(n);
    const here = n.repeat ? times.mul(n.repeat) : times;
    for (const p of n.params.values()) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      const state = grad(p);
      if (state === 'unknown') known = false;
      else if (state === 'frozen') frozen = frozen.add(here.mul(p.numel));
      else trainable = trainable.add(here.mul(p.numel));
    }
    for (const c of n.children.values()) visit(c, here);
  };
  visit(root, Poly.ONE);
  return known ? { trainable, frozen } : {};
}

/**
 * The matrix products of one token: each linear layer's in · out, and for each self-attention the widths of
 * its scores and weighted sum. A layer whose products are not known (a convolution, a recurrent layer, a
 * matrix parameter used by hand) leaves the figure unknown.
 */
function matmulsOf(root: ModuleTree, facts: NodeFacts): { matmulPerToken?: Poly; contextWidth?: Poly } {
  let matmul: Poly | undefined = Poly.ZERO;
  let context: Poly | undefined = Poly.ZERO;
  const visited = new Set<ModuleTree>();
  const visit = (node: ModuleTree, times: Poly, name = '') => {
    if (visited.has(node) || (!matmul && !context)) return;
    visited.add(node);
    const here = node.repeat ? times.mul(node.repeat) : times;
    const attention = facts.attention(node);
    const a = attention === 'unknown' ? undefined : attention?.attention;
    const inner = attention ? undefined : innerAttention(node, name);
    if (attention === 'unknown' || a?.cross || a?.withCross || inner === 'unknown') context = undefined;
    else if (inner) context = context?.add(here.mul(inner.mul(Poly.int(2))));
    else if (a) {
      // Written by hand, each of h heads multiplies over d_k and d_v; nn.MultiheadAttention over E twice.
      const width =
        a.layout === 'module'
          ? a.headDim && a.heads.mul(a.headDim.add(a.valueHeadDim ?? a.headDim))
          : a.layout === 'pytorch'
            ? a.embed.mul(Poly.int(2))
            : undefined;
      context = context && width ? context.add(here.mul(a.count ?? Poly.ONE).mul(width)) : undefined;
    }
    const layer = facts.layer(node);
    if (layer) {
      const products = layerProducts(layer);
      matmul = matmul && products ? matmul.add(here.mul(products)) : undefined;
      return;
    }
    // A matrix held as a parameter of the module's own may be multiplied in its forward(): not followed.
    if ([...node.params.values()].some((p) => p.shape.length >= 2)) matmul = undefined;
    for (const [key, child] of node.children) visit(child, here, key);
  };
  visit(root, Poly.ONE);
  return { matmulPerToken: matmul, contextWidth: context };
}

/** in · out of a linear layer (nn.MultiheadAttention: its four projections); 0 for layers without products. */
function layerProducts(layer: LayerInstance): Poly | undefined {
  if (layer.framework !== 'pytorch') return undefined;
  if (NO_MATMUL.has(shapedAs(layer.kind))) return Poly.ZERO;
  const weight = layer.tensors.find((t) => t.name === 'weight');
  if ((shapedAs(layer.kind) === 'Linear' || layer.kind === 'Conv1D') && weight?.shape.length === 2)
    return weight.shape[0].mul(weight.shape[1]);
  const a = layer.attention;
  if (layer.kind === 'MultiheadAttention' && a) return a.embed.mul(a.embed.mul(Poly.int(2)).add(a.kdim).add(a.vdim));
  return layer.tensors.length ? undefined : Poly.ZERO;
}
