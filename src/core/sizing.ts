/**
 * The numbers a model is sized with, from its module tree: embedding and non-embedding parameters (the N of
 * scaling laws: every parameter outside the embedding tables, a tied output layer counted once), and the
 * keys and values its attention keeps per token when generating (2 · kv heads · head size, per layer).
 */
import type { LayerInstance } from './layer';
import type { ModuleTree } from './modules';
import { totalOf } from './modules';
import { Poly } from './symbolic';

export interface Sizing {
  readonly params: Poly;
  /** Parameters of nn.Embedding / nn.EmbeddingBag tables. */
  readonly embedding: Poly;
  readonly nonEmbedding: Poly;
  /** Numbers the KV cache holds per generated token, all layers; undefined when an attention's size is not known. */
  readonly kvPerToken?: Poly;
  /** Attention layers whose keys and values are counted in `kvPerToken`. */
  readonly attentionLayers: Poly;
}

const EMBEDDINGS = new Set(['Embedding', 'EmbeddingBag']);

/**
 * `attentionOf` gives the attention a node of the tree computes (written by hand or nn.MultiheadAttention),
 * 'unknown' for an attention whose sizes were not followed there, or undefined for no attention. Keys and
 * values count only for self-attention: with cross attention (an encoder-decoder) what is cached per token
 * differs by layer, and no total is given.
 */
export function sizing(root: ModuleTree, attentionOf: (node: ModuleTree) => LayerInstance | 'unknown' | undefined): Sizing | undefined {
  const params = totalOf(root);
  const embeddings = new Map<number, Poly>();
  let kv: Poly | undefined = Poly.ZERO;
  let layers = Poly.ZERO;
  const visited = new Set<ModuleTree>();
  const visit = (node: ModuleTree, times: Poly) => {
    if (visited.has(node)) return;
    visited.add(node);
    const here = node.repeat ? times.mul(node.repeat) : times;
    if (EMBEDDINGS.has(node.kind)) for (const p of node.params.values()) if (!embeddings.has(p.id)) embeddings.set(p.id, here.mul(p.shape.reduce((a, d) => a.mul(d), Poly.ONE)));
    const found = attentionOf(node);
    if (found === 'unknown') {
      layers = layers.add(here);
      kv = undefined;
      return;
    }
    const a = found?.attention;
    if (a) {
      layers = layers.add(here);
      // PyTorch's nn.MultiheadAttention projects keys and values to E (kdim/vdim in); written by hand, to
      // kv heads · head size.
      const perLayer = a.cross ? undefined : a.layout === 'module' ? (a.headDim ? (a.kvHeads ?? a.heads).mul(a.headDim.add(a.valueHeadDim ?? a.headDim)) : undefined) : a.embed.mul(Poly.int(2));
      kv = kv && perLayer ? kv.add(perLayer.mul(here)) : undefined;
      return;
    }
    for (const child of node.children.values()) visit(child, here);
  };
  visit(root, Poly.ONE);
  const embedding = [...embeddings.values()].reduce((s, p) => s.add(p), Poly.ZERO);
  return { params, embedding, nonEmbedding: params.sub(embedding), kvPerToken: layers.equals(Poly.ZERO) ? undefined : kv, attentionLayers: layers };
}

/** Bytes a weight takes in each storage type. */
export const WEIGHT_BYTES = { fp32: 4, bf16: 2, fp16: 2, int8: 1, int4: 0.5 } as const;

/**
 * Bytes a trainable parameter takes while training, before activations: AdamW in mixed precision (bf16
 * weights and gradients, an fp32 master copy and two fp32 moments) and AdamW in fp32 both take 16; SGD with
 * momentum in fp32, 12.
 */
export const TRAINING_BYTES = { adamwMixed: 16, adamwFp32: 16, sgdMomentum: 12 } as const;

/** `n` parameters (or numbers) of `bytes` each, exactly: half a byte rounds up, as 4-bit packing stores pairs. */
export function bytesOf(n: Poly, bytes: number): Poly | undefined {
  const c = n.constant;
  if (c === undefined) return undefined;
  return Poly.int(bytes >= 1 ? c * BigInt(bytes) : (c + 1n) / 2n);
}
