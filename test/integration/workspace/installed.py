from lenslib import Mlp

mlp = Mlp(8)
