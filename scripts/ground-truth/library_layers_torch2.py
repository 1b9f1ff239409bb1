"""Counts, with the libraries themselves on PyTorch 2, the layers of libraries that need it: bitsandbytes' quantised
layers and embeddings, Megatron-core's tensor-parallel layers, apex's fused norms (run from its source), and
peft's LoRA on the models of fixtures.

    python3 -m venv /tmp/torch2-venv
    /tmp/torch2-venv/bin/pip install -r scripts/ground-truth/requirements-torch2.txt
    /tmp/torch2-venv/bin/pip install --no-deps -r scripts/ground-truth/requirements-torch2-libraries.txt
    git clone https://github.com/NVIDIA/apex /tmp/apex   # its pure-Python normalization module is all it runs
    APEX_SOURCE=/tmp/apex /tmp/torch2-venv/bin/python scripts/ground-truth/library_layers_torch2.py

writes test/fixtures/expected/library-layers-torch2.json: `calls`, each constructor call with its count and
named_parameters() as built (as library-layers.json), and for a quantised layer `stored`, what it holds once moved
to a device quantises it (`.to("cpu")`, as `.cuda()` does on a GPU): the weight's bytes, its scales' bytes (the
8-bit layer's row scales SCB; the 4-bit layer's absmax per block, and the float32 scales of those when
compress_statistics nests them) and what `sum(p.numel())` says then; `fixtures`, for each fixture of
test/fixtures/models/pytorch/libraries_torch2/, the count of every module of each class in the models it builds;
`peft`, for each fixture of peft's LoRA there (lora_*.py), the models its module body builds with their counts
and trainable counts once it has run (get_peft_model changes the model it is given). Megatron-core's layers are built in a process
group of one process (tensor-parallel world size 1). unit/libraryLayersTorch2.test.ts checks the analysis
against the file. Transformer Engine needs CUDA to build a layer, so its entries follow its source instead.
"""

import ast
import importlib.metadata
import importlib.util
import os
import sys
import types
import warnings

import torch
import torch.distributed as dist

from library_layers import fixture_counts, run_fixture
from pytorch_common import REPO_ROOT, describe, describe_error, param_count, write_json

OUTPUT = REPO_ROOT / "test/fixtures/expected/library-layers-torch2.json"
FIXTURES = REPO_ROOT / "test/fixtures/models/pytorch/libraries_torch2"

BITSANDBYTES = [
    "bnb.nn.Linear8bitLt(4096, 11008)",
    "bnb.nn.Linear8bitLt(4096, 11008, bias=False, has_fp16_weights=False)",
    "bnb.nn.Linear8bitLt(64, 33, has_fp16_weights=False, threshold=6.0)",
    "bnb.nn.Linear4bit(4096, 4096, bias=False)",
    "bnb.nn.Linear4bit(4096, 11008, bias=False, compute_dtype=torch.bfloat16, quant_type='nf4')",
    "bnb.nn.Linear4bit(100, 33, compress_statistics=False)",
    "bnb.nn.Linear4bit(64, 32, True, None, False, 'nf4')",
    "bnb.nn.LinearNF4(64, 32)",
    "bnb.nn.LinearFP4(4096, 1000, bias=False)",
    "bnb.nn.StableEmbedding(32000, 512)",
    "bnb.nn.StableEmbedding(100, 16, padding_idx=0)",
    "bnb.nn.Embedding(32000, 512)",
]
MEGATRON = [
    "tensor_parallel.ColumnParallelLinear(512, 1536, config=config, init_method=init)",
    "tensor_parallel.ColumnParallelLinear(512, 1536, config=config, init_method=init, bias=False, gather_output=True)",
    "tensor_parallel.ColumnParallelLinear(512, 1536, config=config, init_method=init, skip_bias_add=True)",
    "tensor_parallel.ColumnParallelLinear(512, 1536, config=config, init_method=init, skip_weight_param_allocation=True)",
    "tensor_parallel.RowParallelLinear(2048, 512, config=config, init_method=init, bias=True, input_is_parallel=True, skip_bias_add=False)",
    "tensor_parallel.RowParallelLinear(2048, 512, config=config, init_method=init, bias=False, input_is_parallel=True, skip_bias_add=True)",
    "tensor_parallel.VocabParallelEmbedding(32000, 512, init_method=init, config=config)",
]
APEX = [
    "FusedLayerNorm(512)",
    "FusedLayerNorm((4, 16), eps=1e-6)",
    "FusedLayerNorm(512, elementwise_affine=False)",
    "FusedRMSNorm(512)",
    "FusedRMSNorm(512, 1e-6, False)",
    "MixedFusedLayerNorm(512, 1e-5)",
    "MixedFusedRMSNorm(512)",
    "MixedFusedRMSNorm(512, elementwise_affine=False)",
]


