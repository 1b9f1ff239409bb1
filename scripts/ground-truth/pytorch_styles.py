"""The attention styles of real model code (Hugging Face ViT, T5, Whisper; OpenAI CLIP; DETR) as real PyTorch
builds and runs them: each fixture's models built with documented configurations (their counts), and one
model of each run forward once on an input of its kind, recording the heads of the scores every attention
class really computes (the softmax input is (batch, heads, queries, keys)) and its projections' widths.

Used by pytorch_attention.py, which writes the result under "styles" in pytorch-attention.json:
  {fixture: {"totals": {expression: params}, "run": expression, "forward": null | "ErrorType: message",
             "classes": {name: {"heads", "queries", "keys", "projections": {attribute: out_features}}},
             "attentionLayers": attention modules in the run model (of those classes, or nn.MultiheadAttention),
             "multiheadAttention": [{"embed", "heads", "headDim"}] of its nn.MultiheadAttention layers}}
"""
import runpy
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

from pytorch_common import REPO_ROOT, install_transformers_fallback, param_count

FIXTURES = REPO_ROOT / "test/fixtures/models/pytorch"

# Per fixture: expressions evaluated in the fixture's namespace, the one run forward, and its input.
STYLES = {
    "hf_modeling_vit.py": {
        "totals": [
            "ViTModel(ViTConfig())",
            "ViTModel(ViTConfig(), add_pooling_layer=False)",
            "ViTForImageClassification(ViTConfig(num_labels=1000))",
        ],
        "run": "ViTModel(ViTConfig())",
        "input": lambda model: (torch.randn(1, 3, 224, 224),),
    },
    "hf_modeling_t5.py": {
        "totals": [
            "T5Model(T5Config())",
            "T5ForConditionalGeneration(T5Config())",
            "T5ForConditionalGeneration(T5Config(tie_word_embeddings=False))",
            "T5ForTokenClassification(T5Config(num_labels=9))",
        ],
        "run": "T5ForConditionalGeneration(T5Config())",
        "input": lambda model: (torch.randint(0, 100, (2, 7)), torch.randint(0, 100, (2, 5))),
    },
    "hf_modeling_whisper.py": {
        "totals": ["WhisperModel(WhisperConfig())", "WhisperForConditionalGeneration(WhisperConfig())"],
        "run": "WhisperForConditionalGeneration(WhisperConfig())",
        "input": lambda model: (torch.randn(1, 80, 3000), torch.randint(0, 100, (1, 5))),
    },
    # OpenAI's published configurations: ViT-B/32, ViT-B/16, ViT-L/14.
    "clip_style.py": {
        "totals": [
            "CLIP(512, 224, 12, 768, 32, 77, 49408, 512, 8, 12)",
            "CLIP(512, 224, 12, 768, 16, 77, 49408, 512, 8, 12)",
            "CLIP(768, 224, 24, 1024, 14, 77, 49408, 768, 12, 12)",
        ],
        "run": "CLIP(512, 224, 12, 768, 32, 77, 49408, 512, 8, 12)",
        "input": lambda model: (torch.randn(1, 3, 224, 224), torch.randint(0, 49408, (2, 77))),
    },
    # DETR's COCO detector (91 classes) and its panoptic one (250), its backbone stubbed.
    "detr_style.py": {
        "totals": ["build_detr()", "build_detr(num_classes=250)", "Transformer(d_model=256, return_intermediate_dec=True)"],
        "run": "build_detr()",
        "input": lambda model: (torch.randn(1, 3, 256, 256),),
    },
}


class ScoreRecorder:
    """The shape of the first scores each attention class takes a softmax of, by class name."""

    def __init__(self):
        self.running = []
        self.scores = {}
        for owner in (torch, F, torch.Tensor):
            original = getattr(owner, "softmax")

            def patched(t, *args, _original=original, **kwargs):
                self.record(t)
                return _original(t, *args, **kwargs)

            setattr(owner, "softmax", patched)
        softmax_forward = torch.nn.Softmax.forward
        torch.nn.Softmax.forward = lambda module, t: (self.record(t), softmax_forward(module, t))[1]

    def record(self, t):
        # The module whose forward() takes the softmax: an nn.Softmax is a part of it.
        owners = [m for m in self.running if not isinstance(m, torch.nn.Softmax)]
        if owners and t.dim() == 4:
            self.scores.setdefault(type(owners[-1]).__name__, tuple(t.shape))

    def watch(self, model):
        for m in model.modules():
            m.register_forward_pre_hook(lambda mod, _args: self.running.append(mod) and None)
            # A forward hook that returns a value replaces the output: this one returns None.
            m.register_forward_hook(lambda _mod, _args, _out: self.running.pop() and None)

    def classes(self, model):
        """The attention classes of `model` seen computing scores, with their projections' widths."""
        out = {}
        for m in model.modules():
            shape = self.scores.get(type(m).__name__)
            if shape and type(m).__name__ not in out:
                projections = {n: c.out_features for n, c in m.named_modules() if isinstance(c, torch.nn.Linear)}
                out[type(m).__name__] = {"heads": shape[1], "queries": shape[2], "keys": shape[3], "projections": projections}
        return out


def styles(recorder):
    install_transformers_fallback()
    sys.path.insert(0, str(FIXTURES))
    result = {}
    for name, style in STYLES.items():
        namespace = runpy.run_path(str(FIXTURES / name))
        totals = {expr: param_count(eval(expr, namespace)) for expr in style["totals"]}  # noqa: S307 - our own expressions
        model = eval(style["run"], namespace)  # noqa: S307
        recorder.scores = {}
        recorder.watch(model)
        try:
            with torch.no_grad():
                model(*style["input"](model))
            error = None
        except Exception as e:  # the error is the datum
            error = f"{type(e).__name__}: {str(e).splitlines()[0]}"
        rel = (FIXTURES / name).relative_to(REPO_ROOT).as_posix()
        classes = recorder.classes(model)
        # nn.MultiheadAttention computes its scores in one fused call: its heads are its own attributes.
        mha = [m for m in model.modules() if isinstance(m, torch.nn.MultiheadAttention)]
        heads = sorted({(m.embed_dim, m.num_heads, m.head_dim) for m in mha})
        layers = len(mha) + sum(type(m).__name__ in classes for m in model.modules())
        result[rel] = {
            "totals": totals,
            "run": style["run"],
            "forward": error,
            "classes": classes,
            "attentionLayers": layers,
            "multiheadAttention": [{"embed": e, "heads": h, "headDim": d} for e, h, d in heads],
        }
    return result


if __name__ == "__main__":
    sys.exit("run pytorch_attention.py, which writes this module's figures")
