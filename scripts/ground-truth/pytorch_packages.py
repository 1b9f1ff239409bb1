"""Counts, with PyTorch, the configurations the CLI lists for the model files of the fixtures that are packages of
several files: `importers/` (a builder, a train script and a notebook importing the model files:
`build_net_small()`, `Net (../train.py, line 15)`, `Net (../explore.ipynb, cell 3, line 2)`) and `timm_style/` (timm's @register_model factories through a builder in another
file: `vit_tiny_patch16_224()`) and `timm_registered/` (factories through timm's own build_model_with_cfg, which
fills num_classes, in_chans and img_size from the registered pretrained configuration: timm itself counts them),
`instantiated/` (a configs/ tree naming classes by import path) and `loaded/` (a train script reading the sizes
from files it opens by path, run from its folder).

    /usr/bin/python3 -m venv --system-site-packages /tmp/truth-venv
    /tmp/truth-venv/bin/pip install --no-deps -r scripts/ground-truth/requirements-libraries.txt
    npm run build && /tmp/truth-venv/bin/python scripts/ground-truth/pytorch_packages.py

writes test/fixtures/expected/pytorch-packages.json: for each model file, each class, each configuration the CLI
lists, PyTorch's count of every module of that class the configuration builds (they must agree). A configuration
the CLI lists whose count differs, or that PyTorch cannot build, stops the script, naming it; so does one the
folder states that the CLI leaves out (PACKAGES), and so does an `expression` the CLI prints that PyTorch, run in
the model file, counts otherwise. Contexts: `X()` builds class X with its defaults, `f()` calls
the factory f of the model file or of the file stating it, `X (../train.py, line 15)` runs that script as a module
(its main block reads the command line and does not run) and takes what the statement at that line assigns.
unit/packages.test.ts checks the analysis against the file.
"""

import ast
import importlib
import json
import os
import runpy
import subprocess
import sys

import yaml

from pytorch_common import REPO_ROOT, import_timm, param_count, write_json

FIXTURES = REPO_ROOT / "test/fixtures/models/pytorch"
OUTPUT = REPO_ROOT / "test/fixtures/expected/pytorch-packages.json"
# Each package's model files, with the configurations each class must list.
PACKAGES = {
    "importers": {
        "modeling/encoder.py": {
            "EncoderBlock": [
                "build_net_small()", "build_net_large()", "Encoder (../train.py, line 14)",
                "Encoder (../explore.ipynb, cell 3, line 2)",
            ],
            "Encoder": [
                "build_net_small()", "build_net_large()", "Encoder (../train.py, line 14)",
                "Encoder (../explore.ipynb, cell 3, line 2)",
            ],
        },
        "modeling/net.py": {
            "Net": [
                "build_net_small()", "build_net_large()", "Net (../train.py, line 15)",
                "Net (../explore.ipynb, cell 3, line 2)",
            ],
        },
    },
    "timm_style": {
        "vision_transformer.py": {
            "Block": ["VisionTransformer()", "vit_tiny_patch16_224()", "vit_small_patch16_224()"],
            "VisionTransformer": ["VisionTransformer()", "vit_tiny_patch16_224()", "vit_small_patch16_224()"],
        },
    },
    # Not listed, as their counts are not known: patch_vit_features() (a feature extractor around the model),
    # patch_vit_unlisted() (not registered: its variant may be registered by a module not read).
    # Configurations of a repository's configs/ tree naming the classes by import path (latent diffusion's way).
    "instantiated": {
        "nets/blocks/mix.py": {
            "Mix": ["TinyUNet(**../../configs/big.yaml)", "TinyUNet(**../../configs/small/tiny.yaml)"],
        },
        "nets/modules/unet.py": {
            "Block": [
                "TinyUNet()", "TinyUNet(**../../configs/big.yaml)", "Block(**../../configs/small/tiny.yaml)",
                "TinyUNet(**../../configs/small/tiny.yaml)",
            ],
            "TinyUNet": ["TinyUNet()", "TinyUNet(**../../configs/big.yaml)", "TinyUNet(**../../configs/small/tiny.yaml)"],
        },
    },
    # Towers built by a model file beside them with the sizes of its model_configs/ (open_clip's way); the text
    # tower is built and dropped (its parts kept), so it is no part of the model and lists nothing.
    "towers": {
        "towers.py": {"Visual": ["TinyCLIP(**model_configs/small.json)", "TinyCLIP(**model_configs/wide.json)"]},
    },
    # A train script reading the sizes from files it opens by path (json.load, yaml.safe_load).
    "loaded": {
        "model.py": {"Net": ["Net (train.py, line 10)", "Net (train.py, line 11)"]},
    },
    "timm_registered": {
        "patch_vit.py": {
            "PatchViT": [
                "PatchViT()", "patch_vit_tiny()", "patch_vit_tiny_384()", "patch_vit_tiny_in21k()",
                "patch_vit_small()", "patch_vit_mono()", "patch_vit_flexible()", "patch_vit_ten_classes()",
                "patch_vit_headless()", "patch_vit_no_cfg()", "patch_vit_tiny_patch16_in21k()",
                "patch_vit_small_patch16()",
            ],
        },
    },
}


def printed(package, files):
    run = subprocess.run(
        ["node", str(REPO_ROOT / "dist/cli.js"), "--json", "--jobs", "1", "--workspace", ".", *files],
        capture_output=True, text=True, cwd=FIXTURES / package,
    )
    if run.returncode == 2:
        sys.exit(f"the CLI failed: {run.stderr}")
    return json.loads(run.stdout)["files"]


