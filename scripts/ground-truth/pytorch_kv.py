"""The KV cache per token of the models a fixture builds, measured from the keys and values PyTorch 1.13 really
multiplies when the model runs (pytorch_styles.ScoreRecorder): the product that made an attention's scores has
the keys (transposed) as its second operand, and the product its softmax goes into has the values. Their
elements, added over the attention layers and divided by the positions of each layer's input, are the numbers a
token keeps in the cache (self-attention only: queries = keys).

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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pytorch_common import REPO_ROOT, write_json  # noqa: E402
from pytorch_styles import ScoreRecorder  # noqa: E402

FIXTURES = ["test/fixtures/models/pytorch/kv_cache.py", "test/fixtures/models/pytorch/gpt.py"]
OUTPUT = REPO_ROOT / "test/fixtures/expected/pytorch-kv.json"
BATCH, TOKENS = 2, 5


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


def measure(fixture, recorder):
    out = {}
    for name, model in runpy.run_path(str(REPO_ROOT / fixture)).items():
        if not isinstance(model, nn.Module) or name.startswith("_"):
            continue
        # Train mode: nn.TransformerEncoderLayer's fused fast path would multiply nothing the recorder sees.
        model.train()
        recorder.builds = {}
        numbers = recorder.run(model, lambda m: (model_input(m),))
        layers = sum(m in recorder.kv for m in model.modules())
        out[type(model).__name__] = {"attentionLayers": layers, "kvNumbersPerToken": numbers}
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    recorder = ScoreRecorder()
    truth = {fixture: measure(fixture, recorder) for fixture in FIXTURES}
    for fixture, models in truth.items():
        for name, m in models.items():
            print(f"{fixture} {name}: {m['attentionLayers']} attention layer(s), {m['kvNumbersPerToken']} numbers a token")
    print("wrote", write_json(OUTPUT, {"generatedBy": "scripts/ground-truth/pytorch_kv.py", "torch": torch.__version__, "files": truth}, 3))
