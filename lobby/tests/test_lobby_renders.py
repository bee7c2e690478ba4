"""The lobby socket draws a burst of changes once, and the open tables once for all its sockets."""

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


async def receive_all(socket, quiet=1.0):
    """Return the frames `socket` receives until it has been quiet for `quiet` seconds."""
    frames = []
    while not await socket.receive_nothing(timeout=quiet):
        frames.append(await socket.receive_from())
    return frames


async def test_it_sends_a_burst_of_new_tables_as_rows_not_lists(alice, bob, charlie, half_second):
    first = await sync_to_async(open_table)(charlie)
    socket, connected = await connect("/ws/lobby/", await sync_to_async(logged_in)(charlie))
    try:
        assert connected
        await socket.receive_from(timeout=5)
        games = []
        for host in (alice, bob) * 3:
            games.append(await sync_to_async(open_table)(host))
            await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.updated"})

        frames = await receive_all(socket)
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
    alice, bob, charlie, half_second
):
    joined = await sync_to_async(open_table)(alice)
    started = await sync_to_async(open_table)(bob, alice, seat_count=2)
    socket, connected = await connect("/ws/lobby/", await sync_to_async(logged_in)(charlie))
    try:
        assert connected
        await socket.receive_from(timeout=5)
        await sync_to_async(joined.join)(bob)  # each broadcasts its change
        await sync_to_async(started.start)()

        sent = "".join(await receive_all(socket))
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


async def test_it_never_sends_a_private_table(alice, bob, half_second):
    await sync_to_async(open_table)(bob)
    socket, connected = await connect("/ws/lobby/", await sync_to_async(logged_in)(bob))
    try:
        await socket.receive_from(timeout=5)
        private = await sync_to_async(open_table)(alice, bob, private=True)
        public = await sync_to_async(open_table)(alice)
        await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.updated"})

        sent = "".join(await receive_all(socket))
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
