"""Load and fault tools: server processes on loopback, logged-in players, socket clients.

Used by the `loadtest` command and by the cross-process and fault tests. The
servers are real Daphne processes serving config.asgi; the clients speak
HTTP and WebSocket as a browser does (session cookie, CSRF header, Origin),
and a socket reconnects after it drops as the htmx ws extension does.
Everything here talks to 127.0.0.1 only.
"""

import asyncio
import ipaddress
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

BASE_DIR = Path(__file__).resolve().parents[2]
VERSION = re.compile(rb'data-version="(\d+)"')
# A refusal told in the page's flash (templates/games/table.html#flash): a message in it.
REFUSAL = re.compile(rb'<div id="flash"[^>]*>\s*<p class="message')


class NotLoopback(ValueError):
    """A load or fault tool was pointed at something other than this machine."""


def check_loopback(url):
    """Return `url` without a trailing slash; raise NotLoopback unless it is http on loopback."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise NotLoopback(f"{url}: give an http:// URL of this machine.")
    host = parts.hostname
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        raise NotLoopback(f"{url}: load and fault tools only talk to loopback addresses.")
    return url.rstrip("/")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(settings_dict):
    """Return a DATABASE_URL naming the database of `settings_dict` (None for SQLite)."""
    if settings_dict["ENGINE"] != "django.db.backends.postgresql":
        return None
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(str(settings_dict['NAME']), safe='')}"


def wait_for_port(port, timeout=30, process=None):
    """Wait until something accepts connections on 127.0.0.1:`port`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"The server on port {port} exited with {process.returncode}.")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"Nothing listens on port {port} after {timeout} s.")


class Server:
    """One Daphne process serving the site on a loopback port, started and killed at will.

    `env` is added to this process's environment (DATABASE_URL, REDIS_URL,
    DB_CONN_MAX_AGE...); the server's output goes to `log`.
    """

    def __init__(self, port=None, env=None, log=None):
        self.port = port or free_port()
        self.env = dict(os.environ, **(env or {}))
        self.env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        self.log = log
        self.process = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self):
        return self.process.pid

    def start(self, timeout=30):
        daphne = Path(sys.executable).with_name("daphne")
        command = [str(daphne), "-b", "127.0.0.1", "-p", str(self.port)]
        command += ["--websocket_timeout", "-1", "config.asgi:application"]
        output = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                command, cwd=BASE_DIR, env=self.env, stdout=output, stderr=subprocess.STDOUT
            )
        finally:
            if self.log:
                output.close()
        wait_for_port(self.port, timeout, self.process)
        return self

    def kill(self):
        """End the process at once (SIGKILL): no goodbye to its sockets or the database."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


class RedisServer:
    """A throwaway redis-server on a loopback port, no persistence: a restart forgets all."""

    def __init__(self, folder, port=None):
        self.port = port or free_port()
        self.folder = Path(folder)
        self.process = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", ""]
            + ["--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, 10, self.process)
        return self

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # SIGKILL ends a stopped one, but not at once
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def hang(self):
        """Stop the server without closing anything: it answers nothing, as a dropped network."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self):
        self.process.send_signal(signal.SIGCONT)


