"""Play many live tables at once through the real move path and measure the round trips.

Bots (basic by default: --level) play each table one move at a time: the bot
reads the game from the database and chooses from its seat's view, then sends
the move as the page does: with --via socket (the default) over its own open
game socket (the form's fields as JSON, as htmx-ext-ws's ws-send; the move is
made once that socket shows a later board, refused if its flash tells a
refusal first), with --via post POSTed to /move/ (session cookie, CSRF header,
htmx request; made if the answer's board is later). Either way the clock runs
from sending until EVERY socket of that table has received the board of the
new version.
Before the games, the same number of sockets measures the same round trip
on the echo socket (ws/echo/, every socket of a table sends at once and the
round ends when all are echoed): what Daphne and a consumer cost with no
database, rendering or channel layer (echo_baseline_ms). The same echo
rounds run again while the games are played (echo_during_games_ms): the
floor under that load, where an echo waits behind the renders that share
its process's thread for synchronous code.

Counts, as printed in the last line (one JSON object):

- lost_updates: sockets that end on another version than their game's, or
  that ever went back to an older version. A socket may skip versions (a
  move that plays forced moves after it advances several, and a socket
  re-renders the board as it is when it gets the message), so a gap is
  lost only if it never heals by the end.
- late_updates: (move, socket) pairs where the socket had not shown the
  move's version within --timeout seconds (the round trip is then not
  counted).
- duplicated_updates: boards of a version a socket had already received.
- errors: failed POSTs or socket sends, moves the server did not apply
  (refused: the POST's answer or the socket's flash; unanswered over the
  socket within --timeout), sockets that dropped.

The socket flood (--flood-sockets N): before the games, N idle lobby sockets
of logged-in users (N / 10 users, each within SOCKETS_PER_USER) and
--flood-anonymous attempts of anonymous visitors are opened and held through
the games, while a flood user creates a public table every 1 / --flood-tables
seconds: what a hostile crowd costs the players. Its figures are under
"flood"; compare round_trip_ms with a run without it. The servers this command
starts run with SOCKETS_PER_ADDRESS=0: all its simulated people share one
address (give a server of --url the same).

Only loopback servers are accepted: this command is a load generator.
"""

import asyncio
import json
import multiprocessing
import random
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from uuid import uuid4

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from django.urls import reverse

from games.rules.bots import LEVELS
from games.tools.load import (
    IdleSocket,
    NotLoopback,
    Player,
    Server,
    check_loopback,
    cpu_seconds,
    create_flood_users,
    create_table_as,
    create_tables,
    database_url,
    delete_tables,
    final_versions,
    listening_pids,
    memory_mb,
    move_fields,
    percentiles,
    pick_move,
    posted_version,
    read_game,
    socket_message,
)

DB_THREADS = 4
FLOOD_SOCKETS_PER_USER = 10


