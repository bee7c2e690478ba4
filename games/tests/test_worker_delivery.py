"""The worker's moves (a bot's reply, a timeout's default) reach the browsers at once.

The site is started as a person starts it: the command lines of the
Makefile's `run` target (one process, the worker inside it), or `manage.py
serve` with Redis (Daphne processes and a separate worker). A real socket
client, logged in as alice, times each board's arrival; the worker's move
must arrive within 2 s of its Move row's `created_at` (the moment it was
chosen and made), where before it waited for the socket's own check, 20 s.
"""

import asyncio
import os
import subprocess
import sys
import time

import aiohttp
import pytest
from django.conf import settings

from games import rules
from games.tests.running_site import (
    START_TIMEOUT,
    make_run_commands,
    manage_shell,
    printed,
    server_env,
)
from games.tools.load import VERSION, database_url, free_port, move_fields, wait_for_port

BOUND = 2.0  # seconds from a worker's move to its board in alice's socket

SETUP = """
import json
from django.contrib.auth import get_user_model
from games import rules
from games.play import bots
from games.tools.load import login_cookies
from games.models import Game

User = get_user_model()
alice = User.objects.create_user("alice", "alice@example.com", "unused-9-password")
bob = User.objects.create_user("bob", "bob@example.com", "unused-9-password")


def table(*players):
    game = Game.objects.create(host=alice, seat_count=2, pace="live", pace_seconds=600)
    for player in players:
        game.join(player)  # the table is full: the game starts
    return game


against_bot = table(alice, bots.bot_account("random", 1))
against_bob = table(alice, bob)
if against_bot.state().current != 0:
    against_bot.play(1, rules.Move.end())  # alice's turn: the bot waits for her move
against_bot.refresh_from_db()
print("SETUP " + json.dumps({
    "bot_game": against_bot.code,
    "bot_game_version": against_bot.version,
    "bob_game": against_bob.code,
    "cookies": login_cookies(alice),
}))
"""

# The awaited seat's time (and reserve) runs out now.
EXPIRE = """
from datetime import timedelta
from django.utils import timezone
from games.models import Seat

Seat.objects.filter(game__code="{code}", deadline__isnull=False).update(
    timeout_at=timezone.now() - timedelta(seconds=1)
)
"""

MOVES = """
import json
from games.models import Game

found = {{}}
for game in Game.objects.filter(code__in={codes!r}):
    moves = [[m.n, m.seat, m.cause, m.created_at.timestamp()] for m in game.moves.order_by("n")]
    found[game.code] = {{"moves": moves, "version": game.version}}
print("MOVES " + json.dumps(found))
"""


class Socket:
    """alice's socket on one game: every board it receives, with its arrival time."""

    def __init__(self, http, base_url, cookies, code):
        self.url = base_url.replace("http://", "ws://") + f"/ws/games/{code}/"
        self.headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
            "Origin": base_url,
        }
        self.http = http
        self.boards = []  # (wall-clock arrival, version)
        self.task = None
        self._first = asyncio.Event()

    async def open(self):
        self.task = asyncio.create_task(self._read())
        await asyncio.wait_for(self._first.wait(), 60)

    async def _read(self):
        async with self.http.ws_connect(self.url, headers=self.headers, heartbeat=None) as ws:
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                found = VERSION.search(message.data.encode())
                if found:
                    self.boards.append((time.time(), int(found.group(1))))
                    self._first.set()

    async def close(self):
        self.task.cancel()

    def arrival(self, version):
        """Return when a board of `version` or later first arrived (None: not yet)."""
        return next((at for at, v in self.boards if v >= version), None)


def first_move(game, cause, seat=None, since=0):
    """Return (created_at, version of the board it led to) of `game`'s first such move.

    One transaction records a move and what follows from it at once (forced
    answers, absent seats' defaults; a timeout defaults a whole decision): the
    board broadcast after its commit carries the version after all of them.
    """
    same = {"forced", "absent"} | ({"timeout"} if cause == "timeout" else set())
    moves = game["moves"]
    for i, (n, by, made_for, created_at) in enumerate(moves):
        if n < since or made_for != cause or seat not in (None, by):
            continue
        after = next((m[0] for m in moves[i + 1 :] if m[2] not in same), game["version"])
        return created_at, after
    return None


