"""Measure the server CPU one move costs, split into its parts, at tables of 2 and 4.

A tool that only measures: nothing of it runs in a request. It starts one
Daphne process serving config.asgi in production mode (DEBUG off, a fresh
secret key, no worker inside) on the configured database (SQLite by default),
with probes around the parts of a move: each probe adds up the CPU time of the
thread it runs in (time.thread_time), and the whole process's CPU
(time.process_time, every thread) is read before and after each series of
moves. The players are real HTTP and WebSocket clients in this process
(games/tools/load.py), so none of their work is counted.

For each table size and run, a fresh game (fixed seeds) is played by basic
bots, one move at a time (chosen here from the seat's view, outside the
server). Each way of sending a move (--via, both by default) has its series:

- post (the figures under "post"): the moves posted as the page does without
  its socket, twice: with no socket open, the CPU per move is the POST alone
  (`post_ms`); with every player's socket open, the CPU per move is the whole
  move (`move_ms`), the POST and every socket's update, the clock running
  until every socket has the new version;
- socket (under "socket"): every player's socket open, the moves sent over
  the mover's socket as the page's ws-send does (games/live/moves.py); the
  same games and moves as the post series with sockets.

The figures are per move, the median of --runs runs. Under "post":

| key | part |
| --- | --- |
| move_ms | whole move: the POST and every socket's update (process CPU) |
| post_ms | the POST alone (process CPU, no socket open) |
| post_render_ms | rendering the POST's answer (games.views._board_or_redirect) |
| socket_render_ms, per_socket_ms | every socket's render (GameConsumer.send_board on its thread, games.table.board.board_update on the event loop), one socket's |
| log_ms | the recent-moves log (games.table.board.recent_moves), POST and sockets |
| request_ms | the POST less the view: Daphne, middleware, session, auth |
| lookup_ms | the view less Game.play and the answer's rendering: the game and seat lookup |
| play_ms | Game.play (the transaction) |
| apply_ms | rules.apply (in Game.play, in the log) |
| layer_send_ms | games.models.broadcasts.send_to_groups (the sending thread's part) |

Under "socket": `move_ms`, `socket_render_ms`, `per_socket_ms`, `log_ms`,
`play_ms`, `apply_ms` and `layer_send_ms` as above, and

| key | part |
| --- | --- |
| receive_ms | the move's message in the consumer (games.live.moves.SocketMoves.receive) |
| lookup_ms | the message less Game.play: parsing it, the seat and game lookup |
| message_ms | the move less the message and the renders: Daphne's and Channels' part |

For the table (with the post series):

| key | part |
| --- | --- |
| table_page_ms | one table page (GET) opened by a player, after the moves (process CPU) |
| socket_kb | the server's memory per open game socket: what --sockets sockets opened on one table hold once each has its first board (the server's allocations traced meanwhile) |

The last line printed is one JSON object. Run it on a scratch database:

    SQLITE_PATH=/tmp/bench.sqlite3 .venv/bin/python manage.py migrate
    SQLITE_PATH=/tmp/bench.sqlite3 .venv/bin/python manage.py move_bench
"""

import asyncio
import gc
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from uuid import uuid4

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import override_settings

from games.tools.load import (
    Player,
    database_url,
    free_port,
    login_cookies,
    move_fields,
    pick_move,
    read_game,
    socket_message,
    wait_for_port,
)

BASE_DIR = Path(settings.BASE_DIR)
STATIC_ROOT = Path("/tmp/move-bench-static")
PROBES = ("view", "post_render", "socket_render", "log", "play", "apply", "layer_send", "receive")
WAYS = ("post", "socket")


