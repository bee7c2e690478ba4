"""The site started as a person starts it, for the tests that need the real thing.

`make_run_commands` reads the command lines of the Makefile's `run` target;
`Site` starts processes (the `sites` fixture of games/tests/conftest.py) in a session of their own and stops them all after
the test, pass or fail; `manage_shell` runs code against the site's database.
"""

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

from django.conf import settings

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
