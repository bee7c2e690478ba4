"""The worker's rounds: where they run, what stops them, and whose clock they start."""

import asyncio
from datetime import timedelta

import pytest
import time_machine
from django.core.management import CommandError, call_command

from games import rules
from games.models import Game, Move, Seat
from games.play import bots, worker

from .conftest import START

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def make_game(users, **fields):
    game = Game.objects.create(
        host=users[0], seat_count=len(users), pace="live", pace_seconds=60, seed=7, **fields
    )
    for position, user in enumerate(users):
        Seat.objects.create(game=game, user=user, position=position)
    return game.start()


def awaited(game):
    return Seat.objects.get(game=game, deadline__isnull=False)


@pytest.mark.django_db(transaction=True)  # a round closes old connections
def test_it_times_each_timeout_from_when_it_is_made_not_from_when_the_round_began(
    alice, bob, charlie, monkeypatch
):
    with time_machine.travel(START, tick=False) as traveller:
        games = [make_game([alice, bob]), make_game([charlie, bob])]
        traveller.shift(timedelta(seconds=61))  # both deadlines have passed
        default_move = rules.default_move
        slow = []

        def slow_default_move(state, position):
            if not slow:  # the round's first timeout takes 30 s (a busy database, say)
                slow.append(position)
                traveller.shift(timedelta(seconds=30))
            return default_move(state, position)

        monkeypatch.setattr(rules, "default_move", slow_default_move)

        worker.run_round()

    made = sorted(
        Move.objects.filter(cause=Move.Cause.TIMEOUT).values_list("created_at", "game_id")
    )
    assert [at for at, _game in made] == [
        START + timedelta(seconds=61),
        START + timedelta(seconds=91),
    ], "the second timeout is made 30 s after the first"
    for game in games:
        timed_out_at = max(at for at, pk in made if pk == game.pk)
        nxt = awaited(game)
        assert nxt.awaited_since == timed_out_at
        assert nxt.deadline == timed_out_at + timedelta(seconds=60)


@pytest.mark.django_db(transaction=True)
def test_it_starts_the_players_clock_once_the_bot_has_moved_not_while_it_thinks(alice, monkeypatch):
    with time_machine.travel(START, tick=False) as traveller:
        bot = bots.bot_account("basic", 1)
        game = make_game([alice, bot])
        if game.state().current == 0:
            game.play(0, rules.Move.end())
        traveller.shift(bots.PAUSE)

        def slow_bot(state, seat, level, seed):
            traveller.shift(timedelta(seconds=20))  # a long think
            return rules.Move.end()

        monkeypatch.setattr(bots, "bot_move", slow_bot)
        thought_until = START + bots.PAUSE + timedelta(seconds=20)

        worker.run_round()

    game.refresh_from_db()
    assert game.state().current == 0, "the bot ended its turn"
    seat = awaited(game)
    assert seat.position == 0
    assert seat.awaited_since == thought_until
    assert seat.deadline == thought_until + timedelta(seconds=60)


def test_it_refuses_a_looping_worker_beside_a_server_with_the_in_memory_layer(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY
    with pytest.raises(CommandError, match="the server runs the worker itself"):
        call_command("worker")


@pytest.mark.django_db(transaction=True)
def test_it_runs_one_round_by_hand_with_a_warning(settings, capsys):
    settings.CHANNEL_LAYERS = IN_MEMORY
    call_command("worker", "--once")
    assert "cannot pass this round's moves to the browsers" in capsys.readouterr().err


async def test_it_keeps_the_worker_going_after_a_failed_round(monkeypatch):
    rounds = []

    def run_round(report=None):
        rounds.append(1)
        if len(rounds) == 1:
            raise RuntimeError("the database went away")

    monkeypatch.setattr(worker, "run_round", run_round)
    inside = worker.WorkerInServer(interval=0.01)
    inside.start()
    for _ in range(500):
        if len(rounds) >= 3:
            break
        await asyncio.sleep(0.01)
    await asyncio.wait_for(inside.stop(), 10)

    assert len(rounds) >= 3
    assert inside.task.done() and not inside.task.cancelled()


async def test_it_finishes_the_round_under_way_when_the_server_stops(monkeypatch):
    import threading

    started, finished, release = threading.Event(), [], threading.Event()

    def run_round(report=None):
        started.set()
        release.wait(10)
        finished.append(1)

    monkeypatch.setattr(worker, "run_round", run_round)
    inside = worker.WorkerInServer(interval=0.01)
    inside.start()
    await asyncio.to_thread(started.wait, 10)
    stopping = asyncio.ensure_future(inside.stop())
    await asyncio.sleep(0.1)
    assert not stopping.done(), "stop waits for the round under way"
    release.set()
    await asyncio.wait_for(stopping, 10)

    assert finished == [1]


async def test_it_starts_the_next_round_at_once_after_a_busy_one(monkeypatch):
    rounds = []

    def run_round(report=None):
        rounds.append(1)
        return len(rounds) <= 3  # three busy rounds (bots left for the next), then idle

    monkeypatch.setattr(worker, "run_round", run_round)
    inside = worker.WorkerInServer(interval=30)
    inside.start()
    for _ in range(200):
        if len(rounds) >= 4:
            break
        await asyncio.sleep(0.01)
    await asyncio.wait_for(inside.stop(), 40)

    assert len(rounds) == 4, "a busy round waited the interval before the next"


def test_it_says_whether_a_round_did_anything(db, monkeypatch):  # run_round closes old connections
    monkeypatch.setattr(worker, "JOBS", [(lambda: 0, "nothing"), (lambda: 2, "moves")])
    assert worker.run_round() is True
    monkeypatch.setattr(worker, "JOBS", [(lambda: 0, "nothing")])
    assert worker.run_round() is False