class PostgresServer:
    """A throwaway PostgreSQL cluster on a loopback port, to stop and start under a running table.

    Its folder is made with tempfile (readable by the postgres user when run as
    root: initdb and the server refuse to run as root). Commits are synchronous:
    `stop()` is a crash (immediate shutdown), and a move the site confirmed must
    survive it.
    """

    def __init__(self, port=None):
        self.port = port or free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="fullset-pg-"))
        self.data = self.folder / "data"
        versions = sorted(
            Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name)
        )
        if not versions:
            raise RuntimeError("PostgreSQL is not installed (scripts/install-test-deps.sh).")
        self.bin = versions[-1]

    def url(self, name):
        return f"postgres://postgres@127.0.0.1:{self.port}/{quote(name, safe='')}"

    def run(self, program, *args, **options):
        command = [str(self.bin / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, check=True, capture_output=True, timeout=60, **options)

    def init(self):
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.run("initdb", "-D", str(self.data), "--auth=trust", "--username=postgres")
        return self

    def start(self):
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off"
        self.run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-w",
            "-l",
            str(self.folder / "log"),
            "-o",
            options,
            "start",
        )
        return self

    def stop(self):
        """Stop at once, as a crash does: every connection is cut, nothing is flushed."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")

    def remove(self):
        if (self.data / "postmaster.pid").exists():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def copy_database(self, settings_dict):
        """Create the database of `settings_dict` (another server's) here, schema and rows."""
        name = str(settings_dict["NAME"])
        source = [
            "-h",
            settings_dict.get("HOST") or "127.0.0.1",
            "-p",
            str(settings_dict.get("PORT") or 5432),
            "-U",
            settings_dict.get("USER") or "postgres",
        ]
        here = ["-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        self.run("createdb", *here, name)
        dump = self.run("pg_dump", *source, "--no-owner", name).stdout
        self.run("psql", *here, "-q", "-v", "ON_ERROR_STOP=1", "-d", name, input=dump)


def listening_pids(port):
    """Return the ids of the processes holding the listening socket of 127.0.0.1:`port`.

    Several when the socket is shared (daphne --fd behind a launcher).
    """
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{inode}]")
    return sorted(int(proc.name) for proc in Path("/proc").iterdir() if _holds(proc, inodes))


def _holds(proc, inodes):
    """Whether process directory `proc` has a file descriptor open on one of `inodes`.

    A busy server opens and closes sockets while its descriptors are listed: one
    that has gone is skipped, not the whole process.
    """
    if not proc.name.isdigit():
        return False
    try:
        fds = list((proc / "fd").iterdir())
    except OSError:  # gone, or not ours to read
        return False
    for fd in fds:
        try:
            if os.readlink(fd) in inodes:
                return True
        except OSError:
            continue
    return False


def memory_mb(pid):
    """Return (peak, current) resident memory of process `pid` in MB (VmHWM, VmRSS)."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmHWM", "VmRSS"):
            found[key] = int(value.split()[0]) / 1024
    return found.get("VmHWM", 0.0), found.get("VmRSS", 0.0)


def cpu_seconds(pid):
    """Return the CPU time (user and system, in seconds) process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    # After the name: state is field 3 of the whole line, utime 14 and stime 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- players ------------------------------------------------------------------------------


def login_cookies(user):
    """Log `user` in: store a session in the database and return the browser's cookies.

    The CSRF cookie is an unmasked secret, which Django also accepts in the
    X-CSRFToken header.
    """
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    csrf = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(32))
    return {settings.SESSION_COOKIE_NAME: session.session_key, settings.CSRF_COOKIE_NAME: csrf}


# --- users, tables and bots ------------------------------------------------------------------


