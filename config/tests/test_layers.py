"""The embedded channel layer (config/layers.py) keeps the in-memory layer's promises, leaner."""

import asyncio
import threading
import tracemalloc
from functools import partial

import pytest
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from config import layers
from config.layers import LeanChannelLayer
from config.mailbox import Mailbox


async def test_it_hands_a_message_to_the_receive_waiting_for_it():
    layer = LeanChannelLayer()
    channel = await layer.new_channel()
    receiving = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(0)

    await layer.send(channel, {"type": "game.updated", "version": 1})

    assert await asyncio.wait_for(receiving, 1) == {"type": "game.updated", "version": 1}
    assert layer.channels == {} and layer.waiting == {}  # nothing left behind


async def test_it_keeps_messages_in_order_until_they_are_received():
    layer = LeanChannelLayer()
    channel = await layer.new_channel()
    for version in (1, 2, 3):
        await layer.send(channel, {"type": "game.updated", "version": version})

    got = [(await layer.receive(channel))["version"] for _ in range(3)]

    assert got == [1, 2, 3]
    assert layer.channels == {}


async def test_a_message_sent_is_a_copy():
    layer = LeanChannelLayer()
    channel = await layer.new_channel()
    message = {"type": "chat.message", "ids": [1]}
    await layer.send(channel, message)
    message["ids"].append(2)

    assert await layer.receive(channel) == {"type": "chat.message", "ids": [1]}


async def test_a_full_channel_refuses_a_send_and_a_group_send_skips_it():
    layer = LeanChannelLayer(capacity=2)
    full, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table", full)
    await layer.group_add("table", other)
    await layer.send(full, {"type": "a"})
    await layer.send(full, {"type": "b"})

    with pytest.raises(ChannelFull):
        await layer.send(full, {"type": "c"})
    await layer.group_send("table", {"type": "d"})

    assert [(await layer.receive(full))["type"] for _ in range(2)] == ["a", "b"]
    assert (await layer.receive(other))["type"] == "d"


async def test_it_sends_to_every_channel_of_a_group_and_none_after_a_discard():
    layer = LeanChannelLayer()
    staying, leaving = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table", staying)
    await layer.group_add("table", leaving)
    await layer.group_discard("table", leaving)

    await layer.group_send("table", {"type": "game.updated"})

    assert await layer.receive(staying) == {"type": "game.updated"}
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(leaving), 0.2)


async def test_an_expired_message_is_dropped_and_its_channel_leaves_its_groups(monkeypatch):
    layer = LeanChannelLayer(expiry=10)
    dead, alive = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table", dead)
    await layer.group_add("table", alive)
    now = [1000.0]
    monkeypatch.setattr(layers.time, "time", lambda: now[0])
    await layer.send(dead, {"type": "old"})

    now[0] += 11
    await layer.group_send("table", {"type": "new"})  # cleans: the old message expired

    assert dead not in layer.groups["table"]
    assert await layer.receive(alive) == {"type": "new"}
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(dead), 0.2)


async def test_a_receive_never_returns_an_expired_message(monkeypatch):
    layer = LeanChannelLayer(expiry=10)
    channel = await layer.new_channel()
    now = [1000.0]
    monkeypatch.setattr(layers.time, "time", lambda: now[0])
    await layer.send(channel, {"type": "old"})
    layer.cleaned_at = now[0] + 100  # no cleaning round in between: the receive itself checks
    now[0] += 11
    await layer.send(channel, {"type": "new"})

    assert await layer.receive(channel) == {"type": "new"}


async def test_a_group_membership_expires(monkeypatch):
    layer = LeanChannelLayer(group_expiry=100)
    channel = await layer.new_channel()
    now = [1000.0]
    monkeypatch.setattr(layers.time, "time", lambda: now[0])
    await layer.group_add("table", channel)

    now[0] += 101
    await layer.group_send("table", {"type": "game.updated"})

    assert channel not in layer.groups["table"]
    assert layer.channels == {}


async def test_a_message_handed_to_a_cancelled_receive_goes_to_the_next_one():
    layer = LeanChannelLayer()
    channel = await layer.new_channel()
    receiving = asyncio.create_task(layer.receive(channel))
    await asyncio.sleep(0)

    await layer.send(channel, {"type": "game.updated"})  # handed over ...
    receiving.cancel()  # ... and the receive cancelled before it ran again
    with pytest.raises(asyncio.CancelledError):
        await receiving

    assert await asyncio.wait_for(layer.receive(channel), 1) == {"type": "game.updated"}


