"""Vacation for correspondence players: whole days when their clocks stop and their games wait.

A vacation starts when it is declared and lasts whole days, at least one. A
player has settings.VACATION_DAYS_PER_YEAR days a calendar year (UTC); a
vacation counts against the year it starts in, even when it runs into the
next. Ended early, it counts the whole days begun and gives the rest back.
Vacations never overlap: a new one can be declared only when none is under way.

The clocks (games/models/game.py): when a vacation starts, the deadline of every
decision a correspondence game waits for from the player moves by its length
(the reserve is not spent); a decision that arrives during the vacation starts
when it ends (Game._set_deadlines); ended early, the unused part is taken back.
No timeout is applied to a player on vacation (enforce_deadlines) and no email
nags them (games/play/emails.py). Live games are not affected. A vacation is public:
the tables and the "Your turn" lists show who is on vacation until when.
"""

import math
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import formats, timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _, ngettext

from accounts.models import User, Vacation
from config import statements
from games.models import Game

DAY = timedelta(days=1)


class VacationError(ValueError):
    """A vacation that cannot be taken or ended; the message is for the player."""


def allowance(user, now=None):
    """Return what `user` has of vacation at `now`: the one under way, days used and left."""
    now = now or timezone.now()
    year = timezone.localtime(now).year
    # Statements compiled once (config.statements): "Your turn" shows this on every visit.
    used = sum(statements.values(("vacation days", year), partial(_days, year), user.pk))
    current = statements.models("vacation under way", _under_way, user.pk, now)
    return {
        "current": current[0] if current else None,
        "year": year,
        "per_year": settings.VACATION_DAYS_PER_YEAR,
        "used": used,
        "left": max(settings.VACATION_DAYS_PER_YEAR - used, 0),
    }


def _days(year, user_id):
    return Vacation.objects.filter(user_id=user_id, year=year).values_list("days", flat=True)


def _under_way(user_id, now):
    return Vacation.objects.filter(user_id=user_id).current(now)[:1]


def take_vacation(user, days, now=None):
    """Start a vacation of `days` whole days for `user` now; return it.

    Raise VacationError, changing nothing, for less than a day, more days than
    are left this year, or while a vacation is under way.
    """
    now = now or timezone.now()
    with transaction.atomic():
        _lock(user)
        mine = allowance(user, now)
        if mine["current"] is not None:
            raise VacationError(
                with_when(
                    _("You are already on vacation until %(end)s. End it before taking another."),
                    mine["current"].ends_at,
                )
            )
        if days < 1:
            raise VacationError(_("A vacation lasts at least one day."))
        if days > mine["left"]:
            raise VacationError(
                ngettext(
                    "You have %(left)d day of vacation left this year.",
                    "You have %(left)d days of vacation left this year.",
                    mine["left"],
                )
                % {"left": mine["left"]}
            )
        vacation = Vacation.objects.create(
            user=user, starts_at=now, ends_at=now + days * DAY, days=days, year=mine["year"]
        )
        for game in _correspondence_games(user):
            game.shift_for_vacation(user, vacation.ends_at - now)
    return vacation


def end_vacation(user, now=None):
    """End `user`'s vacation now; the whole days not begun are given back. Return it.

    Raise VacationError, changing nothing, when no vacation is under way.
    """
    now = now or timezone.now()
    with transaction.atomic():
        _lock(user)
        vacation = user.vacations.current(now).first()
        if vacation is None:
            raise VacationError(_("You are not on vacation."))
        unused = vacation.ends_at - now
        begun = max(math.ceil((now - vacation.starts_at) / DAY), 1)
        vacation.days = min(vacation.days, begun)
        vacation.ends_at = now
        vacation.save(update_fields=["days", "ends_at"])
        for game in _correspondence_games(user):
            game.shift_for_vacation(user, -unused)
    return vacation


def when(moment):
    """Return `moment` for a message shown on a page: in UTC, as the site's other times
    without script, in a <time> the page's script (static/js/time.js) puts in the reader's
    own time zone, as the page's other times."""
    words = f"{formats.date_format(timezone.localtime(moment), 'DATETIME_FORMAT')} UTC"
    return format_html('<time data-local-time datetime="{}">{}</time>', moment.isoformat(), words)


def with_when(message, moment):
    """Return the translated `message` with its %(end)s `moment` (when), safe to show."""
    return mark_safe(conditional_escape(message) % {"end": when(moment)})  # noqa: S308 (escaped)


def _lock(user):
    # One declaration at a time per player: two at once could both find no vacation
    # under way, or both fit in the days left.
    User.objects.select_for_update().filter(pk=user.pk).first()


def _correspondence_games(user):
    return Game.objects.filter(
        seats__user=user, status=Game.Status.ACTIVE, pace=Game.Pace.CORRESPONDENCE
    ).order_by("pk")
