/**
 * Canonical paths for imported names, so that every spelling users write reaches one catalog entry:
 * `nn.Linear` after `import torch.nn as nn`, `Linear` after `from torch.nn import Linear`, `tf.layers.dense`
 * from any of the TensorFlow.js packages.
 */
const PACKAGE_ROOTS: Record<string, string> = {
  '@tensorflow/tfjs': 'tfjs',
  '@tensorflow/tfjs-node': 'tfjs',
  '@tensorflow/tfjs-node-gpu': 'tfjs',
  '@tensorflow/tfjs-layers': 'tfjs',
  'js-pytorch': 'jspytorch',
};

export function canonicalPath(module: string, member?: string): string {
  // Deep imports such as `@tensorflow/tfjs-layers/dist/layers/nlp/multihead_attention` are the same library.
  const root = PACKAGE_ROOTS[module] ?? (module.startsWith('@tensorflow/tfjs-layers/') ? 'tfjs' : module);
  return member ? `${root}.${member}` : root;
}

/** The name of a class of torch.nn a path names (`BatchNorm2d` for `torch.nn.modules.batchnorm.BatchNorm2d`), if it names one. */
export function torchNnClassName(path: string): string | undefined {
  const p = normalizePath(path);
  return /^torch\.nn\.[A-Z]\w*$/.test(p) ? p.slice('torch.nn.'.length) : undefined;
}

/** `torch.nn.modules.linear.Linear` is the class `torch.nn.Linear` re-exports. */
export function normalizePath(path: string): string {
  // Asked of every name a call resolves: most are not torch.nn.modules', which the regular expression would scan.
  return path.startsWith('torch.nn.modules.') ? path.replace(/^torch\.nn\.modules\.[A-Za-z_]+\./, 'torch.nn.') : path;
}
