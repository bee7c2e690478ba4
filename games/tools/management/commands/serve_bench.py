"""How many simple requests a second `manage.py serve` answers with 1, 2, 4... processes."""

import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from games.tools.load import RedisServer, free_port


class Command(BaseCommand):
    help = (
        "Start `manage.py serve` with each number of processes on a loopback port (a fresh "
        "SQLite database, and a throwaway Redis when REDIS_URL is unset), send GET requests "
        "from keep-alive connections for a while, and print the requests per second as JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
        parser.add_argument("--path", default="/", help="The page to ask for (default /).")
        parser.add_argument("--seconds", type=float, default=5.0, help="Per run (default 5).")
        parser.add_argument(
            "--connections", type=int, default=16, help="Concurrent connections (default 16)."
        )
        parser.add_argument(
            "--close", action="store_true", help="A new connection for every request."
        )

    def handle(self, *args, processes, path, seconds, connections, close, **options):
        with tempfile.TemporaryDirectory(prefix="fullset-bench-") as folder:
            env = {**os.environ, "PYTHONUNBUFFERED": "1"}
            if not os.environ.get("DATABASE_URL"):
                env["SQLITE_PATH"] = str(Path(folder) / "bench.sqlite3")
                subprocess.run(
                    [sys.executable, "manage.py", "migrate", "-v", "0"],
                    cwd=settings.BASE_DIR,
                    env=env,
                    check=True,
                )
            redis = None
            if not os.environ.get("REDIS_URL") and max(processes) > 1:
                redis = RedisServer(folder).start()
                env["REDIS_URL"] = redis.url
            try:
                runs = [
                    self.run(n, path, seconds, connections, close, env, Path(folder))
                    for n in processes
                ]
            finally:
                if redis:
                    redis.kill()
        report = {
            "path": path,
            "seconds": seconds,
            "connections": connections,
            "keep_alive": not close,
            "cpus": os.cpu_count(),
            "database": "postgresql" if os.environ.get("DATABASE_URL") else "sqlite",
            "debug": settings.DEBUG,
            "runs": runs,
        }
        self.stdout.write(json.dumps(report))

    def run(self, processes, path, seconds, connections, close, env, folder):
        port = free_port()
        with open(folder / f"serve-{processes}.log", "ab") as log:
            server = subprocess.Popen(
                [sys.executable, "manage.py", "serve", "--no-worker"]
                + ["--processes", str(processes), "--port", str(port)],
                cwd=settings.BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            # Every process answers before the clock starts (a request waits in
            # the socket's backlog until one is up).
            asyncio.run(load(port, path, 2.0, connections * 2, close=True))
            asyncio.run(load(port, path, 1.0, connections, close))  # warm-up
            daphnes = children_of(server.pid)
            cpu_before = sum(map(cpu_seconds, daphnes))
            latencies, errors = asyncio.run(load(port, path, seconds, connections, close))
            cpu = sum(map(cpu_seconds, daphnes)) - cpu_before
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(30)
        latencies.sort()
        return {
            "processes": processes,
            "requests": len(latencies),
            "errors": errors,
            "per_second": round(len(latencies) / seconds, 1),
            # What the servers spent, whatever else the machine was doing.
            "server_cpu_ms_per_request": round(cpu * 1000 / len(latencies), 2)
            if latencies
            else None,
            "median_ms": round(statistics.median(latencies) * 1000, 2) if latencies else None,
            "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 2) if latencies else None,
        }


async def load(port, path, seconds, connections, close):
    """GET `path` from `connections` clients for `seconds`; return (latencies, errors)."""
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Connection: {'close' if close else 'keep-alive'}\r\n\r\n"
    ).encode()
    deadline = time.monotonic() + seconds
    latencies, errors = [], []

    async def client():
        reader = writer = None
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(request)
                status = await read_response(reader)
            except (OSError, asyncio.IncompleteReadError, ValueError) as error:
                errors.append(repr(error))
                if writer is not None:
                    writer.close()
                reader = writer = None
                await asyncio.sleep(0.05)
                continue
            if status == 200:
                latencies.append(time.monotonic() - started)
            else:
                errors.append(status)
            if close:
                writer.close()
                reader = writer = None
        if writer is not None:
            writer.close()

    await asyncio.gather(*(client() for _ in range(connections)))
    return latencies, len(errors)


async def read_response(reader):
    """Read one response (with a Content-Length, as CommonMiddleware sets); return its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


def children_of(pid):
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def cpu_seconds(pid):
    """Return the CPU time (user and system) the process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
