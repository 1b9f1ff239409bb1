"""Counts, with PyTorch, the configurations the CLI lists for the model files of `importers/` that other files
of that folder state: a factory (`build_net_small()` in build.py) or a statement of a train script
(`Net (../train.py, line 15)`).

    npm run build && python3 scripts/ground-truth/pytorch_importers.py

writes test/fixtures/expected/pytorch-importers.json: for each model file, each class, each such configuration
the CLI lists, PyTorch's count of every module of that class the factory or statement builds (they must agree).
A configuration the CLI lists whose count differs, or that PyTorch cannot build, stops the script, naming it;
so does one PyTorch builds that the CLI leaves out (`EXPECTED`). The scripts are run as modules, not as
`__main__`: their main blocks read the command line. unit/importers.test.ts checks the analysis against the file.
"""

import ast
import importlib
import json
import runpy
import subprocess
import sys

from pytorch_common import REPO_ROOT, param_count, write_json

FIXTURES = REPO_ROOT / "test/fixtures/models/pytorch"
FOLDER = FIXTURES / "importers"
MODEL_FILES = ["modeling/encoder.py", "modeling/net.py"]
OUTPUT = REPO_ROOT / "test/fixtures/expected/pytorch-importers.json"
# The configurations the folder states, by model file and class: each must be listed.
EXPECTED = {
    "modeling/encoder.py": {
        "EncoderBlock": ["build_net_small()", "build_net_large()", "Encoder (../train.py, line 14)"],
        "Encoder": ["build_net_small()", "build_net_large()", "Encoder (../train.py, line 14)"],
    },
    "modeling/net.py": {"Net": ["build_net_small()", "build_net_large()", "Net (../train.py, line 15)"]},
}


def printed():
    run = subprocess.run(
        ["node", str(REPO_ROOT / "dist/cli.js"), "--json", "--jobs", "1", "--workspace", ".", *MODEL_FILES],
        capture_output=True, text=True, cwd=FOLDER,
    )
    if run.returncode == 2:
        sys.exit(f"the CLI failed: {run.stderr}")
    return json.loads(run.stdout)["files"]


def script_globals(name):
    """The globals of a script of the folder run as a module (its main block does not run)."""
    sys.path.insert(0, str(FOLDER))
    try:
        return runpy.run_path(str(FOLDER / name), run_name=name.removesuffix(".py"))
    finally:
        sys.path.remove(str(FOLDER))


def assigned_at(name, line):
    """The name a statement of a script at `line` assigns."""
    for node in ast.parse((FOLDER / name).read_text()).body:
        if isinstance(node, ast.Assign) and node.lineno <= line <= node.end_lineno:
            return node.targets[0].id
    sys.exit(f"{name} assigns nothing at line {line}")


def built_by(context):
    """The model a configuration's context names: a factory of build.py, or a statement of a script."""
    if context.endswith("()"):
        sys.path.insert(0, str(FIXTURES))
        try:
            return getattr(importlib.import_module("importers.build"), context[:-2])()
        finally:
            sys.path.remove(str(FIXTURES))
    place = context[context.index("(") + 1 : -1]
    script, line = place.split(", line ")
    name = script.removeprefix("../")
    return script_globals(name)[assigned_at(name, int(line))]


def count_of(model, cls):
    """PyTorch's count of the modules of class `cls` in the model, which must all have the same."""
    counts = {param_count(m) for m in model.modules() if type(m).__name__ == cls}
    if len(counts) != 1:
        sys.exit(f"{cls} has {len(counts)} counts in one model: {counts}")
    return counts.pop()


def main():
    truth = {}
    wrong = []
    for entry in printed():
        path = entry["path"]
        classes = {}
        for module in entry["modules"]:
            listed = {c["context"]: c for c in module.get("configurations", []) if "path" in c.get("source", {})}
            missing = set(EXPECTED[path].get(module["name"], [])) - set(listed)
            if missing:
                wrong.append(f"{path}: {module['name']} does not list {sorted(missing)}")
            rows = {}
            for context, c in listed.items():
                count = count_of(built_by(context), module["name"])
                if str(count) != c["paramsExact"]:
                    wrong.append(f"{path}: {module['name']} in {context}: PyTorch {count}, the CLI {c['paramsExact']}")
                rows[context] = count
            if rows:
                classes[module["name"]] = rows
        truth[path] = classes
    if wrong:
        sys.exit("\n".join(wrong))
    print(write_json(OUTPUT, truth, 3))


if __name__ == "__main__":
    main()
