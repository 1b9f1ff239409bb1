/**
 * What autograd keeps for backward when a program runs in train mode at a batch size and a sequence length,
 * as PyTorch 1.13 does on the CPU: each operation's saved tensors, counted once per storage, parameters left
 * out. Checked against PyTorch itself by scripts/ground-truth/pytorch_activations.py.
 */
import type { LayerRef, Op, Program } from './program';
import { isLayout, layout } from './layoutOps';
import { fresh, ReplayState } from './replayState';
import { compute } from './savedOps';
import { Unfollowed } from './shapes';

/** Saved memory: floating-point numbers (their bytes depend on the dtype) and bytes of masks, indices and Python numbers. */
export interface Saved {
  readonly floats: bigint;
  readonly bytes: bigint;
}

export interface LayerSaved extends LayerRef {
  readonly saved: Saved;
}

export type Replayed = { readonly saved: Saved; readonly layers: readonly LayerSaved[] } | { readonly unknown: string };

const FIXED_BYTES = { long: 8n, bool: 1n, scalar: 8n } as const;

function run(s: ReplayState, ops: readonly Op[]): void {
  for (const op of ops) {
    s.layer = op.layer;
    if (op.k === 'input')
      s.set(
        op.out,
        fresh(
          op.shape.map((d) => s.dim(d)),
          op.dtype,
          false,
        ),
      );
    else if (op.k === 'constant')
      s.set(op.out, {
        ...fresh(
          op.shape.map((d) => s.dim(d)),
          op.dtype,
          false,
        ),
        ...(op.upTo ? { upTo: s.dim(op.upTo) } : {}),
      });
    else if (op.k === 'repeat') {
      for (let pass = 0; pass < op.times; pass++) {
        for (const c of op.carried) s.set(c.slot, s.get(pass === 0 ? c.from : c.to));
        run(s, op.body);
      }
    } else if (isLayout(op)) layout(s, op);
    else compute(s, op);
  }
}

export function replay(program: Program, batch: number, sequence: number): Replayed {
  const s = new ReplayState(batch, sequence);
  try {
    run(s, program.ops);
  } catch (e) {
    if (e instanceof Unfollowed) return { unknown: e.message };
    throw e;
  }
  const all = { floats: 0n, bytes: 0n };
  const totals = program.layers.map(() => ({ floats: 0n, bytes: 0n }));
  for (const [storage, layer] of s.saved) {
    for (const sum of layer >= 0 ? [all, totals[layer]] : [all]) {
      if (storage.dtype === 'float') sum.floats += storage.elements;
      else if (storage.dtype !== 'unknown') sum.bytes += storage.elements * FIXED_BYTES[storage.dtype];
    }
  }
  return { saved: all, layers: program.layers.map((l, i) => ({ ...l, saved: totals[i] })) };
}
