import torch.nn as nn

attn = nn.MultiheadAttention(100, 3)
