"""Parameter counts and tensor shapes of single PyTorch layer constructor calls, from real PyTorch.

Run from the repository root with Debian's python3-torch (not the pyenv python3 on PATH):

    /usr/bin/python3 scripts/ground-truth/pytorch_catalog.py

Writes test/fixtures/expected/pytorch-catalog.json: one entry per call in CALLS, in order, either
    {"call", "kind", "params", "tensors": [[name, shape], ...]}        (lazy layers: "lazy": true, params null)
or  {"call", "error": {"type", "message"}}                             when the constructor raises.
"""

import torch
from torch import nn

from pytorch_common import REPO_ROOT, describe, describe_error, write_json

OUTPUT = REPO_ROOT / "test/fixtures/expected/pytorch-catalog.json"

CALLS = [
    # MultiheadAttention: packed in_proj vs separate q/k/v weights, bias variants, bias_k/bias_v tokens.
    "nn.MultiheadAttention(512, 8)",
    "nn.MultiheadAttention(768, 12)",
    "nn.MultiheadAttention(512, 8, bias=False)",
    "nn.MultiheadAttention(512, 8, add_bias_kv=True)",
    "nn.MultiheadAttention(512, 8, bias=False, add_bias_kv=True)",
    "nn.MultiheadAttention(512, 8, add_zero_attn=True)",
    "nn.MultiheadAttention(512, 8, batch_first=True)",
    "nn.MultiheadAttention(512, 8, kdim=256, vdim=128)",
    "nn.MultiheadAttention(512, 8, kdim=512, vdim=256)",
    "nn.MultiheadAttention(512, 8, kdim=512, vdim=512)",
    "nn.MultiheadAttention(512, 8, kdim=256, bias=False)",
    "nn.MultiheadAttention(512, 8, kdim=256, vdim=128, add_bias_kv=True)",
    "nn.MultiheadAttention(512, 8, 0.1, True, True, True, 256, 128, True)",
    "nn.MultiheadAttention(768, 10)",
    "nn.MultiheadAttention(0, 1)",
    "nn.MultiheadAttention(512, 0)",
    "nn.MultiheadAttention(-8, 2)",
    "nn.MultiheadAttention(512, -8)",
    "nn.MultiheadAttention(512.0, 8)",
    # Linear / Bilinear / LazyLinear, including sizes torch accepts surprisingly (0, bool) or rejects (float).
    "nn.Linear(512, 512)",
    "nn.Linear(512, 2048, bias=False)",
    "nn.Linear(0, 8)",
    "nn.Linear(8, 0)",
    "nn.Linear(-1, 5)",
    "nn.Linear(512 / 2, 10)",
    "nn.Linear(512 // 2, 10)",
    "nn.Linear(True, 3)",
    "nn.Bilinear(20, 30, 40)",
    "nn.Bilinear(20, 30, 40, bias=False)",
    "nn.Bilinear(-20, 30, 40)",
    "nn.LazyLinear(10)",
    "nn.LazyLinear(10, bias=False)",
    # Transformer building blocks.
    "nn.TransformerEncoderLayer(512, 8)",
    "nn.TransformerEncoderLayer(512, 8, 2048)",
    "nn.TransformerEncoderLayer(256, 4, dim_feedforward=1024)",
    "nn.TransformerEncoderLayer(512, 8, norm_first=True)",
    "nn.TransformerEncoderLayer(512, 8, batch_first=True, activation='gelu')",
    "nn.TransformerEncoderLayer(768, 10)",
    "nn.TransformerDecoderLayer(512, 8)",
    "nn.TransformerDecoderLayer(256, 4, 1024)",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8), 6)",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8), 6, norm=nn.LayerNorm(512))",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8), 0)",
    "nn.TransformerDecoder(nn.TransformerDecoderLayer(512, 8), 6)",
    "nn.TransformerDecoder(nn.TransformerDecoderLayer(512, 8), 6, norm=nn.LayerNorm(512))",
    "nn.Transformer()",
    "nn.Transformer(d_model=256, nhead=4, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=1024)",
    "nn.Transformer(512, 8, 6, 0)",
    "nn.Transformer(d_model=768, nhead=10)",
    # Other layers the fixtures use for realism.
    "nn.LayerNorm(512)",
    "nn.LayerNorm(512, elementwise_affine=False)",
    "nn.LayerNorm([16, 512])",
    "nn.Embedding(50257, 768)",
    "nn.Embedding(30522, 256, padding_idx=0)",
    "nn.Conv2d(3, 768, kernel_size=16, stride=16)",
    "nn.Conv2d(2048, 256, 1)",
    "nn.Conv2d(64, 128, (3, 5), groups=2, bias=False)",
    "nn.Conv1d(16, 32, 3, groups=16)",
    "nn.Conv3d(3, 8, 2)",
    "nn.ConvTranspose2d(64, 32, 4, stride=2, groups=2)",
    "nn.ConvTranspose1d(8, 4, 3, bias=False)",
    "nn.EmbeddingBag(10000, 64)",
    "nn.EmbeddingBag(10000, 64, mode='sum', padding_idx=0)",
    "nn.Embedding(1000, 64, max_norm=1.0)",
    "nn.GroupNorm(8, 256)",
    "nn.GroupNorm(8, 256, affine=False)",
    "nn.GroupNorm(3, 256)",
    "nn.BatchNorm1d(128)",
    "nn.BatchNorm2d(64, affine=False)",
    "nn.BatchNorm3d(32, track_running_stats=False)",
    "nn.InstanceNorm1d(64)",
    "nn.InstanceNorm2d(64, affine=True)",
    "nn.InstanceNorm3d(16, affine=True, track_running_stats=True)",
    "nn.PReLU()",
    "nn.PReLU(64)",
    "nn.RNN(32, 64)",
    "nn.RNN(32, 64, num_layers=2, nonlinearity='relu', bias=False)",
    "nn.RNN(32, 64, 3, bidirectional=True)",
    "nn.GRU(32, 64)",
    "nn.GRU(32, 64, num_layers=2, bidirectional=True, batch_first=True)",
    "nn.LSTM(32, 64)",
    "nn.LSTM(32, 64, num_layers=2, bias=False)",
    "nn.LSTM(32, 64, num_layers=2, bidirectional=True, proj_size=16)",
    "nn.LSTM(input_size=10, hidden_size=20, proj_size=5)",
]


def main():
    entries = []
    for call in CALLS:
        try:
            entries.append({"call": call, **describe(eval(call, {"nn": nn, "torch": torch}))})
        except Exception as exc:
            entries.append({"call": call, "error": describe_error(exc)})
    written = write_json(OUTPUT, entries, expand=1)

    width = max(len(call) for call in CALLS)
    for entry in entries:
        if "error" in entry:
            outcome = f"{entry['error']['type']}: {entry['error']['message'].splitlines()[0]}"
        else:
            outcome = "lazy" if entry.get("lazy") else f"{entry['params']:,}"
        print(f"{entry['call']:<{width}}  {outcome}")
    print(f"wrote {written} ({len(entries)} calls, torch {torch.__version__})")


if __name__ == "__main__":
    main()
