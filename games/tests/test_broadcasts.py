"""A move's broadcasts (games.models.broadcasts.send_to_groups): the table and the players' headers.

With a layer that answers over the network (Redis in production) every group
of one move is sent in one hop from the request's thread to the event loop;
one group failing keeps none of the others from hearing.
"""

import asyncio
import logging
import threading

import pytest
from channels.layers import InMemoryChannelLayer

from games import rules
from games.models import broadcasts, group_name, user_group
from games.tests.review_helpers import started_game

pytestmark = pytest.mark.django_db


class Recording(InMemoryChannelLayer):
    """Channels' in-memory layer (no group_send_soon: it waits, as Redis's does), recording."""

    def __init__(self, failing=()):
        super().__init__()
        self.sent = []
        self.failing = set(failing)

    async def group_send(self, group, message):
        if group in self.failing:
            raise ConnectionError("Redis went away")
        self.sent.append((group, message))


@pytest.fixture
def hops(monkeypatch):
    """Count the hops from a thread to the event loop (async_to_sync) the broadcasts make."""
    made = []
    real = broadcasts.async_to_sync

    def counting(function):
        wrapped = real(function)

        def call(*args, **kwargs):
            made.append(function)
            return wrapped(*args, **kwargs)

        return call

    monkeypatch.setattr(broadcasts, "async_to_sync", counting)
    return made


def test_a_move_tells_its_table_and_the_players_whose_turn_changed_in_one_hop(
    alice, bob, monkeypatch, hops, django_capture_on_commit_callbacks
):
    layer = Recording()
    monkeypatch.setattr(broadcasts, "get_channel_layer", lambda: layer)
    game = started_game([alice, bob])
    mover = game.state().current

    with django_capture_on_commit_callbacks(execute=True):
        game.play(mover, {"kind": "end"})

    table = (group_name(game.code), {"type": "game.updated", "version": game.version})
    assert layer.sent[0] == table
    told = {group for group, message in layer.sent[1:] if message == {"type": "user.updated"}}
    # The mover's turn ended and the other's began: both headers change.
    assert told == {user_group(alice.pk), user_group(bob.pk)}
    assert len(hops) == 1


def test_one_group_failing_keeps_none_of_the_others_from_hearing(monkeypatch, hops, caplog):
    layer = Recording(failing={"user-2"})
    monkeypatch.setattr(broadcasts, "get_channel_layer", lambda: layer)
    update = {"type": "user.updated"}

    with caplog.at_level(logging.ERROR, logger=broadcasts.log.name):
        broadcasts.send_to_groups([("user-1", update), ("user-2", update), ("user-3", update)])

    assert layer.sent == [("user-1", update), ("user-3", update)]
    assert "Broadcasting to user-2 failed" in caplog.text
    assert len(hops) == 1
    # A lost Redis in one line (an outage logs many alike); any other failure with its traceback.
    [lost] = caplog.records
    assert lost.exc_info is None and "ConnectionError('Redis went away')" in lost.getMessage()


def test_a_failure_other_than_a_lost_redis_is_logged_with_its_traceback(monkeypatch, caplog):
    class Broken(Recording):
        async def group_send(self, group, message):
            raise TypeError("cannot pack this message")

    monkeypatch.setattr(broadcasts, "get_channel_layer", Broken)

    with caplog.at_level(logging.ERROR, logger=broadcasts.log.name):
        broadcasts.send_to_groups([("user-1", {"type": "user.updated"})])

    [record] = caplog.records
    assert record.exc_info[0] is TypeError


def test_a_layer_that_hangs_holds_a_broadcast_no_longer_than_its_bound(monkeypatch, caplog):
    # A Redis that hangs rather than stops: its sends never return. The move's thread (a
    # socket's: every socket of the process shares it) is held for the bound, not for good.
    class Hung(Recording):
        async def group_send(self, group, message):
            if group in self.failing:
                await asyncio.sleep(3600)  # never answers, as a hung Redis
            self.sent.append((group, message))

    layer = Hung(failing={"user-2"})
    monkeypatch.setattr(broadcasts, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(broadcasts, "LAYER_CALL_SECONDS", 0.2, raising=False)
    update = {"type": "user.updated"}

    sending = threading.Thread(
        target=broadcasts.send_to_groups,
        args=([("user-1", update), ("user-2", update)],),
        daemon=True,  # not left to hold the tests up, should it hang
    )
    with caplog.at_level(logging.ERROR, logger=broadcasts.log.name):
        sending.start()
        sending.join(timeout=5)

    assert not sending.is_alive()
    assert layer.sent == [("user-1", update)]
    [lost] = caplog.records
    assert "Broadcasting to user-2 failed: TimeoutError()" in lost.getMessage()
    assert lost.exc_info is None  # one line, as for a Redis that stopped


def test_a_layer_that_fails_at_once_turns_no_move_into_an_error(monkeypatch, caplog):
    def away():
        raise ConnectionError("Redis went away")

    monkeypatch.setattr(broadcasts, "get_channel_layer", away)

    with caplog.at_level(logging.ERROR, logger=broadcasts.log.name):
        broadcasts.send_to_groups([("user-1", {"type": "user.updated"})])

    assert "Broadcasting to user-1 failed" in caplog.text


def test_the_embedded_layer_delivers_each_group_without_a_hop(monkeypatch, hops):
    sent = []

    class Soon(Recording):
        def group_send_soon(self, group, message):
            sent.append(group)
            return True

    layer = Soon()
    monkeypatch.setattr(broadcasts, "get_channel_layer", lambda: layer)

    broadcasts.send_to_groups([("user-1", {"type": "user.updated"}), ("lobby", {"type": "x"})])

    assert sent == ["user-1", "lobby"] and layer.sent == [] and hops == []


def test_a_play_that_leaves_the_turn_with_its_player_tells_no_header(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    # "Your turn" follows a seat's deadline: the mover is still awaited after a play.
    layer = Recording()
    monkeypatch.setattr(broadcasts, "get_channel_layer", lambda: layer)
    game = started_game([alice, bob])
    mover = game.state().current
    banked = next(m for m in rules.legal_moves(game.state(), mover) if m.kind == "bank")

    with django_capture_on_commit_callbacks(execute=True):
        game.play(mover, banked)

    assert mover in {seat for seat, *_ in rules.awaiting(game.state())}  # two plays left
    assert layer.sent == [
        (group_name(game.code), {"type": "game.updated", "version": game.version})
    ]
