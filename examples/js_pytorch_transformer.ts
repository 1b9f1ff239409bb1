// A small character-level Transformer written with js-pytorch (PyTorch-like API in JavaScript).
import { torch } from 'js-pytorch';

const nn = torch.nn;

const vocabSize = 52;
const nTimesteps = 16;

class TransformerBlock extends nn.Module {
  attention: any;
  ffIn: any;
  ffOut: any;

  constructor() {
    super();
    // MultiHeadSelfAttention(in_size, out_size, n_heads, n_timesteps, dropout_prob)
    this.attention = new nn.MultiHeadSelfAttention(128, 128, 4, nTimesteps, 0.1);
    this.ffIn = new nn.Linear(128, 512);
    this.ffOut = new nn.Linear(512, 128);
  }

  forward(x: any) {
    const z = torch.add(x, this.attention.forward(x));
    return torch.add(z, this.ffOut.forward(this.ffIn.forward(z)));
  }
}

export class Transformer extends nn.Module {
  embed: any;
  block: any;
  head: any;

  constructor() {
    super();
    this.embed = new nn.Embedding(vocabSize, 128);
    this.block = new TransformerBlock();
    this.head = new nn.Linear(128, vocabSize);
  }

  forward(x: any) {
    return this.head.forward(this.block.forward(this.embed.forward(x)));
  }
}