def module_of(package, file):
    """A file of the package imported as Python imports it (`importers.modeling.net`)."""
    sys.path.insert(0, str(FIXTURES))
    try:
        return importlib.import_module(".".join([package, *file.removesuffix(".py").split("/")]))
    finally:
        sys.path.remove(str(FIXTURES))


def script_globals(folder, name):
    """The globals of a script of the folder run as a module from the folder (its main block does not run)."""
    sys.path.insert(0, str(folder))
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        return runpy.run_path(str(folder / name), run_name=name.removesuffix(".py"))
    finally:
        os.chdir(cwd)
        sys.path.remove(str(folder))


def without_magics(source):
    """A notebook cell's source with its IPython magic and shell lines blanked, as the CLI reads it."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n"))


def notebook_globals(path):
    """The globals of a notebook whose code cells ran in order."""
    sys.path.insert(0, str(path.parent))
    try:
        scope = {"__name__": path.stem}
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "code":
                exec(without_magics("".join(cell["source"])), scope)
        return scope
    finally:
        sys.path.remove(str(path.parent))


def assigned_at(path, line, cell=None):
    """The name the statement of a script at `line` assigns (of a notebook's cell `cell`, counting every cell)."""
    source = path.read_text() if cell is None else "".join(json.loads(path.read_text())["cells"][cell - 1]["source"])
    for node in ast.parse(without_magics(source)).body:
        if isinstance(node, ast.Assign) and node.lineno <= line <= node.end_lineno:
            return node.targets[0].id
    sys.exit(f"{path} assigns nothing at line {line}")


def instantiated(package, file, context):
    """`Class(**configs/x.yaml)`: latent diffusion's instantiate_from_config of the first `{target, params}` of the
    file (yaml.safe_load) naming the class, by the import path of the model file or of a file importing it that
    defines the class (`nets.modules.unet.TinyUNet` for `nets/blocks/mix.py`), from the folder holding configs/;
    a file naming no class holds the class's arguments (`TinyCLIP(**model_configs/small.json)`, json.load)."""
    cls, name = context[: -1].split("(**")
    path = ((FIXTURES / package / file).parent / name).resolve()

    def find(node):
        if isinstance(node, dict):
            target = node.get("target")
            if isinstance(target, str) and target.endswith(f".{cls}"):
                return target, node.get("params", {})
            node = list(node.values())
        if isinstance(node, list):
            for item in node:
                found = find(item)
                if found is not None:
                    return found
        return None

    data = yaml.safe_load(path.read_text())
    found = find(data)
    if found is None:
        # A configuration file beside the model file, its keys the class's arguments: the class is the package's.
        return getattr(defining(package, cls), cls)(**data)
    target, params = found
    sys.path.insert(0, str(FIXTURES))
    try:
        module = importlib.import_module(f"{package}.{target.rsplit('.', 1)[0]}")
    finally:
        sys.path.remove(str(FIXTURES))
    return getattr(module, cls)(**params)


def defining(package, cls):
    """The module of the package that defines class `cls`."""
    for path in sorted((FIXTURES / package).rglob("*.py")):
        module = module_of(package, path.relative_to(FIXTURES / package).as_posix())
        if getattr(module, cls, None) is not None and getattr(module, cls).__module__ == module.__name__:
            return module
    sys.exit(f"{package} defines no class {cls}")


def built_by(package, file, configuration):
    """The model a configuration names: a class with its defaults, a factory, a statement of a script, or a
    target of a configuration file."""
    context = configuration["context"]
    if "(**" in context:
        return instantiated(package, file, context)
    stated = configuration.get("source", {}).get("path")
    folder = FIXTURES / package
    if context.endswith("()"):
        # The path is as the CLI prints it, from the package's folder.
        module = module_of(package, stated) if stated else module_of(package, file)
        return getattr(module, context[:-2])()
    place = context[context.index("(") + 1 : -1]
    script, line = place.split(", line ")
    if ", cell " in script:
        notebook, cell = script.split(", cell ")
        path = (folder / file).parent / notebook
        return notebook_globals(path)[assigned_at(path, int(line), int(cell))]
    path = (folder / file).parent / script
    return script_globals(path.parent, path.name)[assigned_at(path, int(line))]


def count_of(model, cls):
    """PyTorch's count of the modules of class `cls` in the model, which must all have the same."""
    counts = {param_count(m) for m in model.modules() if type(m).__name__ == cls}
    if len(counts) != 1:
        sys.exit(f"{cls} has {len(counts)} counts in one model: {counts}")
    return counts.pop()


def main():
    import_timm()
    truth = {}
    wrong = []
    for package, files in PACKAGES.items():
        for entry in printed(package, list(files)):
            path = entry["path"]
            classes = {}
            for module in entry["modules"]:
                listed = {c["context"]: c for c in module.get("configurations", [])}
                missing = set(files[path].get(module["name"], [])) - set(listed)
                if missing:
                    wrong.append(f"{package}/{path}: {module['name']} does not list {sorted(missing)}")
                rows = {}
                for context, c in listed.items():
                    count = count_of(built_by(package, path, c), module["name"])
                    if str(count) != c["paramsExact"]:
                        wrong.append(f"{package}/{path}: {module['name']} in {context}: PyTorch {count}, the CLI {c['paramsExact']}")
                    rows[context] = count
                    if "expression" in c:
                        built = count_of(eval(c["expression"], dict(vars(module_of(package, path)))), module["name"])
                        if built != count:
                            wrong.append(f"{package}/{path}: {module['name']} in {context}: {c['expression']} builds {built}")
                if rows:
                    classes[module["name"]] = rows
            truth[f"{package}/{path}"] = classes
    if wrong:
        sys.exit("\n".join(wrong))
    print(write_json(OUTPUT, truth, 3))


if __name__ == "__main__":
    main()
