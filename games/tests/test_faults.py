"""Faults under play: a server process killed, Redis restarted.

Bots play a few tables through two server processes while one of them is
killed (kill -9) and started again, or while Redis is restarted (losing
every group membership it held). Every move the server confirmed must be in
the database, and every socket must end on its game's current board: the
client reconnects as the htmx ws extension does, and each connection starts
with the whole board.
"""

import asyncio
import os
import random
import signal
import time

import aiohttp
import pytest
from django.db import OperationalError, connections
from django.urls import reverse

from games.models import Move
from games.tests.running_site import holder_pid
from games.tools.load import (
    Player,
    PostgresServer,
    RedisServer,
    choose_move,
    create_tables,
    final_versions,
    move_fields,
    posted_version,
)

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
        self.confirmed_at = []  # when each was confirmed (time.perf_counter)
        self.refusals = []  # (status or None, body) of each move not made
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
        n, chosen = 0, None
        while not self.stopping:
            await asyncio.wait_for(self.paused.wait(), 120)
            # Busy from here: a move chosen before a pause is posted before it returns.
            self.posting += 1
            try:
                try:
                    chosen = await in_thread(choose_move, code, rng)
                except OperationalError:
                    pass  # the database is down: the player tries their last move again
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
                self.confirmed_at.append(time.perf_counter())
            else:
                self.failed += 1
                self.refusals.append((status, body))
                await asyncio.sleep(0.1)
            await asyncio.sleep(pause)

    async def run(self, scenario):
        drivers = [asyncio.create_task(self.play(t)) for t in range(len(self.tables))]
        try:
            await scenario()
        finally:
            self.stopping = True
            await asyncio.gather(*drivers)


def players_of(http, tables, urls, **options):
    """Each table's players, their sockets on the servers in turn."""
    return [
        [Player(http, urls[s % 2], c, f"/ws/games/{code}/", **options) for s, c in enumerate(seats)]
        for code, seats in tables
    ]


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
                players = players_of(http, tables, urls)
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
                players = players_of(http, tables, urls, reconnect_delay=None)
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
    # The operator reads the outage in a line when it starts and one when it ends, not
    # channels-redis's reader's traceback every second (games/live/sockets.py, ReaderOutage).
    for server in (server_a, server_b):
        log = server.log.read_text()
        failed = log.count("The channel layer failed its heartbeat")
        back = log.count("The channel layer answers its heartbeat again")
        assert 1 <= failed == back <= 2, log  # a beat may fail once more as Redis comes back
        assert "Unexpected exception in receive task" not in log


def test_every_socket_follows_its_game_while_redis_hangs(start_server, tmp_path):
    """A Redis that hangs (stopped: nothing closed, nothing answered) rather than stops.

    Its calls never fail, they wait: a broadcast, a socket's join of its group and a
    cache read each waited for good, in the thread all of a process's sockets share, so
    no page followed its game until Redis answered again. Now each gives up after its
    bound, the heartbeat finds Redis away, and the sockets check the database every
    second: every move made while it hangs reaches every socket within seconds, while
    it still hangs.
    """
    redis = RedisServer(tmp_path).start()
    try:
        tables = create_tables("hang", TABLES, PLAYERS)
        server_a, server_b = start_server(REDIS_URL=redis.url), start_server(REDIS_URL=redis.url)

        async def main():
            async with aiohttp.ClientSession(
                cookie_jar=aiohttp.DummyCookieJar(), timeout=TIMEOUT
            ) as http:
                urls = [server_a.url, server_b.url]
                players = players_of(http, tables, urls, reconnect_delay=None)
                every = [p for table in players for p in table]
                await asyncio.gather(*(p.open() for p in every))
                bots = Bots(http, tables, players, urls)
                seen = {}

                async def scenario():
                    await asyncio.sleep(1.0)
                    redis.hang()
                    try:
                        await asyncio.sleep(4.0)  # moves go on: their broadcasts wait, then fail
                        await bots.pause()
                        finals = await in_thread(final_versions, [code for code, _ in tables])
                        seen["finals"] = finals
                        seen["arrivals"] = await asyncio.gather(
                            *(
                                p.reach(finals[code], 8)
                                for (code, _), table in zip(tables, players)
                                for p in table
                            ),
                            return_exceptions=True,
                        )
                        seen["still_hung_at"] = time.perf_counter()
                    finally:
                        redis.resume()
                    bots.paused.set()
                    await asyncio.sleep(2.0)  # and on, once it answers again

                try:
                    await bots.run(scenario)
                    finals = await converge(tables, players)
                finally:
                    await asyncio.gather(*(p.close() for p in every))
                return players, bots, finals, seen

        players, bots, finals, seen = asyncio.run(main())
    finally:
        redis.kill()

    assert_no_confirmed_move_lost(bots.confirmed)
    every = [p for table in players for p in table]
    hung_finals = seen["finals"]
    assert any(hung_finals[code] > 1 for code, _ in tables)
    # While Redis still hung, every socket reached its game's version of that moment.
    behind = [
        f"{describe(p)}: {arrival!r}"
        for p, arrival in zip(every, seen["arrivals"])
        if isinstance(arrival, Exception)
    ]
    assert behind == []
    assert all(arrival <= seen["still_hung_at"] for arrival in seen["arrivals"])
    for (code, _), table in zip(tables, players):
        for player in table:
            assert player.version == finals[code], describe(player)
            assert player.connections == 1, describe(player)


