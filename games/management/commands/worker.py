"""The worker as a process of its own, beside the web servers: timeouts, bot moves and emails."""

import time

from django.core.management.base import BaseCommand, CommandError

from games.models.broadcasts import broadcast_from_own_loop
from games.play.worker import INTERVAL, in_memory_layer, run_round

IN_MEMORY_REFUSAL = (
    "With the in-memory channel layer (no REDIS_URL) only the web server's own process "
    "reaches its browsers, so the server runs the worker itself (WORKER_IN_SERVER): the "
    "moves of a worker in another process would show only when the sockets check "
    "themselves, about 20 s late. Set REDIS_URL to run the worker apart, or run one "
    "round with --once."
)


class Command(BaseCommand):
    help = "Apply timeouts, make the bots' moves and send the emails due, again and again."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Run one round and exit.")
        parser.add_argument(
            "--interval",
            type=float,
            default=INTERVAL,
            help=f"Seconds between rounds (default {INTERVAL:g}).",
        )

    def handle(self, *args, once=False, interval=INTERVAL, **options):
        if in_memory_layer():
            # A second loop making moves beside the server's own, unheard by
            # its browsers: refused. One round by hand (a catch-up, the tests) is
            # harmless, but its moves are not seen at once either.
            if not once:
                raise CommandError(IN_MEMORY_REFUSAL)
            self.stderr.write(
                "Warning: the in-memory channel layer cannot pass this round's moves to "
                "the browsers of a server in another process; they see them within about 20 s."
            )
        if not once:
            self.stdout.write(f"Worker: timeouts, bot moves and emails every {interval:g} s.")
            broadcast_from_own_loop()  # a process of its own, for good (not one round by hand)
        while True:
            busy = run_round(
                report=lambda count, done: self.stdout.write(f"Worker: {count} {done}.")
            )
            if once:
                return
            if not busy:  # a busy round's next one starts at once: more may be due
                time.sleep(interval)
