"""Checks every formula Attention Lens prints at a layer site against PyTorch at random sizes.

A site whose sizes are not known shows a formula over the names the user wrote (`3·config.n_embd² +
[config.bias]·3·config.n_embd`). For each such site of the PyTorch fixtures this script draws values for those
names (several draws: even and odd sizes, both values of every flag), builds the class (or calls the function)
holding the site with them in PyTorch 1.13, and compares the count PyTorch gives the layer built there with the
formula evaluated at the same values. A formula that is not exact at every draw is a defect.

Run from the repository root with Debian's python3-torch, after `npm run build` (in the environment of
requirements-libraries.txt, whose einops a fixture uses, as the examples' /usr/bin/python3 stands for):

    /usr/bin/python3 scripts/ground-truth/pytorch_formulas.py            # writes the truth, fails on a wrong formula
    /usr/bin/python3 scripts/ground-truth/pytorch_formulas.py FILE...    # measures other files, writes nothing

Writes test/fixtures/expected/pytorch-formulas.json: {fixture path: [{"line", "column", "formula",
"draws": [{"values": {name: value}, "params"}]}]}; test/unit/formulas.test.ts evaluates the formulas the product
prints now at those draws. Sites whose names are not all parameters of the function holding them (a local
size, a value read from another object) are listed under "skipped" with the reason.
"""

import ast
import json
import random
import re
import subprocess
import sys
import types
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pytorch_common import REPO_ROOT, write_json  # noqa: E402
import pytorch_layers  # noqa: E402

FIXTURES = REPO_ROOT / "test/fixtures/models/pytorch"
OUTPUT = REPO_ROOT / "test/fixtures/expected/pytorch-formulas.json"
DRAWS = 4
SIZES = [2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32]
NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)*")
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def python_expression(formula):
    """The printed formula as Python: `·` multiplies, superscripts are powers, `[flag]` is 1 when the flag holds."""
    text = re.sub(r"\[([^\]]+)\]", r"int(bool(\1))", formula).replace("·", "*")
    return re.sub(r"([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: "**" + m.group(1).translate(SUPERSCRIPTS), text)


def names_of(formula):
    """The user's names in a formula: `config.n_embd`, `d_model`; flags among them are those written `[x]`."""
    flags = set(re.findall(r"\[([^\]]+)\]", formula))
    names = {n for n in NAME.findall(re.sub(r"\[([^\]]+)\]", r" \1 ", formula)) if n not in ("int", "bool")}
    return names, flags


class Namespace(types.SimpleNamespace):
    """A configuration object given only the fields a formula names: any other field read is an error."""


def enclosing(tree, line):
    """The class whose __init__ holds the line (with that __init__), or the top-level function holding it."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__" and item.lineno <= line <= item.end_lineno:
                    return node.name, item
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= node.end_lineno:
            return node.name, node
    return None, None


def required_parameters(fn):
    args = fn.args
    positional = args.posonlyargs + args.args
    without = positional[: len(positional) - len(args.defaults)]
    return [a.arg for a in without if a.arg != "self"] + [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]


def parameters(fn):
    args = fn.args
    return [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg != "self"]


def draw(names, flags, rng, attempt):
    """Values for the names: sizes (odd ones in every other draw), flags alternating so both values are tried."""
    values = {}
    for name in sorted(names):
        if name in flags:
            values[name] = bool((attempt + sorted(flags).index(name)) % 2)
        else:
            values[name] = rng.choice([s for s in SIZES if s % 2 == attempt % 2] or SIZES) if attempt < 2 else rng.choice(SIZES)
    return values


def configuration(module, fields):
    """A fresh default instance of the fixture's configuration class that has every field (the other fields a
    class reads keep their defaults), else an empty namespace."""
    for obj in vars(module).values() if module else ():
        if isinstance(obj, type) and not issubclass(obj, nn.Module) and obj.__module__ == module.__name__:
            try:
                config = obj()
            except Exception:
                continue
            if all(hasattr(config, f) for f in fields):
                return config
    return Namespace()


def arguments(values, module):
    """Keyword arguments from drawn values: dotted names become fields of configuration objects."""
    kwargs = {}
    for name, value in values.items():
        root, *path = name.split(".")
        if not path:
            kwargs[root] = value
            continue
        fields = [n.split(".", 1)[1] for n in values if n.startswith(root + ".") and n.count(".") == 1]
        obj = kwargs.setdefault(root, configuration(module, fields))
        for part in path[:-1]:
            if not hasattr(obj, part):
                setattr(obj, part, Namespace())
            obj = getattr(obj, part)
        setattr(obj, path[-1], value)
    return kwargs


def count_at(module, owner, kwargs, recorder, site):
    """PyTorch's count for the layer built at `site` when `owner` is built with `kwargs`; None if it is not built."""
    recorder.sites = {}
    try:
        getattr(module, owner)(**kwargs)
    except Exception:
        return None
    record = recorder.sites.get(site)
    return record.get("params") if record and "error" not in record and not record.get("varies") else None


