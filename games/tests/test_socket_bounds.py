"""Sockets are bounded: per user, per address; anonymous visitors get no lobby socket.

A socket over a bound is refused at its handshake (the page tries again after
a growing delay); its slots live in the cache and expire when nobody renews
them (a server process that died).
"""

import asyncio
from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from config.asgi import application
from config.mailbox import MOST_FRAMES_WAITING
from games.live.sockets import (
    SESSION_ENDED,
    SOCKET_FLOODED,
    SOCKETS_FULL,
    claim_slots,
    owners,
    slot_seconds,
)
from games.models import Game
from lobby.tests.test_consumer import logged_in, socket_headers

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://localhost")


async def open_socket(path, user=None, address="203.0.113.7"):
    """Connect to `path` as `user` from `address`; return (communicator, connected, code)."""
    headers = [ORIGIN]
    if user is not None:
        headers = await sync_to_async(socket_headers)(await sync_to_async(logged_in)(user))
    communicator = WebsocketCommunicator(application, path, headers)
    communicator.scope["client"] = [address, 50000]
    connected, code = await communicator.connect(timeout=5)
    return communicator, connected, code


async def test_it_closes_an_anonymous_visitors_lobby_socket_at_once():
    # Accepted only to be told the session ended (4401), with nothing drawn.
    socket, connected, _code = await open_socket("/ws/lobby/")
    try:
        assert connected
        closing = await socket.receive_output(timeout=5)
    finally:
        await socket.disconnect()

    assert closing == {"type": "websocket.close", "code": SESSION_ENDED}


async def test_it_refuses_a_users_socket_over_the_bound(alice, settings, table_game):
    settings.SOCKETS_PER_USER = 2
    opened = []
    try:
        for path in ("/ws/lobby/", f"/ws/games/{table_game.code}/"):
            socket, connected, _code = await open_socket(path, alice)
            opened.append(socket)
            assert connected
        third, connected, code = await open_socket("/ws/me/", alice)
        opened.append(third)

        assert not connected and code == SOCKETS_FULL
    finally:
        for socket in opened:
            await socket.disconnect()


async def test_it_frees_a_slot_when_a_socket_closes(alice, settings):
    settings.SOCKETS_PER_USER = 1
    first, connected, _code = await open_socket("/ws/me/", alice)
    assert connected
    await first.receive_from(timeout=5)
    await first.disconnect()

    second, connected, _code = await open_socket("/ws/me/", alice)
    try:
        assert connected
        assert "nav-badges" in await second.receive_from(timeout=5)
    finally:
        await second.disconnect()


async def test_it_bounds_the_sockets_of_one_address_across_users(alice, bob, charlie, settings):
    settings.SOCKETS_PER_ADDRESS = 2
    opened = []
    try:
        for user in (alice, bob):
            socket, connected, _code = await open_socket("/ws/me/", user, "198.51.100.1")
            opened.append(socket)
            assert connected
        same, connected_same, code = await open_socket("/ws/me/", charlie, "198.51.100.1")
        opened.append(same)
        elsewhere, connected, _code = await open_socket("/ws/me/", charlie, "198.51.100.2")
        opened.append(elsewhere)

        assert not connected_same and code == SOCKETS_FULL
        assert connected and "nav-badges" in await elsewhere.receive_from(timeout=5)
    finally:
        for socket in opened:
            await socket.disconnect()


async def test_nobody_sharing_the_address_keeps_a_player_off_their_own_table(
    alice, bob, charlie, settings, table_game
):
    # charlie's sockets fill the address's slots (one account, here; accounts
    # enough at a school or behind a carrier's NAT): alice, who sits at the
    # table, still gets its socket; charlie, who only watches, does not. The
    # players' second set of slots is bounded as the first: bob, seated too, finds
    # it full (accounts in games of their own cannot open sockets without end).
    settings.SOCKETS_PER_ADDRESS = 1
    shared = "198.51.100.1"
    path = f"/ws/games/{table_game.code}/"
    opened = []
    try:
        filler, connected, _code = await open_socket("/ws/me/", charlie, shared)
        opened.append(filler)
        assert connected
        player, player_connected, _code = await open_socket(path, alice, shared)
        opened.append(player)
        watcher, watcher_connected, code = await open_socket(path, charlie, shared)
        opened.append(watcher)

        other_player, other_connected, other_code = await open_socket(path, bob, shared)
        opened.append(other_player)

        assert player_connected and "hand" in await player.receive_from(timeout=5)
        assert not watcher_connected and code == SOCKETS_FULL
        assert not other_connected and other_code == SOCKETS_FULL
    finally:
        for socket in opened:
            await socket.disconnect()


