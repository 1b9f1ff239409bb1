import torch.nn as nn

attn = nn.MultiheadAttention(768, 12)
