"""The site started as a person starts it, for the tests that need the real thing.

`make_run_commands` reads the command lines of the Makefile's `run` target;
`Site` starts processes (the `sites` fixture of games/tests/conftest.py) in a session of their own and stops them all after
the test, pass or fail; `manage_shell` runs code against the site's database;
`Serve` is a running `manage.py serve` (the `serve` fixture) on this test's database.
"""

import http.client
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

from games.tools.load import database_url, free_port

START_TIMEOUT = 120  # a loaded 2-core machine starts Django slowly


def server_env(**env):
    """Return this process's environment for the site's processes, with `env` (None: unset)."""
    environ = {**os.environ, "PYTHONUNBUFFERED": "1"}
    environ.pop("WORKER_IN_SERVER", None)
    for name, value in env.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return environ


def manage_shell(code, env):
    """Run `code` in `manage.py shell` against the site's database; return its output."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def printed(output, tag):
    [line] = [line for line in output.splitlines() if line.startswith(tag + " ")]
    return json.loads(line[len(tag) + 1 :])


def make_run_commands(port):
    """Return the shell lines of the Makefile's `run` target, serving on `port`."""
    lines, inside = [], False
    for line in (settings.BASE_DIR / "Makefile").read_text().splitlines():
        if line.startswith("run:"):
            inside = True
        elif inside and line.startswith("\t"):
            command = line.strip()
            if not command.startswith("@#"):
                command = command.replace("$(PYTHON)", shlex.quote(sys.executable))
                lines.append(command.replace("127.0.0.1:8000", f"127.0.0.1:{port}"))
        elif inside:
            break
    return lines


class Site:
    """Processes serving the site, started in a session of their own and all stopped together."""

    def __init__(self, command, env, log):
        self.log = log
        with open(log, "ab") as output:
            self.process = subprocess.Popen(
                command,
                shell=isinstance(command, str),
                cwd=settings.BASE_DIR,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # runserver's reloader forks the serving child
            )

    def output(self):
        return self.log.read_text()

    def wait_for(self, pattern, timeout=START_TIMEOUT):
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.output()):
            assert self.process.poll() is None, f"the site exited:\n{self.output()}"
            assert time.monotonic() < deadline, f"no {pattern!r} in:\n{self.output()}"
            time.sleep(0.2)

    def kill(self):
        """End every process of the site at once (SIGKILL), as the tests' clean-up does.

        A polite stop may wait 10 s: a Daphne told to stop while a socket's
        disconnect is still sending to the channel layer waits for a loop
        that has stopped, until it is killed.
        """
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        self.process.wait(30)

    def stop(self):
        for sig in (signal.SIGTERM, signal.SIGKILL):
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                self.process.poll()  # reap the leader; its child may still be stopping
                try:
                    os.killpg(self.process.pid, sig)
                except ProcessLookupError:
                    return
                sig = 0
                time.sleep(0.1)


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
    return holder_pid(port, conn.sock.getsockname()[1], pids)


def holder_pid(port, client_port, pids):
    """Return which of `pids` holds the server end (on `port`) of the connection from `client_port`."""
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
