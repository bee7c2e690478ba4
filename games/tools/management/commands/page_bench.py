"""Measure the server CPU of the pages a player opens, for players with few and many finished games.

A tool that only measures: nothing of it runs in a request. As move_bench, it
starts one Daphne process serving config.asgi in production mode (DEBUG off, a
fresh secret key, no worker inside) on the configured database, and reads that
process's CPU time (time.process_time, every thread) before and after each
series of requests; the client (plain HTTP in this process) is not counted.

For each --games N it makes, in bulk, a player with N finished games against
four opponents (their seats, totals, ratings and rating history as a finished
game leaves them) and one game in play, then opens each page --requests times
as that player; a run's figure is the mean CPU ms of one request, and the
printed figure the median of --runs runs. The pages:

| key | page |
| --- | --- |
| home | the signed-in home page `/` |
| table | the table of the player's game in play |
| profile | the player's own profile |
| your_turn | `/turn/` |
| finished | the player's finished games, first page |
| finished_oldest | the player's finished games, the page of the oldest ones |
| recent | `/games/recent/`, first page |
| recent_oldest | `/games/recent/`, the page of the oldest games |
| leaderboard | `/accounts/leaderboard/` |
| finished_opponent | the player's finished games against their first opponent (a quarter of them) |
| versus | the head-to-head page of the player and their first opponent |

The last line printed is one JSON object. Run it on a scratch database:

    SQLITE_PATH=/tmp/pages.sqlite3 .venv/bin/python manage.py migrate
    SQLITE_PATH=/tmp/pages.sqlite3 .venv/bin/python manage.py page_bench   # --games 200 8000
"""

import http.client
import json
import secrets
import statistics
from datetime import timedelta
from uuid import uuid4

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test.utils import override_settings
from django.utils import timezone

from games.tools.load import login_cookies
from games.tools.management.commands.move_bench import BenchServer

OPPONENTS = 4


class Command(BaseCommand):
    requires_system_checks = []
    help = "Measure the server CPU of each page for players with N finished games (JSON last line)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, nargs="+", default=[200, 8000])
        parser.add_argument("--runs", type=int, default=3, help="Runs; the median is printed.")
        parser.add_argument("--requests", type=int, default=20, help="Requests per page and run.")

    def handle(self, *args, **options):
        run = uuid4().hex[:8]
        key = secrets.token_urlsafe(50)
        with override_settings(SECRET_KEY=key):
            server = BenchServer(key)
            server.start()
            results = {}
            try:
                for count in options["games"]:
                    paths, cookie = make_player(run, count)
                    runs = []
                    for r in range(options["runs"]):
                        runs.append(measure(server, paths, cookie, options["requests"]))
                        self.stderr.write(f"{count} games, run {r + 1}: {json.dumps(runs[-1])}")
                    results[str(count)] = medians(runs)
                    delete_players(run)
            finally:
                server.stop()
                delete_players(run)
        summary = {
            "runs": options["runs"],
            "requests": options["requests"],
            "pages_cpu_ms": results,
            "debug": False,
            "database": connection.vendor,
        }
        self.stdout.write(json.dumps(summary))


def medians(runs):
    """Return the median of the runs' figures, page by page."""
    return {page: round(statistics.median(run[page] for run in runs), 2) for page in runs[0]}


