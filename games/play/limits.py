"""Fair shares: how much one account may hold or send, so that it cannot crowd out the others.

Open tables it hosts, the tables with people it sits at (each one a game
that waits for its moves: someone who joined every table and walked away
would hold all of them up for three timeouts each), games in play against
computer players (the worker thinks for their bots), and invitations (each
one a notification to someone else). The bounds are settings (0: no
bound); staff are exempt. A check that refuses raises LimitReached, a
SeatingError, whose message says what was reached and what to do. The
checks count rows in the database; `lock_account` makes two requests of one
account at once count one after the other (PostgreSQL; SQLite writes one at
a time anyway). The rows are the truth, even for the invitations counted
over an hour or a day: they are not counted again in the cache by
accounts/ratelimit.py, which a restart empties.

And the worker's share of attention: `TakingTurns`, accounts served in turn.
"""

import itertools
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import ngettext

from games.models import Game, Invitation, Seat, SeatingError


class TakingTurns:
    """Accounts served in turn, in one process: the one served longest ago (or never) first.

    The worker serves the computer players' moves (games.play.bots) and the
    analyses (games.history.analysis) so that one account's many games hold
    another's back by one of each other account at most. A counter, not a
    clock: only the order matters.
    """

    KEPT = 10_000

    def __init__(self):
        self._served = {}
        self._count = itertools.count()

    def last_served(self, account_id):
        """How long ago this worker served `account_id`: lower is longer ago, -1 never."""
        return self._served.get(account_id, -1)

    def serve(self, account_id):
        if len(self._served) >= self.KEPT:
            self._served.clear()  # forgetting only lets the forgotten go first once
        self._served[account_id] = next(self._count)


class LimitReached(SeatingError):
    """An account holds or has sent as much as its fair share allows."""


def _bound(name, user):
    limit = getattr(settings, name)
    if user.is_staff or user.bot_level or not limit:
        return None
    return limit


def lock_account(user):
    """Lock `user`'s row until the transaction ends: its limits are counted one at a time."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def check_open_tables(user):
    """Refuse one more open table hosted by `user` once it holds its share."""
    limit = _bound("OPEN_TABLES_PER_USER", user)
    if limit is None:
        return
    if Game.objects.open().filter(host=user).count() >= limit:
        raise LimitReached(
            ngettext(
                "You already host %(count)d table that has not started, the most one player "
                "may. Start it or cancel it before you open another.",
                "You already host %(count)d tables that have not started, the most one player "
                "may. Start or cancel one of them before you open another.",
                limit,
            )
            % {"count": limit}
        )


def seated_games(user, pace):
    """Return the tables of `pace` with no computer player, open or in play, where `user`
    sits and is still playing (neither resigned nor absent)."""
    bots = Seat.objects.filter(game=OuterRef("pk")).exclude(user__bot_level="")
    return Game.objects.filter(
        status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
        pace=pace,
        seats__user=user,
        seats__absent=False,
    ).exclude(Exists(bots))


def check_seats(user, pace):
    """Refuse a seat at one more table of `pace` once `user` sits at its share of them."""
    live = pace == Game.Pace.LIVE
    limit = _bound("LIVE_GAMES_PER_USER" if live else "CORRESPONDENCE_GAMES_PER_USER", user)
    if limit is None:
        return
    if seated_games(user, pace).count() < limit:
        return
    if live:
        message = ngettext(
            "You already sit at %(count)d live table, the most one player may at once. "
            "Finish that game before you sit down at another.",
            "You already sit at %(count)d live tables, the most one player may at once. "
            "Finish one of those games before you sit down at another.",
            limit,
        )
    else:
        message = ngettext(
            "You already sit at %(count)d correspondence table, the most one player may at "
            "once. Finish that game before you sit down at another.",
            "You already sit at %(count)d correspondence tables, the most one player may at "
            "once. Finish one of those games before you sit down at another.",
            limit,
        )
    raise LimitReached(message % {"count": limit})


def computer_games(user):
    """Return the games in play that `user` hosts with a computer player.

    The host is who brought the computer players (play the computer, a table
    filled with bots, a new game or the rematch asked first): a player who only
    joined someone's table is not counted, or a host could use up that
    player's share by filling tables they joined with bots.
    """
    bots = Seat.objects.filter(game=OuterRef("pk")).exclude(user__bot_level="")
    return Game.objects.filter(status=Game.Status.ACTIVE, host=user).filter(Exists(bots))


def check_computer_games(user):
    """Refuse one more game against computer players once `user` plays its share of them.

    A game counts until it ends, even once its player has resigned: its
    computer players play on, and the worker thinks for them.
    """
    limit = _bound("COMPUTER_GAMES_PER_USER", user)
    if limit is None:
        return
    if computer_games(user).count() >= limit:
        raise LimitReached(
            ngettext(
                "You already play %(count)d game against the computer, the most one player "
                "may at once. Finish it before you start another.",
                "You already play %(count)d games against the computer, the most one player "
                "may at once. Finish one of them before you start another.",
                limit,
            )
            % {"count": limit}
        )


def check_invitation(user, invitee):
    """Refuse an invitation from `user` once it has sent its share, in all or to `invitee`."""
    now = timezone.now()
    limit = _bound("INVITATIONS_PER_HOUR", user)
    sent = Invitation.objects.filter(invited_by=user)
    if limit is not None and sent.filter(created_at__gt=now - timedelta(hours=1)).count() >= limit:
        raise LimitReached(
            ngettext(
                "You have sent %(count)d invitation in the last hour, the most one player may. "
                "Please try again later.",
                "You have sent %(count)d invitations in the last hour, the most one player may. "
                "Please try again later.",
                limit,
            )
            % {"count": limit}
        )
    limit = _bound("INVITATIONS_PER_INVITEE_PER_DAY", user)
    recent = sent.filter(user=invitee, created_at__gt=now - timedelta(days=1))
    if limit is not None and recent.count() >= limit:
        raise LimitReached(
            ngettext(
                "You have invited %(name)s %(count)d time in the last day, the most one player "
                "may. Please try again tomorrow.",
                "You have invited %(name)s %(count)d times in the last day, the most one player "
                "may. Please try again tomorrow.",
                limit,
            )
            % {"count": limit, "name": invitee.name}
        )
