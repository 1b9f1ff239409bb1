"""A 24-layer GPT, built from the model file beside it."""
from gpt import GPT, GPTConfig

model = GPT(GPTConfig(n_layer=24))
