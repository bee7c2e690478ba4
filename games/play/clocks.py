"""The clocks of every game at once: the worker applies the moves of the deadlines that passed.

And closes the open live tables nobody sat down at for a while.
"""

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone

from accounts.models import Vacation
from games.models import Game, Seat, SeatingError

log = logging.getLogger(__name__)


def _waiting_key(code):
    return f"host-waiting:{code}"


def host_waiting(code, seconds):
    """Note that the host of open table `code` has its waiting room open, for `seconds`.

    Its socket notes it at every check (lobby/consumers.py): the worker does not
    close a table whose host waits there (close_idle_tables).
    """
    try:
        cache.set(_waiting_key(code), 1, timeout=seconds)
    except Exception:  # the cache away: the worker cannot read it either, and closes nothing
        log.warning("Could not note that the host of %s waits", code, exc_info=True)


# How often a worker looks for idle tables (the open tables are few; a minute late is fine).
IDLE_CHECK_EVERY = 60  # seconds
_idle_checked_at = float("-inf")


def enforce_deadlines(now=None):
    """Apply the default move of every seat whose time and reserve have run out.

    Without `now`, each game reads the clock as its move is made (see
    Game.enforce_deadline).
    """
    moment = now or timezone.now()
    # A correspondence game waits for a player on vacation (their deadlines were pushed
    # too: this guards the moment a vacation starts or ends).
    on_vacation = Vacation.objects.current(moment).filter(user_id=OuterRef("user_id"))
    due = Seat.objects.filter(timeout_at__lte=moment, game__status=Game.Status.ACTIVE).exclude(
        Q(game__pace=Game.Pace.CORRESPONDENCE) & Exists(on_vacation)
    )
    applied = 0
    for game_id, position in due.values_list("game_id", "position").order_by("timeout_at"):
        try:
            applied += Game(pk=game_id).enforce_deadline(position, now)
        except Exception:  # one broken game must not stop the clocks of the others
            log.exception("Enforcing the deadline of seat %s in game %s failed", position, game_id)
    return applied


def close_idle_tables(now=None):
    """Close the open live tables where nobody sat down for OPEN_LIVE_TABLE_MINUTES.

    A live table is played now: one whose host opened it and walked away must
    not stay listed, nor be where Quick game seats people (the one waiting
    longest first), nor hold its players' seats. A host who keeps its waiting
    room open is there (host_waiting); one who left it is not. The waiting
    room says so beforehand, and why it closed after. Private tables (for
    invited friends) and correspondence tables wait as long as their host
    likes. Looked for once a minute; return how many were closed.
    """
    global _idle_checked_at
    minutes = settings.OPEN_LIVE_TABLE_MINUTES
    if not minutes or time.monotonic() - _idle_checked_at < IDLE_CHECK_EVERY:
        return 0
    _idle_checked_at = time.monotonic()
    since = (now or timezone.now()) - timedelta(minutes=minutes)
    # The host's seat is taken when the table opens: the last seat taken is never missing.
    idle = (
        Game.objects.listed()
        .filter(pace=Game.Pace.LIVE)
        .annotate(last_seated=Max("seats__joined_at"))
        .filter(last_seated__lt=since)
    )
    idle = list(idle.only("pk", "code"))
    try:
        waiting = cache.get_many([_waiting_key(game.code) for game in idle])
    except Exception:  # the cache away: whether a host waits is unknown
        log.warning("Idle tables not closed: the cache failed", exc_info=True)
        return 0
    closed = 0
    for game in idle:
        if _waiting_key(game.code) in waiting:
            continue
        try:
            game.cancel(reason=Game.IDLE, idle_since=since)
            closed += 1
        except SeatingError:
            pass  # it started, closed or had someone sit down meanwhile
    return closed
