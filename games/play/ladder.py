"""The bot ladder: rated games among the computer levels, and their measured strength.

`run_ladder` seats account 1 of two levels (bot-strong-1, bot-basic-1 ...) at a
private live table for each game, both seat orders of each deal, and plays it
through `Game.play` like any game: the moves are chosen as the arena chooses
them (games.rules.bots.choose, from the seat's view only), the game is
recorded and reviewable, and its end moves the bots' totals and ratings as
any rated game does. The figures of each pair (wins with a 95% interval, time
per decision) are stored as BotStrength rows, which the bots' profiles show.
`record_arena` stores an arena run's figures (its JSON line) the same way.
"""

import itertools
import random
import time

from django.db import transaction
from django.utils import timezone

from accounts.models import BotStrength, Edition
from games.models import Game, Seat, StaleBoard
from games.play.bots import bot_account
from games.rules import IllegalMove, awaiting, forced_move, view_for
from games.rules.arena import wilson
from games.rules.bots import LEVELS, choose
from games.rules.state import OVER, Options


def play_rated_game(levels, seed, options, budget=None, clock=None):
    """Play one rated game between bot account 1 of each of `levels` (in seat order).

    Return the finished Game. `clock(position, seconds)` is called with each bot decision's time.
    """
    users = [bot_account(level, 1) for level in levels]
    with transaction.atomic():
        game = Game.objects.create(
            host=users[0],
            seat_count=len(users),
            options=options.to_json(),
            private=True,
            seed=seed,
        )
        Seat.objects.bulk_create(
            Seat(game=game, user=user, position=i) for i, user in enumerate(users)
        )
    game.start()
    rngs = [random.Random(seed * 1_000_003 + seat) for seat in range(len(levels))]
    while game.status == Game.Status.ACTIVE:
        state = game.state()
        if state.phase == OVER:
            break
        waiting = awaiting(state)
        found = next(
            ((seat, move) for seat, _d, _s in waiting if (move := forced_move(state, seat))),
            None,
        )
        if found is None:
            seat = waiting[0][0]
            started = time.perf_counter()
            move = choose(levels[seat], view_for(state, seat), rngs[seat], budget)
            if clock is not None:
                clock(seat, time.perf_counter() - started)
            found = (seat, move)
        try:
            game.play(*found, version=game.version)
        except (StaleBoard, IllegalMove):
            # The worker moved for a bot meanwhile (it may, after its pause): read again.
            game.refresh_from_db()
    return game


def run_ladder(levels=LEVELS, games=10, seed=1, options=None, budget=None, progress=None):
    """Play `games` rated two-player games for each pair of `levels`; store and return figures.

    Each deal is played twice, once in each seat order (use an even `games`).
    Return the BotStrength rows stored, two per pair.
    """
    options = options or Options()
    deal_rng = random.Random(seed)
    stored = []
    for a, b in itertools.combinations(levels, 2):
        started = time.perf_counter()
        figures = {
            level: {"wins": 0, "decisions": 0, "seconds": 0.0, "max": 0.0} for level in (a, b)
        }
        draws = 0
        deal = 0
        for n in range(games):
            if n % 2 == 0:
                deal = deal_rng.getrandbits(63)
            order = (a, b) if n % 2 == 0 else (b, a)

            def clock(seat, seconds, order=order, figures=figures):
                mine = figures[order[seat]]
                mine["decisions"] += 1
                mine["seconds"] += seconds
                mine["max"] = max(mine["max"], seconds)

            game = play_rated_game(order, deal, options, budget, clock)
            winner = game.seats.filter(result=Seat.Result.WIN).first()
            if winner is None:
                draws += 1
            else:
                figures[order[winner.position]]["wins"] += 1
            if progress is not None:
                progress(a, b, n + 1, figures, draws)
        seconds = time.perf_counter() - started
        for level, opponent in ((a, b), (b, a)):
            mine = figures[level]
            decisions = mine["decisions"]
            stored.append(
                _store(
                    level=level,
                    opponent=opponent,
                    players=2,
                    seats=1,
                    edition=_edition(options),
                    games=games,
                    wins=mine["wins"],
                    draws=draws,
                    mean_decision_ms=mine["seconds"] / decisions * 1000 if decisions else 0.0,
                    max_decision_ms=mine["max"] * 1000,
                    budget=budget,
                    source=BotStrength.Source.LADDER,
                    seconds=seconds,
                )
            )
    return stored


def record_arena(result, measured_at=None):
    """Store the figures of an arena run (`games.rules.arena.run`'s result); return the rows."""
    rows = []
    for side, other in (("a", "b"), ("b", "a")):
        mine = result[side]
        rows.append(
            _store(
                level=mine["level"],
                opponent=result[other]["level"],
                players=result["players"],
                seats=mine["seats"],
                edition=_edition(Options.from_json(result["options"])),
                games=result["games"],
                wins=mine["wins"],
                draws=result["draws"],
                mean_decision_ms=mine["mean_decision_ms"],
                max_decision_ms=mine["max_decision_ms"],
                budget=result.get("budget"),
                source=BotStrength.Source.ARENA,
                seconds=result.get("seconds", 0.0),
                measured_at=measured_at or timezone.now(),
            )
        )
    return rows


def _edition(options):
    return Edition.ENHANCED if options.enhanced else Edition.CLASSIC


def _store(**fields):
    low, high = wilson(fields["wins"], fields["games"])
    for name in ("mean_decision_ms", "max_decision_ms", "seconds"):
        fields[name] = round(fields[name], 1)
    return BotStrength.objects.create(
        ci_low=round(100 * low, 1), ci_high=round(100 * high, 1), **fields
    )
