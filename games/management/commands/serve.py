"""Serve the site in production: several Daphne processes on one address, plus the worker.

With Redis the worker is a process of its own beside the Daphne processes;
with the in-memory channel layer (one Daphne process only) it runs inside
that process, the only one whose sockets its broadcasts reach.
"""

import os
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.play.worker import in_memory_layer

# A process that dies is started again, but never sooner than this after its
# last start, so that one failing at start-up does not spin.
RESTART_DELAY = 2.0
# How long the processes have to finish what they are doing once told to stop.
STOP_TIMEOUT = 10.0


class Command(BaseCommand):
    help = (
        "Serve HTTP and WebSockets with N Daphne processes sharing one listening socket, "
        "and run the worker beside them; restart any that dies, stop all on SIGTERM or SIGINT."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--processes", type=int, default=1, help="Daphne processes (default 1)."
        )
        parser.add_argument(
            "--host", default="127.0.0.1", help="IPv4 address to listen on (default 127.0.0.1)."
        )
        parser.add_argument("--port", type=int, default=8000, help="Default 8000.")
        parser.add_argument(
            "--proxy-headers",
            action="store_true",
            help="Take the client's address and scheme from X-Forwarded-For and "
            "X-Forwarded-Proto (only behind a proxy that sets them). The address is the "
            "entry TRUSTED_PROXY_HOPS places from the right (1 unless set): the one the "
            "proxy appended, never the client's own.",
        )
        parser.add_argument(
            "--no-worker", action="store_true", help="Start no worker (one runs elsewhere)."
        )

    def handle(self, *args, processes, host, port, proxy_headers, no_worker, **options):
        check_can_serve(processes)
        if ":" in host:
            # Daphne's fd endpoint adopts IPv4 sockets only; a proxy in front can take IPv6.
            raise CommandError("--host: give an IPv4 address.")
        try:
            # One socket for all: the kernel hands each connection to one of
            # the processes waiting on it.
            listener = socket.create_server((host, port), backlog=1024)
        except OSError as error:
            raise CommandError(f"Cannot listen on {host}:{port}: {error}") from error
        # No Server header: the software's name and version only help an attacker.
        daphne = [
            sys.executable,
            "-m",
            "daphne",
            "--fd",
            str(listener.fileno()),
            "--no-server-name",
            # Daphne closes a socket after a day by default (code 1000, which the pages'
            # htmx-ext-ws does not retry): a correspondence table left open would stop.
            "--websocket_timeout",
            "-1",
        ]
        if proxy_headers:
            daphne.append("--proxy-headers")
        daphne.append("config.asgi:application")

        commands = {f"daphne {n}": daphne for n in range(1, processes + 1)}
        worker_inside = in_memory_layer() and not no_worker
        if not in_memory_layer() and not no_worker:
            commands["worker"] = [sys.executable, str(settings.BASE_DIR / "manage.py"), "worker"]
        # Said explicitly, so that an exported WORKER_IN_SERVER never starts one per process.
        environ = {**os.environ, "WORKER_IN_SERVER": "1" if worker_inside else "0"}
        if proxy_headers and not settings.TRUSTED_PROXY_HOPS:
            # Daphne itself takes X-Forwarded-For's left-most entry, which the
            # client writes; config/proxy.py takes the one the proxy appended.
            environ["TRUSTED_PROXY_HOPS"] = "1"

        stopping = []
        signal.signal(signal.SIGTERM, lambda signum, frame: stopping.append(signum))
        signal.signal(signal.SIGINT, lambda signum, frame: stopping.append(signum))

        children, started = {}, {}

        def start(name):
            children[name] = subprocess.Popen(
                commands[name], cwd=settings.BASE_DIR, env=environ, pass_fds=[listener.fileno()]
            )
            started[name] = time.monotonic()
            self.log(f"Serve: {name} started (pid {children[name].pid}).")

        self.log(
            f"Serve: http://{host}:{port}/ with {processes} Daphne process(es)"
            + (
                " and the worker inside it"
                if worker_inside
                else ("" if no_worker else " and the worker")
            )
            + "."
        )
        try:
            # Inside the try: a process that cannot start stops those started before it.
            for name in commands:
                start(name)
            while not stopping:
                time.sleep(0.2)
                for name, child in children.items():
                    if child.poll() is None or stopping:
                        continue
                    if time.monotonic() - started[name] < RESTART_DELAY:
                        continue
                    self.log(
                        f"Serve: {name} (pid {child.pid}) exited with code "
                        f"{child.returncode}; starting it again.",
                        error=True,
                    )
                    start(name)
        finally:
            self.log("Serve: stopping.")
            stop_all(children.values())
            listener.close()

    def log(self, line, error=False):
        out = self.stderr if error else self.stdout
        out.write(line)
        out.flush()


def check_can_serve(processes):
    if processes < 1:
        raise CommandError("--processes must be 1 or more.")
    if processes > 1 and in_memory_layer():
        raise CommandError(
            "More than one server process needs REDIS_URL: the in-memory channel layer "
            "cannot pass a move made in one process to the sockets held by another."
        )
    if not settings.DEBUG:
        from django.contrib.staticfiles.storage import staticfiles_storage

        if staticfiles_storage.read_manifest() is None:
            raise CommandError(
                "Run `manage.py collectstatic` first: with DEBUG off, pages link the "
                f"hashed static files it writes to {settings.STATIC_ROOT}."
            )


def stop_all(children):
    """Ask every child to stop (SIGTERM), wait a while, then kill those still there."""
    children = [child for child in children if child.poll() is None]
    for child in children:
        child.terminate()
    deadline = time.monotonic() + STOP_TIMEOUT
    for child in children:
        try:
            child.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
