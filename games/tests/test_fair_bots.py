"""Computer players served fairly: the worker takes bot seats round-robin by account.

dave is the hostile account with many tables of bots; alice, an honest
player, has one.
"""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import OperationalError, connection
from django.utils import timezone

from games import rules
from games.models import Game, Seat
from games.play import bots
from games.play.limits import TakingTurns
from games.rules import search

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_worker(monkeypatch):
    monkeypatch.setattr(bots, "_turns", TakingTurns())
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "x-pass-12345")


def bot_to_move(host, waiting, level="random"):
    """Return a started game of `host` against a bot whose move it is, waiting for `waiting`."""
    game = Game.objects.create(host=host, seat_count=2, seed=11)
    Seat.objects.create(game=game, user=bots.bot_account(level, 1), position=0)
    Seat.objects.create(game=game, user=host, position=1)
    game.start()
    if game.state().current == 1:
        game.play(1, rules.Move.end())
    Game.objects.filter(pk=game.pk).update(last_move_at=timezone.now() - waiting)
    game.refresh_from_db()
    assert game.state().current == 0 and game.seats.get(position=0).deadline is not None
    return game


def moved(game):
    return Game.objects.get(pk=game.pk).version > game.version


def test_it_serves_an_account_with_one_table_among_the_first(monkeypatch, alice, dave):
    hostile = [bot_to_move(dave, timedelta(minutes=10)) for _ in range(5)]
    honest = bot_to_move(alice, timedelta(seconds=2))
    monkeypatch.setattr(bots, "BATCH", 2)

    assert bots.play_bot_moves() == 2

    assert moved(honest), "the oldest tables of one account went first"
    assert sum(moved(game) for game in hostile) == 1


def test_it_takes_the_accounts_in_turn(monkeypatch, alice, bob, dave):
    for user, minutes in ((dave, 10), (alice, 5), (bob, 1)):
        for _ in range(3):
            bot_to_move(user, timedelta(minutes=minutes))
    served = []

    def think(seat, game):
        served.append(game.host.username)
        return None, rules.Move.end()

    monkeypatch.setattr(bots, "_think", think)
    monkeypatch.setattr(bots, "_make", lambda seat, game, move: 1)

    assert bots.play_bot_moves() == 9
    assert served == ["dave", "alice", "bob"] * 3


def test_it_serves_a_bot_that_became_due_at_the_next_round(monkeypatch, alice, dave):
    hostile = [bot_to_move(dave, timedelta(minutes=10)) for _ in range(5)]
    honest = bot_to_move(alice, timedelta(0))  # not due yet: its pause has not passed
    monkeypatch.setattr(bots, "ROUND_SECONDS", 0)  # each move takes a whole round

    assert bots.play_bot_moves() == 1
    Game.objects.filter(pk=honest.pk).update(last_move_at=timezone.now() - bots.PAUSE)
    assert bots.play_bot_moves() == 1

    assert moved(honest), "dave's other tables went first"
    assert sum(moved(game) for game in hostile) == 1


def test_it_leaves_a_seat_another_worker_thinks_for(alice, bob):
    taken = bot_to_move(alice, timedelta(minutes=1))
    free = bot_to_move(bob, timedelta(seconds=2))
    assert bots.claim(taken.seats.get(position=0), taken)  # as another worker would

    assert bots.play_bot_moves() == 1

    assert not moved(taken) and moved(free)


def test_it_never_lets_two_workers_think_for_one_seat(alice):
    game = bot_to_move(alice, timedelta(minutes=1))
    seat = game.seats.get(position=0)

    assert bots.claim(seat, game)
    assert not bots.claim(seat, game)


def test_it_frees_the_claim_of_a_seat_it_could_not_move(monkeypatch, alice):
    game = bot_to_move(alice, timedelta(minutes=1))
    monkeypatch.setattr(bots, "bot_move", lambda *args: None)

    assert bots.play_bot_moves() == 0

    assert bots.claim(game.seats.get(position=0), game), "the next round may try again"


def test_it_keeps_the_bots_moving_while_the_cache_is_away(monkeypatch, alice):
    game = bot_to_move(alice, timedelta(minutes=1))

    def away(*args, **kwargs):
        raise ConnectionError("the cache is restarting")

    monkeypatch.setattr(cache, "add", away)
    monkeypatch.setattr(cache, "delete", away)

    assert bots.play_bot_moves() == 1
    assert Game.objects.get(pk=game.pk).version > game.version


