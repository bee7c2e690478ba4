"""Faults under play: a server process killed, Redis restarted.

Bots play a few tables through two server processes while one of them is
killed (kill -9) and started again, or while Redis is restarted (losing
every group membership it held). Every move the server confirmed must be in
the database, and every socket must end on its game's current board: the
client reconnects as the htmx ws extension does, and each connection starts
with the whole board.
"""

import asyncio
import random
import time

import aiohttp
import pytest
from django.db import connections
from django.urls import reverse

from games.load import (
    Player,
    RedisServer,
    choose_move,
    create_tables,
    final_versions,
    move_fields,
    posted_version,
)
from games.models import Move

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

TABLES, PLAYERS = 3, 2
# No request of these tests may hang: a POST to a killed server fails at once or in 20 s.
TIMEOUT = aiohttp.ClientTimeout(total=20)


def in_thread(function, *args):
    """Run an ORM call from the event loop; leave no connection open behind (teardown)."""

    def call():
        try:
            return function(*args)
        finally:
            connections.close_all()

    return asyncio.to_thread(call)


class Bots:
    """Play the tables' moves through the servers in turn; keep every POST's outcome."""

    def __init__(self, http, tables, players, urls):
        self.http = http
        self.tables = tables
        self.players = players
        self.urls = urls
        self.confirmed = []  # (code, version moved from, version after)
        self.failed = 0
        self.paused = asyncio.Event()
        self.paused.set()
        self.stopping = False
        self.posting = 0

    async def pause(self):
        """Stop making moves; return once the moves being chosen or posted have their answers."""
        self.paused.clear()
        while self.posting:
            await asyncio.sleep(0.02)

    async def play(self, t, pause=0.05):
        code = self.tables[t][0]
        move_url = reverse("games:move", args=[code])
        rng = random.Random(t)
        n = 0
        while not self.stopping:
            await asyncio.wait_for(self.paused.wait(), 120)
            # Busy from here: a move chosen before a pause is posted before it returns.
            self.posting += 1
            try:
                chosen = await in_thread(choose_move, code, rng)
                if chosen is None:
                    return
                seat, move, version = chosen
                url = self.urls[n % len(self.urls)]
                n += 1
                try:
                    status, body = await self.players[t][seat].post(
                        move_url, move_fields(move, version), url
                    )
                except (aiohttp.ClientError, OSError, TimeoutError):
                    status, body = None, ""
            finally:
                self.posting -= 1
            after = posted_version(body) if status == 200 else None
            if after is not None and after > version:
                self.confirmed.append((code, version, after))
            else:
                self.failed += 1
                await asyncio.sleep(0.1)
            await asyncio.sleep(pause)

    async def run(self, scenario):
        drivers = [asyncio.create_task(self.play(t)) for t in range(len(self.tables))]
        try:
            await scenario()
        finally:
            self.stopping = True
            await asyncio.gather(*drivers)


async def converge(tables, players, timeout=15):
    """Wait until every socket shows its game's current version; return those versions."""
    finals = await in_thread(final_versions, [code for code, _ in tables])
    waits = [
        p.reach(finals[code], timeout) for (code, _), table in zip(tables, players) for p in table
    ]
    # A socket left behind fails the test's assertions, which say more than a timeout.
    await asyncio.gather(*waits, return_exceptions=True)
    return finals


def describe(player):
    return (
        f"socket at version {player.version} after {player.connections} connections, "
        f"first versions {player.first_versions}, closes {player.closes}, errors {player.errors}"
    )


def assert_no_confirmed_move_lost(confirmed):
    assert confirmed
    for code, before, after in confirmed:
        # Move n is made from version n; the versions after it are the forced moves it caused.
        assert Move.objects.filter(game__code=code, n=before).exists()
        assert Move.objects.filter(game__code=code, n=after - 1).exists()


def test_it_loses_no_move_and_resyncs_sockets_when_a_server_is_killed(start_server):
    tables = create_tables("kill", TABLES, PLAYERS)
    server_a, server_b = start_server(), start_server()
    down_versions = {}

    async def main():
        async with aiohttp.ClientSession(
            cookie_jar=aiohttp.DummyCookieJar(), timeout=TIMEOUT
        ) as http:
            # Every socket is on server A; moves go to A and B in turn.
            players = [
                [Player(http, server_a.url, c, f"/ws/games/{code}/") for c in seats]
                for code, seats in tables
            ]
            every = [p for table in players for p in table]
            await asyncio.gather(*(p.open() for p in every))
            bots = Bots(http, tables, players, [server_a.url, server_b.url])

            async def scenario():
                await asyncio.sleep(1.0)
                server_a.kill()  # in the middle of games: POSTs and renders in flight
                await asyncio.sleep(1.0)  # B goes on taking moves
                await bots.pause()
                down_versions.update(await in_thread(final_versions, [c for c, _ in tables]))
                server_a.start()
                deadline = time.monotonic() + 15
                while any(p.connections < 2 for p in every) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                bots.paused.set()
                await asyncio.sleep(1.0)

            try:
                await bots.run(scenario)
                finals = await converge(tables, players)
            finally:
                await asyncio.gather(*(p.close() for p in every))
            return players, bots, finals

    players, bots, finals = asyncio.run(main())

    assert_no_confirmed_move_lost(bots.confirmed)
    for (code, _), table in zip(tables, players):
        for player in table:
            assert player.connections == 2, describe(player)
            # The first message after the reconnect is the board as it was then.
            assert player.first_versions[1] == down_versions[code], describe(player)
            assert player.version == finals[code], describe(player)
    assert any(finals[code] > down_versions[code] for code, _ in tables)


