"""Ground truth for the PyTorch fixtures: every layer the fixture code builds, as real PyTorch builds it.

Run from the repository root with Debian's python3-torch (not the pyenv python3 on PATH), in the virtual
environment of requirements-libraries.txt (made with --system-site-packages: einops_tensors.py needs einops):

    /tmp/truth-venv/bin/python scripts/ground-truth/pytorch_layers.py

Writes test/fixtures/expected/pytorch-layers.json:
    "files":   {fixture path: [{"line", "column", "kind", "params", "tensors"}, ...]}, one record per
               constructor call site (1-based line/column of the start of the call expression);
               lazy layers add "lazy": true with params null; a call torch rejects has "error" instead
               of params/tensors; a call after one torch rejected in the same constructor has "afterRaise":
               true (torch never reaches it).
    "modules": {fixture path: [{"name", "line", "params"}, ...]} for each nn.Module class in the file,
               params null (with a "note") when it needs arguments, contains a failing layer or is lazy;
               a class that needs arguments and names a `config_class` adds "configured": {"config",
               "params"}, the class built with that configuration's defaults; a class the module body does not
               build whose one required parameter takes exactly one class of the fixture built with no
               arguments (every other class of it failing there) adds the same, with "param" when that
               parameter is not the first: the class built with that configuration's defaults by PyTorch.
    "instances": {fixture path: [{"name", "line", "params"}, ...]} for each model the file builds at
               module level (`model = GPT(GPTConfig())`).
    "builds":  {fixture path: {class name: [count, ...]}}: every count a class of the fixture has in any model
               PyTorch builds from it (the models of its module body, its classes built with their defaults,
               its factories and presets), each once, sorted: the class rows that list several totals
               (`4 sizes: ... in SwinTransformer()`) must list only these.
    "presets": {fixture path: [{"expression", "class", "params"}, ...]} for each name of a preset table the
               fixture documents (PRESETS), the model that expression builds; a call site no other build
               reaches is recorded from the first of them that reaches it.

Each fixture is imported (which runs the models it builds at module level), then every nn.Module class
and every top-level function whose parameters all have defaults is called with them, so that layers
inside __init__ bodies are reached too.
"""

import ast
import importlib.util
import inspect
import sys
from pathlib import Path

import torch
from torch import nn

from pytorch_common import REPO_ROOT, describe, describe_error, install_einops_fallback, install_transformers_fallback, param_count, write_json

install_einops_fallback()
install_transformers_fallback()

# The fixtures, and the examples users open first (npm start): their numbers must be right too.
FIXTURES = [REPO_ROOT / "test/fixtures/models/pytorch", REPO_ROOT / "examples"]
OUTPUT = REPO_ROOT / "test/fixtures/expected/pytorch-layers.json"
RECORDED = (
    "MultiheadAttention", "Linear", "Bilinear", "LazyLinear",
    "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder",
    "Transformer", "Embedding", "LayerNorm", "Conv1d", "Conv2d",
)

# The names each fixture's preset tables hold, as a user would build them.
PRESETS = {
    "presets.py": [
        "GPT.from_pretrained('gpt-mini')",
        "GPT.from_pretrained('gpt-small')",
        "GPT.from_pretrained('gpt-wide')",
        "Transformer.from_name('XS')",
        "Transformer.from_name('S')",
        "Transformer.from_name('M')",
        "build_encoder('tiny')",
        "build_encoder('base')",
    ],
}


