"""Runs every `expression` the CLI prints for a configuration of the PyTorch fixtures' classes, with PyTorch.

    npm run build && python3 scripts/ground-truth/pytorch_expressions.py

writes test/fixtures/expected/pytorch-expressions.json: for each fixture, each configuration the CLI's JSON
gives an expression, with the class, the configuration's context, the expression and the count PyTorch gives
for the module it builds (`params`). The CLI's count must be PyTorch's: a configuration whose expression builds another
count (or raises) stops the script, naming it. The fixtures of `checkpoints/` lie beside a configuration file
(`params.json`, a Hugging Face `config.json`): a configuration built from one (`Transformer(ModelArgs(**params.json))`)
is also built as Python would, with `json.load` of that file (`yaml.safe_load`, `tomllib.load` for those of
`configs/`), and must give the same count (`loaded`). `own`: configurations of the user's own (OWN), given to the CLI
as `--config EXPRESSION`, each with what PyTorch counts for the model it builds, and every part the CLI counts
for it checked the same way. unit/frameworks.test.ts checks the analysis against the file.
"""

import importlib.util
import json
import re
import subprocess
import sys
import tomllib

import torch
import yaml

from pytorch_common import REPO_ROOT, install_einops_fallback, install_transformers_fallback, param_count, write_json

install_einops_fallback()
install_transformers_fallback()

FIXTURES = REPO_ROOT / "test/fixtures/models/pytorch"
OUTPUT = REPO_ROOT / "test/fixtures/expected/pytorch-expressions.json"
# Configurations of the user's own, given as `--config EXPRESSION`: each is counted as that expression builds it.
OWN = {
    "presets.py": ["GPT(GPTConfig(n_layer=5, n_embd=64))", "Transformer.from_name('m')", "build_encoder('base')"],
    "config_defaults.py": ["Classifier(3, head=HeadConfig(width=7))"],
}


def printed(paths, options=()):
    """The CLI's JSON for the fixtures, as the shipped bundle prints it."""
    run = subprocess.run(
        ["node", str(REPO_ROOT / "dist/cli.js"), "--json", "--jobs", "1", *options, *(p.relative_to(REPO_ROOT).as_posix() for p in paths)],
        capture_output=True, text=True, cwd=REPO_ROOT,
    )
    if run.returncode == 2:
        sys.exit(f"the CLI failed: {run.stderr}")
    return json.loads(run.stdout)["files"]


def load(path):
    name = f"fixture_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up in sys.modules
    spec.loader.exec_module(module)
    return module


def read_configuration(path):
    """A configuration file as a script reads it: json.load, yaml.safe_load (PyYAML) or tomllib.load."""
    if path.suffix in (".yaml", ".yml"):
        with open(path, encoding="utf-8") as f:
            return yaml.safe_load(f)
    if path.suffix == ".toml":
        with open(path, "rb") as f:
            return tomllib.load(f)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def from_configuration_file(path, module, cls, context):
    """The count of `cls` as a context builds it from a configuration file (`X(Cfg(**params.json))`, or
    `X(**model_configs/tiny.json)` with the file's keys as X's own arguments, X being `cls`), the file read with
    json.load as a script would; None for any other context."""
    own = re.fullmatch(r"(\w+)\(\*\*([\w./-]+\.json)\)", context)
    if own and own.group(1) == cls:
        arguments = read_configuration(path.parent / own.group(2))
        torch.manual_seed(0)
        return param_count(getattr(module, cls)(**arguments))
    found = re.fullmatch(r"(\w+)\((?:(\w+)=)?(\w+)\(\*\*([\w./-]+)\)\)", context)
    if not found or found.group(1) != cls:
        return None
    _, param, config, name = found.groups()
    configuration = getattr(module, config)(**read_configuration(path.parent / name))
    torch.manual_seed(0)
    built = getattr(module, cls)(**{param: configuration}) if param else getattr(module, cls)(configuration)
    return param_count(built)


def main():
    sys.path[:0] = [str(FIXTURES)]
    paths = sorted(FIXTURES.glob("*.py")) + sorted(FIXTURES.glob("checkpoints/*/*.py"))
    out, wrong = {}, []
    for entry in printed(paths):
        configurations = [(m["name"], c) for m in entry["modules"] for c in m.get("configurations", [])]
        if not any("expression" in c or "(**" in c["context"] for _, c in configurations):
            continue
        path = REPO_ROOT / entry["path"]
        module = load(path)
        rows = []
        for cls, c in configurations:
            row = {"class": cls, "context": c["context"]}
            if "expression" in c:
                torch.manual_seed(0)
                try:
                    built = eval(c["expression"], vars(module))  # noqa: S307 - the fixtures are ours
                    params = param_count(built)
                    kind = type(built).__name__
                except Exception as exc:  # noqa: BLE001 - any failure is the expression's
                    params, kind = None, f"{type(exc).__name__}: {exc}"
                if kind != cls or str(params) != c["paramsExact"]:
                    wrong.append(f"{entry['path']}: {c['expression']} gives {kind} with {params}, the CLI says {cls} {c['paramsExact']}")
                row.update(expression=c["expression"], params=params)
            loaded = from_configuration_file(path, module, cls, c["context"])
            if loaded is not None:
                if str(loaded) != c["paramsExact"]:
                    wrong.append(f"{entry['path']}: {c['context']} with json.load gives {loaded}, the CLI says {c['paramsExact']}")
                row["loaded"] = loaded
            if len(row) > 2:
                rows.append(row)
        out[entry["path"]] = rows
    own = {}
    for name, expressions in OWN.items():
        path = FIXTURES / name
        module = load(path)
        rows = []
        for expression in expressions:
            [entry] = printed([path], ["--config", expression])
            counted = [(m["name"], c) for m in entry["modules"] for c in m.get("configurations", []) if c["context"] == expression]
            built = eval(expression, vars(module))  # noqa: S307 - the fixtures are ours
            for cls, c in counted:
                # The model itself, as the expression builds it; each part of it as its own expression builds that.
                part = built if type(built).__name__ == cls else eval(c["expression"], vars(module))  # noqa: S307
                if str(param_count(part)) != c["paramsExact"]:
                    wrong.append(f"{name}: {expression} gives {cls} {param_count(part)}, the CLI says {c['paramsExact']}")
            if not any(cls == type(built).__name__ for cls, _ in counted):
                wrong.append(f"{name}: {expression} builds {type(built).__name__}, which the CLI does not count")
            rows.append({"expression": expression, "class": type(built).__name__, "params": param_count(built)})
        own[entry["path"]] = rows
    if wrong:
        sys.exit("expressions that do not build what the CLI counts:\n  " + "\n  ".join(wrong))
    written = write_json(OUTPUT, {
        "generatedBy": "scripts/ground-truth/pytorch_expressions.py",
        "torch": torch.__version__,
        "files": out,
        "own": own,
    }, expand=3)
    print(f"wrote {written}: {sum(len(r) for r in out.values())} expressions in {len(out)} fixtures (torch {torch.__version__})")


if __name__ == "__main__":
    main()