@pytest.mark.parametrize("gap", [0.0, 1.0], ids=["at-once", "after-a-second"])
def test_it_heals_every_socket_when_redis_restarts(start_server, tmp_path, gap):
    redis = RedisServer(tmp_path).start()
    try:
        tables = create_tables("redis", TABLES, PLAYERS)
        # Sockets that miss the restart check themselves every second, not every 20.
        env = {"REDIS_URL": redis.url, "DJANGO_SETTINGS_MODULE": "games.tests.settings_fast_checks"}
        server_a, server_b = start_server(**env), start_server(**env)

        async def main():
            async with aiohttp.ClientSession(
                cookie_jar=aiohttp.DummyCookieJar(), timeout=TIMEOUT
            ) as http:
                # Sockets on both servers; moves go to both in turn.
                urls = [server_a.url, server_b.url]
                players = [
                    [
                        Player(http, urls[s % 2], c, f"/ws/games/{code}/")
                        for s, c in enumerate(seats)
                    ]
                    for code, seats in tables
                ]
                every = [p for table in players for p in table]
                await asyncio.gather(*(p.open() for p in every))
                bots = Bots(http, tables, players, urls)

                async def scenario():
                    await asyncio.sleep(1.0)
                    redis.kill()
                    await asyncio.sleep(gap)  # moves go on: they cannot be broadcast
                    redis.start()
                    await asyncio.sleep(3.0)

                try:
                    await bots.run(scenario)
                    finals = await converge(tables, players)
                finally:
                    await asyncio.gather(*(p.close() for p in every))
                return players, bots, finals

        players, bots, finals = asyncio.run(main())
    finally:
        redis.kill()

    assert_no_confirmed_move_lost(bots.confirmed)
    # Moves made while Redis is down succeed: only their broadcast is lost.
    assert bots.failed == 0
    for (code, _), table in zip(tables, players):
        for player in table:
            assert player.version == finals[code], describe(player)


def test_every_open_socket_hears_of_moves_within_seconds_of_redis_coming_back(
    start_server, tmp_path
):
    """Sockets that stay open through a Redis restart, at the normal 20 s check period.

    Each server process's sockets take turns reading Redis; those whose turn came
    during the outage used to stop reading it for good, and heard of a move only
    at their next check (up to 20 s). Now every socket is told the layer failed,
    its page says live updates are paused, and it checks itself every second
    until it is in its group again: it must show every move made up to a moment
    after Redis is back within 5 s of Redis being back.
    """
    redis = RedisServer(tmp_path).start()
    try:
        tables = create_tables("heal", TABLES, PLAYERS)
        server_a, server_b = start_server(REDIS_URL=redis.url), start_server(REDIS_URL=redis.url)

        async def main():
            async with aiohttp.ClientSession(
                cookie_jar=aiohttp.DummyCookieJar(), timeout=TIMEOUT
            ) as http:
                urls = [server_a.url, server_b.url]
                players = [
                    [
                        Player(http, urls[s % 2], c, f"/ws/games/{code}/", reconnect_delay=None)
                        for s, c in enumerate(seats)
                    ]
                    for code, seats in tables
                ]
                every = [p for table in players for p in table]
                await asyncio.gather(*(p.open() for p in every))
                bots = Bots(http, tables, players, urls)
                timing = {}

                async def scenario():
                    await asyncio.sleep(1.0)
                    redis.kill()
                    await asyncio.sleep(3.0)  # moves go on: they cannot be broadcast
                    redis.start()
                    timing["back"] = time.perf_counter()
                    await asyncio.sleep(1.0)  # moves made once Redis is back
                    bots.stopping = True  # each table's bot stops after its move under way

                try:
                    await bots.run(scenario)
                    finals = await in_thread(final_versions, [code for code, _ in tables])
                    # The notice taken away: awaited as the moves are (within 5 s of Redis).
                    while any(p.notices[-1:] != [False] for p in every):
                        if time.perf_counter() - timing["back"] > 5.0:
                            break
                        await asyncio.sleep(0.05)
                    arrivals = await asyncio.gather(
                        *(
                            p.reach(finals[code], 10)
                            for (code, _), table in zip(tables, players)
                            for p in table
                        ),
                        return_exceptions=True,
                    )
                finally:
                    await asyncio.gather(*(p.close() for p in every))
                return players, bots, finals, arrivals, timing["back"]

        players, bots, finals, arrivals, back = asyncio.run(main())
    finally:
        redis.kill()

    assert_no_confirmed_move_lost(bots.confirmed)
    assert bots.failed == 0  # moves made while Redis is down are kept
    every = [p for table in players for p in table]
    late = [
        f"{describe(p)}: {arrival if isinstance(arrival, Exception) else arrival - back:.1f} s"
        if not isinstance(arrival, Exception)
        else f"{describe(p)}: {arrival!r}"
        for p, arrival in zip(every, arrivals)
        if isinstance(arrival, Exception) or arrival - back > 5.0
    ]
    delays = [a - back for a in arrivals if not isinstance(a, Exception)]
    print(f"sockets caught up {min(delays):.2f} to {max(delays):.2f} s after Redis was back")
    assert late == []
    for player in every:
        assert player.connections == 1, describe(player)  # healed without a reconnect
        # Told that live updates paused, then that they flow again.
        assert player.notices[:1] == [True] and player.notices[-1:] == [False], player.notices
