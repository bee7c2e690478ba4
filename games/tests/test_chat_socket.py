"""The chat and presence over the game socket: each socket gets only what its user may read."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.blocks import block
from config.asgi import application
from games import rules
from games.chat import messages as chat
from games.models import Game, Seat
from games.tests.test_consumer import session_headers
from games.tests.test_socket_moves import at_version

pytestmark = pytest.mark.django_db(transaction=True)


async def open_socket(game, user):
    headers = await sync_to_async(session_headers)(user)
    socket = WebsocketCommunicator(application, f"/ws/games/{game.code}/", headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


async def connect(game, user):
    """Return a socket of `user` on the running `game`, past the board its connect sends.

    The board (at the game's current version) is the last frame a connect sends
    its own socket: presence goes to the others, the rooms only at an ended game.
    """
    socket = await open_socket(game, user)
    version = await Game.objects.filter(pk=game.pk).values_list("version", flat=True).aget()
    await until(socket, at_version(version))
    return socket


def text(frames):
    return "\n".join(frames)


async def until(socket, predicate, timeout=10):
    """Return the frames `socket` receives up to the first after which `predicate(their text)` holds.

    Fail if it does not hold within `timeout` seconds.
    """
    frames = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not frames or not predicate(text(frames)):
        try:
            frames.append(await socket.receive_from(timeout=max(0.0, deadline - loop.time())))
        except TimeoutError:
            pytest.fail(f"Not received within {timeout} s; received:\n{text(frames)}")
    return frames


async def said(socket, line):
    """Return the frames `socket` receives up to the one carrying the chat line `line`.

    What a socket is NOT sent is checked against a line it is sent afterwards:
    messages of one group reach a socket's channel in the order they were sent,
    and the socket handles them one at a time, sending each one's frame before
    reading the next. So a frame for anything announced to the game's group
    before `line` (another line), had one been sent, is among the frames read
    before `line`'s; so is anything its connect sent. (Not a presence change:
    a socket draws the presence list at most once a second.)
    """
    return await until(socket, lambda got: line in got)


def presence(frames):
    """Return the last presence list among `frames` (which must hold one)."""
    lists = [frame for frame in frames if 'id="presence"' in frame]
    assert lists, text(frames)
    return lists[-1]


def here(frames, name):
    """Whether the last presence list among `frames` shows `name` with the table open."""
    line = presence(frames).split(f">{name}</span>")[0].rsplit("<li", 1)[1]
    return 'class="here"' in line


def has_presence(got):
    return 'id="presence"' in got


async def post(game, user, text, **fields):
    seat = await sync_to_async(chat.seat_of)(game, user)
    return await sync_to_async(chat.post)(game, user, seat, text=text, **fields)


async def test_it_never_sends_the_spectators_chat_to_a_player_socket_during_the_game(
    table_game, alice, bob, charlie
):
    sockets = [await connect(table_game, user) for user in (alice, bob, charlie)]
    try:
        assert here(await until(sockets[0], has_presence), "bob")  # alice is told bob came

        await post(table_game, charlie, "coaching: bob holds a Just Say No")
        charlie_got = text(await said(sockets[2], "coaching"))
        await post(table_game, alice, "good luck, bob")
        alice_got, bob_got = [await said(s, "good luck, bob") for s in sockets[:2]]

        assert 'id="chat-spectators"' in charlie_got
        assert "coaching" not in text(alice_got + bob_got)
        assert alice_got[:-1] == bob_got[:-1] == []  # nothing at all before alice's line
        for got in (alice_got, bob_got, await said(sockets[2], "good luck, bob")):
            assert 'id="chat-players"' in got[-1]
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_sends_no_spectators_chat_to_a_socket_opened_before_its_user_sat_down(
    alice, bob, charlie
):
    """A page opened as a watcher of an open table, then seated: a player once the game runs."""
    game = await sync_to_async(Game.objects.create)(host=alice, seat_count=2)
    await sync_to_async(Seat.objects.create)(game=game, user=alice, position=0)
    early = await open_socket(game, bob)  # before bob sits down; an open table sends no board
    try:
        await sync_to_async(Seat.objects.create)(game=game, user=bob, position=1)
        await sync_to_async(game.start)()
        await until(early, at_version(game.version))

        await post(game, charlie, "coaching: play the sly deal on alice's orange")
        await post(game, alice, "good luck, bob")
        got = text(await said(early, "good luck, bob"))  # the players' chat, which bob reads now
    finally:
        await early.disconnect()

    assert "coaching" not in got


async def test_it_does_not_deliver_a_blocked_users_messages_to_the_blocker(
    table_game, alice, bob, charlie
):
    await sync_to_async(block)(alice, bob)
    sockets = [await connect(table_game, user) for user in (alice, charlie)]
    try:
        await post(table_game, bob, "you cannot hear me")
        await post(table_game, alice, "is anyone there?")

        assert "you cannot hear me" not in text(await said(sockets[0], "is anyone there?"))
        assert "you cannot hear me" in text(await said(sockets[1], "is anyone there?"))
    finally:
        for socket in sockets:
            await socket.disconnect()


async def test_it_escapes_a_message_on_the_socket(table_game, alice, bob):
    socket = await connect(table_game, bob)
    try:
        await post(table_game, alice, "<img src=x onerror=alert(1)>")
        got = text(await said(socket, "onerror=alert(1)"))  # escaped or not
        assert "&lt;img src=x onerror=alert(1)&gt;" in got
        assert "<img" not in got
    finally:
        await socket.disconnect()


async def test_it_shows_who_has_the_table_open_live(table_game, alice, bob):
    alice_socket = await connect(table_game, alice)
    try:
        bob_socket = await connect(table_game, bob)
        arrived = await until(alice_socket, has_presence)
        await bob_socket.disconnect()
        left = await until(alice_socket, has_presence)

        assert here(arrived, "bob")
        assert not here(left, "bob")
        seen = await sync_to_async(Seat.objects.get)(game=table_game, user=bob)
        assert seen.seen_at is not None
    finally:
        await alice_socket.disconnect()


async def test_it_draws_a_player_who_arrived_between_the_page_and_its_socket(
    client, table_game, alice, bob
):
    # alice's page is drawn with bob away; bob's socket opens before alice's joins the group.
    await sync_to_async(client.force_login)(alice)
    page = (await sync_to_async(client.get)(table_game.get_absolute_url())).text
    url = page.split('ws-connect="/ws/games/')[1].split('"')[0]
    url = f"/ws/games/{url}"
    assert url == f"/ws/games/{table_game.code}/?here={alice.pk}"
    bob_socket = await connect(table_game, bob)
    headers = await sync_to_async(session_headers)(alice)
    alice_socket = WebsocketCommunicator(application, url, headers)
    try:
        assert (await alice_socket.connect())[0]

        assert here(await until(alice_socket, has_presence), "bob")
    finally:
        await alice_socket.disconnect()
        await bob_socket.disconnect()


def test_a_spectators_page_tells_its_socket_only_the_players_it_shows(
    client, table_game, alice, charlie
):
    client.force_login(charlie)
    page = client.get(table_game.get_absolute_url()).text
    assert f'ws-connect="/ws/games/{table_game.code}/?here="' in page  # nobody, not charlie


async def test_it_opens_the_spectators_chat_on_a_players_page_when_the_game_ends(
    table_game, alice, bob, charlie
):
    await post(table_game, charlie, "watching closely")
    socket = await connect(table_game, alice)
    try:
        await post(table_game, alice, "here we go")  # after all the connect sends
        assert "watching closely" not in text(await said(socket, "here we go"))

        await sync_to_async(table_game.play)(1, rules.Move.resign())
        got = text(await until(socket, lambda got: 'id="chat-rooms"' in got))

        assert '<div id="chat-rooms" class="chat-rooms" hx-swap-oob="true">' in got
        rooms = got.split('id="chat-rooms"')[1]
        assert 'id="chat-spectators"' in rooms and "watching closely" in rooms
        await post(table_game, charlie, "well played both")
        assert "well played both" in text(await said(socket, "well played both"))
    finally:
        await socket.disconnect()


async def test_it_sends_no_message_of_a_room_the_page_does_not_show_yet(
    table_game, alice, charlie, without_broadcasts
):
    socket = await connect(table_game, alice)
    try:
        message = await post(table_game, charlie, "said as the game ended")

        # The game has ended, but alice's socket has not yet drawn the end (nor the rooms).
        def end_quietly():
            with without_broadcasts():
                table_game.play(1, rules.Move.resign())

        await sync_to_async(end_quietly)()
        await sync_to_async(chat.announce)(table_game.code, message.pk)
        await post(table_game, alice, "good game")  # the players' chat, which alice reads

        assert "said as the game ended" not in text(await said(socket, "good game"))
    finally:
        await socket.disconnect()


async def test_it_does_not_deliver_a_blocked_spectators_messages_to_a_spectator_blocker(
    table_game, bob, charlie, django_user_model
):
    dave = await sync_to_async(django_user_model.objects.create_user)("dave", "d@example.com")
    await sync_to_async(block)(charlie, dave)
    sockets = [await connect(table_game, user) for user in (charlie, dave, bob)]
    try:
        await post(table_game, dave, "spectator you blocked")
        await post(table_game, charlie, "the blocker said this")
        await post(table_game, bob, "over to the players")  # which every socket reads
        charlie_got, dave_got, bob_got = [await said(s, "over to the players") for s in sockets]

        assert "spectator you blocked" not in text(charlie_got)
        assert "the blocker said this" in text(charlie_got)
        assert "spectator you blocked" in text(dave_got) and "the blocker" in text(dave_got)
        # A player: the spectators' chat is not theirs while the game runs.
        assert bob_got[:-1] == []
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

    A line said after a socket opens reaches it only once its connect (which
    announces its player) is over.
    """
    from games.chat import socket as chat_socket

    announced = []
    real = chat_socket.group_send

    def counting(group, message):
        if message["type"] == "presence.changed":
            announced.append(group)
        real(group, message)

    monkeypatch.setattr(chat_socket, "group_send", counting)
    alice_socket = await connect(table_game, alice)
    try:
        await post(table_game, alice, "first")
        alice_got = await said(alice_socket, "first")
        assert len(announced) == 1  # alice arrives
        first = await connect(table_game, bob)
        await post(table_game, bob, "second")
        await said(first, "second")
        second = await connect(table_game, bob)
        await post(table_game, bob, "third")
        await said(second, "third")
        assert len(announced) == 2  # bob arrives, once
        await first.disconnect()
        assert len(announced) == 2  # bob is still here
        await post(table_game, bob, "fourth")
        alice_got += await said(alice_socket, "fourth")
        # The presence list is drawn at most once a second: bob's arrival may come later.
        while not (has_presence(text(alice_got)) and here(alice_got, "bob")):
            alice_got += await until(alice_socket, has_presence)
        await second.disconnect()
        assert len(announced) == 3  # bob is gone
        assert not here(await until(alice_socket, has_presence), "bob")
    finally:
        await alice_socket.disconnect()


async def test_a_player_coming_and_going_again_and_again_is_drawn_once_a_while(
    table_game, alice, bob, monkeypatch
):
    """However often a player's socket opens and closes, each other socket reads the
    presence list at most once every PRESENCE_SECONDS, and ends up showing how it is."""
    from games.chat import socket as chat_socket

    monkeypatch.setattr(chat_socket, "PRESENCE_SECONDS", 3)
    draws = []
    real = chat_socket.ChatSocket.presence_draw

    def counted(self, event):
        if self.user == alice:
            draws.append(event)
        return real(self, event)

    monkeypatch.setattr(chat_socket.ChatSocket, "presence_draw", counted)
    alice_socket = await connect(table_game, alice)
    bob_socket = None
    try:
        for _ in range(4):
            bob_socket = await connect(table_game, bob)
            await bob_socket.disconnect()
        bob_socket = await connect(table_game, bob)
        assert len(draws) <= 2  # her own arrival, and bob's first: the rest wait

        got = await until(alice_socket, lambda got: has_presence(got) and "bob" in got)

        assert here(got, "bob")
        assert len(draws) <= 3
    finally:
        await alice_socket.disconnect()
        if bob_socket is not None:
            await bob_socket.disconnect()
