"""Before and after: the server CPU of a move's POST on two checkouts, move by move in turn.

    git worktree add --detach /tmp/before <commit>; ln -s "$PWD/.venv" /tmp/before/.venv
    .venv/bin/python scripts/post_ab.py --before /tmp/before --after . --players 2 --moves 600

On a machine whose speed drifts (other jobs, frequency), two `move_bench`
runs minutes apart differ by 10 to 20% with the same code. Here both servers
run at once, each a `move_bench --serve` Daphne process in production mode on
a SQLite database of its own, and play the same games: every move (a basic
bot's, fixed seeds) is POSTed to one server then the other (the order
alternating; the bot reads the game from each database in turn), with
no socket open, and each server's process CPU (user and
system, from /proc) is added up around its POST. A drift of the machine
falls on both alike. What is measured is `move_bench`'s post_ms (the POST
alone, Daphne included) for both checkouts. With --sockets, every player's
socket is open on both servers, and each server's CPU is added up from its
POST until every socket of its table has the new version: `move_bench`'s
move_ms of the post series (the whole move). With --headers as well, every
player also holds the header's socket (ws/me/), as each signed-in page
does, and each move's count ends HEADERS_SETTLE seconds after its table's
sockets have it, so that the headers the move tells are redrawn within it
(both servers wait alike). The last line printed is one JSON object: CPU ms
per move for each, and the change.

With --production, the servers run as production does, on PostgreSQL and
Redis (DATABASE_URL and REDIS_URL name the servers: scripts/services.sh
starts throwaway ones, and `make bench` does it all): each server has a
database of its own on that PostgreSQL (its name with _ab_before or
_ab_after added) and two Redis databases of its own (layer and cache).
This process uses no Redis: what it writes (the tables, the logins) goes to
the database only, where each server reads it.
"""

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
# With --headers: how long a move's count goes on after its table's sockets have it.
HEADERS_SETTLE = 0.05
sys.path.insert(0, str(HERE))

from games.tools.load import cpu_seconds, free_port, wait_for_port  # noqa: E402  (no Django needed)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True, help="The checkout measured first (a folder).")
    parser.add_argument("--after", default=str(HERE), help="The other checkout (default: this).")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--warmup", type=int, default=60, help="Moves played first, unmeasured.")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--sockets",
        action="store_true",
        help="Open every player's socket and measure until each has the move (the whole move).",
    )
    parser.add_argument(
        "--headers",
        action="store_true",
        help="With --sockets: every player also holds the header's socket (ws/me/).",
    )
    parser.add_argument(
        "--production",
        action="store_true",
        help="PostgreSQL + Redis (DATABASE_URL, REDIS_URL) instead of SQLite.",
    )
    options = parser.parse_args()
    if options.headers and not options.sockets:
        parser.error("--headers needs --sockets")
    if options.production and not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        parser.error("--production needs DATABASE_URL and REDIS_URL (scripts/services.sh)")

    key = "post-ab-" + "k" * 50
    scratch = Path(tempfile.mkdtemp(prefix="post-ab-"))
    env = dict(os.environ, DEBUG="0", SECRET_KEY=key, SECURE_SSL_REDIRECT="0")
    env.update(WORKER_IN_SERVER="0", SOCKETS_PER_ADDRESS="0", SOCKETS_PER_USER="0")
    # No bound on a user's moves; a --before tree older than MOVES_PER_SECOND had two names.
    env.update(MOVES_PER_SECOND="0", SOCKET_MOVES_PER_SECOND="0", POSTED_MOVES_PER_SECOND="0")
    env.update(STATIC_ROOT=str(scratch / "static"))
    env.update(DJANGO_SETTINGS_MODULE="config.settings")
    env.update(FULLSET_TOOLS="1")  # production mode has the tools (move_bench) only if asked
    database_url, redis_url = env.pop("DATABASE_URL", None), env.pop("REDIS_URL", None)
    env.pop("REDIS_CACHE_URL", None)
    servers = {}
    try:
        for number, name in enumerate(("before", "after")):
            tree = Path(getattr(options, name)).resolve()
            if options.production:
                servers[name] = Server.production(tree, name, number, database_url, redis_url, env)
            else:
                servers[name] = Server(tree, scratch / f"{name}.sqlite3", env)
        for server in servers.values():
            server.start()
        for name in ("DATABASE_URL", "REDIS_URL", "REDIS_CACHE_URL"):
            os.environ.pop(name, None)  # this process: no Redis; the database chosen below
        if options.production:
            os.environ.update(env, DATABASE_URL=servers["before"].env["DATABASE_URL"])
        else:
            os.environ.update(env, SQLITE_PATH=str(servers["before"].database))
        import django

        django.setup()
        spent, moves = asyncio.run(play(servers, options))
    finally:
        for server in servers.values():
            server.stop()
    figures = {name: round(spent[name] * 1000 / moves, 3) for name in servers}
    change = (figures["after"] - figures["before"]) / figures["before"] * 100
    result = {"players": options.players, "moves": moves, "sockets": options.sockets}
    if options.headers:
        result["headers"] = True
    result["setup"] = "postgresql+redis" if options.production else "sqlite"
    result["move_cpu_ms" if options.sockets else "post_cpu_ms"] = figures
    result["change_percent"] = round(change, 1)
    print(json.dumps(result))


