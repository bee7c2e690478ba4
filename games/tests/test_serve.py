"""manage.py serve: Daphne processes sharing one socket, plus the worker, kept running."""

import os
import signal

import pytest

from games.tests.running_site import alive, manage_serve, server_pid_of, wait_until
from games.tools.load import free_port


def test_it_refuses_several_processes_without_redis(tmp_path):
    log = tmp_path / "serve.log"

    process = manage_serve("--processes", "2", "--port", str(free_port()), log=log, REDIS_URL=None)

    assert process.wait(60) != 0
    assert "More than one server process needs REDIS_URL" in log.read_text()


def test_it_serves_with_one_process_running_the_worker_inside_and_restarts_it(serve):
    server = serve(1, REDIS_URL=None)
    conn, status = server.get()
    conn.close()
    assert status == 200
    [daphne] = server.pids()
    assert server.workers_inside() == [daphne]
    assert server.pids("worker") == [], "no worker process beside it"

    os.kill(daphne, signal.SIGKILL)
    wait_until(lambda: server.pids() != [daphne])
    conn, status = server.get()
    conn.close()

    assert status == 200
    assert f"daphne 1 (pid {daphne}) exited with code -9; starting it again." in server.output()
    [restarted] = server.pids()
    wait_until(lambda: server.workers_inside() == [daphne, restarted])
    server.stop()
    assert server.process.returncode == 0
    wait_until(lambda: not alive(restarted), timeout=15)


def test_it_runs_no_worker_inside_when_told_one_runs_elsewhere(serve):
    server = serve(1, "--no-worker", REDIS_URL=None, wait_for_worker=False)
    conn, status = server.get()
    conn.close()
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


def test_a_process_that_cannot_start_stops_those_started_before_it(monkeypatch, settings):
    from django.core.management import call_command

    from games.management.commands import serve

    settings.DEBUG = True  # no collectstatic needed
    monkeypatch.setattr(serve.signal, "signal", lambda *args: None)
    listeners, started = [], []
    create_server = serve.socket.create_server

    def listen(*args, **kwargs):
        listeners.append(create_server(*args, **kwargs))
        return listeners[-1]

    class Child:
        pid = 1

        def __init__(self):
            self.alive = True

        def poll(self):
            return None if self.alive else 0

        def terminate(self):
            self.alive = False

        def wait(self, timeout=None):
            return 0

    def popen(command, **kwargs):
        if started:
            raise OSError("cannot start")
        started.append(Child())
        return started[-1]

    monkeypatch.setattr(serve.socket, "create_server", listen)
    monkeypatch.setattr(serve.subprocess, "Popen", popen)
    # As with Redis: a Daphne process, then the worker, which cannot start.
    monkeypatch.setattr(serve, "in_memory_layer", lambda: False)
    with pytest.raises(OSError, match="cannot start"):
        call_command("serve", "--processes", "1", "--port", "0")

    assert len(started) == 1 and not started[0].alive, "the Daphne started first is stopped"
    assert listeners[0].fileno() == -1, "the listening socket is closed"


def test_its_sockets_are_never_closed_for_their_age(monkeypatch, settings):
    from django.core.management import call_command

    from games.management.commands import serve

    settings.DEBUG = True  # no collectstatic needed
    monkeypatch.setattr(serve.signal, "signal", lambda *args: None)
    commands = []

    def popen(command, **kwargs):
        commands.append(command)
        raise OSError("not started")

    monkeypatch.setattr(serve.subprocess, "Popen", popen)
    with pytest.raises(OSError, match="not started"):
        call_command("serve", "--processes", "1", "--port", "0")

    [daphne] = commands
    at = daphne.index("--websocket_timeout")
    assert daphne[at + 1] == "-1"  # Daphne's default closes each after a day