async def held_while_waiting(waits, count):
    """Return the memory (bytes) held per task while `count` tasks of `waits()` wait."""
    tracemalloc.start()
    tasks = [asyncio.create_task(wait()) for wait in waits]
    await asyncio.sleep(0)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return held / count


async def test_a_waiting_socket_holds_far_less_than_with_channels_own_layer():
    async def held_by_waiting_receives(layer, count):
        channels = [await layer.new_channel() for _ in range(count)]
        return await held_while_waiting([partial(layer.receive, c) for c in channels], count)

    lean = await held_by_waiting_receives(LeanChannelLayer(), 200)
    channels_own = await held_by_waiting_receives(InMemoryChannelLayer(), 200)

    assert lean < channels_own - 2000  # the asyncio.Queue a channel no longer has


async def attached(capacity=100):
    """Return (layer, channel, inbox): a channel attached to its socket's inbox, in a group."""
    layer = LeanChannelLayer(capacity=capacity)
    channel = await layer.new_channel()
    inbox = Mailbox()
    layer.attach(channel, inbox)
    await layer.group_add("table", channel)
    return layer, channel, inbox


async def test_an_attached_channel_is_delivered_into_its_sockets_inbox():
    layer, channel, inbox = await attached()

    await layer.group_send("table", {"type": "game.updated", "version": 1})
    await layer.send(channel, {"type": "game.updated", "version": 2})

    assert [(await inbox.get())["version"] for _ in range(2)] == [1, 2]
    assert layer.channels == {} and layer.waiting == {}  # nothing kept in the layer


async def test_an_attached_channel_keeps_its_capacity():
    layer, channel, inbox = await attached(capacity=2)
    for version in (1, 2):
        await layer.send(channel, {"type": "game.updated", "version": version})

    with pytest.raises(ChannelFull):
        await layer.send(channel, {"type": "game.updated", "version": 3})
    await layer.group_send("table", {"type": "game.updated", "version": 4})  # skipped, as before

    assert inbox.qsize() == 2


async def test_a_detached_channel_is_no_longer_delivered_to_its_inbox():
    layer, channel, inbox = await attached()
    layer.detach(channel, inbox)

    await layer.send(channel, {"type": "game.updated", "version": 1})

    assert inbox.qsize() == 0
    assert (await layer.receive(channel))["version"] == 1  # kept for a receive, as any channel


async def test_a_thread_sends_to_a_group_through_the_sockets_loop_without_waiting():
    layer, channel, inbox = await attached()
    sent = []

    def from_a_thread():
        for version in (1, 2):
            sent.append(
                layer.group_send_soon("table", {"type": "game.updated", "version": version})
            )

    thread = threading.Thread(target=from_a_thread)
    thread.start()
    thread.join(5)  # the loop is held meanwhile: a thread waiting for it would never end

    assert not thread.is_alive() and sent == [True, True]
    assert inbox.qsize() == 0  # delivered by the loop, once it runs again
    assert [(await inbox.get())["version"] for _ in range(2)] == [1, 2]


async def test_it_sends_nothing_soon_without_one_running_loop_of_attached_sockets():
    layer = LeanChannelLayer()
    await layer.group_add("table", await layer.new_channel())  # read by receive: not attached
    assert layer.group_send_soon("table", {"type": "game.updated"}) is False

    layer, channel, inbox = await attached()
    # A socket of another loop, while this one runs: a thread cannot tell which loop to use.
    elsewhere = threading.Thread(target=asyncio.run, args=(attach_in(layer, Mailbox()),))
    elsewhere.start()
    elsewhere.join(5)

    assert layer.group_send_soon("table", {"type": "game.updated"}) is False
    await asyncio.sleep(0.01)
    assert inbox.qsize() == 0  # the caller sends as usual instead


async def attach_in(layer, inbox):
    layer.attach(await layer.new_channel(), inbox)


async def test_a_group_nobody_is_in_is_sent_to_at_once_without_a_loop():
    """Nothing to deliver: no hop to a loop (there may be none), and no error."""
    layer = LeanChannelLayer()
    assert layer.group_send_soon("table", {"type": "game.updated"}) is True

    layer, channel, inbox = await attached()
    await layer.group_discard("table", channel)
    assert layer.group_send_soon("table", {"type": "game.updated"}) is True
    await asyncio.sleep(0.01)
    assert inbox.qsize() == 0
