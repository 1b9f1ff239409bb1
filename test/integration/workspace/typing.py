import torch.nn as nn

attn = nn.MultiheadAttention(512, 8)
