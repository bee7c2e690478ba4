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
import os
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Min, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from accounts.names import bot_display_name
from games.models import Game, Seat, SeatingError, StaleBoard
from games.play.limits import TakingTurns
from games.rules import search
from games.rules.bots import LEVELS, bot_move
from games.rules.state import RESPOND

log = logging.getLogger(__name__)

# The levels are the engine's (games/rules/bots.py LEVELS, the one list); the site names them.
LEVEL_NAMES = dict(zip(LEVELS, (_("Random"), _("Basic"), _("Strong")), strict=True))
# The pause after the previous move before a bot moves, so that people see each move.
PAUSE = timedelta(seconds=1)
# Bot moves made in one worker round at most, so that timeouts and emails are not kept waiting:
# BATCH moves, and no new one thought for once the round has run ROUND_SECONDS (a strong bot
# thinks up to a second a move). The accounts take turns (due_bot_seats), so none starves.
BATCH = 20
ROUND_SECONDS = 2.0
# A bot's move is made this long after it began to think, never sooner, wherever the time it
# thinks could tell the table what it holds (docs/rules.md section 10): every answer to an
# action (accept, Just Say No, ...), for a bot with no Just Say No has nothing to weigh and
# would answer at once while one holding one searches; and every move of the strong level,
# whose search ends at once with one candidate move and runs up to TIME_LIMIT with many, the
# candidates being its hand's. Longer than the strong level's search (TIME_LIMIT) and the
# 0.2 s it may overshoot it on a busy machine (docs/computer-players.md). The worker does not
# sit idle meanwhile: it thinks for other seats, those decided at once (play_bot_moves).
THINKING_SECONDS = search.TIME_LIMIT + 0.3
# After a search the worker waits until this long after it began to think, however long the
# search took, before it does anything else: what it did next would otherwise come at a time
# the searching bot's hand decided (docs/computer-players.md). The search and the reading
# before it fit in it (0.72 s at most measured, on this 2-core machine unloaded); the
# worker thinks for other seats in the rest of THINKING_SECONDS.
SEARCH_SECONDS = search.TIME_LIMIT + 0.15
# The levels whose every move waits for THINKING_SECONDS (the others decide in microseconds).
SEARCHING_LEVELS = {"strong"}
# How long a worker's claim to think for a seat holds at most (claim()).
CLAIM_SECONDS = 30


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
    name = bot_display_name(level, number)
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


def due_bot_seats(now, passed=(), limit=BATCH, searching=True, games=()):
    """Return the bot seats the games wait for whose pause has passed, fairest first.

    Round-robin by account (the game's host): one seat per account, the
    account this worker served longest ago (or never) first, and of each
    account its game waiting longest. Seats in `passed` are left out. So one
    account's many tables hold another's bot back by one move of each other
    account at most, never by all of its own tables. At most `limit` seats.
    Without `searching`, only the seats of levels decided at once; the
    seats of `games` are left out too.
    """
    due = (
        Seat.objects.filter(
            deadline__isnull=False,
            game__status=Game.Status.ACTIVE,
            game__last_move_at__lte=now - PAUSE,
        )
        .exclude(user__bot_level="")
        .exclude(pk__in=passed)
        .exclude(game__in=games)
    )
    if not searching:
        due = due.exclude(user__bot_level__in=SEARCHING_LEVELS)
    hosts = due.values("game__host_id").annotate(waiting_since=Min("game__last_move_at"))

    def fairness(host):
        return _turns.last_served(host["game__host_id"]), host["waiting_since"]

    order = sorted(hosts, key=fairness)[:limit]
    seats = []
    for host in order:
        seat = (
            due.filter(game__host_id=host["game__host_id"])
            .select_related("game", "user")
            .order_by("game__last_move_at", "pk")
            .first()
        )
        if seat is not None:
            seats.append(seat)
    return seats


# When this worker last served each account (the game's host).
_turns = TakingTurns()


def claim(seat, game):
    """Claim the right to think for `seat` at `game`'s version; return whether it was free.

    With several workers (Redis) each one would otherwise think for the same
    seat and one move would be thrown away (Game.play's version check refuses
    the second); the claim in the shared cache keeps the second worker on
    other seats. It lapses by itself should its worker die while thinking.
    """
    try:
        return cache.add(f"bot-claim:{seat.pk}:{game.version}", os.getpid(), timeout=CLAIM_SECONDS)
    except Exception:  # the cache away (Redis restarting): the bots must not stop for it
        # Two workers may then think for the same seat; Game.play keeps only one move.
        log.warning("Bot claims: the cache failed; thinking for seat %s unclaimed", seat.pk)
        return True


def _release(seat, game):
    try:
        cache.delete(f"bot-claim:{seat.pk}:{game.version}")
    except Exception:  # the claim lapses by itself
        log.warning("Bot claims: the cache failed; the claim of seat %s lapses", seat.pk)


