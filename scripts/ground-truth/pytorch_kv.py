"""The KV cache per token of the models a fixture builds, measured from the keys and values PyTorch 1.13 really
multiplies when the model runs: every attention's scores go through a softmax over (..., queries, keys); the
product that made them has the keys (transposed) as its second operand, and the product the softmax output
goes into has the values as its second operand. Their elements, added over the attention layers and divided by
batch × tokens, are the numbers a token keeps in the cache (self-attention only: queries = keys).

Run from the repository root with Debian's python3-torch:

    /usr/bin/python3 scripts/ground-truth/pytorch_kv.py

Writes test/fixtures/expected/pytorch-kv.json:
    {fixture path: {instance name: {"attentionLayers", "kvNumbersPerToken"}}}

Only models whose keys and values reach the products as the layer computed them are listed (grouped-query
attention repeats its key/value heads before the product, so this measure would count the repeats).
"""

import runpy
import sys
from pathlib import Path

import torch
from torch import nn
from torch.nn import functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pytorch_common import REPO_ROOT, write_json  # noqa: E402

FIXTURES = ["test/fixtures/models/pytorch/kv_cache.py", "test/fixtures/models/pytorch/gpt.py"]
OUTPUT = REPO_ROOT / "test/fixtures/expected/pytorch-kv.json"
BATCH, TOKENS = 2, 5


class Products:
    """Records the softmax inputs and the batched products of one forward() call."""

    def __init__(self):
        self.softmaxes = []
        self.products = []

    def __enter__(self):
        self.saved = (torch.bmm, torch.matmul, torch.Tensor.__matmul__, torch.baddbmm, F.softmax)
        record = self.products.append

        def product(real):
            def wrapped(a, b, *rest, **kw):
                out = real(a, b, *rest, **kw)
                record((tuple(a.shape), tuple(b.shape), tuple(out.shape), b.numel()))
                return out
            return wrapped

        def baddbmm(bias, a, b, *rest, **kw):
            out = self.saved[3](bias, a, b, *rest, **kw)
            record((tuple(a.shape), tuple(b.shape), tuple(out.shape), b.numel()))
            return out

        def softmax(x, *args, **kw):
            self.softmaxes.append(tuple(x.shape))
            return self.saved[4](x, *args, **kw)

        torch.bmm, torch.matmul, torch.Tensor.__matmul__ = product(self.saved[0]), product(self.saved[1]), product(self.saved[2])
        torch.baddbmm, F.softmax = baddbmm, softmax
        return self

    def __exit__(self, *exc):
        torch.bmm, torch.matmul, torch.Tensor.__matmul__, torch.baddbmm, F.softmax = self.saved

    def per_token(self):
        scores = [s for s in self.softmaxes if s[-1] == s[-2] == TOKENS]
        keys = sum(n for a, b, out, n in self.products if out in scores)
        values = sum(n for a, b, out, n in self.products if a in scores and b[-2] == TOKENS)
        return len(scores), (keys + values) // (BATCH * TOKENS)


def width(model):
    """The feature width of the model's input: its first projection's or attention's."""
    for m in model.modules():
        if isinstance(m, nn.MultiheadAttention):
            return m.embed_dim
        if isinstance(m, nn.Linear):
            return m.in_features
    raise ValueError(f"{type(model).__name__}: no input width")


def model_input(model):
    """Token ids for a model that embeds them, else features, sequence first where its layers expect it."""
    if any(isinstance(m, nn.Embedding) for m in model.modules()):
        return torch.randint(0, 100, (BATCH, TOKENS))
    first = next(m for m in model.modules() if isinstance(m, (nn.TransformerEncoderLayer, nn.MultiheadAttention, nn.Linear)))
    batch_first = first.self_attn.batch_first if isinstance(first, nn.TransformerEncoderLayer) else getattr(first, "batch_first", True)
    return torch.randn(BATCH, TOKENS, width(model)) if batch_first else torch.randn(TOKENS, BATCH, width(model))


def measure(fixture):
    out = {}
    for name, model in runpy.run_path(str(REPO_ROOT / fixture)).items():
        if not isinstance(model, nn.Module) or name.startswith("_"):
            continue
        model.train()
        with Products() as p:
            model(model_input(model))
        layers, numbers = p.per_token()
        out[type(model).__name__] = {"attentionLayers": layers, "kvNumbersPerToken": numbers}
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    truth = {fixture: measure(fixture) for fixture in FIXTURES}
    for fixture, models in truth.items():
        for name, m in models.items():
            print(f"{fixture} {name}: {m['attentionLayers']} attention layer(s), {m['kvNumbersPerToken']} numbers a token")
    print("wrote", write_json(OUTPUT, {"generatedBy": "scripts/ground-truth/pytorch_kv.py", "torch": torch.__version__, "files": truth}, 3))
