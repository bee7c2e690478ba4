"""The lobby hub: this process's one member of the lobby group (lobby/consumers.py)."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from lobby import consumers


class Listening:
    """A waiting room's socket, as the hub sees it: it is told of each change."""

    code = "abc123"
    is_gone = False

    def __init__(self):
        self.told = asyncio.Event()

    def lobby_changed(self):
        self.told.set()


async def test_the_hub_hears_a_change_after_quiet_whiles(settings, monkeypatch):
    # Several checks pass with nothing to hear. Redis's pub/sub layer forgot the
    # channel of a receive cancelled at a check, and every later change was lost.
    settings.GAME_SOCKET_CHECK_SECONDS = 0.1
    hub = consumers.LobbyHub()
    monkeypatch.setattr(hub, "list_changed", lambda: None)
    socket = Listening()
    hub.join(socket)
    try:
        await asyncio.sleep(0.5)
        await get_channel_layer().group_send(consumers.LOBBY_GROUP, {"type": "lobby.updated"})
        await asyncio.wait_for(socket.told.wait(), 3)
    finally:
        hub.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await hub.task


@pytest.mark.django_db(transaction=True)
async def test_a_lobby_socket_killed_before_its_disconnect_ran_leaves_the_hub(alice):
    # Daphne cancels an application whose goodbye takes over 10 s.
    from lobby.tests.test_consumer import connect, logged_in

    before = set(consumers.HUB.sockets)
    socket, connected = await connect("/ws/lobby/", await sync_to_async(logged_in)(alice))
    assert connected
    await socket.receive_from(timeout=5)
    await asyncio.sleep(0.05)  # the hub has it
    mine = consumers.HUB.sockets - before
    assert len(mine) == 1

    socket.future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await socket.future

    assert not consumers.HUB.sockets & mine
