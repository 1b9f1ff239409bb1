"""Shape mistakes that PyTorch only reports on the first forward call (each `# expect:` line raises).

Every class takes inputs of EXAMPLE_INPUT = (batch, tokens, features); scripts/ground-truth/pytorch_forward.py
runs each forward() on such an input and records the line that raises.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

D_MODEL = 512
EXAMPLE_INPUT = (2, 10, D_MODEL)


class ClassifierHead(nn.Module):
    """The second layer was written for an older hidden width."""

    def __init__(self, d_model: int = D_MODEL, hidden: int = 256, classes: int = 10):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_model, hidden),
            nn.GELU(),
            nn.Dropout(0.1),
            nn.Linear(hidden * 2, classes),  # expect: sequential-mismatch
        )

    def forward(self, x):
        return self.net(x)


class TwoLayerMLP(nn.Module):
    def __init__(self, d_model: int = D_MODEL):
        super().__init__()
        self.fc1 = nn.Linear(d_model, 4 * d_model)
        self.fc2 = nn.Linear(2 * d_model, d_model)

    def forward(self, x):
        h = F.gelu(self.fc1(x))
        return self.fc2(h)  # expect: feature-mismatch


class NarrowResidual(nn.Module):
    def __init__(self, d_model: int = D_MODEL):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.proj = nn.Linear(d_model, d_model // 2)

    def forward(self, x):
        h = self.norm(x)
        return h + self.proj(h)  # expect: feature-mismatch


class ProjectedQueryAttention(nn.Module):
    def __init__(self, d_model: int = D_MODEL, heads: int = 8):
        super().__init__()
        self.down = nn.Linear(d_model, d_model // 2)
        self.attn = nn.MultiheadAttention(d_model, heads, batch_first=True)

    def forward(self, x):
        q = self.down(x)
        out, weights = self.attn(q, x, x)  # expect: attention-embed-mismatch
        return out


class HandWrittenAttention(nn.Module):
    """d_v = 32 with 8 heads gives 256 features, but W_O was written as d_model x d_model."""

    def __init__(self, d_model: int = D_MODEL, h: int = 8, d_k: int = 64, d_v: int = 32):
        super().__init__()
        self.h, self.d_k, self.d_v = h, d_k, d_v
        self.W_Q = nn.Linear(d_model, h * d_k)
        self.W_K = nn.Linear(d_model, h * d_k)
        self.W_V = nn.Linear(d_model, h * d_v)
        self.W_O = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.W_Q(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        k = self.W_K(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        v = self.W_V(x).view(B, T, self.h, self.d_v).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.d_k))
        out = att.softmax(dim=-1) @ v
        out = out.transpose(1, 2).contiguous().view(B, T, self.h * self.d_v)
        return self.W_O(out)  # expect: feature-mismatch


class ConcatFusion(nn.Module):
    def __init__(self, d_model: int = D_MODEL):
        super().__init__()
        self.left = nn.Linear(d_model, 128)
        self.right = nn.Linear(d_model, 128)
        self.fuse = nn.Linear(128, d_model)

    def forward(self, x):
        both = torch.cat([self.left(x), self.right(x)], dim=-1)
        return self.fuse(both)  # expect: feature-mismatch


class CorrectBlock(nn.Module):
    """The same pieces, written right: no error."""

    def __init__(self, d_model: int = D_MODEL, heads: int = 8):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.mlp = nn.Sequential(
            nn.Linear(d_model, 4 * d_model),
            nn.GELU(),
            nn.Linear(4 * d_model, d_model),
        )
        self.left = nn.Linear(d_model, d_model // 2)
        self.right = nn.Linear(d_model, d_model // 2)

    def forward(self, x):
        h = self.norm(x)
        a, _ = self.attn(h, h, h, need_weights=False)
        x = x + a
        x = x + self.mlp(self.norm(x))
        return x + torch.cat([self.left(x), self.right(x)], dim=-1)