class Command(BaseCommand):
    # The probed server patches the views before the URLconf binds them: no checks first.
    requires_system_checks = []
    help = "Measure the server CPU per move and its parts at tables of 2 and 4 (JSON last line)."

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=80, help="Moves measured per series.")
        parser.add_argument("--runs", type=int, default=3, help="Runs; the median is printed.")
        parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
        parser.add_argument("--warmup", type=int, default=6, help="Moves played first, unmeasured.")
        parser.add_argument("--seed", type=int, default=17)
        parser.add_argument(
            "--via", nargs="+", choices=WAYS, default=list(WAYS), help="How moves are sent."
        )
        parser.add_argument("--pages", type=int, default=20, help="Table pages measured per run.")
        parser.add_argument(
            "--sockets", type=int, default=100, help="Sockets opened at once to measure memory."
        )
        parser.add_argument(
            "--serve",
            type=int,
            help=("(Internal) serve on this port with the probes, reading commands on stdin."),
        )

    def handle(self, *args, **options):
        if options["serve"]:
            return serve(options["serve"])
        run = uuid4().hex[:8]
        # The server checks the sessions made here: both sign with one fresh production key.
        key = secrets.token_urlsafe(50)
        with override_settings(SECRET_KEY=key):
            return self.bench(run, key, options)

    def bench(self, run, key, options):
        server = BenchServer(key)
        server.start()
        results = {}
        try:
            for players in options["players"]:
                runs = []
                for r in range(options["runs"]):
                    seed = options["seed"] * 1000 + players * 10 + r
                    runs.append(measure(server, run, players, seed, options))
                    self.stderr.write(f"{players} players, run {r + 1}: {json.dumps(runs[-1])}")
                results[str(players)] = median_of(runs)
        finally:
            server.stop()
            delete_users(run)
        out = {"moves": options["moves"], "runs": options["runs"], "tables": results}
        out["debug"] = False
        out["database"] = connection.vendor
        self.stdout.write(json.dumps(out))


def median_of(runs):
    """Return the median of each figure of `runs` (dicts of figures, or of such dicts)."""
    first = runs[0]
    return {
        key: median_of([r[key] for r in runs])
        if isinstance(first[key], dict)
        else round(statistics.median(r[key] for r in runs), 2)
        for key in first
    }


# --- the server side ---------------------------------------------------------------------------

_totals = {name: 0.0 for name in PROBES}
_lock = threading.Lock()


_depths = {}  # by probe name: how deep each thread is in the functions probed under it


def probe(name, function):
    """Return `function` adding the CPU time of its thread to _totals[name] (nesting counted once)."""
    depth = _depths.setdefault(name, threading.local())

    def probed(*args, **kwargs):
        level = getattr(depth, "level", 0)
        depth.level = level + 1
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            depth.level = level
            if level == 0:
                spent = time.thread_time() - start
                with _lock:
                    _totals[name] += spent

    return probed


def install_probes():
    from games import rules, views
    from games.live import consumers
    from games.live.consumers import GameConsumer
    from games.models import broadcasts, game as models
    from games.table import board

    views.move = probe("view", views.move)
    views._board_or_redirect = probe("post_render", views._board_or_redirect)
    GameConsumer.send_board = probe("socket_render", GameConsumer.send_board)
    # A broadcast drawn on the event loop (GameConsumer.handled_on_loop) draws with this.
    consumers.board_update = probe("socket_render", consumers.board_update)
    board.recent_moves = probe("log", board.recent_moves)
    models.Game.play = probe("play", models.Game.play)
    rules.apply = probe("apply", rules.apply)
    broadcasts.send_to_groups = probe("layer_send", broadcasts.send_to_groups)
    GameConsumer.receive = probe("receive", GameConsumer.receive)


def serve(port):
    """Serve the site on `port` with the probes; answer each line of stdin with the totals."""
    install_probes()

    def answer():
        for line in sys.stdin:
            with _lock:
                figures = dict(_totals, process=time.process_time())
            # The memory the sockets hold: what was allocated since tracing began, still held.
            if line.strip() == "trace":
                tracemalloc.start()
            elif line.strip() == "untrace":
                gc.collect()
                figures["traced"] = tracemalloc.get_traced_memory()[0]
                tracemalloc.stop()
            sys.stdout.write("FIGURES " + json.dumps(figures) + "\n")
            sys.stdout.flush()
        os._exit(0)  # stdin closed: the bench is over

    threading.Thread(target=answer, daemon=True).start()
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(
        ["-b", "127.0.0.1", "-p", str(port), "--websocket_timeout", "-1", "config.asgi:application"]
    )


