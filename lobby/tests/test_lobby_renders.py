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


async def test_it_draws_a_burst_of_new_tables_once(alice, bob, charlie, half_second):
    socket, connected = await connect("/ws/lobby/", await sync_to_async(logged_in)(charlie))
    try:
        assert connected
        await socket.receive_from(timeout=5)
        for host in (alice, bob) * 5:
            await sync_to_async(open_table)(host)
            await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.updated"})

        html = await socket.receive_from(timeout=5)

        assert html.count("<tr") == 1 + 10  # the heading and every new table, at once
        assert await socket.receive_nothing(timeout=1.0)
    finally:
        await socket.disconnect()


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

    # Alice and bob see a Join button, charlie his own table: two drawings, not three.
    assert drawn == ["lobby/tables.html#open_tables"] * 2
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