def check_file(path, layers, recorder, rng):
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    module = pytorch_layers_module(path, recorder)
    checked, skipped = [], []
    for layer in layers:
        formula, line, column = layer["formula"], layer["line"], layer["column"]
        owner, fn = enclosing(tree, line)
        names, flags = names_of(formula)
        if fn is None:
            skipped.append({"line": line, "formula": formula, "why": "not inside a class constructor or a top-level function"})
            continue
        params = parameters(fn)
        outside = sorted({n.split(".")[0] for n in names} - set(params))
        if outside and (layer["params"] is not None or layer["values"]):
            continue  # the layer kind's own formula (`in·out + out`) beside the count the site shows
        if outside:
            skipped.append({"line": line, "formula": formula, "why": f"names that are no parameter of {owner}: {', '.join(outside)}"})
            continue
        # The owner's other parameters without a default get sizes too: they are needed to build it.
        required = sorted(set(required_parameters(fn)) - {n.split(".")[0] for n in names})
        draws = []
        for attempt in range(60):
            values = draw(names | set(required), flags, rng, len(draws))
            real = count_at(module, owner, arguments(values, module), recorder, (line, column))
            if real is None:
                continue
            draws.append({"values": {k: v for k, v in values.items() if k not in required}, "params": real, **({"others": {k: values[k] for k in required}} if required else {})})
            if len(draws) == DRAWS:
                break
        if not draws:
            skipped.append({"line": line, "formula": formula, "why": f"{owner} is not built by PyTorch with drawn values"})
            continue
        checked.append({"line": line, "column": column, "formula": formula, "draws": draws})
    return checked, skipped


def pytorch_layers_module(path, recorder):
    import importlib.util

    recorder.path = str(path)
    name = f"formulas_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def evaluate(formula, values):
    return eval(python_expression(formula), {"int": int, "bool": bool}, arguments(values, None))  # the product's own formula text


def printed_formulas(paths):
    out = subprocess.run(["node", str(REPO_ROOT / "dist/cli.js"), "--json", *map(str, paths)], capture_output=True, text=True, cwd=REPO_ROOT)
    report = json.loads(out.stdout)
    def site_formula(layer, errors):
        # A rejected site shows its error, not a formula.
        return layer.get("formula") and layer["framework"] == "pytorch" and layer["line"] not in errors

    files = {}
    for f in report["files"]:
        errors = {d["line"] for d in f.get("diagnostics", []) if d["severity"] == "error"}
        files[Path(f["path"]).resolve()] = [l for l in f.get("layers", []) if site_formula(l, errors)]
    return files


def main(argv):
    measuring = bool(argv)
    paths = [Path(p).resolve() for p in argv] or sorted(FIXTURES.glob("*.py"))
    recorder = pytorch_layers.Recorder()
    for cls_name in pytorch_layers.RECORDED:
        setattr(nn, cls_name, pytorch_layers.RecordingClass(getattr(nn, cls_name), recorder))
    sys.path[:0] = sorted({str(p.parent) for p in paths})
    rng = random.Random(22)
    truth, wrong, skipped_all = {}, [], {}
    for path, layers in printed_formulas(paths).items():
        if not layers:
            continue
        checked, skipped = check_file(path, layers, recorder, rng)
        rel = path.relative_to(REPO_ROOT).as_posix() if path.is_relative_to(REPO_ROOT) else str(path)
        for c in checked:
            for d in c["draws"]:
                if evaluate(c["formula"], d["values"]) != d["params"]:
                    wrong.append(f"{rel}:{c['line']}: {c['formula']} at {d['values']} gives {evaluate(c['formula'], d['values'])}, PyTorch {d['params']}")
        if checked:
            truth[rel] = checked
        if skipped:
            skipped_all[rel] = skipped
        print(f"{rel}: {len(checked)} formulas checked at {sum(len(c['draws']) for c in checked)} draws, {len(skipped)} skipped")
    for w in wrong:
        print("WRONG", w)
    if not measuring:
        print("wrote", write_json(OUTPUT, {"generatedBy": "scripts/ground-truth/pytorch_formulas.py", "torch": torch.__version__, "files": truth, "skipped": skipped_all}, 3))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
