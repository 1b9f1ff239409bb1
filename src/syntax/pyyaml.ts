/**
 * YAML as PyYAML's `yaml.safe_load` reads it (YAML 1.1's implicit types, which are not YAML 1.2's): the `yaml`
 * package parses the structure with every scalar a string, and each plain scalar is then typed by PyYAML's own
 * resolvers, in their order: `yes` and `on` are True but `y` is a string, `1e-5` is a string (a float needs a
 * dot, an exponent its sign), `0o17` a string and `017` the int 15, `1_024` the int 1024. Ints come as bigints,
 * floats as numbers, as readConfiguration gives JSON's. What the reader does not type as PyYAML would (a
 * timestamp, an explicit tag, a merge key, a key that is no string, a sexagesimal number) makes the file no
 * configuration.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';

const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const TIMESTAMP = /^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?/;

/** A value PyYAML gives that this reader does not: the file is then no configuration. */
class Untyped extends Error {}

/**
 * Values read at most: aliases of aliases expand exponentially (a "billion laughs" file of a few lines), and a
 * configuration holds far fewer.
 */
const MAX_VALUES = 100_000;

/** The document's data, or undefined when it is no YAML, or holds what this reader does not type. */
export function readYaml(text: string): unknown {
  const doc = parseDocument(text, { schema: 'failsafe', uniqueKeys: false });
  if (doc.errors.length) return undefined;
  try {
    return valueOf({ doc, read: 0 }, doc.contents);
  } catch (e) {
    if (e instanceof Untyped || e instanceof RangeError) return undefined;
    throw e;
  }
}

function valueOf(state: { readonly doc: Document; read: number }, node: unknown, depth = 0): unknown {
  const { doc } = state;
  // Nesting deeper than a configuration needs, or more values than it holds, ends the reading.
  if (depth > 64 || ++state.read > MAX_VALUES) throw new Untyped();
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return valueOf(state, node.resolve(doc), depth + 1);
  if ((node as Node).tag) throw new Untyped();
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const key = valueOf(state, pair.key, depth + 1);
      if (typeof key !== 'string' || key === '<<') throw new Untyped();
      out[key] = valueOf(state, pair.value, depth + 1);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => valueOf(state, item, depth + 1));
  if (isScalar(node)) {
    const text = String(node.value);
    return node.type === 'PLAIN' ? plain(text) : text;
  }
  throw new Untyped();
}

/** A plain scalar as PyYAML's resolvers type it, in their order: bool, float, int, null, timestamp, else a string. */
function plain(text: string): unknown {
  if (BOOL.test(text)) return /^(?:yes|true|on)$/i.test(text);
  if (FLOAT.test(text)) {
    if (text.includes(':')) throw new Untyped();
    const lower = text.replace(/_/g, '').toLowerCase();
    if (lower.endsWith('.inf')) return lower.startsWith('-') ? -Infinity : Infinity;
    if (lower === '.nan') return NaN;
    return Number(lower);
  }
  if (INT.test(text)) {
    if (text.includes(':')) throw new Untyped();
    const digits = text.replace(/_/g, '');
    const sign = digits.startsWith('-') ? -1n : 1n;
    const bare = digits.replace(/^[-+]/, '');
    if (bare === '0') return 0n;
    if (bare.startsWith('0b')) return sign * BigInt(bare);
    if (bare.startsWith('0x')) return sign * BigInt(bare);
    if (bare.startsWith('0')) return sign * BigInt(`0o${bare.slice(1)}`);
    return sign * BigInt(bare);
  }
  if (NULL.test(text)) return null;
  if (TIMESTAMP.test(text)) throw new Untyped();
  return text;
}
