"""Emails about correspondence games: your move, a reminder, and the daily digest.

The worker sends them (games/play/worker.py, JOBS), never the move
path: a slow or failing mail server must not hold up a move or a game lock.
Each email is claimed with a conditional UPDATE before it is sent, so that
two workers never send the same one. A claimed email that fails to send is
logged and not tried again: at most once, rather than a retry every round
while the mail server is away. They go only to an address its owner
confirmed (accounts/email/confirm.py): anyone may type anyone's address.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import (
    DateTimeField,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Prefetch,
    Q,
    Value,
)
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import get_text_list
from django.utils.translation import gettext

from accounts.models import User, Vacation
from games.models import Game, Seat

log = logging.getLogger(__name__)

# Emails of one kind sent in one worker round at most, so that timeouts are not kept waiting.
BATCH = 50
DIGEST_EVERY = timedelta(hours=24)
# A player at the table answers within moments: only a decision still open after this is emailed.
TURN_EMAIL_DELAY = timedelta(minutes=2)


def send_due_emails(now=None):
    """Send the emails due at `now`; return how many were sent."""
    now = now or timezone.now()
    return _send_turn_emails(now) + _send_reminders(now) + _send_digests(now)


def _awaited_seats(now):
    """Return the seats active correspondence games wait for, of players with an email address.

    Absent players are left out: their decisions are made for them by the defaults. So
    are players on vacation: their games wait for them (games/play/vacation.py). And
    closed accounts (games/play/closing.py), which are written to no more.
    """
    on_vacation = Vacation.objects.current(now).filter(user_id=OuterRef("user_id"))
    return (
        Seat.objects.filter(
            deadline__isnull=False,
            absent=False,
            user__is_active=True,
            game__status=Game.Status.ACTIVE,
            game__pace=Game.Pace.CORRESPONDENCE,
        )
        .exclude(user__email="")
        .exclude(Exists(on_vacation))
    )


def _with_players(seats):
    return seats.select_related("game", "user").prefetch_related(
        Prefetch("game__seats", queryset=Seat.objects.select_related("user"))
    )


def _send_turn_emails(now):
    due = (
        _with_players(_awaited_seats(now))
        .filter(user__email_notifications=True, user__email_confirmed=True)
        .filter(awaited_since__lte=now - TURN_EMAIL_DELAY)
        .exclude(emailed_turn=F("game__turn_number"))
        .order_by("awaited_since")[:BATCH]
    )
    sent = 0
    for seat in due:
        # Only for the decision read above: a seat that has moved on since is
        # left to the next round, which reads it again.
        claimed = Seat.objects.filter(
            pk=seat.pk, emailed_turn=seat.emailed_turn, awaited_since=seat.awaited_since
        ).update(emailed_turn=seat.game.turn_number)
        if claimed:
            with translation.override(_language(seat.user)):
                sent += _send(seat.user, "games/emails/your_turn", _game_context(seat, now))
    return sent


def _send_reminders(now):
    # Four fifths of the time have passed when what is left is at most a fifth of it
    # (durations times an integer: SQLite cannot add a fraction of one to a date).
    left_times_5 = ExpressionWrapper(
        (F("deadline") - Value(now, output_field=DateTimeField())) * 5,
        output_field=DurationField(),
    )
    due = (
        _with_players(_awaited_seats(now))
        .filter(user__email_notifications=True, user__email_confirmed=True, reminded=False)
        # A player who has opened the table since the decision began knows about it.
        .filter(Q(seen_at=None) | Q(seen_at__lt=F("awaited_since")))
        .alias(left_times_5=left_times_5)
        .filter(left_times_5__lte=F("deadline") - F("awaited_since"))
        .order_by("deadline")[:BATCH]
    )
    sent = 0
    for seat in due:
        claimed = Seat.objects.filter(
            pk=seat.pk, reminded=False, awaited_since=seat.awaited_since
        ).update(reminded=True)
        if claimed:
            with translation.override(_language(seat.user)):
                sent += _send(seat.user, "games/emails/reminder", _game_context(seat, now))
    return sent


def _send_digests(now):
    waiting = _awaited_seats(now)
    due = (
        User.objects.filter(email_digest=True, email_confirmed=True)
        .exclude(email="")
        .filter(Q(digest_sent_at=None) | Q(digest_sent_at__lte=now - DIGEST_EVERY))
        # Nothing waits, nothing to say: the user stays due until something does.
        .filter(Exists(waiting.filter(user=OuterRef("pk"))))
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=_with_players(waiting).order_by("deadline"),
                to_attr="waiting_seats",
            )
        )
        .order_by("pk")[:BATCH]
    )
    sent = 0
    for user in due:
        claimed = User.objects.filter(pk=user.pk, digest_sent_at=user.digest_sent_at).update(
            digest_sent_at=now
        )
        if claimed:
            with translation.override(_language(user)):
                games = [_game_context(seat, now) for seat in user.waiting_seats]
                sent += _send(user, "games/emails/digest", {"games": games, "now": now})
    return sent


def _language(user):
    return user.language or settings.LANGUAGE_CODE


def _game_context(seat, now):
    """Describe one waiting game to its player (in the active language)."""
    opponents = [other.user.name for other in seat.game.seats.all() if other.pk != seat.pk]
    return {
        "seat": seat,
        "game": seat.game,
        "opponents": get_text_list(opponents, gettext("and")),
        "url": settings.SITE_URL + seat.game.get_absolute_url(),
        "now": now,
    }


def _send(user, template, context):
    """Render `template` in the active language and send it to `user`; return 1 if it went.

    `template` names two templates: `<template>_subject.txt` and `<template>.txt`.
    """
    context = {
        **context,
        "user": user,
        "settings_url": settings.SITE_URL + reverse("accounts:settings"),
    }
    try:
        subject = " ".join(render_to_string(f"{template}_subject.txt", context).split())
        body = render_to_string(f"{template}.txt", context)
        message = EmailMessage(
            subject,
            body,
            to=[user.email],
            # RFC 3834: tells mail servers not to send out-of-office replies to it.
            headers={"Auto-Submitted": "auto-generated"},
        )
        message.send()
    except Exception:  # one bad address or a mail server away must not stop the others
        log.exception("Sending %s to user %s failed", template, user.pk)
        return 0
    return 1
