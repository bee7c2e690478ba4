"""The user socket at ws/me/: each connection keeps its own user's header badges fresh."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from config.asgi import application
from games import rules
from games.models import Game, Notification, broadcast_users
from lobby.tests.conftest import open_table
from lobby.tests.test_consumer import ORIGIN, logged_in, socket_headers

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(user=None, path="/ws/me/"):
    headers = [ORIGIN]
    if user is not None:
        client = await sync_to_async(logged_in)(user)
        headers = await sync_to_async(socket_headers)(client)
    communicator = WebsocketCommunicator(application, path, headers)
    connected, _code = await communicator.connect()
    return communicator, connected


def correspondence_game(alice, bob):
    """Start a correspondence game between alice and bob, on alice's turn, nobody notified."""
    game = open_table(alice, bob, seat_count=2, pace=Game.Pace.CORRESPONDENCE).start()
    state = game.state()
    if state.current != 0:
        game.play(state.current, rules.Move.end())
    Notification.objects.all().delete()
    return game


def end_turn(game):
    game.play(game.state().current, rules.Move.end())


async def test_it_sends_a_fresh_badge_when_it_becomes_my_turn(alice, bob):
    game = await sync_to_async(correspondence_game)(alice, bob)
    socket, connected = await connect(bob)
    try:
        assert connected
        first = await socket.receive_from(timeout=5)
        assert first.lstrip().startswith('<span id="nav-badges"')
        assert 'hx-swap-oob="true"' in first
        assert 'class="badge"' not in first

        await sync_to_async(end_turn)(game)  # alice ends her turn: bob's turn

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert html.lstrip().startswith('<span id="nav-badges" class="nav-badges" hx-swap-oob="true">')
    assert (
        '<span class="badge" aria-hidden="true">1</span><span class="visually-hidden">1 game waiting for you</span>'
        in html
    )
    assert (
        '<span class="badge" aria-hidden="true">1</span><span class="visually-hidden">1 unread notification</span>'
        in html
    )


async def test_it_renders_each_sockets_own_counts(alice, bob, charlie):
    await sync_to_async(correspondence_game)(alice, bob)  # waits for alice
    alice_socket, alice_in = await connect(alice)
    charlie_socket, charlie_in = await connect(charlie)
    try:
        assert alice_in and charlie_in
        await alice_socket.receive_from(timeout=5)
        await charlie_socket.receive_from(timeout=5)

        await sync_to_async(broadcast_users)({alice.pk, charlie.pk})

        alice_html = await alice_socket.receive_from(timeout=5)
        charlie_html = await charlie_socket.receive_from(timeout=5)
    finally:
        await alice_socket.disconnect()
        await charlie_socket.disconnect()

    assert '<span class="visually-hidden">1 game waiting for you</span>' in alice_html
    assert 'class="badge"' not in charlie_html


async def test_it_tells_only_the_users_concerned(alice, bob):
    bob_socket, connected = await connect(bob)
    try:
        assert connected
        await bob_socket.receive_from(timeout=5)

        await sync_to_async(broadcast_users)({alice.pk})

        assert await bob_socket.receive_nothing(timeout=0.3)
    finally:
        await bob_socket.disconnect()


async def test_it_sends_the_invitees_badge_when_invited(alice, bob):
    table = await sync_to_async(open_table)(alice, private=True)
    socket, connected = await connect(bob)
    try:
        assert connected
        await socket.receive_from(timeout=5)
        alice_client = await sync_to_async(logged_in)(alice)

        await sync_to_async(alice_client.post)(
            reverse("lobby:invite", args=[table.code]), {"username": "bob"}
        )

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert (
        '<span class="badge" aria-hidden="true">1</span><span class="visually-hidden">1 unread notification</span>'
        in html
    )
    assert await sync_to_async(Notification.objects.filter(user=bob).count)() == 1


def section(html, title):
    """Return the game rows of the home page's "My tables" section called `title` in `html`."""
    start = html.find(f"<h2>{title}</h2>")
    return "" if start < 0 else html[start : html.index("</section>", start)]


async def test_it_draws_my_tables_on_the_home_page_again_when_they_change(alice, bob):
    game = await sync_to_async(correspondence_game)(alice, bob)  # waits for alice
    socket, connected = await connect(bob, "/ws/me/?page=home")
    try:
        assert connected
        first = await socket.receive_from(timeout=5)
        assert '<div id="my-tables" hx-swap-oob="true">' in first
        assert game.code in section(first, "In play")
        assert section(first, "Your move") == ""

        await sync_to_async(end_turn)(game)  # bob's turn

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert html.lstrip().startswith('<span id="nav-badges"')
    assert game.code in section(html, "Your move")
    assert section(html, "In play") == ""


async def test_it_draws_an_invitation_on_the_home_page_at_once(alice, bob):
    table = await sync_to_async(open_table)(alice, private=True)
    socket, connected = await connect(bob, "/ws/me/?page=home")
    try:
        assert connected
        first = await socket.receive_from(timeout=5)
        assert "invites you to a table" not in first
        alice_client = await sync_to_async(logged_in)(alice)

        await sync_to_async(alice_client.post)(
            reverse("lobby:invite", args=[table.code]), {"username": "bob"}
        )

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    invitations = section(html, "Invitations")
    assert "Alice Liddell invites you to a table" in invitations
    assert reverse("lobby:join", args=[table.code]) in invitations
    assert 'name="csrfmiddlewaretoken"' in invitations


async def test_it_leaves_the_tables_to_the_sockets_of_other_pages(alice, bob):
    await sync_to_async(correspondence_game)(alice, bob)
    socket, connected = await connect(bob)
    try:
        assert connected
        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert "my-tables" not in html


async def test_it_speaks_the_users_language(alice, bob):
    bob.language = "zh-hans"
    await sync_to_async(bob.save)()
    socket, connected = await connect(bob)
    try:
        assert connected
        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert "通知" in html


@pytest.mark.parametrize("change", ["join", "leave"])
async def test_it_draws_the_players_count_of_my_waiting_table_again_when_someone_joins_or_leaves(
    alice, bob, charlie, change
):
    players = (bob,) if change == "leave" else ()
    table = await sync_to_async(open_table)(alice, *players)
    socket, connected = await connect(alice, "/ws/me/?page=home")
    try:
        assert connected
        first = await socket.receive_from(timeout=5)
        before = "2 / 3 players" if change == "leave" else "1 / 3 players"
        assert before in section(first, "Waiting for players")
        if change == "join":
            await sync_to_async(table.join)(charlie)
        else:
            await sync_to_async(table.leave)(bob)

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    after = "2 / 3 players" if change == "join" else "1 / 3 players"
    assert after in section(html, "Waiting for players")


async def test_it_tells_the_player_who_left_a_table_on_their_home_page(alice, bob):
    table = await sync_to_async(open_table)(alice, bob)
    socket, connected = await connect(bob, "/ws/me/?page=home")
    try:
        assert connected
        first = await socket.receive_from(timeout=5)
        assert table.code in section(first, "Waiting for players")

        await sync_to_async(table.leave)(bob)

        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert table.code not in html
