"""Helpers shared by pytorch_layers.py and pytorch_catalog.py (not a script itself)."""

import json
import sys
import types
import warnings
from pathlib import Path

from torch.nn.parameter import UninitializedParameter

REPO_ROOT = Path(__file__).resolve().parents[2]

# Lazy-module and zero-size-init warnings would bury the summary; they carry no data we record.
warnings.simplefilter("ignore")


def install_einops_fallback():
    """Debian has no einops package: give the fixtures the two rearrange patterns they use, built on torch.

    Only when einops itself cannot be imported; counting never calls it, and forward() runs need only these.
    """
    try:
        import einops  # noqa: F401
        return
    except ImportError:
        pass

    def rearrange(t, pattern, **axes):
        pattern = " ".join(pattern.split())
        if pattern == "b n (h d) -> b h n d":
            b, n, _ = t.shape
            return t.reshape(b, n, axes["h"], -1).transpose(1, 2)
        if pattern == "b h n d -> b n (h d)":
            b, h, n, d = t.shape
            return t.transpose(1, 2).reshape(b, n, h * d)
        raise NotImplementedError(pattern)

    import torch

    class Rearrange(torch.nn.Module):
        """einops.layers.torch.Rearrange: no parameters."""

        def __init__(self, pattern, **axes):
            super().__init__()
            self.pattern, self.axes = pattern, axes

        def forward(self, x):
            return rearrange(x, self.pattern, **self.axes)

    module = types.ModuleType("einops")
    module.rearrange = rearrange
    layers = types.ModuleType("einops.layers")
    layers_torch = types.ModuleType("einops.layers.torch")
    layers_torch.Rearrange = Rearrange
    sys.modules["einops"] = module
    sys.modules["einops.layers"] = layers
    sys.modules["einops.layers.torch"] = layers_torch


def install_transformers_fallback():
    """Debian has no transformers package: the base classes the Hugging Face style fixtures build on, with
    what transformers 4.57 does in them that changes a count.

    PretrainedConfig keeps its keyword arguments over its own defaults (tie_word_embeddings True, two labels,
    the "eager" attention implementation) and reads the attributes its attribute_map renames; PreTrainedModel keeps its config, adds no parameters,
    builds a class with _from_config(config), and its post_init() ties the output embeddings
    (get_output_embeddings(), by default lm_head) to the input embeddings (get_input_embeddings(), by default
    embed_tokens, model.embed_tokens or the base model's) when tie_word_embeddings is set, then runs the
    class's own _tie_weights().
    """
    try:
        import transformers  # noqa: F401
        return
    except ImportError:
        pass
    import torch

    class PretrainedConfig:
        attribute_map = {}

        def __setattr__(self, key, value):
            super().__setattr__(type(self).attribute_map.get(key, key), value)

        def __getattribute__(self, key):
            if key != "attribute_map" and key in type(self).attribute_map:
                key = type(self).attribute_map[key]
            return super().__getattribute__(key)

        def __init__(self, tie_word_embeddings=True, is_encoder_decoder=False, is_decoder=False, add_cross_attention=False, tie_encoder_decoder=False, torchscript=False, num_labels=2, **kwargs):
            self.tie_word_embeddings = tie_word_embeddings
            self.is_encoder_decoder = is_encoder_decoder
            self.is_decoder = is_decoder
            self.add_cross_attention = add_cross_attention
            self.tie_encoder_decoder = tie_encoder_decoder
            self.torchscript = torchscript
            self.num_labels = num_labels
            # The attention class transformers 4.36 to 4.47 pick by it (LLAMA_ATTENTION_CLASSES): "eager" unless
            # told; every implementation has the same weights.
            self._attn_implementation = kwargs.pop("attn_implementation", "eager")
            for key, value in kwargs.items():
                setattr(self, key, value)

    class PreTrainedModel(torch.nn.Module):
        _input_embed_layer = "embed_tokens"
        base_model_prefix = ""

        def __init_subclass__(cls, **kwargs):
            # transformers 4.5x names the configuration class by annotating `config: BertConfig`.
            super().__init_subclass__(**kwargs)
            annotated = cls.__dict__.get("__annotations__", {}).get("config")
            if isinstance(annotated, type):
                cls.config_class = annotated

        def __init__(self, config, *inputs, **kwargs):
            super().__init__()
            self.config = config

        @classmethod
        def _from_config(cls, config, **kwargs):
            return cls(config)

        def get_input_embeddings(self):
            own = getattr(self, self._input_embed_layer, None)
            if own is not None:
                return own
            if hasattr(self, "model") and hasattr(self.model, "embed_tokens"):
                return self.model.embed_tokens
            base = getattr(self, self.base_model_prefix, None) if self.base_model_prefix else None
            if base is not None and base is not self:
                return base.get_input_embeddings()
            raise NotImplementedError(type(self).__name__)

        def get_output_embeddings(self):
            if not hasattr(self, "lm_head"):
                return None
            try:
                self.get_input_embeddings()
            except NotImplementedError:
                return None
            return self.lm_head

        def _tie_or_clone_weights(self, output_embeddings, input_embeddings):
            if self.config.torchscript:
                output_embeddings.weight = torch.nn.Parameter(input_embeddings.weight.clone())
            else:
                output_embeddings.weight = input_embeddings.weight

        def tie_weights(self):
            for module in self.modules():
                if isinstance(module, PreTrainedModel):
                    if getattr(module.config, "tie_word_embeddings", True):
                        output = module.get_output_embeddings()
                        if output is not None:
                            module._tie_or_clone_weights(output, module.get_input_embeddings())
                    if hasattr(module, "_tie_weights"):
                        module._tie_weights()

        def post_init(self):
            self.tie_weights()

    class Conv1D(torch.nn.Module):
        """transformers.pytorch_utils.Conv1D as the library defines it: a linear layer, weight [nx, nf]."""

        def __init__(self, nf, nx):
            super().__init__()
            self.nf = nf
            self.weight = torch.nn.Parameter(torch.empty(nx, nf))
            self.bias = torch.nn.Parameter(torch.zeros(nf))
            torch.nn.init.normal_(self.weight, std=0.02)

        def forward(self, x):
            size_out = x.size()[:-1] + (self.nf,)
            return torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight).view(size_out)

    class GradientCheckpointingLayer(torch.nn.Module):
        """transformers.modeling_layers.GradientCheckpointingLayer: an nn.Module that may checkpoint its call."""

    def can_return_tuple(forward):
        return forward

    module = types.ModuleType("transformers")
    module.PretrainedConfig = PretrainedConfig
    module.PreTrainedModel = PreTrainedModel
    utils = types.ModuleType("transformers.pytorch_utils")
    utils.Conv1D = Conv1D
    module.pytorch_utils = utils
    layers = types.ModuleType("transformers.modeling_layers")
    layers.GradientCheckpointingLayer = GradientCheckpointingLayer
    generic = types.ModuleType("transformers.utils.generic")
    generic.can_return_tuple = can_return_tuple
    sys.modules["transformers"] = module
    sys.modules["transformers.pytorch_utils"] = utils
    sys.modules["transformers.modeling_layers"] = layers
    sys.modules["transformers.utils"] = types.ModuleType("transformers.utils")
    sys.modules["transformers.utils.generic"] = generic


