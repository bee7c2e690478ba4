"""Sockets check themselves now and then: a broadcast they missed cannot leave them behind.

The game socket compares its board's version with the game's; the lobby and
user sockets render their fragment again and send it if it changed.
"""

import asyncio
import re
import time

import pytest
from asgiref.sync import sync_to_async

from config.layers import LeanChannelLayer
from games.live import sockets
from games.models import Notification, broadcasts
from games.tests.test_consumer import connect, receive
from lobby.tests.conftest import open_table
from lobby.tests.test_consumer import connect as connect_lobby, logged_in
from lobby.tests.test_user_socket import connect as connect_user

pytestmark = pytest.mark.django_db(transaction=True)


def version_of(html):
    return int(re.search(r'data-version="(\d+)"', html).group(1))


@pytest.fixture
def quick_checks(settings):
    settings.GAME_SOCKET_CHECK_SECONDS = 0.2


async def test_it_catches_up_with_a_move_whose_broadcast_was_lost(
    table_game, alice, quick_checks, without_broadcasts
):
    socket, connected = await connect(table_game, alice)
    try:
        assert connected
        assert version_of(await receive(socket)) == 1
        current = (await sync_to_async(table_game.state)()).current
        with without_broadcasts():  # as if Redis were down when the move was made
            await sync_to_async(table_game.play)(current, {"kind": "end"}, version=1)

        html = await receive(socket)
    finally:
        await socket.disconnect()

    assert version_of(html) > 1 and 'id="hand"' in html


async def next_board(socket):
    """Return the version of the next board sent, past the notices about the layer."""
    while True:
        html = await receive(socket)
        if 'data-version="' in html:
            return version_of(html)


async def test_it_catches_up_while_the_layer_hangs(
    table_game, alice, quick_checks, without_broadcasts, monkeypatch
):
    # A Redis that hangs rather than stops: its calls never return. The check sends the
    # board before it tries the group again, and gives the try up after its bound.
    socket, connected = await connect(table_game, alice)
    try:
        assert connected
        assert version_of(await receive(socket)) == 1

        async def hang(self, *args):
            await asyncio.sleep(3600)  # never answers, as a hung Redis

        monkeypatch.setattr(broadcasts, "LAYER_CALL_SECONDS", 0.1, raising=False)
        monkeypatch.setattr(LeanChannelLayer, "group_add", hang)
        current = (await sync_to_async(table_game.state)()).current
        with without_broadcasts():
            await sync_to_async(table_game.play)(current, {"kind": "end"}, version=1)
        first = await next_board(socket)
        current = (await sync_to_async(table_game.state)()).current
        with without_broadcasts():
            await sync_to_async(table_game.play)(current, {"kind": "end"}, version=first)
        second = await next_board(socket)  # the thread was not held by the first try
    finally:
        await socket.disconnect()

    assert 1 < first < second


async def test_a_move_made_while_the_check_joins_its_group_is_not_missed(
    table_game, alice, settings, without_broadcasts, monkeypatch
):
    # Its broadcast goes to a group the socket is not in yet (after a Redis restart): the
    # check must read the version after its join, or the move waits for the next check.
    settings.GAME_SOCKET_CHECK_SECONDS = 2
    real_join = sockets.SelfChecking.join_group
    joins, moved_at = [], []

    def join_group(self, group):
        joins.append(group)
        if len(joins) == 2:  # the first check's, after the connect's
            with without_broadcasts():
                table_game.play(table_game.state().current, {"kind": "end"}, version=1)
            moved_at.append(time.monotonic())
        return real_join(self, group)

    monkeypatch.setattr(sockets.SelfChecking, "join_group", join_group)
    socket, connected = await connect(table_game, alice)
    try:
        assert connected and version_of(await receive(socket)) == 1
        html = await receive(socket)
        received_at = time.monotonic()
    finally:
        await socket.disconnect()

    assert version_of(html) == 2
    assert received_at - moved_at[0] < 1.0  # by that check, not the next


async def test_it_sends_nothing_when_its_board_is_current(table_game, alice, quick_checks):
    socket, connected = await connect(table_game, alice)
    try:
        assert connected
        await receive(socket)

        assert await socket.receive_nothing(timeout=0.8)
    finally:
        await socket.disconnect()


async def test_the_lobby_socket_sends_a_table_whose_broadcast_was_lost(alice, bob, quick_checks):
    socket, connected = await connect_lobby("/ws/lobby/", await sync_to_async(logged_in)(bob))
    try:
        assert connected
        assert "No open tables right now" in await receive(socket)
        # Made without a broadcast, as if Redis were down.
        await sync_to_async(open_table)(alice)

        html = await receive(socket)
        assert 'id="open-tables"' in html and "No open tables right now" not in html
        assert html.count("<tr") == 2  # the heading and alice's table
        # Once current, the checks send nothing more.
        assert await socket.receive_nothing(timeout=0.8)
    finally:
        await socket.disconnect()


async def test_the_user_socket_sends_badges_whose_broadcast_was_lost(alice, bob, quick_checks):
    game = await sync_to_async(open_table)(alice, bob, seat_count=2)
    socket, connected = await connect_user(bob)
    try:
        assert connected
        assert 'class="badge"' not in await receive(socket)
        assert await socket.receive_nothing(timeout=0.8)
        await Notification.objects.acreate(user=bob, game=game, kind=Notification.Kind.ENDED)

        html = await receive(socket)
    finally:
        await socket.disconnect()

    assert '<span class="visually-hidden">1 unread notification</span>' in html


async def closed_with(socket):
    """Return the close code the socket gets, skipping what it is sent before."""
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output.get("code")


@pytest.mark.parametrize("ending", ["password changed", "logged out"])
async def test_it_closes_a_socket_whose_session_has_ended(
    table_game, alice, bob, quick_checks, ending
):
    """Someone who stole the cookie keeps no open socket (a hand, moves) once the owner acts."""
    from django.contrib.sessions.models import Session

    from games.live.sockets import SESSION_ENDED

    socket, connected = await connect(table_game, alice)
    other, _ = await connect(table_game, bob)
    try:
        assert connected
        await receive(socket)
        await receive(other)

        def end_session():
            if ending == "password changed":
                alice.set_password("a-new-long-secret-42")
                alice.save()
            else:
                Session.objects.all().delete()  # logging out deletes the session row
                return

        await sync_to_async(end_session)()

        assert await closed_with(socket) == SESSION_ENDED
        if ending == "password changed":  # bob's session lasts: his socket stays open
            await asyncio.sleep(1)  # five checks
            while not await other.receive_nothing(timeout=0.1):
                assert (await other.receive_output())["type"] == "websocket.send"
    finally:
        await socket.disconnect()
        await other.disconnect()
