"""The chat and presence over the game socket: each socket gets only what its user may read."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.blocks import block
from config.asgi import application
from games import chat, rules
from games.models import Seat
from games.tests.test_consumer import session_headers

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(game, user):
    headers = await sync_to_async(session_headers)(user)
    socket = WebsocketCommunicator(application, f"/ws/games/{game.code}/", headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


async def everything(socket, quiet=0.5):
    """Return every message the socket is sent until it has been quiet for `quiet` seconds."""
    found = []
    while not await socket.receive_nothing(timeout=quiet):
        found.append(await socket.receive_from(timeout=5))
    return "\n".join(found)


async def post(game, user, text, **fields):
    seat = await sync_to_async(chat.seat_of)(game, user)
    return await sync_to_async(chat.post)(game, user, seat, text=text, **fields)


async def test_it_never_sends_the_spectators_chat_to_a_player_socket_during_the_game(
    table_game, alice, bob, charlie
):
    sockets = [await connect(table_game, user) for user in (alice, bob, charlie)]
    try:
        for socket in sockets:
            await everything(socket)

        await post(table_game, charlie, "coaching: bob holds a Just Say No")
        alice_got, bob_got, charlie_got = [await everything(s) for s in sockets]

        assert "coaching" in charlie_got and 'id="chat-spectators"' in charlie_got
        assert "coaching" not in alice_got + bob_got
        assert alice_got == bob_got == ""

        await post(table_game, alice, "good luck, bob")
        for socket in sockets:
            got = await everything(socket)
            assert "good luck, bob" in got and 'id="chat-players"' in got
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_sends_no_spectators_chat_to_a_socket_opened_before_its_user_sat_down(
    alice, bob, charlie
):
    """A page opened as a watcher of an open table, then seated: a player once the game runs."""
    from games.models import Game

    game = await sync_to_async(Game.objects.create)(host=alice, seat_count=2)
    await sync_to_async(Seat.objects.create)(game=game, user=alice, position=0)
    early = await connect(game, bob)  # before bob sits down
    try:
        await everything(early)
        await sync_to_async(Seat.objects.create)(game=game, user=bob, position=1)
        await sync_to_async(game.start)()
        await everything(early)

        await post(game, charlie, "coaching: play the sly deal on alice's orange")
        await post(game, alice, "good luck, bob")
        got = await everything(early)
    finally:
        await early.disconnect()

    assert "coaching" not in got
    assert "good luck, bob" in got  # the players' chat, which bob reads now


async def test_it_does_not_deliver_a_blocked_users_messages_to_the_blocker(
    table_game, alice, bob, charlie
):
    await sync_to_async(block)(alice, bob)
    sockets = [await connect(table_game, user) for user in (alice, charlie)]
    try:
        for socket in sockets:
            await everything(socket)

        await post(table_game, bob, "you cannot hear me")

        assert "you cannot hear me" not in await everything(sockets[0])
        assert "you cannot hear me" in await everything(sockets[1])
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_escapes_a_message_on_the_socket(table_game, alice, bob):
    socket = await connect(table_game, bob)
    try:
        await everything(socket)
        await post(table_game, alice, "<img src=x onerror=alert(1)>")
        got = await everything(socket)
        assert "&lt;img src=x onerror=alert(1)&gt;" in got
        assert "<img" not in got
    finally:
        await socket.disconnect()


async def test_it_shows_who_has_the_table_open_live(table_game, alice, bob):
    alice_socket = await connect(table_game, alice)
    try:
        await everything(alice_socket)

        bob_socket = await connect(table_game, bob)
        arrived = await everything(alice_socket)
        await everything(bob_socket)
        await bob_socket.disconnect()
        left = await everything(alice_socket)

        assert 'id="presence"' in arrived
        bob_line = arrived.split("bob</span>")[0].rsplit("<li", 1)[1]
        assert 'class="here"' in bob_line
        bob_line = left.split("bob</span>")[0].rsplit("<li", 1)[1]
        assert 'class="here"' not in bob_line
        seen = await sync_to_async(Seat.objects.get)(game=table_game, user=bob)
        assert seen.seen_at is not None
    finally:
        await alice_socket.disconnect()


async def test_it_opens_the_spectators_chat_on_a_players_page_when_the_game_ends(
    table_game, alice, bob, charlie
):
    await post(table_game, charlie, "watching closely")
    socket = await connect(table_game, alice)
    try:
        assert "watching closely" not in await everything(socket)

        await sync_to_async(table_game.play)(1, rules.Move.resign())
        got = await everything(socket)

        assert '<div id="chat-rooms" class="chat-rooms" hx-swap-oob="true">' in got
        rooms = got.split('id="chat-rooms"')[1]
        assert 'id="chat-spectators"' in rooms and "watching closely" in rooms
        await post(table_game, charlie, "well played both")
        assert "well played both" in await everything(socket)
    finally:
        await socket.disconnect()


async def test_it_sends_no_message_of_a_room_the_page_does_not_show_yet(
    table_game, alice, charlie, without_broadcasts
):
    socket = await connect(table_game, alice)
    try:
        await everything(socket)
        message = await post(table_game, charlie, "said as the game ended")
        await everything(socket)

        # The game has ended, but alice's socket has not yet drawn the end (nor the rooms).
        def end_quietly():
            with without_broadcasts():
                table_game.play(1, rules.Move.resign())

        await sync_to_async(end_quietly)()
        await sync_to_async(chat.announce)(table_game.code, message.pk)

        assert "said as the game ended" not in await everything(socket)
    finally:
        await socket.disconnect()


async def test_it_does_not_deliver_a_blocked_spectators_messages_to_a_spectator_blocker(
    table_game, bob, charlie, django_user_model
):
    dave = await sync_to_async(django_user_model.objects.create_user)("dave", "d@example.com")
    await sync_to_async(block)(charlie, dave)
    sockets = [await connect(table_game, user) for user in (charlie, dave, bob)]
    try:
        for socket in sockets:
            await everything(socket)

        await post(table_game, dave, "spectator you blocked")
        await post(table_game, charlie, "the blocker said this")
        charlie_got, dave_got, bob_got = [await everything(s) for s in sockets]

        assert "spectator you blocked" not in charlie_got
        assert "the blocker said this" in charlie_got
        assert "spectator you blocked" in dave_got and "the blocker" in dave_got
        assert bob_got == ""  # a player: the spectators' chat is not theirs while the game runs
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_announces_a_player_once_however_many_tabs_they_open_and_close(
    table_game, alice, bob, monkeypatch
):
    """A second tab of a player already here, or closing one of two, tells the table nothing.

    (With a hundred sockets on one table, announcing every socket's arrival
    queued thousands of messages in the server: each socket's presence list
    read again for nothing.)
    """
    from games import chat_socket

    announced = []
    real = chat_socket.group_send

    def counting(group, message):
        if message["type"] == "presence.changed":
            announced.append(group)
        real(group, message)

    monkeypatch.setattr(chat_socket, "group_send", counting)
    alice_socket = await connect(table_game, alice)
    try:
        await everything(alice_socket)
        assert len(announced) == 1  # alice arrives
        first = await connect(table_game, bob)
        await everything(first)
        second = await connect(table_game, bob)
        await everything(second)
        assert len(announced) == 2  # bob arrives, once
        await first.disconnect()
        assert len(announced) == 2  # bob is still here
        bob_line = (await everything(alice_socket)).split("bob</span>")[0].rsplit("<li", 1)[1]
        assert 'class="here"' in bob_line
        await second.disconnect()
        assert len(announced) == 3  # bob is gone
        bob_line = (await everything(alice_socket)).split("bob</span>")[0].rsplit("<li", 1)[1]
        assert 'class="here"' not in bob_line
    finally:
        await alice_socket.disconnect()
