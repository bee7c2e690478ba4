"""Side by side: random-playout turns per CPU second of Full Set's engine and shuckc/monodeal.

    .venv/bin/python scripts/monodeal_bench.py --monodeal /tmp/monodeal --players 2 --games 300

`--monodeal` is a folder holding the `monodeal` package (fetched by hand; this
project neither ships nor installs it). Both engines play complete games with
uniformly random moves among those they list, in this process, one after the
other, `--rounds` times; the time is this process's CPU time, which a busy
machine disturbs less than the wall clock. monodeal is measured with its
`print(...)` statements taken out of the source before it is imported (no log
formatting at all) and, with --published, as published too (its log lines
formatted and written to /dev/null; slow: it logs every subset it tries when
choosing a payment). monodeal chooses a payment by trying every subset of the
payer's cards, so a few games with large banks take seconds or hours: a game
is cut short after --game-seconds of CPU time (its turns so far count, which
favours monodeal) and the cut and crashed games are counted in the result. A turn of monodeal is a call of its player with 3 actions
left; monodeal plays fewer kinds of cards (rents, steals, Just Say No and Deal
Breaker are dealt but never played), so its turns are simpler than ours.
The last line printed is one JSON object.
"""

import argparse
import ast
import contextlib
import importlib
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.bench import run as full_set_run  # noqa: E402
from games.rules.state import Options  # noqa: E402


class _NoPrints(ast.NodeTransformer):
    def visit_Expr(self, node):
        call = node.value
        if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "print":
            return ast.Pass()
        return node


def load_monodeal(folder, quiet):
    """Import the monodeal package of `folder` (its prints taken out when `quiet`)."""
    for name in [m for m in sys.modules if m == "monodeal" or m.startswith("monodeal.")]:
        del sys.modules[name]
    source = Path(folder) / "monodeal"
    if not (source / "game.py").exists():
        raise SystemExit(f"No monodeal package in {folder}: fetch shuckc/monodeal there first.")
    root = Path(tempfile.mkdtemp(prefix="monodeal-"))
    shutil.copytree(source, root / "monodeal")
    if quiet:
        for path in (root / "monodeal").glob("*.py"):
            tree = _NoPrints().visit(ast.parse(path.read_text()))
            path.write_text(ast.unparse(ast.fix_missing_locations(tree)))
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("monodeal.game"), importlib.import_module("monodeal.actions")
    finally:
        sys.path.remove(str(root))


class _TooLong(Exception):
    pass


def _too_long(_signum, _frame):
    raise _TooLong


def monodeal_run(modules, players, games, seed, game_seconds=5.0):
    """Play `games` random games of monodeal; return turns per CPU second and mean turns."""
    game_module, actions_module = modules
    rng = random.Random(seed)
    turns = 0
    crashed = 0
    cut = 0

    class RandomPlayer(game_module.Player):
        def get_action(self, game, actions_left):
            nonlocal turns
            if actions_left == 3:
                turns += 1
            actions = actions_module.generate_actions(game, self, actions_left)
            actions.append(actions_module.SkipAction(self))
            return actions[rng.randrange(len(actions))]

    signal.signal(signal.SIGPROF, _too_long)
    cpu = time.process_time()
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        for game in range(games):
            seats = [RandomPlayer(f"P{i}") for i in range(players)]
            signal.setitimer(signal.ITIMER_PROF, game_seconds)
            try:
                game_module.Game(players=seats, random=random.Random(seed * 7919 + game)).play()
            except _TooLong:
                cut += 1
            except (AssertionError, ValueError, IndexError):
                # Its own bugs (e.g. a House paid as money); the turns played until then count.
                crashed += 1
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
    cpu = time.process_time() - cpu
    return {
        "turns_per_cpu_s": round(turns / cpu),
        "mean_turns": round(turns / games, 2),
        "crashed": crashed,
        "cut": cut,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--monodeal", required=True, help="folder holding the monodeal package")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--game-seconds",
        type=float,
        default=5.0,
        help="CPU seconds after which a monodeal game is cut short (its turns still count)",
    )
    parser.add_argument(
        "--published", action="store_true", help="measure monodeal as published too (slow)"
    )
    args = parser.parse_args(argv)
    variants = {"monodeal_no_logs": load_monodeal(args.monodeal, quiet=True)}
    if args.published:
        variants["monodeal_published"] = load_monodeal(args.monodeal, quiet=False)
    figures = {"full_set": [], **{key: [] for key in variants}}
    crashes = {}
    cuts = {}
    for round_ in range(args.rounds):
        seed = args.seed + round_
        ours = full_set_run(args.players, args.games, seed, Options(), "random")
        figures["full_set"].append(ours["turns_per_cpu_s"])
        for key, modules in variants.items():
            theirs = monodeal_run(modules, args.players, args.games, seed, args.game_seconds)
            figures[key].append(theirs["turns_per_cpu_s"])
            crashes[key] = crashes.get(key, 0) + theirs["crashed"]
            cuts[key] = cuts.get(key, 0) + theirs["cut"]
        print(f"round {round_ + 1}: " + ", ".join(f"{k} {v[-1]}" for k, v in figures.items()))
    best = {key: max(values) for key, values in figures.items()}
    result = {
        "players": args.players,
        "games": args.games,
        "rounds": args.rounds,
        "python": sys.version.split()[0],
        "turns_per_cpu_s": figures,
        "monodeal_games_crashed": crashes,
        "monodeal_games_cut": cuts,
        "ratio_vs_no_logs": round(best["full_set"] / best["monodeal_no_logs"], 2),
    }
    if args.published:
        result["ratio_vs_published"] = round(best["full_set"] / best["monodeal_published"], 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
