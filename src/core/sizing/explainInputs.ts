/**
 * The sizes the Explain panel computes FLOPs and memory for, and their validation. What the webview sends
 * is data from outside (a hand-typed field, a crafted message): every field is checked here, and each wrong
 * one gets a message the panel shows beside it instead of silently keeping the last numbers.
 */

import type { SizingOptions, WeightDtype } from './memory';

export const DTYPES = { float32: 4, bfloat16: 2, float16: 2, float64: 8 } as const;
export type Dtype = keyof typeof DTYPES;

export interface ExplainInputs {
  /** Batch size. */
  readonly batch: number;
  /** Query sequence length. */
  readonly queryLength: number;
  /** Key/value sequence length (the query length when the layer attends to its own input). */
  readonly keyLength: number;
  readonly dtype: Dtype;
  /** One input for queries, keys and values: autograd keeps it once, and the key length is the query length. */
  readonly selfAttention: boolean;
}

export const DEFAULT_INPUTS: ExplainInputs = {
  batch: 8,
  queryLength: 128,
  keyLength: 128,
  dtype: 'float32',
  selfAttention: true,
};

/** What float type activations take when weights are stored as `dtype`: int8 and 4-bit weights compute in bf16. */
const ACTIVATION_DTYPES: Readonly<Record<WeightDtype, Dtype>> = {
  fp32: 'float32',
  bf16: 'bfloat16',
  fp16: 'float16',
  int8: 'bfloat16',
  int4: 'bfloat16',
};

/** The panel's first sizes: the model sizing settings' batch, sequence length and type. */
export function inputsFromSizing(sizing: SizingOptions): ExplainInputs {
  return {
    batch: sizing.batch,
    queryLength: sizing.sequence,
    keyLength: sizing.sequence,
    dtype: ACTIVATION_DTYPES[sizing.dtype],
    selfAttention: true,
  };
}

/** Beyond this a size is a typo, and the products of several would lose exactness in the webview. */
export const MAX_SIZE = 1_000_000_000;

export type SizeField = 'batch' | 'queryLength' | 'keyLength';
export const SIZE_FIELDS: readonly SizeField[] = ['batch', 'queryLength', 'keyLength'];

export type InputErrors = Partial<Record<SizeField | 'dtype', string>>;

export type ReadInputs =
  | { readonly inputs: ExplainInputs; readonly errors?: undefined }
  | { readonly inputs?: undefined; readonly errors: InputErrors };

/** A size as typed (a string from an input box) or sent (a number): the size, or what is wrong with it. */
export function readSize(raw: unknown): number | string {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
  if (text === undefined) return 'Enter a whole number, 1 or more.';
  if (text === '') return 'Empty: enter a whole number, 1 or more.';
  const n = Number(text);
  if (Number.isNaN(n)) return `"${text.length > 12 ? `${text.slice(0, 12)}…` : text}" is not a number.`;
  if (n === 0) return '0 is not a size: enter 1 or more.';
  if (n < 0) return 'A size cannot be negative: enter 1 or more.';
  if (!Number.isInteger(n)) return `${text} is not a whole number.`;
  if (n > MAX_SIZE) return `Too large: at most ${MAX_SIZE.toLocaleString('en-US')}.`;
  return n;
}

/** Every field checked; with one input for Q, K and V the key length follows the query length. */
export function readInputs(raw: unknown): ReadInputs {
  const o = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const errors: InputErrors = {};
  const selfAttention = o.selfAttention === undefined ? DEFAULT_INPUTS.selfAttention : o.selfAttention === true;
  const sizes: Partial<Record<SizeField, number>> = {};
  for (const field of SIZE_FIELDS) {
    if (field === 'keyLength' && selfAttention) continue;
    const size = readSize(o[field]);
    if (typeof size === 'number') sizes[field] = size;
    else errors[field] = size;
  }
  const dtype =
    typeof o.dtype === 'string' && Object.prototype.hasOwnProperty.call(DTYPES, o.dtype)
      ? (o.dtype as Dtype)
      : undefined;
  if (!dtype) errors.dtype = `Pick one of ${Object.keys(DTYPES).join(', ')}.`;
  if (Object.keys(errors).length || !dtype || sizes.batch === undefined || sizes.queryLength === undefined)
    return { errors };
  const keyLength = selfAttention ? sizes.queryLength : sizes.keyLength!;
  return { inputs: { batch: sizes.batch, queryLength: sizes.queryLength, keyLength, dtype, selfAttention } };
}
