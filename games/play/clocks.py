"""The clocks of every game at once: the worker applies the moves of the deadlines that passed."""

import logging

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import Vacation
from games.models import Game, Seat

log = logging.getLogger(__name__)


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
