"""A finished game's post-game analysis: its place in the queue and its verdicts.

The queue's work (claiming, judging, saving) is games/history/analysis.py's.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Analysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status, default=Status.QUEUED, db_index=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="analyses_requested",
    )
    requested_at = models.DateTimeField(default=timezone.now, db_index=True)
    # The worker on it ("host:pid") and when it last said so; a stale claim is taken over.
    worker = models.CharField(max_length=80, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    decisions = models.PositiveIntegerField(default=0)  # the decisions to judge
    reached = models.PositiveIntegerField(default=0)  # the last move number looked at
    judged = models.PositiveIntegerField(default=0)  # the decisions looked at so far
    seconds = models.FloatField(default=0)  # time spent judging
    # {"n": verdict} (games/rules/analysis.py `judge`), n the move number as a string.
    verdicts = models.JSONField(default=dict)

    class Meta:
        ordering = ["requested_at", "pk"]

    def __str__(self):
        return f"{self.game_id}: {self.status}"

    @property
    def pending(self):
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    def place(self):
        """Return how many queued analyses come before this one."""
        return Analysis.objects.filter(
            status=self.Status.QUEUED, requested_at__lt=self.requested_at
        ).count()

    def export(self):
        """Return the analysis as the JSON export shows it."""
        return {
            "status": self.status,
            "decisions": self.decisions,
            "judged": self.judged,
            "verdicts": {n: self.verdicts[n] for n in sorted(self.verdicts, key=int)},
        }
