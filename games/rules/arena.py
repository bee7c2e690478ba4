"""Arena: computer players of two levels play seeded games against each other.

    python -m games.rules.arena --a basic --b random --players 2 --games 200 --seed 1

Level A takes `--a-seats` seats (one by default) and level B the others. Each
deal is played once per seat rotation, so every level sits at every position
equally often (use a multiple of the player count for --games). As on the
site, a decision with a single legal answer is made without asking the bot.
The last line printed is one JSON object: each level's win rate with a 95%
Wilson interval and its expected share (its seats / players), draws (games
with no winner), and the time each level took per decision. The same
arguments give the same games and the same figures (except the times), with
any --jobs (games played at once in separate processes); but the strong
player stops searching at its time limit (search.TIME_LIMIT), so on a busy
machine it may choose otherwise: measure with nothing else running.
"""

import argparse
import json
import math
import multiprocessing
import random
import sys
import time

from .bots import LEVELS, choose
from .engine import apply, awaiting, forced_move, new_game
from .observe import view_for
from .state import OVER, Options


def wilson(wins, games, z=1.96):
    """Return the 95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def seating(game, players, a_seats):
    """Return the seats of level A in `game`: a block of `a_seats` seats rotated by the game."""
    return {(game + i) % players for i in range(a_seats)}


def play_game(levels, seed, options, budget, clock):
    """Play one game with `levels[seat]` at each seat; return the final state.

    `clock(seat, seconds)` is called with the time of every bot decision.
    """
    state = new_game(len(levels), seed, options)
    bot_rngs = [random.Random(seed * 1_000_003 + seat) for seat in range(len(levels))]
    while state.phase != OVER:
        waiting = awaiting(state)
        forced = None
        for seat, _decision, _share in waiting:
            move = forced_move(state, seat)
            if move is not None:
                forced = (seat, move)
                break
        if forced is not None:
            apply(state, *forced)
            continue
        seat = waiting[0][0]
        started = time.perf_counter()
        move = choose(levels[seat], view_for(state, seat), bot_rngs[seat], budget)
        clock(seat, time.perf_counter() - started)
        apply(state, seat, move)
    return state


def _play_task(task):
    """Play one arena game; return its sides, winner, turns, end reason and clocks per side."""
    a, b, sides, seed, options, budget = task
    levels = [a if side == "a" else b for side in sides]
    clocks = {"a": [0, 0.0, 0.0], "b": [0, 0.0, 0.0]}

    def clock(seat, seconds):
        figures = clocks[sides[seat]]
        figures[0] += 1
        figures[1] += seconds
        figures[2] = max(figures[2], seconds)

    state = play_game(levels, seed, options, budget, clock)
    return sides, state.winner, state.turns, state.end_reason, clocks


def run(a, b, players, games, seed, options, budget=None, a_seats=1, progress=None, jobs=1):
    if not 1 <= a_seats < players:
        raise ValueError("Level A needs at least one seat and must leave one to level B.")
    deal_rng = random.Random(seed)
    deals = []
    stats = {side: {"wins": 0, "decisions": 0, "seconds": 0.0, "max": 0.0} for side in ("a", "b")}
    draws = 0
    turns = 0
    reasons = {}
    started = time.perf_counter()
    tasks = []
    for game in range(games):
        deal = game // players
        while len(deals) <= deal:
            deals.append(deal_rng.getrandbits(63))
        a_at = seating(game, players, a_seats)
        sides = ["a" if seat in a_at else "b" for seat in range(players)]
        tasks.append((a, b, sides, deals[deal], options, budget))
    if jobs > 1:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap(_play_task, tasks)
    else:
        pool = None
        results = map(_play_task, tasks)
    try:
        for done, (sides, winner, game_turns, reason, clocks) in enumerate(results, 1):
            for side, (decisions, seconds, longest) in clocks.items():
                figures = stats[side]
                figures["decisions"] += decisions
                figures["seconds"] += seconds
                figures["max"] = max(figures["max"], longest)
            turns += game_turns
            reasons[reason] = reasons.get(reason, 0) + 1
            if winner >= 0:
                stats[sides[winner]]["wins"] += 1
            else:
                draws += 1
            if progress is not None:
                progress(done, stats, draws)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    result = {
        "players": players,
        "games": games,
        "seed": seed,
        "options": options.to_json(),
        "budget": budget,
        "draws": draws,
        "end_reasons": reasons,
        "mean_turns": round(turns / games, 2) if games else 0,
        "seconds": round(time.perf_counter() - started, 1),
    }
    for side, level, seats in (("a", a, a_seats), ("b", b, players - a_seats)):
        figures = stats[side]
        low, high = wilson(figures["wins"], games)
        decisions = figures["decisions"]
        result[side] = {
            "level": level,
            "seats": seats,
            "wins": figures["wins"],
            "win_rate": round(figures["wins"] / games, 4) if games else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "expected_share": round(seats / players, 4),
            "decisions": decisions,
            "mean_decision_ms": round(1000 * figures["seconds"] / decisions, 3)
            if decisions
            else 0.0,
            "max_decision_ms": round(1000 * figures["max"], 3),
        }
    result["max_decision_ms"] = max(result["a"]["max_decision_ms"], result["b"]["max_decision_ms"])
    return result


def progress_line(done, games, stats, draws):
    """Return the progress line of a run: wins so far and level A's time per decision.

    A run cut short thus still tells its figures so far.
    """
    a = stats["a"]
    mean = 1000 * a["seconds"] / a["decisions"] if a["decisions"] else 0.0
    return (
        f"{done}/{games} games: A {a['wins']} B {stats['b']['wins']} draws {draws};"
        f" A {mean:.0f} ms a decision, {1000 * a['max']:.0f} ms at most"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", choices=LEVELS, default="basic")
    parser.add_argument("--b", choices=LEVELS, default="random")
    parser.add_argument("--a-seats", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--budget", type=int, default=None, help="decisions the strong player simulates per move"
    )
    parser.add_argument("--enhanced", action="store_true")
    parser.add_argument("--built-sets", action="store_true")
    parser.add_argument("--wild-moves-cost-a-play", action="store_true")
    parser.add_argument(
        "--jobs", type=int, default=1, help="games played at once, in separate processes"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    options = Options(args.enhanced, args.built_sets, args.wild_moves_cost_a_play)

    def progress(done, stats, draws):
        if done % max(1, args.players) == 0:
            print(progress_line(done, args.games, stats, draws), file=sys.stderr, flush=True)

    result = run(
        args.a,
        args.b,
        args.players,
        args.games,
        args.seed,
        options,
        args.budget,
        args.a_seats,
        None if args.quiet else progress,
        args.jobs,
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