def test_sockets_of_a_killed_process_reconnect_to_the_other_within_seconds(serve):
    """`serve --processes 2`: one Daphne process killed (kill -9) at a running table.

    Its sockets drop; they reconnect (as the htmx ws extension does, within a
    second) to the same address, where the other process takes them while the
    killed one is started again: every socket shows every move made up to two
    seconds after the kill within 5 s of the kill, and nothing confirmed is lost.
    """
    tables = create_tables("failover", TABLES, PLAYERS)
    site = serve(2)
    url = f"http://127.0.0.1:{site.port}"
    pids = site.pids()

    async def main():
        async with aiohttp.ClientSession(
            cookie_jar=aiohttp.DummyCookieJar(), timeout=TIMEOUT
        ) as http:
            players = [
                [Player(http, url, c, f"/ws/games/{code}/", reconnect_delay=1.0) for c in seats]
                for code, seats in tables
            ]
            every = [p for table in players for p in table]
            await asyncio.gather(*(p.open() for p in every))
            held = {p: holder_pid(site.port, p.client_ports[0], pids) for p in every}
            # The process holding the most sockets (the kernel shares them out as it likes).
            victim = max(pids, key=lambda pid: list(held.values()).count(pid))
            bots = Bots(http, tables, players, [url])
            timing = {}

            async def scenario():
                await asyncio.sleep(1.0)
                timing["kill"] = time.perf_counter()
                os.kill(victim, signal.SIGKILL)
                await asyncio.sleep(2.0)  # moves go on, through the process left
                bots.stopping = True

            try:
                await bots.run(scenario)
                finals = await in_thread(final_versions, [code for code, _ in tables])
                arrivals = await asyncio.gather(
                    *(
                        p.reach(finals[code], 10)
                        for (code, _), table in zip(tables, players)
                        for p in table
                    ),
                    return_exceptions=True,
                )
                rehomed = {
                    p: holder_pid(site.port, p.client_ports[-1], site.pids())
                    for p in every
                    if p.connections > 1
                }
            finally:
                await asyncio.gather(*(p.close() for p in every))
            return players, bots, finals, arrivals, timing["kill"], held, victim, rehomed

    players, bots, finals, arrivals, kill, held, victim, rehomed = asyncio.run(main())

    assert_no_confirmed_move_lost(bots.confirmed)
    every = [p for table in players for p in table]
    dropped = [p for p in every if held[p] == victim]
    assert dropped, "the killed process held sockets"
    late = [
        f"{describe(p)}: {arrival!r}"
        if isinstance(arrival, Exception)
        else f"{describe(p)}: {arrival - kill:.1f} s"
        for p, arrival in zip(every, arrivals)
        if isinstance(arrival, Exception) or arrival - kill > 5.0
    ]
    assert late == []
    reconnects = [p.connected_at[1] - kill for p in dropped]
    print(f"sockets of the killed process back in {min(reconnects):.2f} to {max(reconnects):.2f} s")
    for player in every:
        # Only the killed process's sockets dropped, each once, and came back at once.
        assert player.connections == (2 if player in dropped else 1), describe(player)
    assert max(reconnects) <= 5.0
    assert all(rehomed[p] not in (None, victim) for p in dropped), rehomed


