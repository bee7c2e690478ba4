"""The counts of the header's badges: games waiting for the user, unread notifications."""

from functools import cached_property

from django.contrib.auth.models import AnonymousUser

from games.models import Game, Notification, Seat


class NavCounts:
    """The badge counts of one user, each read from the database when first shown.

    Lazy, so that the fragments rendered for htmx and sockets, which have no
    header, cost no query.
    """

    def __init__(self, user):
        self.user = user

    @cached_property
    def your_turn(self):
        if not self.user.is_authenticated:
            return 0
        # A seat has a deadline exactly while its game waits for a decision from it. Its
        # game has not ended: the seat_history index skips the player's finished games.
        return Seat.objects.filter(
            user=self.user, ended_at=None, deadline__isnull=False, game__status=Game.Status.ACTIVE
        ).count()

    @cached_property
    def unread(self):
        if not self.user.is_authenticated:
            return 0
        return Notification.objects.filter(user=self.user, read_at=None).count()


def nav_counts(request):
    # A request may have no user (an error page rendered before authentication).
    return {"nav": NavCounts(getattr(request, "user", None) or AnonymousUser())}
