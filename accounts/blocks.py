"""Blocking: a user hides another user's chat and keeps them away from their tables.

The blocked user is not told who blocked them: they see no chat change of
their own; inviting the blocker looks as any invitation does (it is stored,
and listed on the table, but the blocker is not notified and does not see
it); and a table they may not join says only "You can't join this table",
which tells them that someone seated there blocked them, not who.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone

from config import statements


class Block(models.Model):
    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
        ]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blocked_id}"


def blocked_ids(user):
    """Return the ids of the users `user` has blocked."""
    if not user.is_authenticated:
        return set()
    return set(statements.values("blocked", _blocked_by, user.pk))


def _blocked_by(user_id):
    return Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True)


def has_blocked(blocker, blocked):
    return bool(statements.values("has blocked", _block_of, blocker.pk, blocked.pk))


def _block_of(blocker_id, blocked_id):
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).values_list("pk")[:1]


def block(blocker, blocked):
    if blocker.pk != blocked.pk:
        Block.objects.get_or_create(blocker=blocker, blocked=blocked)


def unblock(blocker, blocked):
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


def _people_at(game):
    return set(game.seats.values_list("user_id", flat=True)) | {game.host_id}


def kept_from_table(user, game):
    """Whether the host or a player seated at `game` has blocked `user`."""
    return Block.objects.filter(blocker_id__in=_people_at(game), blocked=user).exists()


def kept_apart(user, game):
    """Whether `user` and the host or a player seated at `game` blocked one another.

    For a seat the site chooses (Quick game): it never seats a player with
    someone they blocked, as a player who chooses a table may.
    """
    people = _people_at(game)
    return Block.objects.filter(
        models.Q(blocker_id__in=people, blocked=user)
        | models.Q(blocker=user, blocked_id__in=people)
    ).exists()
