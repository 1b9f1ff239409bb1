"""Runs every model the sizing fixtures build at module level through real PyTorch, in train mode, and records
what autograd keeps for backward, with the parameters that train and those that are frozen.

What is kept: every tensor autograd saves during forward() (torch.autograd.graph.saved_tensors_hooks sees
each one), counted once per storage (by its data pointer) with the storage's whole size, the model's own
parameters left out (they are the weights). Each tensor is charged to the module forward() called from the
model's own forward() that was running when it was saved (containers such as nn.Sequential pass through to
their layers); tensors the model's own code saves are charged to no module.

The input is token indices (batch x sequence) when the model's first layer is an nn.Embedding, else features
(batch x sequence x the first layer's input width); in bfloat16 the model and its features are cast.

Usage (from the repo root): /usr/bin/python3 scripts/ground-truth/pytorch_activations.py
Writes test/fixtures/expected/pytorch-activations.json:
  {"models": {"<fixture>:<name>": {"class", "params", "trainable", "frozen", "input": {"kind", "width"?},
     "runs": [{"batch", "sequence", "dtype", "bytes", "layers": {module path: bytes}}]}}}
"""
import runpy
import sys
from pathlib import Path

import torch
import torch.nn as nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pytorch_common import write_json  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test/fixtures/expected/pytorch-activations.json"
SMALL_RUNS = [(1, 16, torch.float32), (2, 16, torch.float32), (1, 16, torch.bfloat16), (2, 16, torch.bfloat16)]
# GPT-2 small at its own context of 1,024 tokens (one sequence), and at a batch of two short ones.
FIXTURES = {
    "test/fixtures/models/pytorch/sizing.py": SMALL_RUNS,
    "test/fixtures/models/pytorch/gpt.py": [(1, 1024, torch.float32), (1, 1024, torch.bfloat16), (2, 64, torch.float32)],
}
CONTAINERS = (nn.Sequential, nn.ModuleList, nn.ModuleDict)


def input_of(model):
    first = next(m for m in model.modules() if isinstance(m, (nn.Embedding, nn.Linear, nn.LayerNorm)))
    if isinstance(first, nn.Embedding):
        return {"kind": "tokens", "vocab": first.num_embeddings}
    return {"kind": "features", "width": first.in_features if isinstance(first, nn.Linear) else first.normalized_shape[-1]}


def saved_bytes(model, batch, sequence, dtype):
    """Bytes of the storages autograd keeps for one forward() of `model`, in total and by module."""
    torch.manual_seed(0)
    model = model.to(dtype).train()
    names = {m: name for name, m in model.named_modules()}
    params = {p.storage().data_ptr() for p in model.parameters()}
    spec = input_of(model)
    if spec["kind"] == "tokens":
        x = torch.randint(0, spec["vocab"], (batch, sequence))
    else:
        x = torch.randn(batch, sequence, spec["width"], dtype=dtype)
    stack = []
    handles = []
    for m in model.modules():
        if m is model or isinstance(m, CONTAINERS):
            continue
        handles.append(m.register_forward_pre_hook(lambda mod, _: stack.append(mod)))
        # A forward hook's return value would replace the output: this one returns None.
        handles.append(m.register_forward_hook(lambda mod, _i, _o: stack.pop() and None))
    storages = {}

    def pack(t):
        ptr = t.storage().data_ptr()
        if ptr not in params and ptr not in storages:
            storages[ptr] = (t.storage().nbytes(), names[stack[0]] if stack else None)
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(x)
    del out
    for h in handles:
        h.remove()
    layers = {}
    for size, layer in storages.values():
        if layer is not None:
            layers[layer] = layers.get(layer, 0) + size
    return {"batch": batch, "sequence": sequence, "dtype": str(dtype).replace("torch.", ""),
            "bytes": sum(size for size, _ in storages.values()), "layers": layers}


def main():
    models = {}
    for fixture, runs in FIXTURES.items():
        namespace = runpy.run_path(str(ROOT / fixture))
        for name, model in namespace.items():
            if not isinstance(model, nn.Module) or isinstance(model, type):
                continue
            params = list(model.parameters())
            spec = input_of(model)
            record = {
                "class": type(model).__name__,
                "params": sum(p.numel() for p in params),
                "trainable": sum(p.numel() for p in params if p.requires_grad),
                "frozen": sum(p.numel() for p in params if not p.requires_grad),
                "input": {k: v for k, v in spec.items() if k != "vocab"},
                "runs": [saved_bytes(model, b, t, dtype) for b, t, dtype in runs],
            }
            models[f"{fixture}:{name}"] = record
            print(f"{fixture}:{name}: {record['params']:,} params ({record['trainable']:,} trainable) "
                  + ", ".join(f"{r['batch']}x{r['sequence']} {r['dtype']} {r['bytes']:,} B" for r in record["runs"]))
    out = write_json(OUT, {"generatedBy": "scripts/ground-truth/pytorch_activations.py", "torch": torch.__version__, "models": models}, 3)
    print(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())
