"""The lobby socket draws a burst of changes once, and the open tables once for all its sockets."""

import asyncio
import secrets

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from games.models import LOBBY_GROUP, Game
from lobby import consumers
from lobby.tests.conftest import open_table
from lobby.tests.test_consumer import connect, logged_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def half_second(settings):
    settings.LOBBY_RENDER_SECONDS = 0.5


BARRIER = "lobby.barrier"  # a message only the hub reads, which it ignores


@pytest.fixture
def hub_reads(monkeypatch):
    """Return {barrier id: asyncio.Event}: each set once the lobby hub has read that barrier.

    The channel layer's receive is wrapped before the test's first socket starts
    the hub (the root conftest.py gives every test a fresh layer and hub).
    """
    layer = get_channel_layer()
    barriers = {}
    real = layer.receive

    async def receive(channel):
        message = await real(channel)
        if message.get("type") == BARRIER:
            barriers[message["id"]].set()
        return message

    monkeypatch.setattr(layer, "receive", receive)
    return barriers


async def sent_until(socket, arrived, hub_reads, timeout=10):
    """Return the frames `socket` receives until `arrived(their text)` holds, and all the hub
    sends it after them for the changes made so far.

    The hub reads its channel in order: once it has read a barrier sent to the
    lobby group now, it has read every "lobby.updated" sent before, and heard
    each (a flush under way, due or done; LobbyHub.list_changed). Once its flush
    task is done too, every frame it sends for them is on the socket's queue
    (the hub puts each there before going on): those are taken without waiting.
    """
    frames = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    try:
        while not arrived("".join(frames)):
            frames.append(await socket.receive_from(timeout=max(0.0, deadline - loop.time())))
        barrier = secrets.token_hex(8)
        hub_reads[barrier] = asyncio.Event()
        await get_channel_layer().group_send(LOBBY_GROUP, {"type": BARRIER, "id": barrier})
        async with asyncio.timeout(max(0.0, deadline - loop.time())):
            await hub_reads[barrier].wait()
            flush = consumers.HUB.flush_task
            if flush is not None and flush.get_loop() is loop:
                await asyncio.wait([flush])  # not cancelled with this wait
    except TimeoutError:
        pytest.fail(f"Not sent within {timeout} s; sent:\n{''.join(frames)}")
    while not await socket.receive_nothing(timeout=0):
        frames.append(await socket.receive_from())
    return frames


async def test_it_sends_a_burst_of_new_tables_as_rows_not_lists(
    alice, bob, charlie, half_second, hub_reads
):
    first = await sync_to_async(open_table)(charlie)
    socket, connected = await connect("/ws/lobby/", await sync_to_async(logged_in)(charlie))
    try:
        assert connected
        await socket.receive_from(timeout=5)
        games = []
        for host in (alice, bob) * 3:
            games.append(await sync_to_async(open_table)(host))
            await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.updated"})

        frames = await sent_until(
            socket, lambda sent: all(f'id="table-{g.code}"' in sent for g in games), hub_reads
        )
    finally:
        await socket.disconnect()

    # The first change at once, the rest of the burst together: new rows, never the whole list.
    assert 1 <= len(frames) <= 2
    sent = "".join(frames)
    assert 'id="open-tables"' not in sent and "<thead" not in sent
    assert first.code not in sent
    for game in games:
        assert sent.count(f'<tr id="table-{game.code}"') == 1
    assert all(
        frame.startswith('<tbody hx-swap-oob="afterbegin:#open-tables-rows">') for frame in frames
    )


