"""Run the arena with some of the strong player's settings changed, nothing edited.

    python scripts/arena_variant.py --set TIME_LIMIT=0.9 --set MAX_DEALS=1024 \
        --a strong --b basic --players 2 --games 200 --seed 7 --budget 40000 --jobs 1

Each `--set NAME=VALUE` replaces one upper-case constant of games/rules/search.py
(DEFAULT_BUDGET, TIME_LIMIT, CANDIDATES, CONFIDENCE, ROLLOUT_TURNS ...) for this
run, as a number of the constant's own type; every other argument is the
arena's (`python -m games.rules.arena --help`). The games are played in this
process, so `--jobs` must be 1 (processes of a pool would not see the settings).
The JSON line printed at the end carries the settings under "settings"; the
arena's progress lines on stderr carry level A's time per decision, so a run
cut short still gives its figures so far.
"""

import contextlib
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import arena, search  # noqa: E402


def parse_settings(pairs):
    """Return {name: value} from "NAME=VALUE" strings; raise ValueError on a bad one."""
    settings = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.isupper() or not hasattr(search, name):
            raise ValueError(f"{pair!r}: expected NAME=VALUE with NAME a constant of search.py")
        kind = type(getattr(search, name))
        if kind not in (int, float):
            raise ValueError(f"{name} is not a number")
        try:
            settings[name] = kind(text)
        except ValueError:
            wanted = "a whole number" if kind is int else "a number"
            raise ValueError(f"{name}: {text!r} is not {wanted}") from None
    return settings


def split_args(argv):
    """Return (the --set values, the arena's arguments) of a command line."""
    pairs, rest = [], []
    items = iter(argv)
    for item in items:
        if item == "--set":
            pairs.append(next(items, ""))
        elif item.startswith("--set="):
            pairs.append(item[len("--set=") :])
        else:
            rest.append(item)
    return pairs, rest


def main(argv=None, out=None):
    pairs, rest = split_args(sys.argv[1:] if argv is None else argv)
    try:
        settings = parse_settings(pairs)
    except ValueError as error:
        raise SystemExit(f"arena_variant: {error}") from None
    if "--jobs" in rest and rest[rest.index("--jobs") + 1 :][:1] != ["1"]:
        raise SystemExit("arena_variant: the settings hold in this process only: use --jobs 1")
    saved = {name: getattr(search, name) for name in settings}
    printed = io.StringIO()
    try:
        for name, value in settings.items():
            setattr(search, name, value)
        with contextlib.redirect_stdout(printed):
            arena.main(rest)
    finally:
        for name, value in saved.items():
            setattr(search, name, value)
    result = json.loads(printed.getvalue().strip().splitlines()[-1])
    result["settings"] = settings
    print(json.dumps(result), file=out or sys.stdout)
    return result


if __name__ == "__main__":
    main()
