"""Shape mistakes that PyTorch only reports when the model is built: here they show as you type.
Open the Problems panel (Ctrl+Shift+M), then put the cursor on a red squiggle and press Ctrl+. for a fix."""
import torch.nn as nn


class BrokenEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        # AssertionError in PyTorch: embed_dim must be divisible by num_heads
        self.attn = nn.MultiheadAttention(768, 10)
        self.out = nn.Linear(768, 10)


# PyTorch stops at the first error of a constructor: each mistake below sits in a class of its own.
class NegativeProjection(nn.Module):
    def __init__(self):
        super().__init__()
        # RuntimeError in PyTorch: Trying to create tensor with negative dimension -1
        self.proj = nn.Linear(-1, 768)


class FloatWidth(nn.Module):
    def __init__(self):
        super().__init__()
        # TypeError in PyTorch: a float is not an integer size (use // for integer division)
        self.down = nn.Linear(768 / 2, 64)
