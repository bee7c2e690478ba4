"""The table chat's rows: messages, a player's chat switched off in a game, reports.

What may be written and read, and by whom, is games/chat/messages.py's.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The quick phrases, stored by key: each reader reads them in their own language.
PHRASES = {
    "good_luck": _("Good luck"),
    "well_played": _("Well played"),
    "thanks": _("Thanks"),
    "good_game": _("Good game"),
}


class ChatMessage(models.Model):
    class Room(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages"
    )
    room = models.CharField(max_length=12, choices=Room)
    text = models.TextField(blank=True)
    # A quick phrase is stored by its key: each reader reads it in their own language.
    phrase = models.CharField(max_length=16, blank=True)
    # The moves made when it was written: the review shows it from that position on.
    after_move = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    # Removed by a moderator (the admin's chat reports): shown to nobody from then on.
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["game", "room", "id"], name="chat_game_room")]

    def __str__(self):
        return f"{self.game_id}/{self.room}: {self.shown_text()[:40]}"

    def shown_text(self):
        if self.phrase in PHRASES:
            return str(PHRASES[self.phrase])
        return self.text


class ChatMute(models.Model):
    """A player's chat switched off in one game (User.chat_off switches it off in all)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_mutes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="chat_mute_once")]

    def __str__(self):
        return f"{self.game_id}: {self.user_id}"


class Report(models.Model):
    """A message reported to the admin by one of its readers."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="report_once"),
        ]

    def __str__(self):
        return f"{self.reporter_id} reports {self.message_id}"