@pytest.fixture
def own_postgres(transactional_db):
    """This test's database moved to a PostgreSQL cluster of its own, which the test may crash.

    The shared server holds the other parallel workers' databases. The test
    database (schema and rows) is copied into the new cluster, and this
    process's connections (every thread's: they share one settings dict) point
    at it until the test ends.
    """
    settings_dict = connections["default"].settings_dict
    assert settings_dict["ENGINE"] == "django.db.backends.postgresql", "run with DATABASE_URL"
    server = PostgresServer().init().start()
    saved = {key: settings_dict.get(key) for key in ("HOST", "PORT", "USER", "PASSWORD")}
    try:
        server.copy_database(settings_dict)
        connections.close_all()
        settings_dict.update(HOST="127.0.0.1", PORT=str(server.port), USER="postgres", PASSWORD="")
        yield server
    finally:
        connections.close_all()
        settings_dict.update(saved)
        server.remove()


async def handshake(http, player):
    """Open a new socket as `player`'s page would; return the handshake's HTTP status."""
    try:
        async with http.ws_connect(player.socket_url(), headers=player.headers) as ws:
            await ws.receive(timeout=5)
            return 101
    except aiohttp.WSServerHandshakeError as error:
        return error.status
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        return repr(error)


def test_moves_flow_again_within_seconds_of_postgresql_coming_back(own_postgres, start_server):
    """PostgreSQL crashed (immediate stop) under two servers' running tables for 3 s.

    While it is down, every move is refused with a readable 503 and nothing
    of it is kept, and a new socket's handshake never answers 500. Once it is
    back, every open socket shows every move made up to a second later within
    5 s, and every game's log is whole: one row per version.
    """
    tables = create_tables("pg", TABLES, PLAYERS)
    server_a, server_b = start_server(), start_server()

    async def main():
        async with aiohttp.ClientSession(
            cookie_jar=aiohttp.DummyCookieJar(), timeout=TIMEOUT
        ) as http:
            urls = [server_a.url, server_b.url]
            players = players_of(http, tables, urls, reconnect_delay=1.0)
            every = [p for table in players for p in table]
            await asyncio.gather(*(p.open() for p in every))
            bots = Bots(http, tables, players, urls)
            timing, handshakes = {}, []

            async def scenario():
                await asyncio.sleep(1.0)
                await asyncio.to_thread(own_postgres.stop)
                timing["down"] = time.perf_counter()
                await asyncio.sleep(1.0)  # moves go on being tried
                handshakes.extend(await asyncio.gather(*(handshake(http, p) for p in every)))
                await asyncio.sleep(1.0)
                timing["down_for"] = time.perf_counter() - timing["down"]
                await asyncio.to_thread(own_postgres.start)
                timing["back"] = time.perf_counter()
                await asyncio.sleep(1.0)  # moves made once it is back
                bots.stopping = True

            try:
                await bots.run(scenario)
                finals = await in_thread(final_versions, [code for code, _ in tables])
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
            return players, bots, finals, arrivals, timing, handshakes

    players, bots, finals, arrivals, timing, handshakes = asyncio.run(main())
    connections.close_all()  # this thread's connection died with the server

    assert_no_confirmed_move_lost(bots.confirmed)
    # Nothing half-applied: each game's log has move n for every version n since the start (1).
    for code, version in finals.items():
        made = Move.objects.filter(game__code=code).order_by("n").values_list("n", flat=True)
        assert list(made) == list(range(1, version))
    # Moves tried while it was down were refused, each with a sentence, never a 500.
    statuses = [status for status, _ in bots.refusals]
    assert 503 in statuses, "moves were tried while the database was down"
    assert set(statuses) <= {200, 503}, bots.refusals  # 200: a stale board's refusal
    assert all(
        "cannot reach its database" in body for status, body in bots.refusals if status == 503
    )
    # Refused cleanly (the page tries again after its back-off) or accepted, never a 500.
    assert set(handshakes) <= {403, 101}, handshakes
    every = [p for table in players for p in table]
    back = timing["back"]
    late = [
        f"{describe(p)}: {arrival!r}"
        if isinstance(arrival, Exception)
        else f"{describe(p)}: {arrival - back:.1f} s"
        for p, arrival in zip(every, arrivals)
        if isinstance(arrival, Exception) or arrival - back > 5.0
    ]
    delays = [a - back for a in arrivals if not isinstance(a, Exception)]
    print(
        f"down {timing['down_for']:.1f} s; handshakes meanwhile {handshakes}; "
        f"sockets caught up {min(delays):.2f} to {max(delays):.2f} s after it was back"
    )
    assert late == []
    # Moves were made after it came back (the bots' last ones), not just before it went.
    assert any(at > back for at in bots.confirmed_at)