class Recorder:
    """One record per call site of the fixture currently running."""

    def __init__(self):
        self.path = None
        self.sites = {}
        self.failures = 0  # counts repeat visits too, so a module built around a failing layer is detectable
        self.raised_in = []  # the fixture's function frames a layer constructor raised in, with their callers

    def fixture_frames(self, frame):
        while frame is not None and frame.f_code.co_filename == self.path and frame.f_code.co_name != "<module>":
            yield frame
            frame = frame.f_back

    def construct(self, cls, args, kwargs, frame):
        # The CALL instruction's position spans the whole call expression, e.g. from `nn` in `nn.Linear(`.
        line, _, col, _ = list(frame.f_code.co_positions())[frame.f_lasti // 2]
        if any(f is g for f in self.fixture_frames(frame) for g in self.raised_in):
            # Torch raised earlier in this constructor (or one calling it): it never gets here.
            self.sites.setdefault((line, col + 1), {"line": line, "column": col + 1, "kind": cls.__name__, "afterRaise": True})
            return nn.Identity()
        try:
            module = cls(*args, **kwargs)
            record = {"line": line, "column": col + 1, **describe(module)}
        except Exception as exc:
            self.failures += 1
            self.raised_in.extend(self.fixture_frames(frame))
            module = nn.Identity()  # torch would stop here; we keep going to reach the other call sites
            record = {"line": line, "column": col + 1, "kind": cls.__name__, "error": describe_error(exc)}
        first = self.sites.setdefault((line, col + 1), record)
        if first.get("afterRaise") and not record.get("afterRaise"):
            first = self.sites[(line, col + 1)] = record
        if first != record and first.get("kind") == record.get("kind") and "error" not in first and "error" not in record:
            # A call in a loop whose sizes depend on the loop variable: no single count belongs to the line.
            self.sites[(line, col + 1)] = {"line": line, "column": col + 1, "kind": record["kind"], "params": None, "varies": True}
        elif first != record and not first.get("varies"):
            sys.exit(f"{self.path}:{line}:{col + 1}: one call site built different layers:\n  {first}\n  {record}")
        return module


class RecordingClass:
    """Replaces a torch.nn class. isinstance(), issubclass() and subclassing keep seeing the real class,
    because fixture code relies on them (e.g. GPT's _init_weights dispatches on isinstance)."""

    def __init__(self, cls, recorder):
        self._cls = cls
        self._recorder = recorder
        # `nn.Linear.__init__(self, ...)` (loralib) runs the real constructor, not this wrapper's.
        self.__dict__["__init__"] = cls.__init__

    def __call__(self, *args, **kwargs):
        caller = sys._getframe(1)
        if caller.f_code.co_filename != self._recorder.path:
            return self._cls(*args, **kwargs)
        return self._recorder.construct(self._cls, args, kwargs, caller)

    def __instancecheck__(self, obj):
        return isinstance(obj, self._cls)

    def __subclasscheck__(self, sub):
        return issubclass(sub, self._cls)

    def __mro_entries__(self, bases):
        return (self._cls,)

    def __getattr__(self, name):
        return getattr(self._cls, name)


def static_call_sites(tree):
    """Call sites of recorded classes found by reading the source, to check that every one was reached
    and that the recorded columns really are call starts. Assumes `nn` always names torch.nn."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "torch.nn":
            aliases.update({a.asname or a.name: a.name for a in node.names if a.name in RECORDED})

    def recorded(func):
        if isinstance(func, ast.Name):
            return func.id in aliases
        return isinstance(func, ast.Attribute) and func.attr in RECORDED and ast.unparse(func.value) in ("nn", "torch.nn")

    return sorted((n.lineno, n.col_offset + 1) for n in ast.walk(tree) if isinstance(n, ast.Call) and recorded(n.func))


def from_fixtures(cls):
    """Whether cls is defined in a fixture file (not in torch, transformers or the standard library)."""
    source = getattr(sys.modules.get(cls.__module__), "__file__", None) or ""
    return any(str(Path(source).resolve()).startswith(str(folder.resolve())) for folder in FIXTURES)


def no_argument_class(cls):
    """Whether cls() builds: a configuration with every field defaulted."""
    try:
        cls()
        return True
    except Exception:
        return False


def default_arguments(obj):
    """Keyword arguments to call obj with (none: every parameter keeps its default), or None when a
    parameter has no default. A parameter's annotation is never used to make up a value: the numbers for
    such a class come from the models the file builds."""
    for p in inspect.signature(obj).parameters.values():
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            return None
    return {}


def build_module(name, line, cls, kwargs, recorder, configs, built_by_body):
    entry = {"name": name, "line": line, "params": None}
    if kwargs is None:
        entry["note"] = "needs arguments"
        # A Hugging Face model names its configuration class: built with that configuration's defaults.
        config_class = getattr(cls, "config_class", None)
        if isinstance(config_class, type):
            entry["configured"] = {"config": config_class.__name__, "params": param_count(cls(config_class()))}
        elif cls not in built_by_body:
            configured = configured_build(cls, configs, recorder)
            if configured:
                entry["configured"] = configured
        return entry
    failures = recorder.failures
    params = param_count(cls(**kwargs))
    if recorder.failures != failures:
        entry["note"] = "a layer constructor raises"  # torch itself would not have built it
    elif params is None:
        entry["note"] = "uninitialized lazy parameters"
    else:
        entry["params"] = params
    return entry


def configured_build(cls, configs, recorder):
    """The class built with the defaults of the one configuration class of the fixture it builds with, passed
    as its one required parameter; None when no class or several build it."""
    params = list(inspect.signature(cls).parameters.values())
    required = [p for p in params if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if len(required) != 1:
        return None
    param = required[0]
    path, recorder.path = recorder.path, None  # trial builds record no call site
    built = []
    try:
        for config in configs:
            try:
                built.append((config, param_count(cls(**{param.name: config()}))))
            except Exception:
                pass
    finally:
        recorder.path = path
    if len(built) != 1 or built[0][1] is None:
        return None
    config, _ = built[0]
    # Built again with its call sites recorded, as the analysis records this build's layers.
    entry = {"config": config.__name__, "params": param_count(cls(**{param.name: config()}))}
    if params[0] is not param:
        entry["param"] = param.name
    return entry


def run_fixture(path, recorder):
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    recorder.path, recorder.sites = str(path), {}

    name = f"fixture_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up in sys.modules
    # The classes the module body builds, its models and their parts: those show that build, not a configuration's.
    built_by_body = set()
    module_init = nn.Module.__init__

    def tracking_init(self, *args, **kwargs):
        built_by_body.add(type(self))
        module_init(self, *args, **kwargs)

    nn.Module.__init__ = tracking_init
    try:
        spec.loader.exec_module(module)
    finally:
        nn.Module.__init__ = module_init

    modules = []
    top_level = {n.name: n.lineno for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    # The configurations in scope: the fixture's own classes and those it imports from the other fixtures.
    configs = [
        c for c in dict.fromkeys(v for v in vars(module).values() if inspect.isclass(v))
        if not issubclass(c, nn.Module) and from_fixtures(c) and no_argument_class(c)
    ]
    for obj_name, line in sorted(top_level.items(), key=lambda item: item[1]):
        obj = getattr(module, obj_name)
        if inspect.isfunction(obj):
            kwargs = default_arguments(obj)
            if kwargs is not None:
                try:
                    obj(**kwargs)
                except Exception:  # a builder of a model PyTorch refuses (attention_mistakes.py) builds nothing
                    pass
        elif issubclass(obj, nn.Module):  # other classes are configs, only built as arguments
            modules.append(build_module(obj_name, line, obj, default_arguments(obj), recorder, configs, built_by_body))

    presets = run_presets(path, module, recorder)
    # A call in a branch no build takes is marked `# never built` in the fixture: PyTorch never reaches it.
    never = {i + 1 for i, text in enumerate(path.read_text().splitlines()) if text.rstrip().endswith("# never built")}
    expected = [site for site in static_call_sites(tree) if site[0] not in never]
    # A layer built through an alias the source does not name (a partial, a class passed as an argument)
    # has no call site of its own: it counts in its model's total only.
    reached = {site: record for site, record in recorder.sites.items() if site in expected}
    if sorted(reached) != expected:
        sys.exit(f"{path}: unreached call sites {sorted(set(expected) - set(reached))}")
    return [reached[site] for site in sorted(reached)], modules, module_instances(tree, module), presets, part_counts(path, tree, module, recorder)


def part_counts(path, tree, module, recorder):
    """Every count each class of the fixture has in the models built from it, built again with the call sites it
    reaches left unrecorded (they are recorded above)."""
    roots = [v for v in vars(module).values() if isinstance(v, nn.Module)]
    earlier, recorder.sites = recorder.sites, {}
    try:
        for node in tree.body:
            obj = getattr(module, getattr(node, "name", ""), None)
            is_model = inspect.isclass(obj) and issubclass(obj, nn.Module)
            if (inspect.isfunction(obj) or is_model) and default_arguments(obj) is not None:
                try:
                    roots.append(obj())
                except Exception:  # PyTorch refuses it: no model, no counts
                    pass
        for expression in PRESETS.get(path.name, []):
            roots.append(eval(expression, vars(module)))
    finally:
        recorder.sites = earlier
    counts = {}
    for root in (r for r in roots if isinstance(r, nn.Module)):
        for m in root.modules():
            if type(m).__module__ == module.__name__:
                counts.setdefault(type(m).__name__, set()).add(param_count(m))
    return {name: sorted(c for c in found if c is not None) for name, found in sorted(counts.items())}


def run_presets(path, module, recorder):
    """The model each documented preset builds, with its total and the layer each call site it reaches builds
    (what choosing it shows). Its call sites are recorded as the fixture's only where no other build and no
    earlier preset reached them: there the analysis shows the first preset's sizes."""
    out = []
    for expression in PRESETS.get(path.name, []):
        earlier, recorder.sites = recorder.sites, {}
        try:
            model = eval(expression, vars(module))
        finally:
            found, recorder.sites = recorder.sites, earlier
        for site, record in found.items():
            recorder.sites.setdefault(site, record)
        # What a user who chooses this preset sees at each call site it reaches.
        sites = [{"line": r["line"], "column": r["column"], "params": r.get("params")} for r in found.values()]
        out.append({"expression": expression, "class": type(model).__name__, "params": param_count(model), "sites": sorted(sites, key=lambda r: (r["line"], r["column"]))})
    return out


def module_instances(tree, module):
    """The models of the fixture's own classes it builds at module level (`model = GPT(GPTConfig())`); a
    module-level loop building one at each pass (`for d in (32, 64): model = Net(d)`) gives "varies" with every
    distinct total in the order built."""
    out = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            obj = getattr(module, node.targets[0].id, None)
            if isinstance(obj, nn.Module) and type(obj).__module__ == module.__name__:
                out.append({"name": node.targets[0].id, "line": node.lineno, "params": param_count(obj)})
        elif isinstance(node, ast.For):
            out.extend(loop_instances(node, module))
    return out


def loop_instances(loop, module):
    """Runs the loop again with each model it assigns collected after its assignment."""
    built = {}

    def collect(line, obj):
        if isinstance(obj, nn.Module) and type(obj).__module__ == module.__name__:
            totals = built.setdefault(line, [])
            if param_count(obj) not in totals:
                totals.append(param_count(obj))

    body = []
    for stmt in loop.body:
        body.append(stmt)
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            body.append(ast.parse(f"__collect__({stmt.lineno}, {stmt.targets[0].id})").body[0])
    again = ast.fix_missing_locations(ast.Module(body=[ast.For(target=loop.target, iter=loop.iter, body=body, orelse=[])], type_ignores=[]))
    exec(compile(again, module.__file__, "exec"), {**vars(module), "__collect__": collect})
    return [{"name": "", "line": line, "params": totals[0] if len(totals) == 1 else None, **({"varies": totals} if len(totals) > 1 else {})} for line, totals in built.items()]


def main():
    recorder = Recorder()
    for cls_name in RECORDED:
        setattr(nn, cls_name, RecordingClass(getattr(nn, cls_name), recorder))

    files, modules, instances, presets, builds = {}, {}, {}, {}, {}
    # Fixtures import each other by module name (`from gpt import Block`), as files of one project do.
    sys.path[:0] = [str(folder) for folder in FIXTURES]
    for path in sorted(p for folder in FIXTURES for p in folder.glob("*.py")):
        rel = path.relative_to(REPO_ROOT).as_posix()
        files[rel], modules[rel], instances[rel], found, builds[rel] = run_fixture(path.resolve(), recorder)
        if found:
            presets[rel] = found

    written = write_json(OUTPUT, {
        "generatedBy": "scripts/ground-truth/pytorch_layers.py",
        "torch": torch.__version__,
        "files": files,
        "modules": modules,
        "instances": instances,
        "presets": presets,
        "builds": builds,
    }, expand=3)

    print(f"{'fixture':<34} {'sites':>5} {'errors':>6} {'lazy':>4}  module totals")
    for rel, records in files.items():
        errors = sum("error" in r for r in records)
        lazy = sum(bool(r.get("lazy")) for r in records)
        totals = ", ".join(f"{m['name']}={m['params']:,}" for m in modules[rel] if m["params"] is not None)
        print(f"{rel.rsplit('/', 1)[-1]:<34} {len(records):>5} {errors:>6} {lazy:>4}  {totals}")
    print(f"wrote {written} (torch {torch.__version__})")


if __name__ == "__main__":
    main()
