"""The worker: timeouts, bot moves, emails and post-game analysis, round after round, and where it runs.

Its moves are broadcast after their commit through the channel layer. With
Redis every process hears them, so the worker is a process of its own
(`manage.py worker`, started by `manage.py serve`). The in-memory layer
reaches only the sockets of the process that sends, so there the worker runs
inside the web server (settings.WORKER_IN_SERVER): an asyncio task on the
server's own event loop that hands each round to a thread of its own, whose
broadcasts hop back to that loop, where the in-memory layer's queues live. A
worker process of its own broadcasts from an event loop it keeps for them
(games.models.broadcasts.broadcast_from_own_loop).

Several workers (Redis) may run at once: the deadlines are enforced under
each game's lock, a bot seat is thought for by the worker that claimed it in
the shared cache (games.play.bots.claim), and each worker serves the accounts in
turn (games.play.bots.due_bot_seats).
"""

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from accounts.sessions import clear_expired_hourly
from games.history.analysis import analyse_next
from games.play.bots import play_bot_moves
from games.play.clocks import close_idle_tables, enforce_deadlines
from games.play.emails import send_due_emails

log = logging.getLogger(__name__)

# What one round does, in order, each with what its count means. Deadlines and
# moves live in the database, so a restarted worker catches up at once; the
# emails come last, so that they tell whose move it is after the round's moves.
# Each job reads the clock itself when it needs it (a move under its game's
# lock), so that a deadline a move starts counts from that move, not from the
# start of the round. The post-game analysis comes after them and takes at most
# ANALYSIS_SECONDS_PER_ROUND of a round (games/history/analysis.py), so that moves and
# emails never wait for it long.
JOBS = [
    (enforce_deadlines, "timeout(s) applied"),
    (play_bot_moves, "bot move(s) made"),
    (send_due_emails, "email(s) sent"),
    (analyse_next, "analysis slice(s) run"),
    (clear_expired_hourly, "expired session(s) deleted"),
    (close_idle_tables, "idle table(s) closed"),
]
INTERVAL = 0.5


def in_memory_layer():
    """Return whether the channel layer reaches only the sockets of the sending process."""
    from channels.layers import InMemoryChannelLayer, get_channel_layer

    return isinstance(get_channel_layer(), InMemoryChannelLayer)


def run_round(report=None):
    """Run every job once; a failing job is logged and the others still run.

    `report(count, what)` hears what each job did. Return whether any job
    did something: more may be due at once (a round stops its bots after
    ROUND_SECONDS), so the next round starts without waiting INTERVAL.
    """
    close_old_connections()
    busy = False
    for job, done in JOBS:
        try:
            count = job()
        except Exception:  # e.g. the database briefly away: the next round retries
            log.exception("Worker: %s failed; trying again next round", job.__name__)
            continue
        busy = busy or bool(count)
        if count and report is not None:
            report(count, done)
    return busy


def say(line):
    print(line, flush=True)  # to the server's console, as the worker command does


def _say_report(count, done):
    say(f"Worker: {count} {done}.")


class WorkerInServer:
    """The worker's rounds as a task of the server's event loop, one round at a time.

    Rounds run in one thread of their own (not the thread Channels keeps for
    synchronous consumers and views), so that bots thinking never hold up a
    page or a socket.
    """

    def __init__(self, interval=INTERVAL):
        self.interval = interval
        self.task = None
        self._stopping = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="worker")

    def start(self):
        self._stopping = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run())
        say(f"Worker: inside this server (pid {os.getpid()}), a round every {self.interval:g} s.")

    async def stop(self):
        """Let the round under way finish (its broadcasts need the loop), then end."""
        if self.task is None:
            return
        self._stopping.set()
        await self.task
        self._thread.shutdown(wait=False)

    async def _run(self):
        round_in_thread = sync_to_async(run_round, thread_sensitive=False, executor=self._thread)
        while not self._stopping.is_set():
            try:
                if await round_in_thread(_say_report):
                    continue  # a busy round: the next one at once
            except Exception as error:
                if "cannot schedule new futures" in str(error):
                    # The interpreter is exiting (the runserver reloader's child
                    # ends that way, never stopping its reactor): no more rounds.
                    return
                log.exception("Worker: a round failed; trying again")
            try:
                await asyncio.wait_for(self._stopping.wait(), self.interval)
            except TimeoutError:
                pass


def run_inside_server():
    """Start the worker inside this process once its server runs, if the settings say so.

    Called by config.asgi, the module a Daphne server (runserver, `python -m
    daphne`, `manage.py serve`'s processes) loads before it runs its reactor;
    the setting is read when the reactor starts. The reactor waits for the
    round under way before it shuts down.
    """
    # Daphne's server module installs Twisted's asyncio reactor; import it first, so that
    # importing this module anywhere (a test) never installs Twisted's default one.
    import daphne.server  # noqa: F401
    from twisted.internet import defer, reactor

    def start():
        if not settings.WORKER_IN_SERVER:
            return
        worker = WorkerInServer()
        try:
            worker.start()
        except Exception:  # Twisted would swallow it: Daphne sends its log nowhere
            log.exception("Worker: could not start inside this server")
            raise
        reactor.addSystemEventTrigger(
            "before",
            "shutdown",
            lambda: defer.Deferred.fromFuture(asyncio.ensure_future(worker.stop())),
        )

    # Startup triggers fire just before the reactor's asyncio loop runs; the
    # task is made from inside it.
    reactor.callWhenRunning(reactor.callLater, 0, start)
