"""Benchmark the review: a late position from its checkpoint against a replay from the deal.

    python manage.py review_bench --players 10 --min-moves 600

A long random game is played in memory (no database is touched). For each
checkpoint spacing K the worst position of the review (a checkpoint plus K-1
moves) is built and its board fragment rendered, as the review view does;
then the same position is replayed from the deal and rendered. Medians of
--repeat runs, in milliseconds. The last line printed is one JSON object.
"""

import json
import random
import statistics
import time

from django.core.management.base import BaseCommand
from django.template.loader import render_to_string
from django.utils import timezone

from games import rules
from games.history.review import advance, board, checkpoint_states, position_context
from games.models import Move
from games.rules.bots import play_random_game
from games.table.log import full_log


def median_ms(work, repeat):
    times = []
    for _run in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 2)


def random_game(players, seed):
    """Return (final state, [(seat, Move)]) of a game played with random moves."""
    state = rules.new_game(players, seed)
    moves = []
    play_random_game(state, random.Random(seed), lambda _s, seat, m, _e: moves.append((seat, m)))
    return state, moves


def long_game(players, seed, min_moves):
    """Return (seed, final state, moves) of the first random game from `seed` long enough."""
    final, moves = random_game(players, seed)
    while len(moves) < min_moves:
        seed += 1
        final, moves = random_game(players, seed)
    return seed, final, moves


def measure(k, seed, final, moves, rows, render, repeat):
    """Time the worst position of the review with checkpoints every `k` moves."""
    finish_ms = median_ms(lambda: checkpoint_states(seed, {}, moves, final, k), 3)
    _summary, states = checkpoint_states(seed, {}, moves, final, k)
    n = (len(moves) - 1) // k * k - 1  # the last position furthest from its checkpoint
    start = n - n % k
    return {
        "position": n,
        "from_checkpoint_ms": median_ms(
            lambda: render(advance(states[start], rows[start:n]), n), repeat
        ),
        "from_deal_ms": median_ms(
            lambda: render(rules.replay(final.seats, seed, {}, moves[:n]), n), repeat
        ),
        "render_ms": median_ms(lambda: render(advance(states[start], []), n), repeat),
        "finish_ms": finish_ms,
        "checkpoints": len(states),
        "checkpoint_kb": round(sum(len(json.dumps(s)) for s in states.values()) / 1024),
    }


class Command(BaseCommand):
    help = __doc__.splitlines()[0]

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=10)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--min-moves", type=int, default=600)
        parser.add_argument("--every", type=int, nargs="+", default=[10, 20, 50])
        parser.add_argument("--repeat", type=int, default=15)

    def handle(self, *args, players, seed, min_moves, every, repeat, **options):
        seed, final, moves = long_game(players, seed, min_moves)
        total = len(moves)
        now = timezone.now()
        rows = [
            Move(n=i, seat=seat, move=move.to_json(), created_at=now)
            for i, (seat, move) in enumerate(moves, 1)
        ]
        user_names = {seat: f"player{seat}" for seat in final.seats}
        names = list(user_names.values())

        def render(state, n):
            line = full_log(rows[n - 1 : n], names, final.deck)[0]
            table = board(state, user_names)
            context = position_context("bench", n, total, None, table, line)
            return render_to_string("games/review.html#position", context)

        results = {}
        for k in every:
            results[k] = found = measure(k, seed, final, moves, rows, render, repeat)
            self.stdout.write(
                f"K={k:>3}: move {found['position']} of {total}: "
                f"from its checkpoint {found['from_checkpoint_ms']} ms, "
                f"replayed from the deal {found['from_deal_ms']} ms "
                f"(rendering alone {found['render_ms']} ms); "
                f"{found['checkpoints']} checkpoints, {found['checkpoint_kb']} KB, "
                f"built in {found['finish_ms']} ms when the game ends"
            )
        self.stdout.write(
            json.dumps({"players": players, "seed": seed, "moves": total, "every": results})
        )
