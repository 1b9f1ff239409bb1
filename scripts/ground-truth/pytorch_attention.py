"""Runs the attention written by hand in handwritten_attention.py through real PyTorch and records, for each
attention class, the heads its scores really have (the softmax input is (batch, heads, queries, keys)) and
the widths of its projections, and whether any forward() raises; then builds and runs each model of
attention_mistakes.py and records the line where PyTorch raises, with its error.

Usage (from the repo root): /usr/bin/python3 scripts/ground-truth/pytorch_attention.py
Writes test/fixtures/expected/pytorch-attention.json:
  {"classes": {name: {"heads", "queries", "keys", "projections": {attribute: out_features}}},
   "forward": {model: null | "ErrorType: message"},
   "mistakes": {class or builder: {"line", "error"}},
   "realistic": {fixture: {model: null | "ErrorType: message"}}: the models the realistic fixtures build at
   module level, run on an input of their kind: where PyTorch runs them, Attention Lens must report no error,
   "styles": the fixtures in the styles of real model code, built with documented configurations and run
   (see pytorch_styles.py),
   "second": {class: {"expression", "heads", "headDim"}}: each attention class of handwritten_attention.py
   built with a second configuration and run, its heads and head size read from its real q, kᵀ and v}
"""
import traceback
import json
import runpy
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pytorch_common import install_einops_fallback  # noqa: E402
from pytorch_styles import ScoreRecorder, styles  # noqa: E402

install_einops_fallback()

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = "test/fixtures/models/pytorch/handwritten_attention.py"
MISTAKES = "test/fixtures/models/pytorch/attention_mistakes.py"
OUT = ROOT / "test/fixtures/expected/pytorch-attention.json"
BATCH, QUERIES, KEYS = 2, 5, 7


