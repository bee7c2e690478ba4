"""The worker that runs beside the web server: timeouts, bot moves and emails, no browser needed."""

import logging
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from games.bots import play_bot_moves
from games.emails import send_due_emails
from games.models import enforce_deadlines

log = logging.getLogger(__name__)

# What one round does, in order, each with what its count means. Deadlines and
# moves live in the database, so a restarted worker catches up at once; the
# emails come last, so that they tell whose move it is after the round's moves.
JOBS = [
    (enforce_deadlines, "timeout(s) applied"),
    (play_bot_moves, "bot move(s) made"),
    (send_due_emails, "email(s) sent"),
]


class Command(BaseCommand):
    help = "Apply timeouts, make the bots' moves and send the emails due, again and again."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Run one round and exit.")
        parser.add_argument(
            "--interval", type=float, default=0.5, help="Seconds between rounds (default 0.5)."
        )

    def handle(self, *args, once=False, interval=0.5, **options):
        if not once:
            self.stdout.write(f"Worker: timeouts, bot moves and emails every {interval:g} s.")
        while True:
            close_old_connections()
            for job, done in JOBS:
                try:
                    count = job(timezone.now())
                except Exception:  # e.g. the database briefly away: the next round retries
                    log.exception("Worker: %s failed; trying again next round", job.__name__)
                    continue
                if count:
                    self.stdout.write(f"Worker: {count} {done}.")
            if once:
                return
            time.sleep(interval)