def create_tables(run, count, players):
    """Make the users, their sessions and started games; return [(code, [cookies by seat])].

    The users are named load-<run>-<n>; their games are private, with a long
    clock so that no timeout plays for a bot while it thinks.
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from games.models import Game, Seat

    User = get_user_model()
    with transaction.atomic():
        users = User.objects.bulk_create(
            User(username=f"load-{run}-{i}", password=make_password(None))
            for i in range(count * players)
        )
        cookies = {user.pk: login_cookies(user) for user in users}
    tables = []
    for t in range(count):
        seated = users[t * players : (t + 1) * players]
        game = Game.objects.create(
            host=seated[0], seat_count=players, pace_seconds=24 * 3600, private=True
        )
        Seat.objects.bulk_create(
            Seat(game=game, user=user, position=p) for p, user in enumerate(seated)
        )
        game.start()
        by_seat = {s.position: cookies[s.user_id] for s in game.seats.all()}
        tables.append((game.code, [by_seat[p] for p in range(players)]))
    return tables


def delete_tables(run):
    """Delete what create_tables(run, ...) made."""
    from django.contrib.auth import SESSION_KEY, get_user_model
    from django.contrib.sessions.models import Session

    from games.models import Game

    User = get_user_model()
    users = User.objects.filter(username__startswith=f"load-{run}-")
    Game.objects.filter(seats__user__in=users).delete()
    ids = {str(pk) for pk in users.values_list("pk", flat=True)}
    # Sessions are not linked to users: find this run's by what they hold.
    doomed = [s.pk for s in Session.objects.iterator() if s.get_decoded().get(SESSION_KEY) in ids]
    Session.objects.filter(pk__in=doomed).delete()
    users.delete()


def choose_move(code, rng, level="basic"):
    """Return (seat, move, version) of a bot's move for an awaited seat; None when over.

    The bot (rules.bots, "basic" by default: it plays as a sensible person
    would) sees only that seat's view of the game.
    """
    found = read_game(code)
    if found is None:
        return None
    snapshot, version = found
    seat, move = pick_move(snapshot, rng.getrandbits(63), level)
    return seat, move, version


def read_game(code):
    """Return (snapshot, version) of the game `code` in play; None once it is over."""
    from games.models import Game

    game = Game.objects.only("status", "snapshot", "version").get(code=code)
    if game.status != Game.Status.ACTIVE:
        return None
    return game.snapshot, game.version


def pick_move(snapshot, seed, level):
    """Return (seat, rules.Move) of a bot of `level` at an awaited seat of `snapshot`.

    Engine only (no Django, no database): the load command runs it in a process
    of its own, so that the bots' thinking never holds up its socket clients.
    """
    from games.rules import GameState, awaiting
    from games.rules.bots import bot_move

    rng = random.Random(seed)
    state = GameState.from_json(snapshot)
    waiting = awaiting(state)
    seat = waiting[rng.randrange(len(waiting))][0]
    return seat, bot_move(state, seat, level, rng.getrandbits(32))


def final_versions(codes):
    from games.models import Game

    return dict(Game.objects.filter(code__in=codes).values_list("code", "version"))


class Player:
    """One logged-in browser: posts moves, and keeps one socket that reconnects when it drops.

    `versions` lists every version the socket received, in order;
    `first_versions` the version of the first message of each connection,
    `connected_at` when it arrived (time.perf_counter) and `client_ports`
    the connection's local port (to find the server process holding it);
    `refusals` counts the refusals told in its flash (moves sent over it).
    """

    def __init__(self, http, base_url, cookies, path, reconnect_delay=0.25):
        from django.conf import settings

        self.http = http
        self.base_url = base_url
        self.path = path
        self.csrf = cookies[settings.CSRF_COOKIE_NAME]
        self.headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
            "Origin": base_url,
        }
        self.reconnect_delay = reconnect_delay
        self.version = -1
        self.versions = []
        self.first_versions = []
        self.connected_at = []
        self.client_ports = []
        self.messages = 0
        self.connections = 0
        self.closes = []
        self.errors = []
        self.refusals = 0
        self.notices = []  # True: told that live updates are paused; False: told no longer
        self._waiters = []
        self._answers = []
        self._task = None
        self._ws = None
        self._stopping = False
        self._connected = asyncio.Event()

    def socket_url(self, base_url=None):
        return (base_url or self.base_url).replace("http://", "ws://", 1) + self.path

    async def open(self, timeout=30):
        """Start the socket; return once it is connected and has received its first message."""
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def close(self):
        self._stopping = True
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    async def _run(self):
        import aiohttp

        delay = self.reconnect_delay
        while not self._stopping:
            try:
                async with self.http.ws_connect(
                    self.socket_url(), headers=self.headers, heartbeat=None, max_msg_size=0
                ) as ws:
                    self._ws = ws
                    self.connections += 1
                    self.client_ports.append(ws.get_extra_info("sockname")[1])
                    first = True
                    async for message in ws:
                        if message.type != aiohttp.WSMsgType.TEXT:
                            break
                        self._received(message.data, first)
                        if first:
                            first = False
                            delay = self.reconnect_delay
                            self._connected.set()
                    self.closes.append(ws.close_code)
            except (aiohttp.ClientError, OSError) as e:
                if not self._stopping:
                    self.errors.append(repr(e))
            finally:
                self._ws = None
            if self.reconnect_delay is None or self._stopping:
                return
            # The htmx ws extension waits a growing, jittered delay before reconnecting.
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))
            delay = min(delay * 2, 4.0)

    def _received(self, text, first):
        self.messages += 1
        data = text.encode() if isinstance(text, str) else text
        if b'id="live-status"' in data:  # the notice that live updates are paused, or not
            self.notices.append(b"hidden" not in data.split(b">", 1)[0])
        if REFUSAL.search(data):
            self.refusals += 1
            self._answer(lambda target: (None, data.decode()))
        found = VERSION.search(data)
        if found is None:
            return
        version = int(found.group(1))
        now = time.perf_counter()
        self._answer(lambda target: (version, now) if version > target else None)
        self.versions.append(version)
        if first:
            self.first_versions.append(version)
            self.connected_at.append(now)
        self.version = version
        waiting = []
        for target, future in self._waiters:
            if version >= target and not future.done():
                future.set_result(now)
            elif not future.done():
                waiting.append((target, future))
        self._waiters = waiting

    async def reach(self, version, timeout):
        """Wait until the socket has a board of at least `version`; return when it arrived."""
        if self.version >= version:
            return time.perf_counter()
        future = asyncio.get_running_loop().create_future()
        self._waiters.append((version, future))
        return await asyncio.wait_for(future, timeout)

    def _answer(self, outcome):
        """Settle the moves awaiting an answer for which `outcome(version sent from)` is not None."""
        waiting = []
        for target, future in self._answers:
            if not future.done():
                found = outcome(target)
                if found is None:
                    waiting.append((target, future))
                else:
                    future.set_result(found)
        self._answers = waiting

    async def send_move(self, text, version, timeout):
        """Send a move made from board `version` over this socket (text: socket_message); await its answer.

        Return (new version, when it arrived) once the socket shows a later
        board, or (None, the flash's HTML) if a refusal is told first. A stale
        board's refusal comes with the current board, so a move refused as
        stale after another one counts as made, as its POST's answer (the
        current board) does.
        """
        future = asyncio.get_running_loop().create_future()
        self._answers.append((version, future))  # before sending: the answer may come at once
        await self.send(text)
        return await asyncio.wait_for(future, timeout)

    async def send(self, text):
        """Send `text` over the socket (a move: socket_message)."""
        await self._ws.send_str(text)

    async def post(self, path, fields, base_url=None):
        """Post form `fields` (a list of pairs) as htmx does; return (status, body text)."""
        base_url = base_url or self.base_url
        headers = dict(self.headers, Origin=base_url, **{"X-CSRFToken": self.csrf})
        headers["HX-Request"] = "true"
        url = base_url + path
        async with self.http.post(url, data=fields, headers=headers) as response:
            return response.status, await response.text()


def socket_message(fields, page_url):
    """Return form `fields` (a list of pairs) as the page's ws-send sends them: JSON, with htmx's headers."""
    message = {}
    for name, value in fields:
        if name in message:
            held = message[name]
            message[name] = [*held, value] if isinstance(held, list) else [held, value]
        else:
            message[name] = value
    message["HEADERS"] = {
        "HX-Request": "true",
        "HX-Trigger": None,
        "HX-Trigger-Name": None,
        "HX-Target": None,
        "HX-Current-URL": page_url,
    }
    return json.dumps(message)


def move_fields(move, version):
    """Return the form fields the table page posts for rules.Move `move` from `version`."""
    fields = [("version", str(version))]
    for key, value in move.to_json().items():
        if isinstance(value, list):
            fields.extend((key, str(v)) for v in value)
        else:
            fields.append((key, str(value)))
    return fields


def posted_version(body):
    """Return the version of the board an htmx move response carries (None if none)."""
    found = VERSION.search(body.encode())
    return int(found.group(1)) if found else None


def percentiles(values):
    """Return {p50, p95, p99} of `values` in milliseconds (given in seconds), nearest rank."""
    if not values:
        return {"p50": None, "p95": None, "p99": None}
    ordered = sorted(values)

    def rank(p):
        index = max(0, math.ceil(p / 100 * len(ordered)) - 1)
        return round(ordered[index] * 1000, 1)

    return {"p50": rank(50), "p95": rank(95), "p99": rank(99)}


# --- the socket flood ------------------------------------------------------------------------


def create_flood_users(run, count):
    """Make `count` logged-in users (load-<run>-f<n>) for the flood; return their cookies."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"load-{run}-f{i}", password=make_password(None)) for i in range(count)
    )
    return [login_cookies(user) for user in users]


