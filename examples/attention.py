"""Attention layers in PyTorch: hover a layer, or read the CodeLens above it."""
import torch
import torch.nn as nn


class SelfAttentionBlock(nn.Module):
    """Pre-norm self-attention with a feed-forward layer, as in a Transformer encoder."""

    def __init__(self):
        super().__init__()
        self.norm1 = nn.LayerNorm(512)
        self.attn = nn.MultiheadAttention(512, 8)
        self.norm2 = nn.LayerNorm(512)
        self.ff_in = nn.Linear(512, 2048)
        self.ff_out = nn.Linear(2048, 512)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.ff_out(torch.relu(self.ff_in(self.norm2(x))))


class CrossAttention(nn.Module):
    """Queries from a decoder, keys and values from an encoder of another width."""

    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(embed_dim=256, num_heads=4, kdim=512, vdim=512, batch_first=True)

    def forward(self, query: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
        return self.attn(query, memory, memory, need_weights=False)[0]


class Variants(nn.Module):
    def __init__(self):
        super().__init__()
        self.no_bias = nn.MultiheadAttention(768, 12, bias=False)
        self.with_dropout = nn.MultiheadAttention(1024, num_heads=16, dropout=0.1, batch_first=True)
        self.kv_bias = nn.MultiheadAttention(384, 6, add_bias_kv=True)
        self.head = nn.Linear(512, 10)
