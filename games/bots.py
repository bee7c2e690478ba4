"""Computer players at the tables: their accounts, taking empty seats, and their moves.

A bot is an ordinary account with a `bot_level` (it cannot log in): its
results and ratings are counted like anyone's, so people can see how they
compare to each level. Bot moves are chosen by the engine
(`games.rules.bots`) from the bot seat's own view only, outside any lock,
and made through `Game.play`, the locked method people's moves go through;
the worker makes them (never a web request), a short pause after the
previous move so that people can follow.
"""

import logging
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from games.models import Game, Seat, SeatingError, StaleBoard
from games.rules.bots import bot_move

log = logging.getLogger(__name__)

LEVELS = {
    "random": _("Random"),
    "basic": _("Basic"),
    "strong": _("Strong"),
}
# The pause after the previous move before a bot moves, so that people see each move.
PAUSE = timedelta(seconds=1)
# Bot moves made in one worker round at most, so that timeouts and emails are not kept waiting:
# BATCH moves, and no new one once the round's bots have thought for ROUND_SECONDS (a strong
# bot takes up to a second a move). The games waiting longest go first, so none starves.
BATCH = 20
ROUND_SECONDS = 2.0


def bot_account(level, number):
    """Return bot account `number` of `level`, creating it the first time.

    A computer player is recognised by its `bot_level`, never by its name: a
    person who holds the name bot-<level>-<number> (taken before such names
    were kept for computer players) is never returned; the bot is then
    bot-<level>-<number>-2 (or -3...).
    """
    User = get_user_model()
    base = f"bot-{level}-{number}"
    for username in [base, *(f"{base}-{n}" for n in range(2, 100))]:
        bot = User.objects.filter(bot_level=level, username=username).first()
        if bot is not None:
            return bot
        if User.objects.filter(username__iexact=username).exists():
            continue  # a person's name
        bot = User(username=username, bot_level=level, display_name=_bot_name(level, number))
        bot.set_unusable_password()
        try:
            with transaction.atomic():
                bot.save()
        except IntegrityError:  # made at the same moment elsewhere: take that one
            return User.objects.get(bot_level=level, username=username)
        return bot
    raise SeatingError(_("There is no such computer level."))


def _bot_name(level, number):
    name = f"{level.capitalize()} bot {number}"
    # Display names are unique among players (accounts.User): a person may
    # have taken this one before it was kept for computer players. The bot
    # then goes by its username.
    taken = Q(display_name__iexact=name) | Q(username__iexact=name)
    return "" if get_user_model().objects.filter(taken).exists() else name


def fill_with_bots(game, level):
    """Seat bots of `level` at every free seat of an open table; it starts when full.

    Return how many took a seat.
    """
    if level not in LEVELS:
        raise SeatingError(_("There is no such computer level."))
    seated = 0
    number = 1
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.OPEN or game.seats.count() >= game.seat_count:
            return seated
        bot = bot_account(level, number)
        number += 1
        if game.seats.filter(user=bot).exists():
            continue
        game.join(bot)
        seated += 1


def due_bot_seats(now):
    """Return the bot seats the games wait for whose pause has passed, oldest first."""
    return (
        Seat.objects.filter(
            deadline__isnull=False,
            game__status=Game.Status.ACTIVE,
            game__last_move_at__lte=now - PAUSE,
        )
        .exclude(user__bot_level="")
        .select_related("game", "user")
        .order_by("game__last_move_at")[:BATCH]
    )


def play_bot_moves(now=None):
    """Make the moves of the bots the games wait for; return how many were made."""
    now = now or timezone.now()
    made = 0
    started = time.monotonic()
    for seat in due_bot_seats(now):
        if made and time.monotonic() - started >= ROUND_SECONDS:
            break  # the next round goes on with the others, after the timeouts
        game = seat.game
        # Chosen outside the lock from the seat's view; the version check in
        # Game.play refuses it if anything moved meanwhile (tried again next round).
        seed = (game.seed * 1_000_003 + game.version) % 2**63
        try:
            move = bot_move(game.state(), seat.position, seat.user.bot_level, seed)
            if move is None:
                continue
            game.play(seat.position, move, version=game.version)
        except StaleBoard:
            continue
        except Exception:  # a broken bot must not stop the others; its clock still runs
            log.exception("Bot %s failed to move in game %s", seat.user, game.code)
            continue
        made += 1
    return made


def level_name(level):
    return gettext(str(LEVELS.get(level, level)))
