"""Moves sent over the game socket (games/live/moves.py): the POST's path, without HTTP."""

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games import views
from games.rules.position import card_in
from games.tests.helpers import ALICE, BOB, card_ids, set_position, snapshot_of, state_of
from games.tests.test_consumer import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(game, *users):
    """Return sockets of `users` on `game`, each past its first board."""
    sockets = []
    for user in users:
        socket, connected = await connect(game, user)
        sockets.append(socket)
        assert connected
        await receive(socket)
    return sockets


async def close(sockets):
    for socket in sockets:
        await socket.disconnect()


async def send_move(socket, game, version=None, **fields):
    """Send a move form's fields as htmx-ext-ws does: JSON, with htmx's headers."""
    if version is None:
        await sync_to_async(game.refresh_from_db)()
        version = game.version
    message = {"version": str(version), "HEADERS": {"HX-Request": "true"}}
    message.update(fields)
    await socket.send_to(text_data=json.dumps(message))


async def flash(socket):
    """Return the next message, which must be the flash fragment alone."""
    html = await receive(socket)
    assert html.lstrip().startswith('<div id="flash"') and 'hx-swap-oob="true"' in html
    return html


async def answers_until(socket, last):
    """Return the messages `socket` gets up to the first for which `last(html)` holds.

    A socket answers in order: what came before that message is all it sent before it.
    """
    answers = []
    while not answers or not last(answers[-1]):
        answers.append(await receive(socket))
    return answers


def at_version(version):
    """Return a test of a message: does it show the board at `version` or later?"""
    return lambda html: (
        max(map(int, re.findall(r'data-version="(\d+)"', html)), default=-1) >= version
    )


snapshot = sync_to_async(snapshot_of)
position = sync_to_async(set_position)


async def test_it_makes_a_move_and_every_socket_gets_its_own_board(table_game, alice, bob):
    state = await position(table_game, "alice hand: 5M red\nbob hand: 2M dark_blue")
    money = card_in(state, "alice", "hand", "5M")
    sockets = await opened(table_game, alice, bob)
    try:
        await send_move(sockets[ALICE], table_game, kind="bank", card=str(money))
        boards = [await receive(socket) for socket in sockets]
        for socket in sockets:
            assert await socket.receive_nothing(timeout=0.2)  # no flash, no second board
    finally:
        await close(sockets)

    version = table_game.version
    game_state = await sync_to_async(state_of)(table_game)
    assert money in game_state.players[ALICE].bank
    alice_hand, bob_hand = set(game_state.players[ALICE].hand), set(game_state.players[BOB].hand)
    for html in boards:
        assert f'data-version="{version + 1}"' in html
    assert alice_hand <= card_ids(boards[ALICE]) and not card_ids(boards[ALICE]) & bob_hand
    assert not card_ids(boards[BOB]) & alice_hand


async def test_it_tells_only_the_sender_of_an_illegal_move_and_changes_nothing(
    table_game, alice, bob
):
    state = await position(table_game, "alice hand: red")
    before = await snapshot(table_game)
    sockets = await opened(table_game, alice, bob)
    try:
        red = card_in(state, "alice", "hand", "red")
        await send_move(sockets[ALICE], table_game, kind="bank", card=red)
        html = await flash(sockets[ALICE])
        assert await sockets[BOB].receive_nothing(timeout=0.3)
    finally:
        await close(sockets)

    assert "Property cards can never be banked." in html
    assert await snapshot(table_game) == before


@pytest.mark.parametrize(
    ("who", "refusal"),
    [
        ("bob", "It is not your turn."),
        ("charlie", "Only the players at this table can make moves."),
    ],
    ids=["not-your-turn", "spectator"],
)
async def test_it_refuses_a_move_out_of_turn_or_from_a_spectator(
    table_game, alice, bob, charlie, who, refusal
):
    await position(table_game, "alice hand: 5M")
    before = await snapshot(table_game)
    sockets = await opened(table_game, {"bob": bob, "charlie": charlie}[who])
    try:
        await send_move(sockets[0], table_game, kind="end")
        html = await flash(sockets[0])
    finally:
        await close(sockets)

    assert refusal in html
    assert await snapshot(table_game) == before


