import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(512, 8)
        self.proj = nn.Linear(512, 512)
        self.empty = nn.Linear(0, 8)
