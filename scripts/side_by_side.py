"""Print two set-ups' benchmark figures side by side (scripts/bench.sh).

    side_by_side.py A1.log A2.log -- B1.log B2.log

Each log's last line is a benchmark's JSON object. Every number found in
them (nested keys joined with dots) is averaged over its set-up's logs and
printed in a table with the production/embedded ratio; the last line is
one JSON object with both set-ups' averages.
"""

import json
import sys

NAMES = ("sqlite", "postgresql+redis")


def last_json(path):
    with open(path) as log:
        lines = [line for line in log.read().splitlines() if line.startswith("{")]
    if not lines:
        raise SystemExit(f"{path}: no JSON line (the benchmark failed?)")
    return json.loads(lines[-1])


def numbers(value, prefix=""):
    """Yield (dotted key, number) for every number in `value`."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from numbers(inner, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield prefix, value


def mean_of(paths):
    found = {}
    for path in paths:
        for key, value in numbers(last_json(path)):
            found.setdefault(key, []).append(value)
    return {key: round(sum(values) / len(values), 3) for key, values in found.items()}


def main(argv):
    split = argv.index("--")
    sides = dict(zip(NAMES, (mean_of(argv[:split]), mean_of(argv[split + 1 :]))))
    embedded, production = sides[NAMES[0]], sides[NAMES[1]]
    width = max(len(key) for key in embedded) + 2
    print(f"{'figure':<{width}}{'SQLite':>12}{'PG + Redis':>12}{'ratio':>8}")
    for key, value in embedded.items():
        other = production.get(key)
        if other is None:
            continue
        ratio = f"{other / value:.2f}" if value else "-"
        print(f"{key:<{width}}{value:>12}{other:>12}{ratio:>8}")
    print(json.dumps(sides))


if __name__ == "__main__":
    main(sys.argv[1:])