async def test_a_socket_opened_before_the_game_started_moves_only_for_its_user_s_seat_now(
    alice, bob, charlie
):
    """A seat left before the start is no longer its user's: it may be another's by then."""
    from games.models import Game, Seat

    game = await sync_to_async(Game.objects.create)(host=alice, seat_count=2)
    await sync_to_async(Seat.objects.create)(game=game, user=alice, position=0)
    left = await sync_to_async(Seat.objects.create)(game=game, user=charlie, position=1)
    socket, connected = await connect(game, charlie)
    assert connected
    try:
        await send_move(socket, game, kind="end")  # refused, the game not in play yet
        assert "This game is not in play." in await flash(socket)
        # charlie leaves; bob takes the seat he left, and the game starts.
        await sync_to_async(left.delete)()
        await sync_to_async(Seat.objects.create)(game=game, user=bob, position=1)
        await sync_to_async(game.start)()
        await answers_until(socket, at_version(1))  # the started game's board
        await position(game, "turn: bob\nbob hand: 5M")
        before = await snapshot(game)

        await send_move(socket, game, kind="resign")  # charlie, over his old socket
        html = await flash(socket)
    finally:
        await socket.disconnect()

    assert "Only the players at this table can make moves." in html
    assert await snapshot(game) == before


async def test_it_answers_a_stale_board_with_a_warning_and_the_current_board(table_game, alice):
    await position(table_game, "alice hand: 5M")
    before = await snapshot(table_game)
    sockets = await opened(table_game, alice)
    try:
        await send_move(sockets[0], table_game, version=table_game.version - 1, kind="end")
        board = await receive(sockets[0])
        html = await flash(sockets[0])
    finally:
        await close(sockets)

    assert "The board has changed since you saw it; here is the current one." in html
    assert 'class="message warning"' in html
    for fragment in ("status", "board", "hand", "log"):
        assert f'id="{fragment}"' in board
    assert f'data-version="{table_game.version}"' in board
    assert await snapshot(table_game) == before


async def test_it_empties_the_flash_with_the_next_move_made(table_game, alice):
    await position(table_game, "alice hand: 5M")
    sockets = await opened(table_game, alice)
    try:
        await send_move(sockets[0], table_game, kind="bank", card="x")
        assert "Cards, players and shares are given by number." in await flash(sockets[0])
        await send_move(sockets[0], table_game, kind="end")
        messages = [await receive(sockets[0]), await receive(sockets[0])]
    finally:
        await close(sockets)

    emptied = [html for html in messages if html.lstrip().startswith('<div id="flash"')]
    assert len(emptied) == 1 and 'class="message' not in emptied[0]


def held_clock(monkeypatch):
    """Hold the move bound's clock still; return (clock, read): move it with clock[0] += seconds.

    The bound reads the clock once for each move it counts (games.views.over_move_bound),
    a socket's message or a post: `read` lists the readings.
    """
    clock = [100.0]
    read = []

    def monotonic():
        read.append(clock[0])
        return clock[0]

    monkeypatch.setattr(views, "monotonic", monotonic)
    return clock, read


async def test_it_drops_a_flood_of_moves_after_telling_it_once(
    table_game, alice, bob, settings, monkeypatch
):
    settings.MOVES_PER_SECOND = 10
    clock, read = held_clock(monkeypatch)
    await position(table_game, "alice hand: 5M")
    before = await snapshot(table_game)
    sockets = await opened(table_game, bob)
    try:
        for _ in range(40):
            await send_move(sockets[0], table_game, version=before[1], kind="end")
        while len(read) < 40:  # every message of the flood taken in, answered or dropped
            await asyncio.sleep(0.01)
        clock[0] += 1.5
        # Answered once the flood is over, told apart from the flood's answers by its words.
        await send_move(sockets[0], table_game, version=before[1], kind="bank", card="x")
        answers = await answers_until(sockets[0], lambda html: "given by number" in html)
    finally:
        await close(sockets)

    later = answers.pop()
    assert sum("It is not your turn." in html for html in answers) == 10
    assert sum("Too many moves at once" in html for html in answers) == 1
    assert len(answers) == 11
    assert "Cards, players and shares are given by number." in later
    assert await snapshot(table_game) == before


