"""Counts, with the libraries themselves, the layers of libraries the catalog knows beside torch.nn (fairscale's
model-parallel layers), and the fixtures of test/fixtures/models/pytorch/libraries/ that build them.

    /usr/bin/python3 -m venv --system-site-packages /tmp/truth-venv
    /tmp/truth-venv/bin/pip install --no-deps -r scripts/ground-truth/requirements-libraries.txt
    /tmp/truth-venv/bin/python scripts/ground-truth/library_layers.py

writes test/fixtures/expected/library-layers.json: `calls`, each constructor call of CALLS with its count and
named_parameters() (as pytorch-catalog.json); `fixtures`, for each fixture, the count of every module of each class
in the models its module body builds (which must all agree); `caches`, for each model of a fixture that keeps its
keys and values in tensors (Llama's `cache_k`, `cache_v`), the numbers one token adds to them, and the heads of
the attention that writes them (`n_local_heads`, `n_local_kv_heads`, `head_dim`). fairscale's layers are built in
a process group of one process with a model-parallel world size of 1, as `python model.py` on one GPU runs them.
unit/libraryLayers.test.ts checks the analysis against the file.
"""

import importlib.util
import os
import sys

import torch
import torch.distributed as dist

from pytorch_common import REPO_ROOT, describe, describe_error, param_count, write_json

OUTPUT = REPO_ROOT / "test/fixtures/expected/library-layers.json"
FIXTURES = REPO_ROOT / "test/fixtures/models/pytorch/libraries"
IMPORTS = (
    "from fairscale.nn.model_parallel.layers import "
    "ColumnParallelLinear, RowParallelLinear, ParallelEmbedding, VocabParallelEmbedding"
)
CALLS = [
    "ColumnParallelLinear(512, 1024)",
    "ColumnParallelLinear(512, 1024, bias=False, gather_output=False, init_method=lambda x: x)",
    "RowParallelLinear(1024, 512)",
    "RowParallelLinear(1024, 512, bias=False, input_is_parallel=True)",
    "ParallelEmbedding(32000, 4096)",
    "ParallelEmbedding(100, 8, padding_idx=0)",
    "VocabParallelEmbedding(32000, 4096)",
]


def one_process():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=0, world_size=1)
    from fairscale.nn.model_parallel.initialize import initialize_model_parallel

    initialize_model_parallel(1)


def run_fixture(path):
    """The fixture run as a module: its classes and the models its module body builds."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fixture_counts(module):
    counts = {}
    for value in vars(module).values():
        if isinstance(value, torch.nn.Module):
            for m in value.modules():
                if type(m).__module__ == module.__name__:
                    counts.setdefault(type(m).__name__, set()).add(param_count(m))
    for name, seen in counts.items():
        if len(seen) != 1:
            sys.exit(f"{module.__name__}: {name} has {len(seen)} counts: {seen}")
    return {name: seen.pop() for name, seen in sorted(counts.items())}


def caches(module):
    """For each model the fixture builds: the numbers of cache_k and cache_v one token fills, and each attention's heads."""
    out = {}
    for value in vars(module).values():
        if not isinstance(value, torch.nn.Module):
            continue
        kept = [m for m in value.modules() if hasattr(m, "cache_k")]
        if kept:
            out[type(value).__name__] = {
                "per_token": sum(m.cache_k[0, 0].numel() + m.cache_v[0, 0].numel() for m in kept),
                "heads": sorted({(m.n_local_heads, m.n_local_kv_heads, m.head_dim) for m in kept}),
            }
    return out


def main():
    one_process()
    scope = {}
    exec(IMPORTS, scope)
    calls = []
    for call in CALLS:
        try:
            calls.append({"call": call, **describe(eval(call, scope))})
        except Exception as exc:
            calls.append({"call": call, "error": describe_error(exc)})
    modules = {f"libraries/{p.name}": run_fixture(p) for p in sorted(FIXTURES.glob("*.py"))}
    fixtures = {name: fixture_counts(module) for name, module in modules.items()}
    kept = {name: caches(module) for name, module in modules.items()}
    print(write_json(OUTPUT, {"calls": calls, "fixtures": fixtures, "caches": kept}, 2))


if __name__ == "__main__":
    main()
