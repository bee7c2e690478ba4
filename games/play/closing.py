"""Closing an account: what it leaves at the tables, and what stays (docs/accounts.md, "Closing").

A closed account is a user with `is_active` off, never a deleted row: its games stay
in the other players' histories under its name, which nobody else can take, and the
reports on its chat messages stay for the moderators. Closing it ends what would
otherwise wait for it: its open tables are cancelled, its seats at tables not
started are given up, and it resigns every game in play (Ruling (resign): a loss,
its seat played by the defaults to the end, docs/rules.md section 11). Its pending
invitations go. It is logged out everywhere at its next request or socket check
(Django's ModelBackend refuses an inactive user).

Closed by its owner (settings, `accounts.views.close_account`) or by a moderator in
the admin (its "Active" box or the "Close" action, accounts/admin.py).
"""

from django.contrib.auth import get_user_model
from django.db import transaction

from games import rules
from games.models import Game, Invitation, SeatingError
from games.play.limits import lock_account


def close_account(user):
    """Close `user`'s account (see the module's doc); return the games it resigned."""
    with transaction.atomic():
        lock_account(user)
        get_user_model().objects.filter(pk=user.pk).update(is_active=False)
        user.is_active = False
        for game in Game.objects.filter(status=Game.Status.OPEN, host=user):
            _unless_changed(game.cancel)
        seated_open = Game.objects.filter(status=Game.Status.OPEN, seats__user=user)
        for game in seated_open.exclude(host=user):
            _unless_changed(game.leave, user)
        resigned = []
        for game in Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user):
            position = game.seat_of(user)
            if position in game.state().resigned:
                continue
            try:
                game.play(position, rules.Move.resign())
            except rules.IllegalMove:
                continue  # it ended meanwhile
            resigned.append(game)
        Invitation.objects.filter(user=user, game__status=Game.Status.OPEN).delete()
    return resigned


def _unless_changed(change, *args):
    try:
        change(*args)
    except SeatingError:
        pass  # it started or closed meanwhile: the games in play are resigned below
