import asyncio

import pytest
from channels.layers import get_channel_layer


async def test_it_delivers_a_group_message_through_the_channel_layer():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("game-smoke", channel)
    try:
        await layer.group_send("game-smoke", {"type": "game.updated", "version": 3})

        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    finally:
        await layer.group_discard("game-smoke", channel)

    assert message == {"type": "game.updated", "version": 3}


async def test_it_stops_delivering_after_group_discard():
    layer = get_channel_layer()
    staying = await layer.new_channel()
    leaving = await layer.new_channel()
    await layer.group_add("game-discard", staying)
    await layer.group_add("game-discard", leaving)
    await layer.group_discard("game-discard", leaving)
    try:
        await layer.group_send("game-discard", {"type": "game.updated", "version": 1})

        assert await asyncio.wait_for(layer.receive(staying), timeout=5) == {
            "type": "game.updated",
            "version": 1,
        }
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(layer.receive(leaving), timeout=0.3)
    finally:
        await layer.group_discard("game-discard", staying)