class IdleSocket:
    """A lobby socket of the flood: it says nothing, counts what it receives and how it ended.

    Without cookies it is an anonymous visitor's, closed at once with 4401 (a session
    that ended). `refused` when the handshake was refused (a socket over a bound);
    `close_code` when the server closed it.
    """

    def __init__(self, http, base_url, cookies=None, path="/ws/lobby/"):
        self.http = http
        self.url = base_url.replace("http://", "ws://", 1) + path
        self.headers = {"Origin": base_url}
        if cookies:
            self.headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.messages = 0
        self.bytes = 0
        self.refused = False
        self.close_code = None
        self.ws = None
        self.reader = None
        self.first = asyncio.Event()

    async def open(self, timeout=60):
        """Connect; return once the first message came (the connect's render) or it closed."""
        import aiohttp

        try:
            self.ws = await self.http.ws_connect(
                self.url, headers=self.headers, heartbeat=None, max_msg_size=0
            )
        except aiohttp.WSServerHandshakeError:
            self.refused = True
            return self
        self.reader = asyncio.create_task(self.read())
        await asyncio.wait_for(self.first.wait(), timeout)
        return self

    async def read(self):
        import aiohttp

        try:
            async for message in self.ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    self.messages += 1
                    if self.first.is_set():  # after the connect's render: the lobby's changes
                        self.bytes += len(message.data.encode())
                    self.first.set()
            self.close_code = self.ws.close_code
        finally:
            self.first.set()

    @property
    def open_now(self):
        return self.ws is not None and not self.ws.closed

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()


TABLE_FIELDS = {
    "seat_count": "4",
    "pace": "live",
    "pace_seconds": "60",
    "pace_days": "3",
    "reserve_days": "3",
}


async def create_table_as(http, base_url, cookies):
    """Create a public table as the form does (no htmx); return the HTTP status (302: made)."""
    from django.conf import settings

    headers = {
        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "Origin": base_url,
        "X-CSRFToken": cookies[settings.CSRF_COOKIE_NAME],
    }
    async with http.post(
        base_url + "/tables/new/", data=TABLE_FIELDS, headers=headers, allow_redirects=False
    ) as response:
        return response.status