def play_bot_moves(now=None):
    """Make the moves of the bots the games wait for; return how many were made.

    One seat at a time, each time the fairest seat due (due_bot_seats), until
    BATCH moves or ROUND_SECONDS: each move's thinking is bounded (the strong
    level's search stops after search.TIME_LIMIT). A move that must wait for
    THINKING_SECONDS waits in `waiting` while the worker thinks for the next
    seats, so that a bot's pause does not hold every other account's bots
    back. How long a search runs is its hand's secret, so nothing the worker
    does may follow its end: only seats decided at once are thought for while
    a move waits (a search would make the waiting move late by as long as it
    ran), and after a search the worker first waits out SEARCH_SECONDS from
    when it began. The round ends once every waiting move is made, each at its
    time; should it fail on the way, the claims of the moves not made are
    given back.
    """
    now = now or timezone.now()
    made = 0
    started = time.monotonic()
    passed = set()  # seats this round has tried, or another worker is thinking for
    waiting = []  # [(when, seat, game, move)]: thought for, to be made at `when`, soonest first
    try:
        while made + len(waiting) < BATCH:
            made += _make_due(waiting)
            if (made or waiting) and time.monotonic() - started >= ROUND_SECONDS:
                break  # the next round goes on with the others, after the timeouts
            games = [game for _when, _seat, game, _move in waiting]  # one move a game at a time
            seats = due_bot_seats(now, passed, limit=1, searching=not waiting, games=games)
            if not seats:
                if not waiting:
                    break
                made += _make_next(waiting)
                continue
            seat = seats[0]
            game = seat.game
            passed.add(seat.pk)
            _turns.serve(game.host_id)
            if not claim(seat, game):
                continue
            began = time.monotonic()
            when, move = _think(seat, game)
            if move is None:
                _release(seat, game)
            elif when is None:
                made += _make(seat, game, move)
            else:
                waiting.append((when, seat, game, move))
                waiting.sort(key=lambda waits: waits[0])
            if seat.user.bot_level in SEARCHING_LEVELS:
                _busy_until(began + search.TIME_LIMIT)
                time.sleep(max(0.0, began + SEARCH_SECONDS - time.monotonic()))
        while waiting:
            made += _make_next(waiting)
    finally:
        for _when, seat, game, _move in waiting:  # not made: the next round thinks again
            _release(seat, game)
    return made


def _busy_until(deadline):
    """Keep the processor (and Python's lock) busy until `deadline` (time.monotonic's).

    After a search that ended before search.TIME_LIMIT: one that ends at once
    (one candidate move, a bot with no Just Say No to weigh) and one that runs
    to its limit must load the machine alike, for the requests of this process
    (the worker is a thread of the web process in the embedded set-up) and of
    its neighbours would otherwise be answered faster while the bot "thinks"
    when its hand offers nothing to weigh (docs/computer-players.md).
    """
    spin = 0
    while time.monotonic() < deadline:
        for step in range(1000):  # pure Python, as the search is
            spin ^= step
    return spin


def _make_due(waiting):
    """Make the moves of `waiting` whose time has come; return how many were made."""
    made = 0
    while waiting and waiting[0][0] <= time.monotonic():
        made += _make_next(waiting)
    return made


def _make_next(waiting):
    """Wait for the time of the first move of `waiting`, then make it; return 1 if made."""
    when, seat, game, move = waiting.pop(0)
    time.sleep(max(0.0, when - time.monotonic()))
    return _make(seat, game, move)


def _think(seat, game):
    """Choose `seat`'s move; return (when to make it, or None for at once; the move or None).

    Chosen outside the lock from the seat's view; the version check in
    Game.play refuses it if anything moved meanwhile (tried again next round).
    """
    seed = (game.seed * 1_000_003 + game.version) % 2**63
    started = time.monotonic()
    try:
        state = game.state()
        move = bot_move(state, seat.position, seat.user.bot_level, seed)
    except Exception:  # a broken bot must not stop the others; its clock still runs
        log.exception("Bot %s failed to think in game %s", seat.user, game.code)
        return None, None
    if state.phase == RESPOND or seat.user.bot_level in SEARCHING_LEVELS:
        return started + THINKING_SECONDS, move
    return None, move


def _make(seat, game, move):
    """Make `seat`'s move, thought for at `game`'s version; return 1 if made, else 0."""
    try:
        game.play(seat.position, move, version=game.version)
    except StaleBoard:
        _release(seat, game)
        return 0
    except Exception:  # a broken bot must not stop the others; its clock still runs
        log.exception("Bot %s failed to move in game %s", seat.user, game.code)
        _release(seat, game)
        return 0
    return 1


def level_name(level):
    return gettext(str(LEVEL_NAMES.get(level, level)))