async def check_worker_moves_reach_alice_at_once(base_url, env):
    data = printed(await asyncio.to_thread(manage_shell, SETUP, env), "SETUP")
    cookies = data["cookies"]
    async with aiohttp.ClientSession() as http:
        at_bot = Socket(http, base_url, cookies, data["bot_game"])
        at_bob = Socket(http, base_url, cookies, data["bob_game"])
        await at_bot.open()
        await at_bob.open()

        # alice ends her turn, as the page posts it; the bot answers through the worker.
        headers = {
            **at_bot.headers,
            "X-CSRFToken": cookies[settings.CSRF_COOKIE_NAME],
            "HX-Request": "true",
        }
        fields = move_fields(rules.Move.end(), data["bot_game_version"])
        url = f"{base_url}/games/{data['bot_game']}/move/"
        async with http.post(url, data=fields, headers=headers) as response:
            assert response.status == 200, await response.text()
        # The awaited seat at bob's table runs out of time: the worker plays its default.
        await asyncio.to_thread(manage_shell, EXPIRE.format(code=data["bob_game"]), env)

        codes = [data["bot_game"], data["bob_game"]]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            await asyncio.sleep(1)
            found = printed(
                await asyncio.to_thread(manage_shell, MOVES.format(codes=codes), env), "MOVES"
            )
            bot_move = first_move(found[codes[0]], "", seat=1, since=data["bot_game_version"])
            timeout = first_move(found[codes[1]], "timeout")
            if bot_move and timeout and at_bot.arrival(bot_move[1]) and at_bob.arrival(timeout[1]):
                break
        await at_bot.close()
        await at_bob.close()

    assert bot_move, "the bot never moved"
    assert timeout, "the timeout was never applied"
    for name, socket, (made, version) in (
        ("the bot's move", at_bot, bot_move),
        ("the timeout", at_bob, timeout),
    ):
        arrived = socket.arrival(version)
        assert arrived is not None, f"{name} (version {version}) never reached alice"
        assert arrived - made <= BOUND, f"{name} reached alice {arrived - made:.2f} s after"


# Started as `make run` starts it, on SQLite whatever the run: the SQLite run only.
@pytest.mark.one_database
def test_it_brings_the_workers_moves_at_once_to_a_site_started_as_make_run_does(sites, tmp_path):
    port = free_port()
    env = server_env(SQLITE_PATH=str(tmp_path / "run.sqlite3"), DATABASE_URL=None, REDIS_URL=None)
    *setup, serve = make_run_commands(port)
    assert setup and f"runserver 127.0.0.1:{port}" in serve, "the Makefile's run target changed"
    for command in setup:  # migrate
        subprocess.run(command, shell=True, check=True, cwd=settings.BASE_DIR, env=env)

    site = sites(serve, env)
    wait_for_port(port, START_TIMEOUT, site.process)
    site.wait_for(r"Worker: inside this server")

    asyncio.run(check_worker_moves_reach_alice_at_once(f"http://127.0.0.1:{port}", env))

    assert site.output().count("Worker: inside this server") == 1, "one worker loop"


@pytest.mark.redis
def test_it_brings_the_separate_workers_moves_at_once_with_redis(transactional_db, sites):
    from django.db import connection

    assert os.environ.get("REDIS_URL"), "run with REDIS_URL (scripts/run-tests.sh does)"
    assert connection.vendor == "postgresql", "run with DATABASE_URL (scripts/run-tests.sh does)"
    port = free_port()
    env = server_env(DATABASE_URL=database_url(connection.settings_dict))

    site = sites(
        [sys.executable, "manage.py", "serve", "--processes", "2", "--port", str(port)], env
    )
    site.wait_for(r"Serve: worker started")
    wait_for_port(port, START_TIMEOUT, site.process)

    asyncio.run(check_worker_moves_reach_alice_at_once(f"http://127.0.0.1:{port}", env))

    assert "Worker: inside this server" not in site.output()