@pytest.mark.django_db(transaction=True)
def test_it_shares_the_seats_due_between_two_workers_thinking_for_each_once(monkeypatch):
    User = get_user_model()
    hosts = [User.objects.create_user(f"host{n}", f"host{n}@example.com", "x") for n in range(3)]
    games = [bot_to_move(host, timedelta(minutes=1)) for host in hosts for _ in range(2)]
    both_thinking = threading.Barrier(2, timeout=10)
    thought = []  # (worker, seat, version): every thinking of either worker
    local = threading.local()

    def think(seat, game):
        if not getattr(local, "met", False):
            local.met = True
            both_thinking.wait(
                timeout=30
            )  # each worker thinks for its first seat while the other does
        thought.append((threading.current_thread().name, seat.pk, game.version))
        return None, rules.Move.end()

    monkeypatch.setattr(bots, "_think", think)
    monkeypatch.setattr(bots, "_make", lambda seat, game, move: 1)

    def worker():
        try:
            bots.play_bot_moves()
        finally:
            connection.close()

    workers = [threading.Thread(target=worker, name=f"worker{n}") for n in range(2)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(30)

    seats = [(seat, version) for _worker, seat, version in thought]
    assert sorted(seats) == sorted((g.seats.get(position=0).pk, g.version) for g in games)
    assert {name for name, _seat, _version in thought} == {"worker0", "worker1"}


class FakeClock:
    """bots.time: a monotonic clock that moves only when the worker sleeps or a bot searches."""

    def __init__(self):
        self.now = 1000.0
        self.events = []  # (time, what, host)

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def searching_for(clock, seconds):
    """A bot_move whose strong level searches for `seconds` on `clock`."""

    def think(state, position, level, seed):
        clock.events.append((clock.now, "think", level))
        clock.now += seconds if level == "strong" else 0.0
        return rules.Move.end()

    return think


@pytest.fixture
def clock(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(bots, "time", clock)
    made = bots._make

    def make(seat, game, move):
        clock.events.append((clock.now, "make", seat.user.bot_level))
        return made(seat, game, move)

    def busy_until(deadline):
        clock.now = max(clock.now, deadline)
        clock.events.append((clock.now, "busy until", ""))

    monkeypatch.setattr(bots, "bot_move", searching_for(clock, 0.7))  # the strong level searches
    monkeypatch.setattr(bots, "_make", make)
    monkeypatch.setattr(bots, "_busy_until", busy_until)
    return clock


def test_it_moves_other_bots_while_a_move_waits_for_its_time(clock, alice, dave):
    # dave's strong bot is served first; while its move waits for THINKING_SECONDS from when
    # it began to think, alice's bot, decided at once, moves: the pause holds nobody else back.
    strong = bot_to_move(dave, timedelta(minutes=10), level="strong")
    quick = bot_to_move(alice, timedelta(seconds=2))

    assert bots.play_bot_moves() == 2

    assert moved(strong) and moved(quick)
    start = clock.events[0][0]
    when = [(round(t - start, 6), what, level) for t, what, level in clock.events]
    assert when == [
        (0.0, "think", "strong"),
        (search.TIME_LIMIT, "busy until", ""),
        (bots.SEARCH_SECONDS, "think", "random"),
        (bots.SEARCH_SECONDS, "make", "random"),
        (bots.THINKING_SECONDS, "make", "strong"),
    ]


@pytest.mark.parametrize("searched", [0.0, 0.3, 0.7])
def test_nothing_the_worker_does_after_a_search_tells_how_long_it_ran(
    clock, monkeypatch, alice, dave, searched
):
    # The search ends at once with one candidate move and runs to its limit with many: the
    # next bot's move, at another table, must come at the same time whatever it ran.
    monkeypatch.setattr(bots, "bot_move", searching_for(clock, searched))
    bot_to_move(dave, timedelta(minutes=10), level="strong")
    bot_to_move(alice, timedelta(seconds=2))

    assert bots.play_bot_moves() == 2

    start = clock.events[0][0]
    made = {level: round(t - start, 6) for t, what, level in clock.events if what == "make"}
    assert made == {"random": bots.SEARCH_SECONDS, "strong": bots.THINKING_SECONDS}
    # Nor does the load it puts on the machine: busy as a search until its time limit.
    [busy] = [round(t - start, 6) for t, what, _level in clock.events if what == "busy until"]
    assert busy == search.TIME_LIMIT


def test_keeping_busy_works_until_its_deadline_without_sleeping(monkeypatch):
    class Ticking:
        """A clock that moves a millisecond each time it is read, and cannot sleep."""

        now, reads = 1000.0, 0

        def monotonic(self):
            self.reads += 1
            self.now += 0.001
            return self.now

    clock = Ticking()
    monkeypatch.setattr(bots, "time", clock)

    bots._busy_until(1000.05)

    assert clock.now >= 1000.05 and clock.reads >= 50, "it worked (and looked) until the end"


def test_it_begins_no_search_while_a_move_waits(clock, alice, dave):
    # A search would make the waiting move late by as long as it ran, which its hand decides.
    first = bot_to_move(dave, timedelta(minutes=10), level="strong")
    second = bot_to_move(alice, timedelta(seconds=2), level="strong")

    assert bots.play_bot_moves() == 2

    assert moved(first) and moved(second)
    start = clock.events[0][0]
    when = [(round(t - start, 6), what) for t, what, _level in clock.events]
    thinking, limit = bots.THINKING_SECONDS, search.TIME_LIMIT
    assert when == [
        (0.0, "think"),
        (limit, "busy until"),
        (thinking, "make"),
        (thinking, "think"),
        (round(thinking + limit, 6), "busy until"),
        (2 * thinking, "make"),
    ]


def test_it_gives_back_the_claims_of_moves_it_could_not_make(clock, monkeypatch, alice):
    # The database away in the middle of a round: the waiting move is not made, and its seat
    # is free for the next round at once, not after CLAIM_SECONDS.
    game = bot_to_move(alice, timedelta(minutes=1), level="strong")
    seats = bots.due_bot_seats

    def failing_after_the_first(*args, **kwargs):
        if clock.events:
            raise OperationalError("the database restarts")
        return seats(*args, **kwargs)

    monkeypatch.setattr(bots, "due_bot_seats", failing_after_the_first)

    with pytest.raises(OperationalError):
        bots.play_bot_moves()

    assert not moved(game)
    assert bots.claim(game.seats.get(position=0), game), "the claim was given back"
