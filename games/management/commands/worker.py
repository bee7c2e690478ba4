"""The worker that runs beside the web server: timeouts (and emails) without a browser open."""

import logging
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from games.emails import send_due_emails
from games.models import enforce_deadlines

log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Apply the default move where a deadline has passed, then wait and do it again."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Run one round and exit.")
        parser.add_argument(
            "--interval", type=float, default=1.0, help="Seconds between rounds (default 1)."
        )

    def handle(self, *args, once=False, interval=1.0, **options):
        if not once:
            self.stdout.write(f"Worker: checking deadlines every {interval:g} s.")
        while True:
            close_old_connections()
            # Deadlines live in the database, so a restarted worker catches up at once.
            try:
                applied = enforce_deadlines(timezone.now())
            except Exception:  # the database may be briefly away; the next round retries
                log.exception("Enforcing deadlines failed; trying again next round")
                applied = 0
            if applied:
                self.stdout.write(f"Worker: {applied} timeout(s) applied.")
            # After the timeouts, so that an email tells whose move it is now.
            try:
                sent = send_due_emails(timezone.now())
            except Exception:  # likewise: the next round sends what is still due
                log.exception("Sending emails failed; trying again next round")
                sent = 0
            if sent:
                self.stdout.write(f"Worker: {sent} email(s) sent.")
            if once:
                return
            time.sleep(interval)
