import torch.nn as nn

bad_heads = nn.MultiheadAttention(768, 10)
negative = nn.Linear(-1, 5)
fractional = nn.Linear(512 / 2, 10)
zero = nn.Linear(0, 8)
