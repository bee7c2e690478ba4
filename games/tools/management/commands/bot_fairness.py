"""Measure how long an honest player's computer opponent takes a turn, alone and under load.

The load: another account's many tables of strong computer players that
play on by themselves (their host resigned; the four bots play on), as a
hostile account would keep the worker busy; or, with --hostile-accounts N,
those tables shared among N such accounts, which the worker's turns by
account (games.play.bots.due_bot_seats) serve one after another. The worker is the real one
(games.play.worker.run_round, round after round, in a thread of this process, as
`manage.py worker` runs it); the honest player makes the default move
(docs/rules.md section 11) as soon as the game waits for them, through Game.play,
and the clock runs from their end of turn until the game waits for them
again: one whole turn of their bot, PAUSE before each of its moves included.

It writes to the configured database (accounts fair-honest and fair-hostile[-n],
their games, deleted at the end unless --keep): run it on a scratch one, e.g.
SQLITE_PATH=/tmp/fair.sqlite3 after `migrate`, with no worker running. Nothing
goes over the network. The last line printed is one JSON object.
"""

import json
import statistics
import threading
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from games import rules
from games.models import Game
from games.play import bots
from games.play.worker import INTERVAL, run_round

HONEST, HOSTILE = "fair-honest", "fair-hostile"
POLL = 0.02  # seconds between two looks at the honest game


class Command(BaseCommand):
    help = "Time an honest bot's turns alone, then while another account runs many bot tables."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=40, help="the hostile accounts' tables")
        parser.add_argument(
            "--hostile-accounts", type=int, default=1, help="the accounts sharing those tables"
        )
        parser.add_argument("--hostile-level", default="strong", choices=list(bots.LEVELS))
        parser.add_argument("--honest-level", default="basic", choices=list(bots.LEVELS))
        parser.add_argument("--turns", type=int, default=8, help="honest bot turns per phase")
        parser.add_argument(
            "--seconds", type=float, default=300, help="each phase stops after this long anyway"
        )
        parser.add_argument("--keep", action="store_true", help="keep the accounts and games")

    def handle(self, *args, **options):
        if not 1 <= options["tables"] <= 200 or not 1 <= options["turns"] <= 100:
            raise CommandError("Use 1 to 200 tables and 1 to 100 turns.")
        if not 1 <= options["hostile_accounts"] <= options["tables"]:
            raise CommandError("Use 1 hostile account to as many as there are tables.")
        count = options["hostile_accounts"]
        names = [HOSTILE] if count == 1 else [f"{HOSTILE}-{n}" for n in range(1, count + 1)]
        others = Game.objects.filter(status=Game.Status.ACTIVE).exclude(
            host__username__in=[HONEST, *names]
        )
        if others.exists():
            raise CommandError("Other games are in play here: use a scratch database.")
        honest = _account(HONEST)
        hostile = [_account(name) for name in names]
        worker = _Worker()
        worker.start()
        try:
            alone = self.phase(honest, options, "alone")
            tables = options["tables"]
            _keep_going(hostile, tables, options["hostile_level"])
            time.sleep(2 * bots.PAUSE.total_seconds())  # every hostile bot is due at once
            name = f"with {tables} {options['hostile_level']} tables of {count} account(s)"
            loaded = self.phase(honest, options, name, hostile, tables)
        finally:
            worker.stop()
            if not options["keep"]:
                Game.objects.filter(host__username__in=[HONEST, *names]).delete()
        hostile_moves = loaded.pop("hostile_moves")
        result = {
            "honest_level": options["honest_level"],
            "hostile_level": options["hostile_level"],
            "hostile_tables": options["tables"],
            "hostile_accounts": count,
            "alone_s": alone,
            "loaded_s": loaded,
            "hostile_moves_during_loaded_phase": hostile_moves,
            "median_ratio": round(loaded["median"] / alone["median"], 2),
        }
        self.stdout.write(json.dumps(result))

    def phase(self, honest, options, name, hostile=None, tables=0):
        """Time `options['turns']` turns of the honest bot; keep `tables` hostile tables going."""
        game = _honest_table(honest, options["honest_level"])
        position = game.seat_of(honest)
        moves_before = _moves_of(hostile)
        turns = []
        deadline = time.monotonic() + options["seconds"]
        started = None
        while len(turns) < options["turns"] and time.monotonic() < deadline:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                game = _honest_table(honest, options["honest_level"])
                started = None
                continue
            if hostile is not None:
                _keep_going(hostile, tables, options["hostile_level"])
            state = game.state()
            mine = [a for a in rules.awaiting(state) if a[0] == position]
            if not mine:
                time.sleep(POLL)
                continue
            if state.current == position and mine[0][1] == "play" and started is not None:
                turns.append(time.monotonic() - started)
                self.stderr.write(f"{name}: bot turn {len(turns)}: {turns[-1]:.2f} s")
                started = None
            move = rules.default_move(state, position)
            try:
                game.play(position, move, version=game.version)
            except Exception:  # the board moved meanwhile: look again
                continue
            game.refresh_from_db()
            if game.status == Game.Status.ACTIVE and game.state().current != position:
                started = started or time.monotonic()
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            game.play(position, rules.Move.resign())  # its bot must not load the next phase
        if not turns:
            raise CommandError(f"{name}: no bot turn ended within {options['seconds']} s.")
        figures = {
            "turns": len(turns),
            "median": round(statistics.median(turns), 2),
            "max": round(max(turns), 2),
            "min": round(min(turns), 2),
        }
        if hostile is not None:
            figures["hostile_moves"] = _moves_of(hostile) - moves_before
        return figures


class _Worker:
    """The worker's rounds in a thread of this process, as `manage.py worker` runs them."""

    def __init__(self):
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="worker", daemon=True)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join()

    def _run(self):
        while not self._stop.is_set():
            if not run_round():
                self._stop.wait(INTERVAL)
        close_old_connections()


def _account(username):
    user, _created = get_user_model().objects.get_or_create(username=username)
    return user


def _honest_table(user, level, seats=2):
    """Start a live game of `user` against `seats - 1` computer players of `level`."""
    game = Game.objects.create(host=user, seat_count=seats)
    game.join(user)
    bots.fill_with_bots(game, level)
    game.refresh_from_db()
    return game


def _hostile_table(user, level):
    """Start a table of `user` and four bots of `level`, and resign: the bots play on."""
    game = _honest_table(user, level, seats=5)
    game.play(game.seat_of(user), rules.Move.resign())
    return game


def _keep_going(users, tables, level):
    """Replace the hostile tables that ended, so that `tables` stay in play, shared by `users`."""
    for n, user in enumerate(users):
        share = tables // len(users) + (n < tables % len(users))
        active = Game.objects.filter(host=user, status=Game.Status.ACTIVE).count()
        for _ in range(share - active):
            _hostile_table(user, level)


def _moves_of(users):
    if users is None:
        return 0
    return sum(Game.objects.filter(host__in=users).values_list("version", flat=True))
