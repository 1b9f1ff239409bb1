"""How PyYAML's `yaml.safe_load` types the plain scalars a configuration file may hold (YAML 1.1's implicit types).

    python3 scripts/ground-truth/pyyaml_scalars.py

writes test/fixtures/expected/pyyaml-scalars.json: for each scalar, the type Python gives it and its value (an int
as a decimal string, a float by repr), or "error" where safe_load raises. unit/configurationFiles.test.ts checks
syntax/pyyaml.ts against it.
"""

import yaml

from pytorch_common import REPO_ROOT, write_json

OUTPUT = REPO_ROOT / "test/fixtures/expected/pyyaml-scalars.json"
SCALARS = [
    "12", "-3", "+7", "0", "017", "0o17", "0x1F", "-0x10", "0b101", "1_024", "012_3", "1e-5", "1.0e-5", "1.0e+5",
    "1.0e5", "1.", ".5", "-.5", "3.14", "1_0.5", ".inf", "-.Inf", ".NaN", "yes", "Yes", "YES", "no", "on", "Off",
    "y", "n", "true", "False", "TRUE", "~", "null", "Null", "", "0.1.2", "abc", "12abc", "v1.2", "1:30",
]


def typed(value):
    if value is None:
        return {"type": "none"}
    if isinstance(value, bool):
        return {"type": "bool", "value": value}
    if isinstance(value, int):
        return {"type": "int", "value": str(value)}
    if isinstance(value, float):
        return {"type": "float", "value": repr(value)}
    if isinstance(value, str):
        return {"type": "str", "value": value}
    return {"type": type(value).__name__}


def main():
    rows = {}
    for scalar in SCALARS:
        try:
            rows[scalar] = typed(yaml.safe_load(f"v: {scalar}\n")["v"])
        except yaml.YAMLError:
            rows[scalar] = {"type": "error"}
    print(write_json(OUTPUT, {"pyyaml": yaml.__version__, "scalars": rows}, 2))


if __name__ == "__main__":
    main()