def peft_models(path, module):
    """Each model a fixture's module body binds (`adapted = get_peft_model(decoder, LoraConfig(...))`), and the
    model a get_peft_model call builds in its arguments: the line of the call that builds it, its class, count and
    trainable count once the module body has run."""
    def row(line, model):
        trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
        return {"line": line, "class": type(model).__name__, "params": param_count(model), "trainable": trainable}

    rows = []
    for node in ast.parse(path.read_text()).body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        value = getattr(module, node.targets[0].id)
        rows.append(row(node.value.lineno, value))
        given = node.value.args[0] if hasattr(value, "base_model") else None
        if isinstance(given, ast.Call):
            rows.append(row(given.lineno, value.base_model.model))
    return sorted(rows, key=lambda r: (r["line"], r["class"]))


def nbytes(t):
    return t.numel() * t.element_size()


def stored(layer):
    """What the layer holds once `.to()` a device has quantised it."""
    layer = layer.to("cpu")
    weight = layer.weight
    out = {"weight_dtype": str(weight.dtype).replace("torch.", ""), "weight_bytes": nbytes(weight)}
    state = getattr(weight, "quant_state", None)
    if state is not None:
        out["scale_bytes"] = nbytes(state.absmax)
        out["nested_scale_bytes"] = nbytes(state.state2.absmax) if state.nested else 0
    elif getattr(weight, "SCB", None) is not None:
        out["scale_bytes"] = nbytes(weight.SCB)
    out["numel_after"] = sum(p.numel() for p in layer.parameters())
    return out


def run(calls, scope, quantised=False):
    rows = []
    for call in calls:
        try:
            layer = eval(call, scope)
            row = {"call": call, **describe(layer)}
            if quantised and type(layer).__name__.startswith("Linear"):
                row["stored"] = stored(layer)
            rows.append(row)
        except Exception as exc:
            rows.append({"call": call, "error": describe_error(exc)})
    return rows


def one_process():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29544")
    dist.init_process_group("gloo", rank=0, world_size=1)
    from megatron.core import parallel_state

    parallel_state.initialize_model_parallel(1, 1)


def apex_normalization(source):
    """apex/normalization/fused_layer_norm.py from a checkout, its CUDA extension never called on the CPU."""
    sys.modules["fused_layer_norm_cuda"] = types.ModuleType("fused_layer_norm_cuda")
    utils = types.ModuleType("apex._autocast_utils")
    utils._cast_if_autocast_enabled = lambda *args: args
    sys.modules["apex"] = types.ModuleType("apex")
    sys.modules["apex._autocast_utils"] = utils
    path = os.path.join(source, "apex/normalization/fused_layer_norm.py")
    spec = importlib.util.spec_from_file_location("fused_layer_norm", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # transformers asks whether apex is installed: the stand-ins must not answer for it.
    for name in ("apex", "apex._autocast_utils"):
        del sys.modules[name]
    return vars(module)


def main():
    warnings.simplefilter("ignore")
    import bitsandbytes as bnb
    from megatron.core import tensor_parallel
    from megatron.core.model_parallel_config import ModelParallelConfig

    one_process()
    calls = run(BITSANDBYTES, {"bnb": bnb, "torch": torch}, quantised=True)
    megatron = {
        "tensor_parallel": tensor_parallel,
        "config": ModelParallelConfig(use_cpu_initialization=True),
        "init": torch.nn.init.xavier_normal_,
    }
    calls += run(MEGATRON, megatron)
    calls += run(APEX, apex_normalization(os.environ["APEX_SOURCE"]))
    versions = {
        "torch": torch.__version__,
        "bitsandbytes": bnb.__version__,
        "megatron-core": importlib.metadata.version("megatron-core"),
        "apex": os.environ.get("APEX_COMMIT", "source"),
    }
    paths = sorted(FIXTURES.glob("*.py"))
    fixtures = {f"libraries_torch2/{p.name}": fixture_counts(run_fixture(p)) for p in paths if not p.name.startswith("lora_")}
    adapted = {f"libraries_torch2/{p.name}": peft_models(p, run_fixture(p)) for p in paths if p.name.startswith("lora_")}
    versions["peft"] = importlib.metadata.version("peft")
    out = {"versions": versions, "calls": calls, "fixtures": fixtures, "peft": adapted}
    print(write_json(OUTPUT, out, 2))


if __name__ == "__main__":
    main()