def inputs(name, model):
    """An input each model of the fixture accepts: its width from its first layer, a context for cross attention."""
    if name == "llama_layer":
        head_dim = model.attention.head_dim
        # One rotation per position and pair of features, broadcast over the heads: (queries, 1, head_dim / 2).
        angles = torch.outer(torch.arange(QUERIES).float(), torch.ones(head_dim // 2)).unsqueeze(1)
        return (torch.randn(BATCH, QUERIES, model.attention.wq.in_features), torch.polar(torch.ones_like(angles), angles))
    if name == "CrossAttention":
        return (torch.randn(BATCH, QUERIES, model.to_q.in_features), torch.randn(BATCH, KEYS, model.to_kv.in_features))
    first = next(m for m in model.modules() if isinstance(m, (torch.nn.Linear, torch.nn.LayerNorm)))
    width = first.in_features if isinstance(first, torch.nn.Linear) else first.normalized_shape[0]
    return (torch.randn(BATCH, QUERIES, width),)


def main():
    namespace = runpy.run_path(str(ROOT / FIXTURE))
    recorder = ScoreRecorder()
    models = {name: value for name, value in namespace.items() if isinstance(value, torch.nn.Module)}
    for name, cls in namespace.items():
        if isinstance(cls, type) and issubclass(cls, torch.nn.Module) and cls.__module__ == "<run_path>":
            try:
                models.setdefault(name, cls())
            except TypeError:
                pass  # needs arguments: reached through the models the fixture builds
    forward = {}
    classes = {}
    for name, model in models.items():
        if type(model).forward is torch.nn.Module.forward:
            continue  # a model of counts only (Llama here): nothing to run
        recorder.watch(model)
        try:
            model(*inputs(name, model))
            forward[name] = None
        except Exception as e:  # the error is the datum
            forward[name] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
        for cls, seen in recorder.classes(model).items():
            classes.setdefault(cls, seen)
    result = {
        "generatedBy": "scripts/ground-truth/pytorch_attention.py",
        "torch": torch.__version__,
        "classes": classes,
        "second": second(namespace, recorder),
        "forward": forward,
        "mistakes": mistakes(),
        "realistic": realistic(),
        "styles": styles(recorder),
    }
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    for name, c in classes.items():
        print(f"{name:<22} heads {c['heads']:>3}  projections {c['projections']}")
    for name, error in forward.items():
        print(f"forward {name:<22} {error or 'ok'}")
    for name, raised in result["mistakes"].items():
        print(f"mistake {name:<22} line {raised['line']}: {raised['error']}")
    for path, runs in result["realistic"].items():
        for name, error in runs.items():
            print(f"realistic {path}:{name} {error or 'ok'}")
    for path, style in result["styles"].items():
        for expr, params in style["totals"].items():
            print(f"style {path.rsplit('/', 1)[-1]}: {expr} = {params:,}")
        print(f"style {path.rsplit('/', 1)[-1]}: {style['run']} forward {style['forward'] or 'ok'}; heads {({n: c['heads'] for n, c in style['classes'].items()})}")


# Each attention class of the fixture built with a second configuration (other heads and widths), by an
# expression over the fixture's names, with the name `inputs` knows its input by.
SECOND = {
    "CausalSelfAttention": ("gpt_block", "GPTBlock(GPTConfig(n_embd=96, n_head=3))"),
    "MultiHeadAttention": ("", "MultiHeadAttention(d_model=96, n_heads=3, d_k=16, d_v=8)"),
    "Attention": ("llama_layer", "LlamaLayer(ModelArgs(dim=128, n_heads=4, n_kv_heads=1))"),
    "TimmAttention": ("", "TimmAttention(dim=96, num_heads=3)"),
    "LucidAttention": ("", "LucidAttention(dim=64, heads=2, dim_head=16)"),
    "CrossAttention": ("CrossAttention", "CrossAttention(query_dim=64, context_dim=48, heads=2, dim_head=24)"),
    "T5Attention": ("", "T5Attention(T5Config(d_model=64, d_kv=16, num_heads=4))"),
}


def second(namespace, recorder):
    """The heads and head size each class computes in its second configuration, from its real q, kᵀ and v."""
    out = {}
    for cls, (name, expression) in SECOND.items():
        model = eval(expression, namespace)  # the fixture's own classes, built as the expression says
        kept = recorder.builds, recorder.scores
        recorder.builds, recorder.scores = {}, {}
        recorder.run(model, lambda m: inputs(name, m))
        # Scores made by einsum have their heads (batch, heads, queries, keys), not the products' operands.
        (heads, head_dim), = recorder.builds.get(cls) or {(recorder.scores[cls][1], None)}
        recorder.builds, recorder.scores = kept
        out[cls] = {"expression": expression, "heads": heads, "headDim": head_dim}
    return out


# The realistic fixtures' models and an input each takes: token ids for the GPTs, a sequence of features for
# the Perceiver (its input width read from its own first norm).
REALISTIC = {
    "test/fixtures/models/pytorch/gpt.py": lambda ns: ("model", (torch.randint(0, 100, (2, 8)),)),
    "examples/gpt.py": lambda ns: ("model", (torch.randint(0, 100, (2, 8)),)),
    "test/fixtures/models/pytorch/cross_attention.py": lambda ns: ("perceiver", (torch.randn(2, 16, ns["perceiver"].cross.norm_inputs.normalized_shape[0]),)),
}


def realistic():
    """Each realistic fixture's model run forward once: None when PyTorch runs it, else its error."""
    out = {}
    for path, make in REALISTIC.items():
        namespace = runpy.run_path(str(ROOT / path))
        name, args = make(namespace)
        try:
            with torch.no_grad():
                namespace[name](*args)
            out[path] = {name: None}
        except Exception as e:  # the error is the datum
            out[path] = {name: f"{type(e).__name__}: {str(e).splitlines()[0]}"}
    return out


def mistakes():
    """Each class of the mistakes fixture built with its defaults and run, and each builder called: where it raises."""
    source = str(ROOT / MISTAKES)
    namespace = runpy.run_path(source)
    raised = {}
    for name, value in namespace.items():
        if getattr(value, "__module__", None) != "<run_path>" or not callable(value):
            continue
        try:
            if isinstance(value, type) and issubclass(value, torch.nn.Module):
                try:
                    model = value()
                except TypeError:
                    continue  # needs arguments: built by a builder
                model(torch.randn(BATCH, QUERIES, next(m for m in model.modules() if isinstance(m, torch.nn.Linear)).in_features))
            elif name.startswith("build_"):
                value()
        except Exception as e:  # the error is the datum
            line = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == source][-1].lineno
            raised[name] = {"line": line, "error": f"{type(e).__name__}: {str(e).splitlines()[0]}"}
    return raised


if __name__ == "__main__":
    sys.exit(main())
