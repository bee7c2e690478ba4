"""Benchmark: play complete games with uniformly random legal moves on one core.

    python -m games.rules.bench --players 2 --games 2000 --seed 1
    python -m games.rules.bench --players 2 --games 300 --policy basic   # the strong player's rollouts

The last line printed is one JSON object with the figures.
"""

import argparse
import hashlib
import json
import random
import time

from .basic import basic_move
from .bots import play_random_game
from .engine import apply, awaiting, new_game
from .state import OVER, Options


def play_basic_game(state, _rng=None):
    """Play `state` to its end with the basic player at every seat (the strong player's rollouts)."""
    decisions = 0
    while state.phase != OVER:
        seat = awaiting(state)[0][0]
        apply(state, seat, basic_move(state, seat))
        decisions += 1
    return decisions


POLICIES = {"random": play_random_game, "basic": play_basic_game}


def run(players, games, seed, options, policy="random"):
    play = POLICIES[policy]
    rng = random.Random(seed)
    winners = []
    decisions = 0
    turns = 0
    started = time.perf_counter()
    cpu = time.process_time()
    for _game in range(games):
        state = new_game(players, rng.getrandbits(63), options)
        decisions += play(state, rng)
        turns += state.turns
        winners.append(f"{state.winner}:{state.end_reason}")
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu
    largest = _largest_snapshot(players, seed, options, min(games, 20))
    digest = hashlib.sha256(",".join(winners).encode()).hexdigest()[:16]
    reasons = {}
    for w in winners:
        reason = w.split(":")[1]
        reasons[reason] = reasons.get(reason, 0) + 1
    return {
        "players": players,
        "policy": policy,
        "games": games,
        "seed": seed,
        "options": options.to_json(),
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "turns_per_s": round(turns / elapsed),
        # Per second of this process's CPU time: steadier than the above on a shared machine.
        "turns_per_cpu_s": round(turns / cpu),
        "decisions_per_s": round(decisions / elapsed),
        "mean_turns": round(turns / games, 2),
        "mean_decisions": round(decisions / games, 2),
        "end_reasons": reasons,
        "max_snapshot_bytes": largest,
        "winners_digest": digest,
    }


def _largest_snapshot(players, seed, options, games):
    """Return the largest JSON snapshot seen at any decision of a few games (not timed)."""
    rng = random.Random(seed ^ 0x5EED)
    largest = 0

    def measure(state, _seat, _move, _events):
        nonlocal largest
        largest = max(largest, len(json.dumps(state.to_json(), separators=(",", ":"))))

    for _game in range(games):
        play_random_game(new_game(players, rng.getrandbits(63), options), rng, measure)
    return largest


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--enhanced", action="store_true")
    parser.add_argument("--built-sets", action="store_true")
    parser.add_argument("--wild-moves-cost-a-play", action="store_true")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="random")
    args = parser.parse_args(argv)
    options = Options(args.enhanced, args.built_sets, args.wild_moves_cost_a_play)
    print(json.dumps(run(args.players, args.games, args.seed, options, args.policy)))


if __name__ == "__main__":
    main()