def import_timm():
    """timm from PyPI (requirements-libraries.txt) on Debian's PyPI-less PyTorch 1.13: Debian has no torchvision, which
    timm imports for its data transforms only (no layer of it holds a parameter), and PyTorch 1.13 has no
    torch.compiler, which timm reads for its decorators. Both are stood in for; nothing they stand for is counted.
    """
    import importlib.abc
    import importlib.machinery
    from unittest.mock import MagicMock

    import torch

    if not hasattr(torch, "compiler"):
        torch.compiler = types.SimpleNamespace(
            disable=lambda f=None, **k: f if f else (lambda g: g), is_compiling=lambda: False
        )

    class AnyAttribute(type):
        def __getattr__(cls, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return MagicMock(name=name)

    class Stub(types.ModuleType):
        __path__ = []

        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return AnyAttribute(name, (), {"__init__": lambda self, *a, **k: None})

    class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path, target=None):
            return importlib.machinery.ModuleSpec(name, self) if name.split(".")[0] == "torchvision" else None

        def create_module(self, spec):
            return Stub(spec.name)

        def exec_module(self, module):
            pass

    sys.meta_path.insert(0, StubFinder())
    try:
        import timm
    except ImportError:
        sys.exit(
            "timm is not installed: /usr/bin/python3 -m venv --system-site-packages /tmp/truth-venv && "
            "/tmp/truth-venv/bin/pip install --no-deps -r scripts/ground-truth/requirements-libraries.txt, "
            "then run this script with /tmp/truth-venv/bin/python"
        )
    return timm


def is_lazy(module):
    # numel() raises on uninitialized parameters, so such a module has no count until its first forward().
    return any(isinstance(p, UninitializedParameter) for p in module.parameters())


def param_count(module):
    """What `sum(p.numel() for p in m.parameters())` prints, or None for an uninitialized lazy module.

    parameters() yields a tied tensor once, so tied weights are counted once, as PyTorch users see it.
    """
    return None if is_lazy(module) else sum(p.numel() for p in module.parameters())


def describe(module):
    if is_lazy(module):
        return {
            "kind": type(module).__name__,
            "lazy": True,
            "params": None,
            "tensors": [[name, None] for name, _ in module.named_parameters()],
        }
    return {
        "kind": type(module).__name__,
        "params": param_count(module),
        "tensors": [[name, list(p.shape)] for name, p in module.named_parameters()],
    }


def describe_error(exc):
    return {"type": type(exc).__name__, "message": str(exc)}


def _render(value, expand, indent):
    # Containers above `expand` levels get one entry per line; deeper ones stay on one line,
    # so each record is a single greppable, diff-friendly line.
    if expand <= 0 or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value)
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_render(v, expand - 1, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    items = [pad + _render(v, expand - 1, indent + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"


def write_json(path, value, expand):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_render(value, expand, 0) + "\n", encoding="utf-8")
    return path.relative_to(REPO_ROOT).as_posix()
