import torch.nn as nn

attn = nn.MultiheadAttention(512, 8)
bad = nn.MultiheadAttention(768, 10)