async def test_a_players_own_bound_still_holds_at_their_table(alice, settings, table_game):
    settings.SOCKETS_PER_ADDRESS = 1
    settings.SOCKETS_PER_USER = 1
    path = f"/ws/games/{table_game.code}/"
    first, connected, _code = await open_socket(path, alice)
    second, second_connected, code = await open_socket(path, alice)
    try:
        assert connected
        assert not second_connected and code == SOCKETS_FULL
    finally:
        await first.disconnect()
        await second.disconnect()


async def test_a_table_not_started_gets_no_players_slots(alice, bob, charlie, settings):
    settings.SOCKETS_PER_ADDRESS = 1
    table = await sync_to_async(Game.objects.create)(host=alice, seat_count=3)
    await sync_to_async(table.join)(alice)
    filler, connected, _code = await open_socket("/ws/me/", charlie)
    try:
        assert connected
        socket, connected, code = await open_socket(f"/ws/games/{table.code}/", alice)
        await socket.disconnect()
        assert not connected and code == SOCKETS_FULL
    finally:
        await filler.disconnect()


def test_it_counts_an_ipv6_network_as_one_address():
    def counted(address):
        return owners({"client": [address, 50000]})

    one = counted("2001:db8:1:2::7")
    assert one == counted("2001:db8:1:2:ffff::1")  # another address of the same /64
    assert one != counted("2001:db8:1:3::7")
    assert counted("::ffff:198.51.100.1") == counted("198.51.100.1")


def test_it_forgets_the_slots_of_a_process_that_died(alice, settings):
    settings.SOCKETS_PER_USER = 1
    # A slot lapses with its cache entry: a cache whose clock travels with the test's
    # (local memory), not Redis's own.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    scope = {"user": alice, "client": ["203.0.113.9", 1]}
    with time_machine.travel("2026-11-02 09:00", tick=False) as traveller:
        held = claim_slots(scope, "dead-socket")  # never released: its process was killed
        assert held and claim_slots(scope, "new-socket") is None

        traveller.shift(timedelta(seconds=slot_seconds() + 1))

        assert claim_slots(scope, "new-socket") is not None


async def test_it_renews_its_slots_at_each_check(alice, settings):
    settings.SOCKETS_PER_USER = 1
    settings.GAME_SOCKET_CHECK_SECONDS = 0.2
    socket, connected, _code = await open_socket("/ws/me/", alice)
    try:
        assert connected
        await socket.receive_from(timeout=5)
        key = f"sockets:user:{alice.pk}:0"
        held_by = cache.get(key)
        cache.touch(key, 1)  # about to expire...

        await socket.receive_nothing(timeout=1.5)  # ...but the checks renew it

        assert cache.get(key) == held_by is not None
    finally:
        await socket.disconnect()


@pytest.fixture
def one_socket_a_user(settings):
    settings.SOCKETS_PER_USER = 1  # before the live server starts: it reads it then


def test_daphne_refuses_the_handshake_of_a_socket_over_the_bound(
    one_socket_a_user, live_asgi_server, alice
):
    # Through Daphne, not a test communicator: a socket accepted and then closed
    # with 1013 crashed there (Autobahn refuses that code from a server).
    import aiohttp

    cookies = dict(socket_headers(logged_in(alice)))[b"cookie"].decode()
    url = live_asgi_server.replace("http://", "ws://") + "/ws/me/"
    headers = {"Origin": live_asgi_server, "Cookie": cookies}

    async def two_sockets():
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(url, headers=headers) as first:
                assert "nav-badges" in (await first.receive(timeout=5)).data
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(url, headers=headers)
                return refused.value.status

    assert asyncio.run(two_sockets()) == 403


async def test_a_socket_whose_client_floods_it_is_closed_and_gives_back_its_slot(alice, settings):
    settings.SOCKETS_PER_USER = 1
    socket, connected, _code = await open_socket("/ws/me/", alice)
    assert connected
    await socket.receive_from(timeout=5)  # its badges

    for n in range(3 * MOST_FRAMES_WAITING):  # faster than it is read
        await socket.send_to(text_data=f"junk {n}")

    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": SOCKET_FLOODED}
    await socket.wait(timeout=5)
    again, connected, _code = await open_socket("/ws/me/", alice)
    await again.disconnect()
    assert connected, "the flooded socket's slot was given back"
