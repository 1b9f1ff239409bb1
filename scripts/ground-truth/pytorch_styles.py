"""The attention styles of real model code (Hugging Face ViT, T5, Whisper; OpenAI CLIP; DETR) as real PyTorch
builds and runs them: each fixture's models built with documented configurations (their counts), and one
model of each run forward once on an input of its kind, recording the heads of the scores every attention
class really computes (the softmax input is (batch, heads, queries, keys)) and its projections' widths.

Used by pytorch_attention.py, which writes the result under "styles" in pytorch-attention.json:
  {fixture: {"totals": {expression: params}, "run": expression, "forward": null | "ErrorType: message",
             "classes": {name: {"heads", "queries", "keys", "projections": {attribute: out_features}}},
             "attentionLayers": attention modules in the run model (of those classes, or nn.MultiheadAttention),
             "multiheadAttention": [{"embed", "heads", "headDim"}] of its nn.MultiheadAttention layers,
             "builds": {name: [{"heads", "headDim"}]}: every distinct build of each attention class in the run
                       model and the style's other builds, from the tensors its scores are computed from,
             "kvPerToken": {expression: numbers}: the keys and values a model's attention computes per token}}
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
    # Segment Anything's image encoders: ViT-B, ViT-L and ViT-H, and a ViT-L-wide one run on a small image.
    "sam_vit_style.py": {
        "totals": [
            "ImageEncoderViT()",
            "ImageEncoderViT(embed_dim=1024, depth=24, num_heads=16)",
            "ImageEncoderViT(embed_dim=1280, depth=32, num_heads=16)",
        ],
        "run": "ImageEncoderViT(img_size=64, embed_dim=1024, depth=2, num_heads=16)",
        "input": lambda model: (torch.randn(1, 3, 64, 64),),
        # The defaults' attention (ViT-B's), on a smaller image and depth: neither changes a head.
        "builds": [("ImageEncoderViT(img_size=64, depth=1)", lambda model: (torch.randn(1, 3, 64, 64),))],
        "kv": [
            ("Attention(768, num_heads=12)", lambda model: (torch.randn(2, 4, 4, 768),)),
            ("Attention(1280, num_heads=16)", lambda model: (torch.randn(2, 4, 4, 1280),)),
        ],
    },
    # Swin-T (the defaults), Swin-S and Swin-B; Swin-B run, its four stages with 4, 8, 16 and 32 heads.
    "swin_style.py": {
        "totals": [
            "SwinTransformer()",
            "SwinTransformer(depths=(2, 2, 18, 2))",
            "SwinTransformer(embed_dim=128, depths=(2, 2, 18, 2), num_heads=(4, 8, 16, 32))",
        ],
        "run": "SwinTransformer(embed_dim=128, depths=(2, 2, 18, 2), num_heads=(4, 8, 16, 32))",
        "input": lambda model: (torch.randn(1, 3, 224, 224),),
        "builds": [("SwinTransformer()", lambda model: (torch.randn(1, 3, 224, 224),))],
        "kv": [
            ("WindowAttention(96, 7, 3)", lambda model: (torch.randn(8, 49, 96),)),
            ("WindowAttention(512, 7, 16)", lambda model: (torch.randn(8, 49, 512),)),
        ],
    },
}

PRODUCTS = ((torch, "matmul"), (torch, "bmm"), (torch.Tensor, "matmul"), (torch.Tensor, "bmm"), (torch.Tensor, "__matmul__"))


class ScoreRecorder:
    """The shape of the first scores each attention class takes a softmax of, by class name; and each
    attention's heads and head size as its query, key and value tensors have them (`builds`), and its keys
    and values per token (`kv`), from the operands of the products before and after its softmax."""

    def __init__(self):
        self.running = []
        self.scores = {}
        # Per module of the model running (by the module, not its id, which a freed model's may share): its
        # input, the operands of its last product, and those of its scores once softmaxed.
        self.inputs = {}
        self.last_product = {}
        self.softmaxed = {}
        self.builds = {}
        self.kv = {}
        for owner, name in PRODUCTS:
            original = getattr(owner, name)

            def patched(a, b, *args, _original=original, **kwargs):
                out = _original(a, b, *args, **kwargs)
                self.product(a, b)
                return out

            setattr(owner, name, patched)
        for owner in (torch, F, torch.Tensor):
            original = getattr(owner, "softmax")

            def patched(t, *args, _original=original, **kwargs):
                self.record(t)
                return _original(t, *args, **kwargs)

            setattr(owner, "softmax", patched)
        softmax_forward = torch.nn.Softmax.forward
        torch.nn.Softmax.forward = lambda module, t: (self.record(t), softmax_forward(module, t))[1]

    def owner(self):
        """The module whose forward() is running: an nn.Softmax is a part of it."""
        owners = [m for m in self.running if not isinstance(m, torch.nn.Softmax)]
        return owners[-1] if owners else None

    def record(self, t):
        owner = self.owner()
        if owner is not None and t.dim() == 4:
            self.scores.setdefault(type(owner).__name__, tuple(t.shape))
        if owner is not None and owner in self.last_product:
            self.softmaxed[owner] = (self.last_product[owner], tuple(t.shape))

    def product(self, a, b):
        owner = self.owner()
        if owner is None:
            return
        scores = self.softmaxed.pop(owner, None)
        if scores is None:
            self.last_product[owner] = (a, b)
            return
        (q, k), shape = scores
        self.build(owner, q, k, b, shape)

    def build(self, module, q, k, v, scores):
        """The heads of one attention as its tensors have them: q, kᵀ and v as the products took them."""
        x = self.inputs.get(module)
        if x is None:
            return
        positions = x.numel() // x.shape[-1]
        head_dim = q.shape[-1]
        if q.numel() % (positions * head_dim):
            return
        heads = q.numel() // positions // head_dim
        self.builds.setdefault(type(module).__name__, set()).add((heads, head_dim))
        # Keys and values per token, where there are as many keys as queries (self attention).
        if scores[-1] == scores[-2]:
            self.kv[module] = (k.numel() + v.numel()) // positions

    def watch(self, model):
        for m in model.modules():
            m.register_forward_pre_hook(lambda mod, args: self.entered(mod, args))
            # A forward hook that returns a value replaces the output: this one returns None.
            m.register_forward_hook(lambda _mod, _args, _out: self.running.pop() and None)

    def entered(self, module, args):
        self.running.append(module)
        if args and isinstance(args[0], torch.Tensor):
            self.inputs[module] = args[0]

    def forget(self):
        self.inputs, self.last_product, self.softmaxed, self.kv = {}, {}, {}, {}

    def run(self, model, make_input):
        """Runs another model of the style forward, adding its builds; its keys and values per token."""
        self.forget()
        self.watch(model)
        with torch.no_grad():
            model(*make_input(model))
        return self.kv_per_token(model)

    def kv_per_token(self, model):
        """The keys and values per token of every attention in `model`; None where one was not seen."""
        attention = [m for m in model.modules() if type(m).__name__ in self.builds]
        seen = [self.kv.get(m) for m in attention]
        return sum(seen) if attention and None not in seen else None

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
        recorder.builds = {}
        recorder.forget()
        recorder.watch(model)
        try:
            with torch.no_grad():
                model(*style["input"](model))
            error = None
        except Exception as e:  # the error is the datum
            error = f"{type(e).__name__}: {str(e).splitlines()[0]}"
        for expr, make_input in style.get("builds", []):
            recorder.run(eval(expr, namespace), make_input)  # noqa: S307
        builds = {c: [{"heads": h, "headDim": d} for h, d in sorted(b)] for c, b in sorted(recorder.builds.items())}
        kv = {expr: recorder.run(eval(expr, namespace), make_input) for expr, make_input in style.get("kv", [])}  # noqa: S307
        rel = (FIXTURES / name).relative_to(REPO_ROOT).as_posix()
        classes = recorder.classes(model)
        # nn.MultiheadAttention computes its scores in one fused call: its heads are its own attributes.
        mha = [m for m in model.modules() if isinstance(m, torch.nn.MultiheadAttention)]
        heads = sorted({(m.embed_dim, m.num_heads, m.head_dim) for m in mha})
        # An attention class is one seen computing 4-d scores, or its heads from its tensors (SAM's 3-d scores).
        attention = set(classes) | set(recorder.builds)
        layers = len(mha) + sum(type(m).__name__ in attention and not isinstance(m, torch.nn.MultiheadAttention) for m in model.modules())
        result[rel] = {
            "totals": totals,
            "run": style["run"],
            "forward": error,
            "classes": classes,
            "attentionLayers": layers,
            "multiheadAttention": [{"embed": e, "heads": h, "headDim": d} for e, h, d in heads],
            "builds": builds,
            "kvPerToken": kv,
        }
    return result


if __name__ == "__main__":
    sys.exit("run pytorch_attention.py, which writes this module's figures")