class BenchServer:
    """The probed Daphne process, in production mode on this command's database."""

    def __init__(self, key):
        self.key = key
        self.port = free_port()
        self.process = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        env = dict(os.environ, DEBUG="0", SECRET_KEY=self.key)
        env["FULLSET_TOOLS"] = "1"  # production mode has the tools (this command) only if asked
        env.update(SECURE_SSL_REDIRECT="0", WORKER_IN_SERVER="0", SOCKETS_PER_ADDRESS="0")
        env.update(SOCKETS_PER_USER="0")  # the memory's measure opens many sockets per player
        # The bots move faster than anyone clicks.
        env.update(MOVES_PER_SECOND="0")
        env.update(STATIC_ROOT=str(STATIC_ROOT))
        url = database_url(connection.settings_dict)
        if url:
            env["DATABASE_URL"] = url
        else:
            env["SQLITE_PATH"] = str(connection.settings_dict["NAME"])
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=BASE_DIR,
            env=env,
            check=True,
        )
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "move_bench", "--serve", str(self.port)],
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(f"/tmp/move-bench-server-{self.port}.log", "w"),  # noqa: SIM115
            text=True,
        )
        wait_for_port(self.port, 60, self.process)

    def figures(self, command="figures"):
        """Return the server's probe totals and process CPU time, in seconds."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        while True:  # the server may print other lines (warnings) on its stdout
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("The bench server stopped.")
            if line.startswith("FIGURES "):
                return json.loads(line.removeprefix("FIGURES "))

    def stop(self):
        if self.process is not None:
            self.process.stdin.close()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# --- the players' side -------------------------------------------------------------------------


def make_table(run, players, seed, way):
    """Return (code, [cookies by seat]) of a started live game with fixed seeds."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from games.models import Game, Seat

    User = get_user_model()
    users = [
        User.objects.create(username=f"bench-{run}-{way}{seed}-{p}", password=make_password(None))
        for p in range(players)
    ]
    game = Game.objects.create(
        host=users[0], seat_count=players, pace_seconds=24 * 3600, private=True, seed=seed
    )
    Seat.objects.bulk_create(Seat(game=game, user=u, position=p) for p, u in enumerate(users))
    game.start()
    return game.code, [login_cookies(u) for u in users]


def delete_users(run):
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session

    from games.models import Game

    users = get_user_model().objects.filter(username__startswith=f"bench-{run}-")
    Game.objects.filter(seats__user__in=users).delete()
    users.delete()
    Session.objects.all().delete()  # a scratch database: every session is the bench's


def measure(server, run, players, seed, options):
    """Play one run at a table of `players`; return its figures in ms per move."""
    ms = {}
    if "post" in options["via"]:
        rng = random.Random(seed)
        quiet = play_series(server, run, players, seed, rng, options, False, "post")
        rng = random.Random(seed + 500)
        loud = play_series(server, run, players, seed + 500, rng, options, True, "post")
        post = ms["post"] = {"move_ms": loud["process"], "post_ms": quiet["process"]}
        post["post_render_ms"] = loud["post_render"]
        post.update(renders(loud, players))
        post["request_ms"] = quiet["process"] - quiet["view"]
        post["lookup_ms"] = loud["view"] - loud["play"] - loud["post_render"]
        ms["table_page_ms"] = quiet["table_page"]
        ms["socket_kb"] = quiet["socket_kb"]
    if "socket" in options["via"]:
        rng = random.Random(seed + 500)
        sent = play_series(server, run, players, seed + 500, rng, options, True, "socket")
        way = ms["socket"] = {"move_ms": sent["process"], "receive_ms": sent["receive"]}
        way.update(renders(sent, players))
        way["lookup_ms"] = sent["receive"] - sent["play"]
        way["message_ms"] = sent["process"] - sent["receive"] - sent["socket_render"]
    return rounded(ms)


def renders(spent, players):
    """Return the figures of a series with sockets open that both ways share."""
    return {
        "socket_render_ms": spent["socket_render"],
        "per_socket_ms": spent["socket_render"] / players,
        "log_ms": spent["log"],
        "play_ms": spent["play"],
        "apply_ms": spent["apply"],
        "layer_send_ms": spent["layer_send"],
    }


