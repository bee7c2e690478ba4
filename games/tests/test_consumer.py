"""The game socket: every connection gets its own user's view, live."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from games.tests.helpers import ALICE, BOB, card_ids

pytestmark = pytest.mark.django_db(transaction=True)


def session_headers(user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [
        (b"origin", b"http://localhost"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]


async def connect(game, user=None):
    headers = (
        await sync_to_async(session_headers)(user) if user else [(b"origin", b"http://localhost")]
    )
    communicator = WebsocketCommunicator(application, f"/ws/games/{game.code}/", headers)
    connected, _code = await communicator.connect()
    return communicator, connected


async def receive(communicator):
    """Return the next board message (who is at the table is told apart: games/chat/socket.py)."""
    while True:
        html = await communicator.receive_from(timeout=5)
        if 'id="presence"' not in html:
            return html


@pytest.fixture
def sockets_game(table_game):
    return table_game


async def test_it_sends_each_seat_its_own_hand_and_never_another(sockets_game, alice, bob):
    state = await sync_to_async(sockets_game.state)()
    alice_socket, alice_in = await connect(sockets_game, alice)
    bob_socket, bob_in = await connect(sockets_game, bob)
    try:
        assert alice_in and bob_in
        alice_html = await receive(alice_socket)
        bob_html = await receive(bob_socket)
    finally:
        await alice_socket.disconnect()
        await bob_socket.disconnect()

    alice_hand, bob_hand = set(state.players[ALICE].hand), set(state.players[BOB].hand)
    assert alice_hand <= card_ids(alice_html) and not card_ids(alice_html) & bob_hand
    assert bob_hand <= card_ids(bob_html) and not card_ids(bob_html) & alice_hand
    for html in (alice_html, bob_html):
        assert not card_ids(html) & set(state.draw)
        for fragment in ("status", "board", "hand", "log"):
            assert f'id="{fragment}"' in html
        assert 'hx-swap-oob="true"' in html


async def test_it_sends_a_spectator_no_hand(sockets_game, charlie):
    state = await sync_to_async(sockets_game.state)()
    socket, connected = await connect(sockets_game, charlie)
    try:
        assert connected
        html = await receive(socket)
    finally:
        await socket.disconnect()

    hands = set(state.players[ALICE].hand) | set(state.players[BOB].hand)
    assert not card_ids(html) & hands
    assert "You are watching this game" in html
    assert 'name="kind"' not in html


async def test_it_brings_a_move_to_every_socket(sockets_game, alice, bob, charlie):
    sockets = []
    try:
        for user in (alice, bob, charlie):
            socket, connected = await connect(sockets_game, user)
            sockets.append(socket)
            assert connected
            assert f'data-version="{sockets_game.version}"' in await receive(socket)
        current = (await sync_to_async(sockets_game.state)()).current

        await sync_to_async(sockets_game.play)(current, {"kind": "end"}, version=1)

        state = await sync_to_async(sockets_game.state)()
        for socket, seat in zip(sockets, (ALICE, BOB, None)):
            html = await receive(socket)
            assert 'data-version="2"' in html
            assert "ended the turn" in html
            others = [p.hand for i, p in enumerate(state.players) if i != seat]
            assert not card_ids(html) & {c for hand in others for c in hand}
            if seat is not None:
                assert set(state.players[seat].hand) <= card_ids(html)
        for socket in sockets:
            assert await socket.receive_nothing(timeout=0.2)
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_heals_a_gap_by_sending_the_whole_board_on_reconnect(sockets_game, alice, bob):
    current = (await sync_to_async(sockets_game.state)()).current
    await sync_to_async(sockets_game.play)(current, {"kind": "end"}, version=1)

    socket, connected = await connect(sockets_game, alice)
    try:
        html = await asyncio.wait_for(receive(socket), 5)
    finally:
        await socket.disconnect()

    assert connected
    assert 'data-version="2"' in html and 'id="board"' in html


@pytest.fixture
def threads_drawing(monkeypatch):
    """Record the broadcasts a socket's thread handled (GameConsumer.game_updated)."""
    from games.live.consumers import GameConsumer

    handled = []
    real = GameConsumer.game_updated

    def recording(self, event):
        handled.append(event["version"])
        return real(self, event)

    monkeypatch.setattr(GameConsumer, "game_updated", recording)
    return handled


async def two_sockets_after_a_move(game, alice, bob):
    """Return the boards alice's and bob's sockets receive after a move."""
    sockets = []
    try:
        for user in (alice, bob):
            socket, _connected = await connect(game, user)
            sockets.append(socket)
            await receive(socket)
        current = (await sync_to_async(game.state)()).current
        await sync_to_async(game.play)(current, {"kind": "end"}, version=1)
        return [await receive(socket) for socket in sockets]
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_draws_a_move_made_in_this_process_on_the_event_loop(
    sockets_game, alice, bob, threads_drawing
):
    boards = await two_sockets_after_a_move(sockets_game, alice, bob)

    assert threads_drawing == []  # no thread: this process remembers what the move saved
    for html in boards:
        assert 'data-version="2"' in html and "ended the turn" in html
    state = await sync_to_async(sockets_game.state)()
    assert set(state.players[ALICE].hand) <= card_ids(boards[0])
    assert not card_ids(boards[1]) & set(state.players[ALICE].hand)


async def test_it_draws_on_the_sockets_thread_what_it_does_not_remember(
    sockets_game, alice, bob, threads_drawing, monkeypatch
):
    from games.table import board
    from games.table.memo import Memo

    # As after a move made in another process: the game's new row is not at hand.
    monkeypatch.setattr(board, "remember", lambda *args: None)
    monkeypatch.setattr(board, "_games", Memo(10))

    boards = await two_sockets_after_a_move(sockets_game, alice, bob)

    assert threads_drawing == [2, 2]  # each socket read the game on its thread
    for html in boards:
        assert 'data-version="2"' in html and "ended the turn" in html
