"""A private game in play: its table and socket for its players and invitees only; all after it ends.

(The outsider's refusals are rows of test_access_matrix.py, game "secret".)
"""

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.chat import messages as chat
from games.models import Game, Invitation, Seat
from games.tests.test_consumer import connect, receive


@pytest.fixture
def private_game(table_game):
    Game.objects.filter(pk=table_game.pk).update(private=True)
    table_game.refresh_from_db()
    return table_game


@pytest.fixture
def invited_charlie(private_game, alice, charlie):
    Invitation.objects.create(game=private_game, user=charlie, invited_by=alice)
    return charlie


@pytest.mark.django_db
def test_it_shows_a_private_game_in_play_to_an_invited_user(client, private_game, invited_charlie):
    client.force_login(invited_charlie)

    response = client.get(reverse("games:table", args=[private_game.code]))

    assert response.status_code == 200
    assert "You are watching this game" in response.text


@pytest.mark.django_db
def test_it_hides_a_private_game_in_play_from_an_outsider(client, private_game, charlie):
    client.force_login(charlie)

    response = client.get(reverse("games:table", args=[private_game.code]))

    assert response.status_code == 404


@pytest.mark.django_db
def test_it_shows_a_private_game_to_everyone_once_it_ended(client, private_game, charlie):
    Game.objects.filter(pk=private_game.pk).update(status=Game.Status.FINISHED)
    client.force_login(charlie)

    response = client.get(reverse("games:table", args=[private_game.code]))

    assert response.status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_it_gives_an_invited_user_the_socket_of_a_private_game_in_play(
    private_game, invited_charlie
):
    socket, connected = await connect(private_game, invited_charlie)
    try:
        assert connected
        html = await receive(socket)
    finally:
        await socket.disconnect()

    assert 'id="board"' in html and "You are watching this game" in html


@pytest.mark.django_db(transaction=True)
async def test_it_refuses_an_outsider_the_socket_of_a_private_game_in_play(private_game, charlie):
    socket, connected = await connect(private_game, charlie)
    await socket.disconnect()

    assert not connected


@pytest.mark.django_db(transaction=True)
async def test_it_gives_everyone_the_socket_of_a_private_game_that_ended(private_game, charlie):
    await sync_to_async(Game.objects.filter(pk=private_game.pk).update)(status=Game.Status.FINISHED)
    socket, connected = await connect(private_game, charlie)
    await socket.disconnect()

    assert connected


async def frames_until_closed(socket):
    """Return the frames `socket` receives until it falls silent, and whether it was closed."""
    frames = []
    while not await socket.receive_nothing(timeout=1):
        output = await socket.receive_output()
        if output["type"] == "websocket.close":
            return frames, True
        frames.append(output.get("text", ""))
    return frames, False


@pytest.fixture
def left_private_table(alice, charlie):
    """A private table alice hosts, which charlie sits down at (by its link)."""
    game = Game.objects.create(host=alice, seat_count=3, private=True)
    game.join(alice)
    game.join(charlie)
    return game


async def socket_left_open(game, charlie, bob):
    """Open charlie's socket of `game`, then have him leave the table and bob sit down."""
    socket, connected = await connect(game, charlie)
    assert connected
    await sync_to_async(game.leave)(charlie)
    await sync_to_async(game.join)(bob)
    return socket


@pytest.mark.django_db(transaction=True)
async def test_it_closes_the_socket_of_a_player_who_left_a_private_table_when_it_starts(
    left_private_table, alice, bob, charlie
):
    game = left_private_table
    socket = await socket_left_open(game, charlie, bob)
    await sync_to_async(game.start)()  # the host starts it with two players
    await sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.ACTIVE
    await sync_to_async(chat.post)(game, alice, 0, text="the plan for this table")

    frames, closed = await frames_until_closed(socket)

    assert closed
    assert not any('id="board"' in frame or "the plan" in frame for frame in frames)


@pytest.mark.django_db(transaction=True)
async def test_it_tells_who_is_here_no_more_to_a_player_who_left_a_private_table(
    left_private_table, alice, bob, charlie
):
    game = left_private_table
    socket = await socket_left_open(game, charlie, bob)
    others, _connected = await connect(game, bob)  # bob arrives: who is here changes
    try:
        frames, closed = await frames_until_closed(socket)
    finally:
        await others.disconnect()

    assert closed
    assert not any('id="presence"' in frame and "bob" in frame for frame in frames)


def test_an_invitation_to_someone_else_does_not_open_a_private_game(client, alice, bob, charlie):
    game = Game.objects.create(host=alice, seat_count=2, private=True)
    Seat.objects.create(game=game, user=alice, position=0)
    Seat.objects.create(game=game, user=bob, position=1)
    game.start()
    Invitation.objects.create(game=game, user=charlie, invited_by=alice)
    dave = get_user_model().objects.create_user("dave", "dave@example.com", "x-dave-42")
    client.force_login(dave)

    assert client.get(game.get_absolute_url()).status_code == 404


def test_a_declined_invitee_cannot_watch_the_private_game_in_play(client, alice, bob, charlie):
    game = Game.objects.create(host=alice, seat_count=2, private=True)
    Seat.objects.create(game=game, user=alice, position=0)
    Seat.objects.create(game=game, user=charlie, position=1)
    Invitation.objects.create(game=game, user=bob, invited_by=alice)
    game.start()
    client.force_login(bob)
    assert client.get(game.get_absolute_url()).status_code == 200

    client.post(reverse("lobby:decline", args=[game.code]))

    assert client.get(game.get_absolute_url()).status_code == 404