async def test_it_sends_the_rows_that_changed_and_deletes_the_rows_that_went(
    alice, bob, charlie, half_second, hub_reads
):
    joined = await sync_to_async(open_table)(alice)
    started = await sync_to_async(open_table)(bob, alice, seat_count=2)
    socket, connected = await connect("/ws/lobby/", await sync_to_async(logged_in)(charlie))
    try:
        assert connected
        await socket.receive_from(timeout=5)
        await sync_to_async(joined.join)(bob)  # each broadcasts its change
        await sync_to_async(started.start)()

        gone = f'<tr id="table-{started.code}" hx-swap-oob="delete"></tr>'
        changed = f'<tr id="table-{joined.code}" hx-swap-oob="true">'
        sent = "".join(
            await sent_until(socket, lambda sent: gone in sent and changed in sent, hub_reads)
        )
    finally:
        await socket.disconnect()

    assert f'<tr id="table-{started.code}" hx-swap-oob="delete"></tr>' in sent
    assert f'<tr id="table-{joined.code}" hx-swap-oob="true">' in sent
    assert "2 / 3" in sent
    assert "<thead" not in sent


async def test_it_marks_the_new_rows_of_each_socket_for_its_own_user(alice, bob, half_second):
    await sync_to_async(open_table)(bob)
    clients = [await sync_to_async(logged_in)(user) for user in (alice, bob)]
    sockets = [(await connect("/ws/lobby/", client))[0] for client in clients]
    try:
        for socket in sockets:
            await socket.receive_from(timeout=5)
        game = await sync_to_async(open_table)(alice)
        await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.updated"})

        alice_sees, bob_sees = [await socket.receive_from(timeout=5) for socket in sockets]
    finally:
        for socket in sockets:
            await socket.disconnect()

    assert "Your table" in alice_sees and reverse("lobby:join", args=[game.code]) not in alice_sees
    assert "Your table" not in bob_sees and reverse("lobby:join", args=[game.code]) in bob_sees


async def test_it_never_sends_a_private_table(alice, bob, half_second, hub_reads):
    await sync_to_async(open_table)(bob)
    socket, connected = await connect("/ws/lobby/", await sync_to_async(logged_in)(bob))
    try:
        await socket.receive_from(timeout=5)
        private = await sync_to_async(open_table)(alice, bob, private=True)
        public = await sync_to_async(open_table)(alice)
        await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.updated"})

        sent = "".join(await sent_until(socket, lambda sent: public.code in sent, hub_reads))
    finally:
        await socket.disconnect()

    assert public.code in sent
    assert private.code not in sent


async def test_it_draws_the_list_once_for_the_sockets_of_many_users(
    alice, bob, charlie, half_second, monkeypatch
):
    drawn = []
    render = consumers.render_to_string
    monkeypatch.setattr(
        consumers, "render_to_string", lambda *a, **k: drawn.append(a[0]) or render(*a, **k)
    )
    clients = [await sync_to_async(logged_in)(user) for user in (alice, bob, charlie)]
    for client in clients:
        await sync_to_async(client.get)(reverse("lobby:home"))  # the CSRF cookie
    sockets = [(await connect("/ws/lobby/", client))[0] for client in clients]
    try:
        for socket in sockets:
            await socket.receive_from(timeout=5)
        drawn.clear()
        await sync_to_async(open_table)(charlie)
        await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.updated"})

        sent = [await socket.receive_from(timeout=5) for socket in sockets]
    finally:
        for socket in sockets:
            await socket.disconnect()

    # The list and its row (as a guest and as its player) drawn once for the three sockets.
    assert sorted(drawn) == ["lobby/tables.html#open_tables"] + ["lobby/tables.html#table_row"] * 2
    assert "Join" in sent[0] and "Join" in sent[1] and "Your table" in sent[2]
    # Each copy carries its own user's CSRF token, accepted with that user's cookie.
    token = sent[1].split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.cookies = clients[1].cookies
    game_code = sent[1].split("/t/")[1].split("/")[0]
    response = await sync_to_async(csrf_client.post)(
        reverse("lobby:join", args=[game_code]), {"csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    game = await Game.objects.aget(code=game_code)
    assert await sync_to_async(game.seat_of)(bob) is not None
