"""Variants assembled from the blocks of gpt.py, imported the way a project's modules import each other."""
import torch.nn as nn

from gpt import Block, GPTConfig, MLP

MEDIUM = GPTConfig(n_layer=24, n_head=16, n_embd=1024)


class BlockStack(nn.Module):
    """A trunk of GPT-2 medium blocks with its own final norm, used as a feature extractor."""

    def __init__(self, config: GPTConfig = MEDIUM):
        super().__init__()
        self.blocks = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(config.n_embd)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.ln_f(x)


class AdapterHead(nn.Module):
    """A GPT-2 small MLP as an adapter, then a classifier."""

    def __init__(self, config: GPTConfig = GPTConfig(), num_classes: int = 5):
        super().__init__()
        self.adapter = MLP(config)
        self.classifier = nn.Linear(config.n_embd, num_classes)

    def forward(self, x):
        return self.classifier(x + self.adapter(x))
