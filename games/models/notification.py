"""Notifications: what a player should know of their games, made in the move's transaction."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    """Something a player should know: it is their turn, they were targeted, a game ended ..."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        TARGETED = "targeted", _("Targeted")
        ENDED = "ended", _("Game ended")
        INVITED = "invited", _("Invitation")
        TIMED_OUT = "timed_out", _("Time ran out")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=12, choices=Kind)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    data = models.JSONField(default=dict, blank=True)  # e.g. {"card": "sly_deal"}
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read_at"], name="unread_by_user")]

    def __str__(self):
        return f"{self.user_id}:{self.kind}:{self.game_id}"

    @classmethod
    def for_move(cls, game, state, seats, events, newly_awaited):
        """Create the notifications of one move (in its transaction); return who was told.

        Turns and actions are told only in correspondence games: a live game is
        played with its table open, where they show at once.
        """
        users = {seat.position: seat.user_id for seat in seats}
        found = []
        if game.status == game.Status.FINISHED:
            found += [cls(user_id=u, game=game, kind=cls.Kind.ENDED) for u in users.values()]
        if game.pace != game.Pace.CORRESPONDENCE:
            events = newly_awaited = ()
        for event in events:
            if event["type"] == "play" and event.get("targets"):
                card = state.deck[event["card"]].id
                found += [
                    cls(
                        user_id=users[t],
                        game=game,
                        kind=cls.Kind.TARGETED,
                        actor_id=users[event["seat"]],
                        data={"card": card},
                    )
                    for t in event["targets"]
                ]
            elif event["type"] == "transfer":
                found.append(
                    cls(
                        user_id=users[event["to"]],
                        game=game,
                        kind=cls.Kind.TARGETED,
                        actor_id=users[event["seat"]],
                        data={"card": "rent_transfer"},
                    )
                )
        if game.status == game.Status.ACTIVE and newly_awaited:
            # One unread "your turn" per game is enough; it is read when the table is opened.
            waiting = {users[p] for p in newly_awaited if not seats[p].absent}
            waiting -= set(
                cls.objects.filter(
                    game=game, kind=cls.Kind.YOUR_TURN, read_at=None, user_id__in=waiting
                ).values_list("user_id", flat=True)
            )
            found += [cls(user_id=u, game=game, kind=cls.Kind.YOUR_TURN) for u in waiting]
        cls.objects.bulk_create(found)
        return {n.user_id for n in found}
