"""The lobby socket: the open tables list and the waiting rooms, live."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from config.asgi import application
from games.models import Invitation
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://localhost")


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def socket_headers(client):
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    return [ORIGIN, (b"cookie", cookies.encode())]


async def connect(path, client=None):
    headers = await sync_to_async(socket_headers)(client) if client else [ORIGIN]
    communicator = WebsocketCommunicator(application, path, headers)
    connected, _code = await communicator.connect()
    return communicator, connected


async def test_it_sends_the_new_list_when_a_table_is_created(alice, bob):
    bob_client = await sync_to_async(logged_in)(bob)
    socket, connected = await connect("/ws/lobby/", bob_client)
    try:
        assert connected
        first = await socket.receive_from(timeout=5)
        assert 'id="open-tables"' in first and "No open tables right now" in first

        alice_client = await sync_to_async(logged_in)(alice)
        await sync_to_async(alice_client.post)(
            reverse("lobby:create"),
            {
                "seat_count": "4",
                "pace": "live",
                "pace_seconds": "60",
                "pace_days": "3",
                "reserve_days": "3",
            },
        )

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert html.lstrip().startswith('<section id="open-tables"')
    assert 'hx-swap-oob="true"' in html
    assert "Alice Liddell" in html
    assert "1 / 4" in html


async def test_it_sends_forms_with_a_csrf_token_matching_the_cookie(bob, alice):
    game = await sync_to_async(open_table)(alice)
    bob_client = await sync_to_async(logged_in)(bob)
    # The page sets the CSRF cookie, as a browser's first visit would.
    await sync_to_async(bob_client.get)(reverse("lobby:home"))
    socket, connected = await connect("/ws/lobby/", bob_client)
    try:
        assert connected
        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert 'name="csrfmiddlewaretoken"' in html
    token = html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.cookies = bob_client.cookies
    response = await sync_to_async(csrf_client.post)(
        reverse("lobby:join", args=[game.code]), {"csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert await sync_to_async(game.seat_of)(bob) == 1


async def test_it_sends_each_waiting_room_its_seats(alice, bob):
    game = await sync_to_async(open_table)(alice)
    alice_client = await sync_to_async(logged_in)(alice)
    socket, connected = await connect(f"/ws/lobby/{game.code}/", alice_client)
    try:
        assert connected
        first = await socket.receive_from(timeout=5)
        assert "1 of 3 seats taken" in first

        bob_client = await sync_to_async(logged_in)(bob)
        await sync_to_async(bob_client.post)(reverse("lobby:join", args=[game.code]))

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert html.lstrip().startswith('<section id="room"')
    assert 'hx-swap-oob="true"' in html
    assert "2 of 3 seats taken" in html
    assert "bob" in html
    assert reverse("lobby:start", args=[game.code]) in html  # rendered for alice, the host


async def test_it_tells_the_host_at_once_of_a_declined_invitation(alice, bob, charlie):
    game = await sync_to_async(open_table)(alice, charlie)
    await sync_to_async(Invitation.objects.create)(game=game, user=bob, invited_by=alice)
    alice_client, charlie_client = [
        await sync_to_async(logged_in)(user) for user in (alice, charlie)
    ]
    host, connected = await connect(f"/ws/lobby/{game.code}/", alice_client)
    player, player_connected = await connect(f"/ws/lobby/{game.code}/", charlie_client)
    try:
        assert connected and player_connected
        first = await host.receive_from(timeout=5)
        assert '<p class="invited" id="invited" hx-swap-oob="true">Invited: bob</p>' in first
        assert 'id="invited"' not in await player.receive_from(timeout=5)  # the host's alone

        bob_client = await sync_to_async(logged_in)(bob)
        await sync_to_async(bob_client.post)(reverse("lobby:decline", args=[game.code]))

        html = await host.receive_from(timeout=5)
    finally:
        await host.disconnect()
        await player.disconnect()

    assert "Invited: bob (declined)" in html


async def test_it_sends_the_waiting_room_to_the_game_when_it_starts(alice, bob):
    game = await sync_to_async(open_table)(alice, bob)
    bob_client = await sync_to_async(logged_in)(bob)
    socket, connected = await connect(f"/ws/lobby/{game.code}/", bob_client)
    try:
        assert connected
        await socket.receive_from(timeout=5)

        alice_client = await sync_to_async(logged_in)(alice)
        await sync_to_async(alice_client.post)(reverse("lobby:start", args=[game.code]))

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert "The game has started." in html
    assert f'hx-get="{reverse("lobby:table", args=[game.code])}" hx-trigger="load"' in html


async def test_it_refuses_an_outsider_the_socket_of_a_private_table(alice, charlie):
    game = await sync_to_async(open_table)(alice, private=True)
    charlie_client = await sync_to_async(logged_in)(charlie)

    socket, connected = await connect(f"/ws/lobby/{game.code}/", charlie_client)
    await socket.disconnect()

    assert not connected


async def test_it_refuses_a_socket_without_an_allowed_origin():
    communicator = WebsocketCommunicator(application, "/ws/lobby/", [(b"origin", b"http://evil")])
    connected, _code = await communicator.connect()
    await communicator.disconnect()

    assert not connected