class Command(BaseCommand):
    help = "Play many tables of bots through HTTP and sockets; print the figures as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=200)
        parser.add_argument("--players", type=int, default=4, help="players per table (2-5)")
        parser.add_argument("--moves-per-table", type=int, default=20)
        parser.add_argument(
            "--duration", type=float, default=60, help="seconds each phase may last at most"
        )
        parser.add_argument(
            "--think", type=float, default=1.0, help="mean seconds between a table's moves"
        )
        parser.add_argument(
            "--timeout", type=float, default=10, help="seconds a socket may take to show a move"
        )
        parser.add_argument("--url", help="a running server (http://127.0.0.1:PORT)")
        parser.add_argument(
            "--servers",
            type=int,
            default=1,
            help="without --url: Daphne processes to start (more than 1 needs REDIS_URL)",
        )
        parser.add_argument(
            "--conn-max-age",
            type=int,
            default=60,
            help="DB_CONN_MAX_AGE of the servers this command starts",
        )
        parser.add_argument(
            "--via",
            choices=("socket", "post"),
            default="socket",
            help="how a bot sends its move: over its open game socket, as pages do, or POSTed",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--level",
            choices=LEVELS,
            default="basic",
            help="the computer players' level (basic: they play as a sensible person would)",
        )
        parser.add_argument(
            "--keep", action="store_true", help="keep the users and games made for the run"
        )
        parser.add_argument(
            "--flood-sockets",
            type=int,
            default=0,
            help="idle lobby sockets of logged-in users held open through the games",
        )
        parser.add_argument(
            "--flood-anonymous",
            type=int,
            default=0,
            help="lobby sockets anonymous visitors try to open before the games",
        )
        parser.add_argument(
            "--flood-tables",
            type=float,
            default=0,
            help="public tables created per second through the games",
        )

    def handle(self, *args, **options):
        if not 2 <= options["players"] <= 5:
            raise CommandError("--players: 2 to 5.")
        if options["tables"] < 1 or options["moves_per_table"] < 0:
            raise CommandError("--tables must be at least 1, --moves-per-table at least 0.")
        if min(options["flood_sockets"], options["flood_anonymous"], options["flood_tables"]) < 0:
            raise CommandError("--flood-sockets, --flood-anonymous, --flood-tables: 0 or more.")
        if options["flood_sockets"] + options["flood_anonymous"] > 5000:
            raise CommandError("--flood-sockets and --flood-anonymous: 5000 at most together.")
        servers = []
        if options["url"]:
            try:
                urls = [check_loopback(options["url"])]
            except NotLoopback as e:
                raise CommandError(str(e)) from e
        else:
            if options["servers"] > 1 and "channels_redis" not in str(settings.CHANNEL_LAYERS):
                raise CommandError("Several server processes need REDIS_URL (a shared layer).")
            servers = self.start_servers(options["servers"], options["conn_max_age"])
            urls = [server.url for server in servers]
        run = uuid4().hex[:8]
        try:
            tables = create_tables(run, options["tables"], options["players"])
            flooders = -(-options["flood_sockets"] // FLOOD_SOCKETS_PER_USER)
            if options["flood_tables"]:
                # One account may hold only OPEN_TABLES_PER_USER open tables (games/play/limits.py):
                # a flood of table creations comes from as many accounts as it takes.
                per_user = getattr(settings, "OPEN_TABLES_PER_USER", 0) or 10**9
                wanted = options["flood_tables"] * options["duration"]
                flooders = max(flooders, -(-int(wanted) // per_user), 1)
            load = Load(urls, tables, options, create_flood_users(run, flooders))
            load.pids = self.server_pids(servers, urls)
            result = asyncio.run(load.run())
            result |= self.server_memory(load.pids)
            result["via"] = options["via"]
            result["database"] = connection.vendor
            # Debug mode records every query: figures worth keeping come with DEBUG=0.
            result["debug"] = settings.DEBUG
            result["channel_layer"] = settings.CHANNEL_LAYERS["default"]["BACKEND"].split(".")[-1]
        finally:
            for server in servers:
                server.stop()
            if not options["keep"]:
                delete_tables(run)
        self.stdout.write(json.dumps(result))

    def start_servers(self, count, conn_max_age):
        # Every simulated person comes from 127.0.0.1: no bound per address.
        env = {"DB_CONN_MAX_AGE": str(conn_max_age), "SOCKETS_PER_ADDRESS": "0"}
        url = database_url(connection.settings_dict)
        if url:
            env["DATABASE_URL"] = url
        else:
            env["SQLITE_PATH"] = str(connection.settings_dict["NAME"])
        servers = [Server(env=env) for _ in range(count)]
        try:
            for server in servers:
                server.start()
        except Exception:
            for server in servers:
                server.stop()
            raise
        return servers

    def server_pids(self, servers, urls):
        from urllib.parse import urlsplit

        if servers:
            return [server.pid for server in servers]
        return listening_pids(urlsplit(urls[0]).port)

    def server_memory(self, pids):
        """Return the servers' process count and peak resident memory (VmHWM, added up)."""
        peaks = []
        for pid in pids:
            try:
                peaks.append(memory_mb(pid)[0])
            except OSError:
                pass
        return {
            "server_processes": len(peaks),
            "peak_server_memory_mb": round(sum(peaks), 1) if peaks else None,
        }


# --- the run -----------------------------------------------------------------------------------


class EchoSocket:
    """A socket of the echo baseline: send a token, wait for it to come back."""

    def __init__(self, ws):
        self.ws = ws
        self.waiting = {}
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        async for message in self.ws:
            future = self.waiting.pop(message.data, None)
            if future is not None and not future.done():
                future.set_result(time.perf_counter())

    async def echo(self, token):
        future = asyncio.get_running_loop().create_future()
        self.waiting[token] = future
        await self.ws.send_str(token)
        return future

    async def close(self):
        await self.ws.close()
        self.reader.cancel()


class Load:
    pids = ()  # the servers' processes, whose CPU the game phase reads

    def __init__(self, urls, tables, options, flooders=()):
        self.urls = urls
        self.tables = tables
        self.options = options
        self.flooders = list(flooders)
        self.errors = Counter()
        self.late = 0
        self.db = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="loadtest-db")
        # The bots think in another process: in a thread they would hold this
        # process's interpreter lock while socket messages wait to be timed.
        self.bots = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))

    def url_for(self, table, seat):
        """Spread sockets (and, shifted by one, POSTs) over the servers."""
        return self.urls[(table + seat) % len(self.urls)]

    async def in_db(self, function, *args):
        return await asyncio.get_running_loop().run_in_executor(self.db, function, *args)

    async def run(self):
        import aiohttp

        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=60)
        try:
            async with aiohttp.ClientSession(
                connector=connector, cookie_jar=aiohttp.DummyCookieJar(), timeout=timeout
            ) as http:
                echo = await self.open_echo(http)
                flood = []
                try:
                    alone = await self.echo_rounds(echo)
                    flood = await self.open_flood(http)
                    # The same echo rounds again while the games are played.
                    games_started, games_over = asyncio.Event(), asyncio.Event()

                    async def games():
                        try:
                            return await self.game_phase(http, games_started)
                        finally:
                            games_over.set()

                    result, during, created = await asyncio.gather(
                        games(),
                        self.echo_rounds(echo, games_started),
                        self.create_tables_meanwhile(http, games_started, games_over),
                    )
                    if flood or created:
                        result["flood"] = self.flood_figures(flood, created)
                finally:
                    await asyncio.gather(*(sock.close() for socks in echo for sock in socks))
                    await asyncio.gather(*(sock.close() for sock in flood))
        finally:
            await asyncio.to_thread(close_all_connections, self.db)
            self.db.shutdown()
            self.bots.shutdown()
        result["echo_baseline_ms"] = percentiles(alone)
        result["echo_rounds"] = len(alone)
        result["echo_during_games_ms"] = percentiles(during)
        result["errors"] = sum(self.errors.values())
        result["error_kinds"] = dict(self.errors)
        return result

    async def open_flood(self, http):
        """Open the flood's idle lobby sockets, and try the anonymous ones; return them all."""
        sockets = [
            IdleSocket(
                http, self.urls[n % len(self.urls)], self.flooders[n // FLOOD_SOCKETS_PER_USER]
            )
            for n in range(self.options["flood_sockets"])
        ]
        sockets += [
            IdleSocket(http, self.urls[n % len(self.urls)])
            for n in range(self.options["flood_anonymous"])
        ]
        return await self.open_all([s.open for s in sockets])

    async def create_tables_meanwhile(self, http, started_event, over_event):
        """Create a public table every 1 / --flood-tables seconds while the games are played."""
        rate = self.options["flood_tables"]
        created = Counter()
        if not rate or not self.flooders:
            return created
        await started_event.wait()
        n = 0
        next_at = time.perf_counter()
        while not over_event.is_set():
            cookies = self.flooders[n % len(self.flooders)]
            try:
                status = await create_table_as(http, self.urls[n % len(self.urls)], cookies)
                created["made" if status == 302 else f"HTTP {status}"] += 1
            except Exception as e:  # noqa: BLE001 - every failure is a figure here
                created[type(e).__name__] += 1
            n += 1
            next_at += 1 / rate
            try:
                await asyncio.wait_for(over_event.wait(), max(0.0, next_at - time.perf_counter()))
            except TimeoutError:
                pass
        return created

    def flood_figures(self, flood, created):
        anonymous = [s for s in flood if "Cookie" not in s.headers]
        idle = [s for s in flood if "Cookie" in s.headers]
        received = [s.messages for s in idle]
        return {
            "idle_sockets_open": sum(s.open_now for s in idle),
            "idle_sockets_over_bound": sum(s.refused for s in idle),
            # Refused at the handshake, or closed at once as a session that ended (4401).
            "anonymous_refused": sum(s.refused or s.close_code == 4401 for s in anonymous),
            "anonymous_open": sum(s.open_now for s in anonymous),
            "tables_created": created.get("made", 0),
            "table_errors": {k: v for k, v in created.items() if k != "made"},
            # A socket's first message is its connect render; the rest are lobby changes.
            "lobby_messages_per_idle_socket": {
                "max": max(received, default=0),
                "mean": round(sum(received) / len(received), 1) if received else 0,
            },
            # What the changes after the connect's render weighed, per socket.
            "lobby_kb_per_idle_socket": {
                "max": round(max((s.bytes for s in idle), default=0) / 1000, 1),
                "mean": round(sum(s.bytes for s in idle) / len(idle) / 1000, 1) if idle else 0,
            },
        }

    async def open_all(self, openers):
        """Run the socket openers a few at a time: every connect costs the server a render."""
        gate = asyncio.Semaphore(25)

        async def one(opener):
            async with gate:
                return await opener()

        return await asyncio.gather(*(one(o) for o in openers))

    async def open_echo(self, http):
        """Open as many echo sockets as there are players; return them by table."""

        async def opener(t, s, cookies):
            url = self.url_for(t, s).replace("http://", "ws://") + "/ws/echo/"
            headers = {
                "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
                "Origin": self.url_for(t, s),
            }
            return EchoSocket(await http.ws_connect(url, headers=headers, heartbeat=None))

        openers = [
            [lambda a=(t, s, cookies): opener(*a) for s, cookies in enumerate(seats)]
            for t, (_code, seats) in enumerate(self.tables)
        ]
        opened = iter(await self.open_all([o for table in openers for o in table]))
        return [[next(opened) for _o in table] for table in openers]

    async def echo_rounds(self, echo, start_event=None):
        """Play rounds on the echo sockets at the games' pace; return their round trips.

        A round sends a token on every socket of a table at once and lasts
        until all of them came back, as a move lasts until all its sockets
        have the new board.
        """
        if start_event is not None:
            await start_event.wait()
        round_trips = []
        deadline = time.perf_counter() + self.options["duration"]

        async def table_rounds(t, socks):
            rng = random.Random(f"echo-{self.options['seed']}-{t}")
            for n in range(self.options["moves_per_table"]):
                await asyncio.sleep(rng.uniform(0, 2 * self.options["think"]))
                if time.perf_counter() > deadline:
                    return
                start = time.perf_counter()
                phase = "alone" if start_event is None else "games"
                try:
                    futures = [
                        await sock.echo(f"{phase}-{t}-{n}-{i}") for i, sock in enumerate(socks)
                    ]
                    done = await asyncio.wait_for(asyncio.gather(*futures), self.options["timeout"])
                except TimeoutError:
                    self.errors["echo timeout"] += 1
                    continue
                except Exception as e:  # noqa: BLE001 - every failure is a figure here
                    self.errors[f"echo {type(e).__name__}"] += 1
                    continue
                round_trips.append(max(done) - start)

        await asyncio.gather(*(table_rounds(t, socks) for t, socks in enumerate(echo)))
        return round_trips

    async def game_phase(self, http, started_event):
        players = []
        for t, (code, seats) in enumerate(self.tables):
            path = f"/ws/games/{code}/"
            # No reconnection here: a socket that drops is an error to count.
            players.append(
                [
                    Player(http, self.url_for(t, s), cookies, path, reconnect_delay=None)
                    for s, cookies in enumerate(seats)
                ]
            )
        every = [p for table in players for p in table]
        await self.open_all([p.open for p in every])
        round_trips = []
        moves = 0
        started_event.set()
        cpu_before = servers_cpu(self.pids)
        started = time.perf_counter()
        deadline = started + self.options["duration"]

        async def drive(t):
            nonlocal moves
            code = self.tables[t][0]
            rng = random.Random(f"game-{self.options['seed']}-{t}")
            table = players[t]
            for _n in range(self.options["moves_per_table"]):
                await asyncio.sleep(rng.uniform(0, 2 * self.options["think"]))
                if time.perf_counter() > deadline:
                    return
                found = await self.in_db(read_game, code)
                if found is None:
                    return
                snapshot, version = found
                seat, move = await asyncio.get_running_loop().run_in_executor(
                    self.bots, pick_move, snapshot, rng.getrandbits(63), self.options["level"]
                )
                fields = move_fields(move, version)
                start = time.perf_counter()
                new = await self.send_move(t, code, table[seat], seat, fields, version)
                if new is None:
                    continue
                moves += 1
                arrivals = await asyncio.gather(
                    *(p.reach(new, self.options["timeout"]) for p in table),
                    return_exceptions=True,
                )
                late = [a for a in arrivals if isinstance(a, BaseException)]
                self.late += len(late)
                if not late:
                    round_trips.append(max(arrivals) - start)

        await asyncio.gather(*(drive(t) for t in range(len(self.tables))))
        elapsed = time.perf_counter() - started
        cpu = servers_cpu(self.pids) - cpu_before
        codes = [code for code, _seats in self.tables]
        finals = await self.in_db(final_versions, codes)
        # Give the last broadcasts a moment to land before judging.
        settle = [p.reach(finals[c], 5) for c, table in zip(codes, players) for p in table]
        await asyncio.gather(*settle, return_exceptions=True)
        lost = duplicated = 0
        for code, table in zip(codes, players):
            for player in table:
                backwards = any(b < a for a, b in zip(player.versions, player.versions[1:]))
                if player.version != finals[code] or backwards:
                    lost += 1
                duplicated += sum(n - 1 for n in Counter(player.versions).values())
                if player.closes or player.errors:
                    self.errors["socket dropped"] += 1
        await asyncio.gather(*(p.close() for p in every))
        return {
            "tables": len(self.tables),
            "players": len(self.tables[0][1]),
            "sockets": len(every),
            "servers": len(self.urls),
            "moves": moves,
            "duration_s": round(elapsed, 1),
            "moves_per_second": round(moves / elapsed, 1) if elapsed else 0,
            "round_trip_ms": percentiles(round_trips),
            # One Daphne process runs its synchronous code in one thread: near 100, it is saturated.
            "server_cpu_percent": round(100 * cpu / elapsed, 1) if elapsed else 0,
            "lost_updates": lost,
            "late_updates": self.late,
            "duplicated_updates": duplicated,
        }

    async def send_move(self, t, code, player, seat, fields, version):
        """Send `player`'s move as --via says; return the version it made (None: not made, counted)."""
        if self.options["via"] == "socket":
            # Over the mover's own open socket, as the page's ws-send sends the form.
            page = player.base_url + reverse("games:table", args=[code])
            try:
                new, _refusal = await player.send_move(
                    socket_message(fields, page), version, self.options["timeout"]
                )
            except TimeoutError:
                self.errors["move unanswered over the socket"] += 1
                return None
            except Exception as e:  # noqa: BLE001 - every failure is a figure here
                self.errors[f"socket send {type(e).__name__}"] += 1
                return None
            if new is None:
                self.errors["move not applied (socket flash)"] += 1
            return new
        # POSTed as a page without its socket does, to the next server (with several).
        move_url = reverse("games:move", args=[code])
        try:
            status, body = await player.post(move_url, fields, self.url_for(t, seat + 1))
        except Exception as e:  # noqa: BLE001 - every failure is a figure here
            self.errors[f"POST {type(e).__name__}"] += 1
            return None
        new = posted_version(body) if status == 200 else None
        if new is None or new <= version:
            self.errors[f"move not applied (HTTP {status})"] += 1
            return None
        return new


def servers_cpu(pids):
    """Return the CPU seconds the processes `pids` have used, added up (those gone count 0)."""
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except OSError:
            pass
    return total


def close_all_connections(executor):
    """Close the database connection of every thread of `executor` (it has DB_THREADS)."""
    barrier = threading.Barrier(DB_THREADS)

    def close():
        connections.close_all()
        barrier.wait(10)

    # Each task waits at the barrier until all run, so each runs in its own thread.
    for future in [executor.submit(close) for _ in range(DB_THREADS)]:
        future.result()
