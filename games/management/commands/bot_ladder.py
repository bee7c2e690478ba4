"""Play rated games among the computer levels and store their measured strength (games/play/ladder.py).

    manage.py bot_ladder --games 20 --seed 1
    manage.py bot_ladder --arena-json arena.json   # store an arena run's figures instead

Each pair of levels plays --games two-player games (both seat orders of each
deal) as bot-<level>-1 accounts, at private tables, through Game.play: the
games count in the bots' totals and ratings like any rated game, and each
pair's figures (wins with a 95% interval, time per decision) are stored for
the bots' profiles. The last line printed is one JSON object.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from games.play import ladder
from games.rules.bots import LEVELS
from games.rules.state import Options


class Command(BaseCommand):
    help = "Play rated games among the computer levels; store how strong each level is."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=10, help="games per pair of levels")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--levels", default=",".join(LEVELS), help="e.g. basic,strong")
        parser.add_argument(
            "--budget", type=int, default=None, help="decisions the strong player simulates a move"
        )
        parser.add_argument("--enhanced", action="store_true")
        parser.add_argument(
            "--arena-json",
            help="store the figures of this arena output (its last line) instead of playing",
        )

    def handle(self, *args, **options):
        if options["arena_json"]:
            try:
                with open(options["arena_json"]) as f:
                    result = json.loads(f.read().strip().splitlines()[-1])
                rows = ladder.record_arena(result)
            except (OSError, ValueError, KeyError, IndexError) as error:
                raise CommandError(f"Not an arena result: {error}") from error
            self.stdout.write(json.dumps([_figures(row) for row in rows]))
            return
        levels = [level.strip() for level in options["levels"].split(",") if level.strip()]
        unknown = [level for level in levels if level not in LEVELS]
        if unknown or len(levels) < 2:
            raise CommandError(f"Name at least two levels among {', '.join(LEVELS)}.")
        if options["games"] < 1:
            raise CommandError("Play at least one game per pair.")

        def progress(a, b, done, figures, draws):
            self.stderr.write(
                f"{a} v {b}: {done}/{options['games']} games,"
                f" {figures[a]['wins']} to {figures[b]['wins']}, {draws} draws"
            )

        rows = ladder.run_ladder(
            levels,
            options["games"],
            options["seed"],
            Options(enhanced=options["enhanced"]),
            options["budget"],
            progress,
        )
        self.stdout.write(json.dumps([_figures(row) for row in rows]))


def _figures(row):
    return {
        "level": row.level,
        "opponent": row.opponent,
        "players": row.players,
        "games": row.games,
        "wins": row.wins,
        "draws": row.draws,
        "ci95": [row.ci_low, row.ci_high],
        "mean_decision_ms": row.mean_decision_ms,
        "max_decision_ms": row.max_decision_ms,
        "source": row.source,
    }