async def test_a_user_s_sockets_share_one_bound(table_game, bob, settings, monkeypatch):
    # A user may hold a dozen sockets (SOCKETS_PER_USER): one bound for all, not one each.
    settings.MOVES_PER_SECOND = 4
    clock, read = held_clock(monkeypatch)
    await position(table_game, "alice hand: 5M")
    before = await snapshot(table_game)
    sockets = await opened(table_game, bob, bob, bob)
    try:
        for socket in sockets:
            for _ in range(2):
                await send_move(socket, table_game, version=before[1], kind="end")
        while len(read) < 6:
            await asyncio.sleep(0.01)
        answers = [[await receive(socket) for _ in range(2)] for socket in sockets]
    finally:
        await close(sockets)

    told = [html for pair in answers for html in pair]
    # Four taken in, whichever socket sent them (each socket takes its own in its turn); the
    # two over the bound refused, each told on its socket.
    assert sum("It is not your turn." in html for html in told) == 4
    assert sum("Too many moves at once" in html for html in told) == 2
    assert await snapshot(table_game) == before


async def test_a_user_s_posted_moves_and_socket_moves_share_one_bound(
    table_game, bob, settings, monkeypatch
):
    # One bound for a user's moves however they come: posting beside a socket flood does
    # not double it.
    settings.MOVES_PER_SECOND = 3
    clock, read = held_clock(monkeypatch)
    await position(table_game, "alice hand: 5M")
    before = await snapshot(table_game)
    client = Client()
    await sync_to_async(client.force_login)(bob)
    url = reverse("games:move", args=[table_game.code])
    posted = [
        (await sync_to_async(client.post)(url, {"kind": "end", "version": before[1]})).status_code
        for _ in range(2)
    ]
    sockets = await opened(table_game, bob)
    try:
        for _ in range(2):
            await send_move(sockets[0], table_game, version=before[1], kind="end")
        while len(read) < 4:
            await asyncio.sleep(0.01)
        told = [await receive(sockets[0]) for _ in range(2)]
    finally:
        await close(sockets)

    assert posted == [302, 302]  # refused by the game (not bob's turn), not by the bound
    assert sum("It is not your turn." in html for html in told) == 1
    assert sum("Too many moves at once" in html for html in told) == 1
    assert await snapshot(table_game) == before


@pytest.mark.parametrize(
    "message",
    [
        "not json",
        json.dumps(["a", "list"]),
        json.dumps({"kind": "end", "padding": "x" * 9000}),
        json.dumps({"kind": "end", "version": {"a": 1}}),
        json.dumps({"kind": "bank", "card": None, "version": "1"}),
    ],
    ids=["not-json", "a-list", "oversize", "odd-version", "null-card"],
)
async def test_it_ignores_or_refuses_a_bad_message_safely(table_game, alice, message):
    await position(table_game, "alice hand: 5M")
    before = await snapshot(table_game)
    sockets = await opened(table_game, alice)
    try:
        await sockets[0].send_to(text_data=message)
        await send_move(sockets[0], table_game, kind="end")  # the socket is still there
        answers = await answers_until(sockets[0], at_version(before[1] + 1))
    finally:
        await close(sockets)

    after_move = answers.pop()
    assert all('id="flash"' in html and 'id="board"' not in html for html in answers)
    assert "ended the turn" in after_move
    assert (await snapshot(table_game))[1] == before[1] + 1  # the move sent after it was made


@pytest.mark.parametrize("ending", ["password changed", "logged out"])
async def test_it_takes_no_move_from_a_socket_whose_session_has_ended(
    table_game, alice, bob, ending, settings
):
    """Before the socket's next check (minutes away here), its very next move is refused."""
    from django.contrib.sessions.models import Session

    from games.live.sockets import SESSION_ENDED
    from games.tests.test_socket_check import closed_with

    settings.GAME_SOCKET_CHECK_SECONDS = 600
    state = await position(table_game, "alice hand: 5M red")
    money = card_in(state, "alice", "hand", "5M")
    sockets = await opened(table_game, alice)

    def end_session():
        if ending == "password changed":
            alice.set_password("a-new-long-secret-42")
            alice.save()
        else:
            Session.objects.all().delete()  # logging out deletes the session row

    before = await snapshot(table_game)
    try:
        await sync_to_async(end_session)()
        await send_move(sockets[ALICE], table_game, kind="bank", card=str(money))
        assert await closed_with(sockets[ALICE]) == SESSION_ENDED
    finally:
        await close(sockets)
    assert await snapshot(table_game) == before
