/** The diagnostic codes as SARIF rules: what each one means, for the code-scanning alert's help. */

export interface Rule {
  readonly id: string;
  readonly summary: string;
  readonly help: string;
}

export const RULES: readonly Rule[] = [
  {
    id: 'heads-divisibility',
    summary: 'The embedding size is not divisible by the number of heads.',
    help: 'Multi-head attention splits the embedding into equal heads, so the framework refuses to build the layer when embed_dim (in_size in js-pytorch) is not a multiple of num_heads. Choose a head count that divides the embedding size; the editor offers the nearest ones as quick fixes.',
  },
  {
    id: 'groups-divisibility',
    summary: "GroupNorm's channels are not divisible by its groups.",
    help: 'GroupNorm normalises equal groups of channels: PyTorch raises "num_channels must be divisible by num_groups". Choose a number of groups that divides the channels.',
  },
  {
    id: 'negative-size',
    summary: 'A size the framework rejects: negative.',
    help: 'A layer cannot have a negative number of features or heads; the framework fails creating its tensors (or on the first forward call).',
  },
  {
    id: 'zero-size',
    summary: 'A size the framework rejects: zero.',
    help: 'A size of 0 makes the framework fail initialising the layer (for example a division by zero in its weight initialisation).',
  },
  {
    id: 'non-integer-size',
    summary: 'A size the framework rejects: not an integer.',
    help: 'Layer sizes must be whole numbers: PyTorch raises TypeError for a float such as 384.0, js-pytorch and TensorFlow.js throw creating the weights. Divide with // in Python, round with Math.floor in TypeScript; the editor offers these as quick fixes.',
  },
  {
    id: 'sequential-mismatch',
    summary: 'A layer of a sequential model does not read what the layer before it produces.',
    help: 'In nn.Sequential (or a TF.js sequential model) each layer receives the output of the one before it; its input size must equal that output size, or the framework raises a shape error on the first call.',
  },
  {
    id: 'feature-mismatch',
    summary: 'A call in forward() receives the wrong feature size.',
    help: 'A layer, a residual sum or a torch.cat in forward() receives a tensor whose last dimension differs from what it expects; the framework raises a shape error at that call.',
  },
  {
    id: 'attention-embed-mismatch',
    summary: 'A query, key or value does not match embed_dim, kdim or vdim.',
    help: "The query's feature size must equal embed_dim, and the key's and value's must equal kdim and vdim (embed_dim unless set); the attention layer raises a shape error otherwise.",
  },
  {
    id: 'view-mismatch',
    summary: 'A view or reshape splits a projection into heads that do not hold its features.',
    help: "view(B, T, heads, head_dim) keeps the number of elements: heads × head_dim must equal the features of the tensor viewed (the projection's width), or PyTorch raises \"shape '[…]' is invalid for input of size …\" when forward() runs.",
  },
  {
    id: 'constructor-raises',
    summary: 'A check in a constructor fails for a model the file builds.',
    help: "An assert or raise in __init__ (or a constructor) that certainly fails with the sizes the file builds the model with, such as hidden_size % num_attention_heads != 0; the message is the code's own.",
  },
  {
    id: 'unregistered-layers',
    summary: 'A PyTorch module keeps layers in a plain list or dict.',
    help: 'nn.Module registers a submodule only when it is assigned as an attribute or held by nn.ModuleList / nn.ModuleDict. Layers in a plain Python list or dict are missing from parameters() (and so from the optimizer), from .to() and .cuda(), and from state_dict(). Wrap the list in nn.ModuleList(...) or the dict in nn.ModuleDict(...); the editor offers the wrap as a quick fix.',
  },
  {
    id: 'untracked-sublayers',
    summary: 'A tf.layers.Layer subclass keeps layers in its fields, which TensorFlow.js does not track.',
    help: "A TF.js custom layer tracks only the weights it creates with addWeight(): layers kept in its fields create their weights when call() applies them, but countParams(), trainableWeights, getWeights() and save() leave those weights out, so they are neither trained nor saved (tfjs issue #8253). Create the weights with this.addWeight() in build(), or override trainableWeights and getWeights() to include the sublayers' weights.",
  },
  {
    id: 'analysis-truncated',
    summary: 'Attention Lens stopped following the file: its work budget ran out.',
    help: 'The analysis is bounded by a number of steps, not by time, so that a crafted or very large file ends fast and the same text always gives the same result. Past the point it names, layers, totals and checks are not shown: what is missing is not known, not zero. Split the file, or move what builds the models out of very long loops or constructors.',
  },
];

/** A code the table does not know yet (the core may add some) still gets a rule, named after it. */
export function ruleFor(code: string): Rule {
  return (
    RULES.find((r) => r.id === code) ?? {
      id: code,
      summary: `Attention Lens diagnostic ${code}.`,
      help: `See the diagnostic codes in the Attention Lens README for ${code}.`,
    }
  );
}
