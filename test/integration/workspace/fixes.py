import torch.nn as nn

d = 512
half = nn.Linear(d, d / 3)
norm = nn.GroupNorm(3, 64)
