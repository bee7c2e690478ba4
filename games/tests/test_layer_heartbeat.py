"""A process's heartbeat on the channel layer (games.live.sockets.watch_layer).

Production's layer (channels-redis's pub/sub layer) never fails a socket's
read while Redis is away: the heartbeat is how the sockets learn of it, and
of its coming back (the outage tests in test_faults.py play it whole).
"""

import asyncio
import logging

import pytest
from channels.layers import InMemoryChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError

from config.mailbox import Mailbox
from games.live import sockets

# No database, no Redis: the same on either set-up.
pytestmark = pytest.mark.one_database


class Flaky(InMemoryChannelLayer):
    """Channels' in-memory layer whose sends fail, as Redis's do, while it is `away`."""

    away = False

    async def send(self, channel, message):
        if self.away:
            raise ConnectionError("Redis went away")
        await super().send(channel, message)


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(sockets, "LAYER_RETRY_SECONDS", 0.02)


async def until(condition, seconds=2.0):
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not within the time")


async def test_it_tells_every_socket_when_the_layer_fails_and_marks_it_back(
    quick, monkeypatch, caplog
):
    inbox = Mailbox()
    monkeypatch.setattr(sockets, "_inboxes", {inbox})
    layer = Flaky()
    loop = asyncio.get_running_loop()
    watcher = asyncio.ensure_future(sockets.watch_layer(layer))
    try:
        await asyncio.sleep(0.1)
        assert loop not in sockets._down and inbox.qsize() == 0  # beating: nobody told

        layer.away = True
        await until(lambda: loop in sockets._down)
        assert await asyncio.wait_for(inbox.get(), 1) is sockets.LAYER_FAILED
        await until(lambda: inbox.qsize() >= 3)  # beats go on failing, each told

        layer.away = False
        await until(lambda: loop not in sockets._down)
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
    assert loop not in sockets._down
    # The operator reads one line when it fails and one when it is back, not one a beat.
    said = [r.getMessage() for r in caplog.records if r.name == sockets.__name__]
    assert said == [
        "The channel layer failed its heartbeat; telling the sockets",
        "The channel layer answers its heartbeat again",
    ]


def test_the_pub_sub_readers_traceback_of_a_lost_redis_is_left_out_and_no_other(caplog):
    reader = logging.getLogger("channels_redis.pubsub")  # channels-redis logs it so each second
    for error in (ConnectionError("Connection lost"), RedisConnectionError("gone"), ValueError()):
        try:
            raise error
        except Exception:
            reader.exception("Unexpected exception in receive task")

    logged = [r.exc_info[0] for r in caplog.records if r.name == "channels_redis.pubsub"]
    assert logged == [ValueError]


async def test_a_beat_that_never_comes_back_counts_as_a_failure(quick, monkeypatch):
    inbox = Mailbox()
    monkeypatch.setattr(sockets, "_inboxes", {inbox})

    class Deaf(InMemoryChannelLayer):
        async def send(self, channel, message):
            pass  # sent into the void: Redis up, the subscriptions not yet back

    loop = asyncio.get_running_loop()
    watcher = asyncio.ensure_future(sockets.watch_layer(Deaf()))
    try:
        await until(lambda: loop in sockets._down)
        assert await asyncio.wait_for(inbox.get(), 1) is sockets.LAYER_FAILED
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)


async def test_while_the_layer_is_away_from_the_start_it_makes_no_channel(quick, monkeypatch):
    # The pub/sub layer keeps a queue for each new_channel that fails (channels-redis
    # 4.3.0): a heartbeat started during an outage must not try one a beat.
    monkeypatch.setattr(sockets, "_inboxes", set())
    layer = Flaky()
    layer.away = True
    tried = []

    async def new_channel(prefix="specific."):
        tried.append(layer.away)
        if layer.away:
            raise ConnectionError("Redis went away")
        return await InMemoryChannelLayer.new_channel(layer, prefix)

    layer.new_channel = new_channel
    loop = asyncio.get_running_loop()
    watcher = asyncio.ensure_future(sockets.watch_layer(layer))
    try:
        await until(lambda: loop in sockets._down)
        await asyncio.sleep(0.1)  # several beats
        assert tried == []

        layer.away = False
        await until(lambda: loop not in sockets._down)
        assert tried == [False]
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)


def test_a_socket_asks_no_group_of_a_layer_its_heartbeat_finds_away(monkeypatch):
    # Each ask of a Redis that hangs would hold the process's socket thread for its bound.
    asked = []

    class Counting(InMemoryChannelLayer):
        async def group_add(self, group, channel):
            asked.append(group)

    socket = sockets.SelfChecking()
    socket.loop, socket.channel_layer, socket.channel_name = object(), Counting(), "its-channel"
    monkeypatch.setattr(sockets, "_down", {socket.loop})

    with pytest.raises(sockets.LayerAway):
        socket.join_group("game-abc")
    assert asked == []
    assert isinstance(sockets.LayerAway(), sockets.LAYER_ERRORS)  # handled as a failure

    monkeypatch.setattr(sockets, "_down", set())
    socket.join_group("game-abc")
    assert asked == ["game-abc"]
