"""Runs each model's forward() in the forward-error fixtures on an input of EXAMPLE_INPUT and records where
PyTorch raises.

Usage (from the repo root): /usr/bin/python3 scripts/ground-truth/pytorch_forward.py
Writes test/fixtures/expected/pytorch-forward.json:
  {"files": {path: [{"class": name, "line": n | null, "error": {"type", "message"} | null}]}}
line is the fixture line whose call raised (null with error null: the forward ran).
"""
import inspect
import json
import runpy
import sys
import traceback
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ["test/fixtures/models/pytorch/forward_errors.py"]
OUT = ROOT / "test/fixtures/expected/pytorch-forward.json"


def run(path):
    source = str(ROOT / path)
    namespace = runpy.run_path(source)
    records = []
    for name, cls in namespace.items():
        if not (inspect.isclass(cls) and issubclass(cls, torch.nn.Module) and cls.__module__ == "<run_path>"):
            continue
        model = cls()
        try:
            model(torch.zeros(*namespace["EXAMPLE_INPUT"]))
            records.append({"class": name, "line": None, "error": None})
        except Exception as e:  # the error is the datum
            frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == source]
            records.append({"class": name, "line": frames[-1].lineno, "error": {"type": type(e).__name__, "message": str(e).splitlines()[0]}})
    return records


def main():
    torch.manual_seed(0)
    result = {"generatedBy": "scripts/ground-truth/pytorch_forward.py", "torch": torch.__version__, "files": {p: run(p) for p in FIXTURES}}
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    for path, records in result["files"].items():
        for r in records:
            print(f"{path}: {r['class']:<26} {r['line'] or '-':>4}  {r['error']['type'] + ': ' + r['error']['message'] if r['error'] else 'ok'}")


if __name__ == "__main__":
    sys.exit(main())
