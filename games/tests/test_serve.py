"""manage.py serve: Daphne processes sharing one socket, plus the worker, kept running."""

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from games.load import database_url, free_port


def manage_serve(*args, log, **env):
    environ = {**os.environ, "PYTHONUNBUFFERED": "1", **env}
    for name, value in env.items():
        if value is None:
            del environ[name]
    with open(log, "ab") as output:
        return subprocess.Popen(
            [sys.executable, "manage.py", "serve", *args],
            cwd=settings.BASE_DIR,
            env=environ,
            stdout=output,
            stderr=subprocess.STDOUT,
        )


class Serve:
    """A running `manage.py serve` on a free port, using this test's database."""

    def __init__(self, processes, log, *args, wait_for_worker=True, **env):
        self.port = free_port()
        self.log = log
        if connection.vendor == "sqlite":
            env["SQLITE_PATH"] = str(connection.settings_dict["NAME"])
        else:
            env["DATABASE_URL"] = database_url(connection.settings_dict)
        self.process = manage_serve(
            "--processes", str(processes), "--port", str(self.port), *args, log=log, **env
        )
        # The socket listens before any Daphne is up: connections wait in its
        # backlog until one accepts them. Without Redis the worker runs inside
        # the Daphne process, with Redis apart.
        worker_apart = bool(env.get("REDIS_URL", os.environ.get("REDIS_URL")))
        wait_until(
            lambda: (
                len(self.pids()) == processes
                and (
                    not wait_for_worker
                    or (self.pids("worker") if worker_apart else self.workers_inside())
                )
            ),
            timeout=60,
        )

    def output(self):
        return Path(self.log).read_text()

    def pids(self, name="daphne"):
        """Return the pids of the running processes called `name`, as the log tells them."""
        started = {}
        for slot, pid in re.findall(rf"Serve: ({name} ?\d*) started \(pid (\d+)\)", self.output()):
            started[slot] = int(pid)  # the last one started in each slot
        return sorted(started.values())

    def workers_inside(self):
        """Return the pids of the Daphne processes that said they run the worker."""
        return [
            int(pid)
            for pid in re.findall(r"Worker: inside this server \(pid (\d+)\)", self.output())
        ]

    def get(self, path="/"):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return conn, response.status

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(30)


@pytest.fixture
def serve(transactional_db, tmp_path):
    """Return a function starting `manage.py serve`; every one is stopped after the test."""
    started = []

    def start(processes, *args, **env):
        server = Serve(processes, tmp_path / f"serve-{len(started)}.log", *args, **env)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def wait_until(condition, timeout=30):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def server_pid_of(conn, port, pids):
    """Return which of `pids` holds the server end of the open connection `conn`."""
    client_port = conn.sock.getsockname()[1]
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = (int(address.split(":")[1], 16) for address in fields[1:3])
            if (local, remote) == (port, client_port):
                inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) in inodes:
                    return pid
            except OSError:  # closed meanwhile
                continue
    return None


def test_it_refuses_several_processes_without_redis(tmp_path):
    log = tmp_path / "serve.log"

    process = manage_serve("--processes", "2", "--port", str(free_port()), log=log, REDIS_URL=None)

    assert process.wait(60) != 0
    assert "More than one server process needs REDIS_URL" in log.read_text()


def test_it_serves_with_one_process_running_the_worker_inside_and_restarts_it(serve):
    server = serve(1, REDIS_URL=None)
    _conn, status = server.get()
    assert status == 200
    [daphne] = server.pids()
    assert server.workers_inside() == [daphne]
    assert server.pids("worker") == [], "no worker process beside it"

    os.kill(daphne, signal.SIGKILL)
    wait_until(lambda: server.pids() != [daphne])
    _conn, status = server.get()

    assert status == 200
    assert f"daphne 1 (pid {daphne}) exited with code -9; starting it again." in server.output()
    [restarted] = server.pids()
    wait_until(lambda: server.workers_inside() == [daphne, restarted])
    server.stop()
    assert server.process.returncode == 0
    wait_until(lambda: not alive(restarted), timeout=15)


def test_it_runs_no_worker_inside_when_told_one_runs_elsewhere(serve):
    server = serve(1, "--no-worker", REDIS_URL=None, wait_for_worker=False)
    _conn, status = server.get()
    assert status == 200
    assert server.workers_inside() == [] and server.pids("worker") == []


@pytest.mark.redis
def test_it_shares_one_port_between_two_processes(serve):
    assert os.environ.get("REDIS_URL"), "run with REDIS_URL (scripts/run-tests.sh does)"
    server = serve(2)
    pids = server.pids()
    assert len(pids) == 2

    served_by, connections = set(), []
    for _ in range(60):
        conn, status = server.get()
        assert status == 200
        connections.append(conn)  # kept open, so that its server end can be found
        served_by.add(server_pid_of(conn, server.port, pids))
        if served_by == set(pids) and len(connections) >= 10:
            break
    for conn in connections:
        conn.close()

    assert served_by == set(pids)