class Server:
    """A checkout's `move_bench --serve` process on a database of its own.

    `database` is a SQLite file, or the name of a PostgreSQL database (production).
    """

    def __init__(self, tree, database, env):
        self.tree, self.database = tree, database
        self.env = dict(env, SQLITE_PATH=str(database))
        self.process = None
        self.port = None
        self.admin_url = None  # PostgreSQL: where to make the database afresh

    @classmethod
    def production(cls, tree, name, number, database_url, redis_url, env):
        """Return the server of checkout `tree` on a PostgreSQL database and Redis numbers of its own."""
        from urllib.parse import urlsplit

        def redis_database(url, number):  # config.settings' own, whose import reads os.environ
            return urlsplit(url)._replace(path=f"/{number}").geturl()

        parts = urlsplit(database_url)
        database = f"{parts.path.lstrip('/')}_ab_{name}"
        server = cls(tree, database, env)
        del server.env["SQLITE_PATH"]
        server.env["DATABASE_URL"] = parts._replace(path=f"/{database}").geturl()
        # Numbers 6 to 9: clear of the tests' (0 to 5 with two workers).
        server.env["REDIS_URL"] = redis_database(redis_url, 6 + 2 * number)
        server.env["REDIS_CACHE_URL"] = redis_database(redis_url, 7 + 2 * number)
        server.admin_url = parts._replace(path="/postgres").geturl()
        return server

    def fresh_services(self):
        """Make this server's PostgreSQL database afresh and empty its Redis databases."""
        import psycopg
        import redis

        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{self.database}"')
        for variable in ("REDIS_URL", "REDIS_CACHE_URL"):
            redis.Redis.from_url(self.env[variable]).flushdb()

    def start(self):
        python = self.tree / ".venv" / "bin" / "python"
        run = dict(cwd=self.tree, env=self.env, check=True)
        if self.admin_url:
            self.fresh_services()
        subprocess.run([python, "manage.py", "migrate", "-v", "0"], **run)
        subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v", "0"], **run)
        self.port = free_port()
        self.process = subprocess.Popen(
            [python, "manage.py", "move_bench", "--serve", str(self.port)],
            cwd=self.tree,
            env=self.env,
            stdin=subprocess.PIPE,  # the server stops when it closes
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, 60, self.process)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def cpu(self):
        return cpu_seconds(self.process.pid)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


def on(server, function, *args):
    """Run `function(*args)` against `server`'s database."""
    from django.db import connections

    connection = connections["default"]
    if connection.settings_dict["NAME"] != str(server.database):
        connection.close()
        connection.settings_dict["NAME"] = str(server.database)
    return function(*args)


async def play(servers, options):
    import aiohttp
    from asgiref.sync import sync_to_async

    from games.tools.load import Player, move_fields, pick_move, read_game
    from games.tools.management.commands.move_bench import current_version, make_table

    rng = random.Random(options.seed)
    spent = dict.fromkeys(servers, 0.0)
    played = measured = game = 0
    names = list(servers)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
        while measured < options.moves:
            tables = {}
            for name, server in servers.items():
                seed = options.seed * 1000 + game
                code, cookies = await sync_to_async(on)(
                    server, make_table, "ab", options.players, seed, "p"
                )
                path = f"/ws/games/{code}/"
                seated = [Player(http, server.url, c, path, reconnect_delay=None) for c in cookies]
                headers = [
                    Player(http, server.url, c, "/ws/me/", reconnect_delay=None)
                    for c in cookies
                    if options.headers
                ]
                if options.sockets:
                    for player in seated + headers:
                        await player.open()
                tables[name] = code, seated + headers
            game += 1
            while measured < options.moves:
                # The games are the same on both: read from each in turn (a read of a
                # server's database may cost its writes a little).
                source = names[game % 2]
                found = await sync_to_async(on)(servers[source], read_game, tables[source][0])
                if found is None:
                    break
                snapshot, version = found
                seat, move = pick_move(snapshot, rng.getrandbits(63), "basic")
                for name in names if played % 2 else reversed(names):
                    code, seated = tables[name]
                    start = servers[name].cpu()
                    status, _body = await seated[seat].post(
                        f"/games/{code}/move/", move_fields(move, version)
                    )
                    if status != 200:
                        raise RuntimeError(f"{name}: the move was refused ({status}).")
                    if options.sockets:
                        now = await sync_to_async(on)(servers[name], current_version, code)
                        if now <= version:
                            raise RuntimeError(f"{name}: the move was not applied.")
                        for player in seated[: options.players]:
                            await player.reach(now, 10)
                        if options.headers:
                            await asyncio.sleep(HEADERS_SETTLE)
                    if played >= options.warmup:
                        spent[name] += servers[name].cpu() - start
                played += 1
                measured = max(0, played - options.warmup)
            for _code, seated in tables.values():
                for player in seated:
                    await player.close()
    return spent, measured


if __name__ == "__main__":
    main()