def make_player(run, count):
    """Make a player with `count` finished games and one game in play; return (paths, cookie)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from accounts.models import PlayerStats, Rating
    from games.models import Game, Seat

    User = get_user_model()
    password = make_password(None)
    with transaction.atomic():
        player = User.objects.create(username=f"pagebench-{run}-{count}", password=password)
        others = [
            User.objects.create(username=f"pagebench-{run}-{count}-{o}", password=password)
            for o in range(OPPONENTS)
        ]
        games = finished_history(player, others, count)
        wins = count // 2
        PlayerStats.objects.create(
            user=player,
            games=count,
            wins=wins,
            losses=count - wins,
            by_players={"2": [count, wins]},
            by_edition={"classic": [count, wins]},
            actions={"sly_deal": count, "pass_go": 2 * count},
            rent_collected=3 * count,
            turns_to_win=10 * wins,
        )
        for user in (player, *others):
            Rating.objects.create(
                user=user, edition="classic", mu=30, sigma=2, ordinal=24, games=count
            )
        playing = Game.objects.create(host=player, seat_count=2, pace_seconds=24 * 3600)
        Seat.objects.bulk_create(
            [
                Seat(game=playing, user=player, position=0),
                Seat(game=playing, user=others[0], position=1),
            ]
        )
    playing.start()
    from games.views import GAMES_PER_PAGE

    oldest = games[GAMES_PER_PAGE].code  # the page after this game holds the oldest games
    name = player.username
    paths = {
        "home": "/",
        "table": playing.get_absolute_url(),
        "profile": f"/accounts/u/{name}/",
        "your_turn": "/turn/",
        "finished": "/games/finished/",
        # `page` for page-numbered lists, `before` for keyset ones: each ignores the other.
        "finished_oldest": f"/games/finished/?page=100000&before={oldest}",
        "recent": "/games/recent/",
        "recent_oldest": f"/games/recent/?page=100000&before={oldest}",
        "leaderboard": "/accounts/leaderboard/",
        "finished_opponent": f"/games/finished/?opponent={others[0].username}",
        "versus": f"/accounts/u/{name}/vs/{others[0].username}/",
    }
    cookies = login_cookies(player)
    return paths, "; ".join(f"{k}={v}" for k, v in cookies.items())


def finished_history(player, others, count):
    """Make, in bulk, `count` finished games of `player` against `others` in turn; oldest first.

    Their seats, the pairs' games together and the player's rating history
    are what a finished game leaves (Game._finish, accounts.stats.record_result).
    """
    from accounts.models import GameTogether, RatingChange
    from games.models import Game, Seat

    start = timezone.now() - timedelta(minutes=count + 10)
    games = Game.objects.bulk_create(
        Game(
            host=player,
            seat_count=2,
            private=True,
            status=Game.Status.FINISHED,
            version=100,
            started_at=start + timedelta(minutes=i),
            ended_at=start + timedelta(minutes=i, seconds=30),
            turn_number=20,
            winner=player if i % 2 else others[i % len(others)],
            end_reason="sets",
        )
        for i in range(count)
    )
    seats = []
    for i, game in enumerate(games):
        for position, user in enumerate((player, others[i % len(others)])):
            seat = Seat(game=game, user=user, position=position)
            seat.result = "win" if game.winner_id == user.pk else "loss"
            seat.ended_at = game.ended_at
            seats.append(seat)
    Seat.objects.bulk_create(seats, batch_size=2000)
    GameTogether.objects.bulk_create(
        (
            GameTogether(user=a, opponent=b, game=game, ended_at=game.ended_at)
            for i, game in enumerate(games)
            for a, b in ((player, others[i % len(others)]), (others[i % len(others)], player))
        ),
        batch_size=2000,
    )
    RatingChange.objects.bulk_create(
        (
            RatingChange(
                user=player,
                game=game,
                edition="classic",
                before=20 + (i % 7),
                after=20 + ((i + 1) % 7),
                delta=((i + 1) % 7) - (i % 7),
                created_at=game.ended_at,
            )
            for i, game in enumerate(games)
        ),
        batch_size=2000,
    )
    return games


def delete_players(run):
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session

    from games.models import Game

    users = get_user_model().objects.filter(username__startswith=f"pagebench-{run}-")
    Game.objects.filter(host__in=users).delete()
    users.delete()
    Session.objects.all().delete()  # a scratch database: every session is the bench's


def measure(server, paths, cookie, requests):
    """Return the server CPU ms of one request of each page (the mean of `requests`)."""
    client = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    headers = {"Cookie": cookie, "Host": "127.0.0.1"}
    found = {}
    try:
        for page, path in paths.items():
            get(client, path, headers)  # warm: the first request of a page fills caches
            before = server.figures()["process"]
            for _ in range(requests):
                get(client, path, headers)
            found[page] = round((server.figures()["process"] - before) * 1000 / requests, 3)
    finally:
        client.close()
    return found


def get(client, path, headers):
    client.request("GET", path, headers=headers)
    response = client.getresponse()
    response.read()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}.")
