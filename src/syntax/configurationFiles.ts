/**
 * Configuration files beside a model file (`config.json`, `params.json`), read as Python's `json.load` reads
 * them, for the core to build the classes they configure (core/analysis/configurationFiles.ts).
 */
import { parse } from 'lossless-json';
import { parse as parseToml } from 'smol-toml';
import { readYaml } from './pyyaml';
import type { DataFormat } from '../core/ir/source';

/** The names of the configuration files a model's folder may hold: a Hugging Face checkpoint's, Meta's Llama's. */
export const CONFIGURATION_FILES: readonly string[] = ['config.json', 'params.json'];

/**
 * Folders beside a model file whose JSON, YAML and TOML files are configurations too, one model's sizes each
 * (open_clip's `model_configs/ViT-B-32.json`); at most MAX_CONFIGURATION_FILES of each kind, in order of name.
 */
export const CONFIGURATION_FOLDERS: readonly string[] = ['model_configs', 'configs', 'config'];
export const CONFIGURATION_SUFFIXES: readonly string[] = ['.json', '.yaml', '.yml', '.toml'];
export const MAX_CONFIGURATION_FILES = 256;

/** Whether a file is one a model's configurations are read from: `config.json`, `configs/small.yaml`... */
export function isConfigurationFile(file: string): boolean {
  const parts = file.split(/[\\/]/);
  const name = parts[parts.length - 1];
  return (
    CONFIGURATION_FILES.includes(name) ||
    (CONFIGURATION_FOLDERS.includes(parts[parts.length - 2]) && CONFIGURATION_SUFFIXES.some((s) => name.endsWith(s)))
  );
}

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

/**
 * A configuration file's data as Python reads it: JSON as `json.load`, YAML as PyYAML's `yaml.safe_load`
 * (pyyaml.ts), TOML as `tomllib.load` (an int as a bigint, a float as a number); undefined when it is none, or
 * holds a value this reader does not give as Python does (a TOML date).
 */
export function readConfigurationFile(name: string, text: string): unknown {
  return readData(
    name.endsWith('.yaml') || name.endsWith('.yml') ? 'yaml' : name.endsWith('.toml') ? 'toml' : 'json',
    text,
  );
}

/** A text as the loader of `format` reads it (`json.load`, `yaml.safe_load`, `tomllib.load`), whatever its name. */
export function readData(format: DataFormat, text: string): unknown {
  if (format === 'yaml') return readYaml(text);
  if (format === 'json') return readConfiguration(text);
  try {
    const data = parseToml(text, { integersAsBigInt: true });
    // Plain objects, as the other readers give (the parser makes them without a prototype).
    return holdsDate(data, 0) ? undefined : structuredClone(data);
  } catch {
    return undefined;
  }
}

function holdsDate(v: unknown, depth: number): boolean {
  if (v instanceof Date || depth > 64) return true;
  if (Array.isArray(v)) return v.some((x) => holdsDate(x, depth + 1));
  if (v && typeof v === 'object') return Object.values(v).some((x) => holdsDate(x, depth + 1));
  return false;
}
