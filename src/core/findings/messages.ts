/**
 * How each finding is worded: one builder per code, each saying what is wrong and how the framework fails
 * on it, in the framework's own words where it has some. The checks decide; only these word.
 */
import type { FindingCode } from './codes';

type Framework = 'pytorch' | 'js-pytorch' | 'tfjs';

/** js-pytorch fills arrays of a size's length: a negative or fractional one fails there. */
const JS_PYTORCH_ARRAYS = 'js-pytorch throws RangeError "Invalid array length" creating its weights';

/** An attention layer's embedding size and head count that do not divide (or no heads at all). */
export function headsDivisibility(
  framework: 'pytorch' | 'js-pytorch',
  embed: { readonly name: string; readonly size: bigint },
  heads: { readonly name: string; readonly count: bigint },
): string {
  if (framework === 'js-pytorch')
    return `${embed.name} ${embed.size} is not divisible by ${heads.name} ${heads.count}: js-pytorch throws "Embedding dimension not divisible in equal heads."`;
  if (heads.count === 0n)
    return `${heads.name} is 0: PyTorch fails dividing ${embed.name} ${embed.size} by it (ZeroDivisionError: integer division or modulo by zero).`;
  return `${embed.name} ${embed.size} is not divisible by ${heads.name} ${heads.count}: PyTorch raises "embed_dim must be divisible by num_heads". Each head takes ${embed.name} / ${heads.name} features.`;
}

export function groupsDivisibility(channels: bigint, groups: bigint): string {
  return `num_channels ${channels} is not divisible by num_groups ${groups}: PyTorch raises "num_channels must be divisible by num_groups".`;
}

/** A size of 0: nn.MultiheadAttention's embedding (PyTorch), or any size TF.js checks (`shown` as written). */
export function zeroSize(framework: 'pytorch' | 'tfjs', name: string, shown = '0'): string {
  return framework === 'pytorch'
    ? `${name} is 0: PyTorch fails initialising the projections (ZeroDivisionError: float division by zero in xavier_uniform_).`
    : tfjsPositive(name, shown);
}

/** A negative size: an argument, a head count, or a weight's dimension the arguments make negative. */
export function negativeSize(
  what:
    | { readonly of: 'argument'; readonly framework: Framework; readonly name: string; readonly shown: string }
    | { readonly of: 'heads'; readonly name: string; readonly count: bigint }
    | {
        readonly of: 'weight';
        readonly framework: Framework;
        readonly tensor: string;
        readonly dims: readonly bigint[];
      },
): string {
  if (what.of === 'heads')
    return `${what.name} is ${what.count}: a layer cannot have a negative number of heads (PyTorch builds it, then fails reshaping into heads on the first forward call).`;
  if (what.of === 'argument') {
    const { framework, name, shown } = what;
    if (framework === 'pytorch')
      return `${name} is ${shown}: PyTorch raises "Trying to create tensor with negative dimension ${shown}".`;
    return framework === 'tfjs' ? tfjsPositive(name, shown) : `${name} is ${shown}: ${JS_PYTORCH_ARRAYS}.`;
  }
  const { framework, tensor, dims } = what;
  const first = dims.find((d) => d < 0n)!;
  const fails =
    framework === 'pytorch'
      ? `PyTorch raises "Trying to create tensor with negative dimension ${first}: [${dims.join(', ')}]"`
      : framework === 'tfjs'
        ? `TensorFlow.js throws "Tensor must have a shape comprised of positive integers but got shape [${dims.join(',')}]"`
        : 'js-pytorch throws RangeError "Invalid array length" creating it';
  return `${tensor} would be [${dims.join(', ')}]: ${fails}.`;
}

/** A size that is not a whole number (`shown` as the language prints it). */
export function nonIntegerSize(framework: Framework, name: string, shown: string): string {
  if (framework === 'pytorch')
    return `${name} is ${shown}, a float: PyTorch raises TypeError (sizes must be ints). Use // for integer division.`;
  if (framework === 'tfjs') return tfjsPositive(name, shown);
  return `${name} is ${shown}: ${JS_PYTORCH_ARRAYS}. Sizes must be whole numbers (Math.floor or Math.trunc where a division does not come out even).`;
}

/** TF.js asserts every size of a layer's config positive and whole, with one sentence. */
function tfjsPositive(name: string, shown: string): string {
  return `${name} is ${shown}: TensorFlow.js throws "Expected ${name} to be a positive integer, but got ${shown}."`;
}

