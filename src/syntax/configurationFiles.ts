/**
 * Configuration files beside a model file (`config.json`, `params.json`), read as Python's `json.load` reads
 * them, for the core to build the classes they configure (core/analysis/configurationFiles.ts).
 */
import { parse } from 'lossless-json';

/** The names of the configuration files a model's folder may hold: a Hugging Face checkpoint's, Meta's Llama's. */
export const CONFIGURATION_FILES: readonly string[] = ['config.json', 'params.json'];

/**
 * Folders beside a model file whose JSON files are configurations too, one model's sizes each (open_clip's
 * `model_configs/ViT-B-32.json`); at most MAX_CONFIGURATION_FILES of each, in order of name.
 */
export const CONFIGURATION_FOLDERS: readonly string[] = ['model_configs', 'configs', 'config'];
export const MAX_CONFIGURATION_FILES = 256;

/**
 * The file's JSON with each number as Python reads it: an int (`10000`, as a bigint: no digit lost) or a
 * float (`10000.0`, `1e-05`, as a number); undefined when it is not JSON or is nested deeper than the stack.
 */
export function readConfiguration(text: string): unknown {
  try {
    return parse(text, null, (written) => (/[.eE]/.test(written) ? Number(written) : BigInt(written)));
  } catch {
    return undefined;
  }
}
