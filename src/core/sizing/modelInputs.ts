/**
 * What the "Explain model sizing" panel sizes a model for: batch size, sequence length, storage type and
 * optimizer, as the webview sends them (typed text, or a crafted message). Each field is checked the way the
 * attention panel checks its sizes, and each wrong one gets its own message.
 */
import { readSize } from './explainInputs';
import { OPTIMIZERS, WEIGHT_DTYPES, type Optimizer, type SizingOptions, type WeightDtype } from './memory';

export type ModelField = 'batch' | 'sequence' | 'dtype' | 'optimizer';
export type ModelInputErrors = Partial<Record<ModelField, string>>;
export type ReadModelInputs =
  | { readonly inputs: SizingOptions; readonly errors?: undefined }
  | { readonly inputs?: undefined; readonly errors: ModelInputErrors };

function oneOf<T extends string>(raw: unknown, allowed: readonly T[]): T | undefined {
  return typeof raw === 'string' && (allowed as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

export function readModelInputs(raw: unknown): ReadModelInputs {
  const o = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const errors: ModelInputErrors = {};
  const batch = readSize(o.batch);
  const sequence = readSize(o.sequence);
  const dtype = oneOf<WeightDtype>(o.dtype, WEIGHT_DTYPES);
  const optimizer = oneOf<Optimizer>(o.optimizer, OPTIMIZERS);
  if (typeof batch === 'string') errors.batch = batch;
  if (typeof sequence === 'string') errors.sequence = sequence;
  if (!dtype) errors.dtype = `Pick one of ${WEIGHT_DTYPES.join(', ')}.`;
  if (!optimizer) errors.optimizer = `Pick one of ${OPTIMIZERS.join(', ')}.`;
  if (typeof batch === 'string' || typeof sequence === 'string' || !dtype || !optimizer) return { errors };
  return { inputs: { batch, sequence, dtype, optimizer } };
}