/** `view`/`reshape` into heads that do not hold the projection's features. */
export function viewMismatch(c: {
  readonly method: string;
  readonly has: string;
  readonly from: string;
  readonly asked: string;
  /** The product asked for, or undefined when a -1 was to be inferred. */
  readonly product: string | undefined;
}): string {
  return `This ${c.method} turns each position's ${c.has} features${c.from} into ${c.asked}${c.product === undefined ? `, which does not divide ${c.has}` : ` = ${c.product}`}: PyTorch raises RuntimeError "shape '[…]' is invalid for input of size …" when forward() runs.`;
}

/**
 * A layer applied to a tensor of other features: its input (`feature-mismatch`), or an attention layer's
 * query, key or value (`attention-embed-mismatch`); `consequence` is how the framework fails.
 */
export function sizeMismatch(c: {
  readonly code: Extract<FindingCode, 'feature-mismatch' | 'attention-embed-mismatch'>;
  readonly layer: string;
  readonly expected: string;
  readonly what: string;
  readonly expectedName: string;
  readonly got: string;
  readonly from: string;
  readonly consequence: string;
}): string {
  const expects = c.code === 'feature-mismatch' ? 'input features' : `features in ${c.what} (${c.expectedName})`;
  return `${c.layer} expects ${c.expected} ${expects}, but ${c.what} has ${c.got}${c.from}: ${c.consequence}.`;
}

/** Two tensors added (or the like) whose feature sizes do not broadcast. */
export function broadcastMismatch(c: {
  readonly op: string;
  readonly left: string;
  readonly right: string;
  readonly leftFrom: string | undefined;
  readonly rightFrom: string | undefined;
}): string {
  const { leftFrom, rightFrom } = c;
  const origins = `${leftFrom ? ` (left from ${leftFrom}` : ''}${rightFrom ? `${leftFrom ? ', ' : ' ('}right from ${rightFrom}` : ''}${leftFrom || rightFrom ? ')' : ''}`;
  return `The two sides of ${c.op} have ${c.left} and ${c.right} features${origins}: they do not broadcast, and PyTorch raises a size mismatch.`;
}

/** A layer of an nn.Sequential that does not read what the layer before it produces. */
export function sequentialMismatch(here: string, expected: string, before: string, got: string): string {
  return `In this nn.Sequential, ${here} expects ${expected} input features, but ${before} before it produces ${got}: PyTorch raises a shape error on the first forward call.`;
}

/** A TF.js layer applied to an input it cannot read: of another rank, or of other features than it was built for. */
export function tfjsInputMismatch(
  c:
    | {
        readonly of: 'rank';
        readonly layer: string;
        readonly kind: string;
        readonly ndim: number;
        readonly shape: string;
        readonly got: number;
      }
    | {
        readonly of: 'features';
        readonly layer: string;
        readonly kind: string;
        readonly was: bigint;
        readonly now: bigint;
        readonly shape: string;
      },
): string {
  return c.of === 'rank'
    ? `${c.layer} reads a ${c.ndim}-dimensional input (batch first), but gets shape ${c.shape}: TensorFlow.js throws "Input 0 is incompatible with layer ${c.kind}: expected ndim=${c.ndim}, found ndim=${c.got}."`
    : `${c.layer} was built for ${c.was} input features and is applied again to ${c.now}: TensorFlow.js throws "Input 0 is incompatible with layer ${c.kind}: expected axis -1 of input shape to have value ${c.was} but got shape ${c.shape}."`;
}

export function unregisteredLayers(name: string, kind: 'dict' | 'list', container: string): string {
  return `self.${name} keeps layers in a plain ${kind}: PyTorch does not register them, so parameters() (and the total shown) leaves them out, .to() does not move them, the optimizer does not train them and state_dict() does not save them. Use nn.${container}(...).`;
}

export function untrackedSublayers(name: string, className: string): string {
  return `this.${name} holds a layer that ${className} does not track: TensorFlow.js creates its weights when call() applies it, but countParams(), trainableWeights, getWeights() and save() leave them out, so they are neither trained nor saved. Create the weights with this.addWeight() in build(), or override trainableWeights and getWeights() to include them.`;
}

/** A raise certain to happen while a model the file builds is built. */
export function constructorRaises(c: {
  readonly language: 'python' | 'typescript';
  readonly model: string;
  readonly exception: string;
  readonly message: string | undefined;
  readonly line: string;
  readonly where: string;
}): string {
  const said = `${c.exception}${c.message ? `: "${c.message}"` : ''} (${c.line}${c.where ? `, in ${c.where}` : ''})`;
  return c.language === 'python'
    ? `Building ${c.model} raises ${said}: PyTorch would not build this model.`
    : `Building ${c.model} throws ${said}: the model is never built.`;
}

/** Where the analysis ran out of its work budget (`budget`: which, and how much). */
export function analysisTruncated(budget: string): string {
  return `Attention Lens stopped following this near here: ${budget} ran out. Layers, totals and checks past this point are not shown; what is missing is not known, not zero.`;
}