def rounded(figures):
    return {
        key: rounded(value) if isinstance(value, dict) else round(value, 3)
        for key, value in figures.items()
    }


def play_series(server, run, players, seed, rng, options, sockets, way):
    """Play --warmup then --moves moves (new games as they end); return CPU ms per move.

    `way` is how the moves are sent: "post", or "socket" (over the mover's socket, open).
    """
    return asyncio.run(_series(server, run, players, seed, rng, options, sockets, way))


async def _series(server, run, players, seed, rng, options, with_sockets, way):
    import aiohttp
    from asgiref.sync import sync_to_async

    spent = {name: 0.0 for name in (*PROBES, "process")}
    counted = 0
    warmup = options["warmup"]
    game_number = 0
    table_page = None
    socket_kb = None
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
        while counted < options["moves"]:
            code, cookies = await sync_to_async(make_table)(
                run, players, seed * 100 + game_number, way
            )
            game_number += 1
            path = f"/games/{code}/"
            seated = [
                Player(http, server.url, c, f"/ws{path}", reconnect_delay=None) for c in cookies
            ]
            if with_sockets:
                for player in seated:
                    await player.open()
            while counted < options["moves"]:
                found = await sync_to_async(read_game)(code)
                if found is None:
                    break
                snapshot, version = found
                seat, move = pick_move(snapshot, rng.getrandbits(63), "basic")
                measured = warmup <= 0
                if measured:
                    before = await asyncio.to_thread(server.figures)
                fields = move_fields(move, version)
                if way == "socket":
                    await seated[seat].send(socket_message(fields, server.url + path))
                    try:
                        await seated[seat].reach(version + 1, 10)
                    except TimeoutError:
                        raise RuntimeError("The move sent over the socket was not made.") from None
                else:
                    status, _body = await seated[seat].post(f"{path}move/", fields)
                    if status != 200:
                        raise RuntimeError(f"The move was refused ({status}).")
                now = await sync_to_async(current_version)(code)
                if now <= version:
                    raise RuntimeError("The move was not applied (is the session refused?).")
                if with_sockets:
                    for player in seated:
                        await player.reach(now, 10)
                if measured:
                    after = await asyncio.to_thread(server.figures)
                    for name in spent:
                        spent[name] += after[name] - before[name]
                    counted += 1
                else:
                    warmup -= 1
            if not with_sockets and counted >= options["moves"]:
                table_page = await page_cost(server, seated[0], path, options["pages"])
                socket_kb = await socket_memory(server, cookies, path, options["sockets"])
            for player in seated:
                await player.close()
    found = {name: value * 1000 / counted for name, value in spent.items()}
    if not with_sockets:
        found["table_page"] = table_page
        found["socket_kb"] = socket_kb
    return found


async def page_cost(server, player, path, count):
    """Return the server CPU ms of one table page opened by `player` (the mean of `count`)."""
    before = await asyncio.to_thread(server.figures)
    for _ in range(count):
        async with player.http.get(server.url + path, headers=player.headers) as response:
            await response.read()
            if response.status != 200 or response.url.path != path:
                raise RuntimeError(f"The table page was refused ({response.status}).")
    after = await asyncio.to_thread(server.figures)
    return (after["process"] - before["process"]) * 1000 / count


async def socket_memory(server, cookies, path, count):
    """Return the server's memory (KB) per open game socket, `count` opened at once.

    The server traces its allocations (tracemalloc) while they open: what they still hold,
    once each has its first board, divided by `count`. (Far more than 100 at once
    overflow Daphne's listen backlog: connections then wait seconds.)
    """
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0)  # aiohttp holds 100 connections at most by default
    async with aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.DummyCookieJar()
    ) as http:
        players = [
            Player(http, server.url, cookies[n % len(cookies)], f"/ws{path}", None)
            for n in range(count)
        ]
        await asyncio.to_thread(server.figures, "trace")
        await asyncio.gather(*(player.open() for player in players))
        await asyncio.sleep(0.5)
        held = (await asyncio.to_thread(server.figures, "untrace"))["traced"]
        for player in players:
            await player.close()
    return held / 1024 / count


def current_version(code):
    from games.models import Game

    return Game.objects.filter(code=code).values_list("version", flat=True).get()
