from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import rules
from games.models import Game, Invitation, Seat
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def finish(game, **fields):
    """Mark `game` finished now, as Game.play leaves it (its seats keep the end)."""
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, ended_at=now, **fields)
    Seat.objects.filter(game=game).update(ended_at=now, result=Seat.Result.LOSS)


def test_it_welcomes_logged_out_visitors_with_the_open_tables(client, table):
    response = client.get(reverse("lobby:home"))

    assert response.status_code == 200
    assert "lobby/home.html" in [t.name for t in response.templates]
    assert "Full Set" in response.text
    assert reverse("accounts:login") in response.text
    assert reverse("accounts:signup") in response.text
    assert "Alice Liddell" in response.text
    assert "My tables" not in response.text


def test_it_connects_a_logged_in_users_page_to_the_lobby_socket(client, bob):
    client.force_login(bob)
    response = client.get(reverse("lobby:home"))

    assert 'hx-ext="ws" ws-connect="/ws/lobby/"' in response.text
    assert 'id="open-tables"' in response.text


def test_it_opens_the_headers_socket_that_keeps_my_tables_live_only_on_the_home_page(client, alice):
    client.force_login(alice)

    home = client.get(reverse("lobby:home")).text
    other = client.get(reverse("lobby:tables")).text

    assert 'ws-connect="/ws/me/?page=home"' in home
    assert '<div id="my-tables">' in home
    assert 'ws-connect="/ws/me/"' in other


def test_it_lists_my_tables_waiting_for_me_first(client, alice, bob, charlie):
    waiting_room = open_table(alice, seat_count=4)
    other_host = open_table(charlie, seat_count=4)
    finished = open_table(alice, bob, seat_count=2).start()
    finish(finished, winner=bob)
    mine_to_play = open_table(alice, bob, seat_count=2).start()
    state = mine_to_play.state()
    if state.current != 0:  # make it alice's turn: bob ends his turn
        mine_to_play.play(state.current, rules.Move.end())
    theirs_to_play = open_table(bob, alice, seat_count=2).start()
    state = theirs_to_play.state()
    if state.current != 0:  # make it bob's turn (seat 0)
        theirs_to_play.play(state.current, rules.Move.end())
    client.force_login(alice)

    response = client.get(reverse("lobby:home"))

    context = response.context
    assert context["your_move"] == [mine_to_play]
    assert context["waiting_room"] == [waiting_room]
    assert context["in_play"] == [theirs_to_play]
    assert context["finished"] == [finished]
    text = response.text
    assert text.index("Your move") < text.index("Waiting for players") < text.index("In play")
    assert text.index("In play") < text.index("Recently finished") < text.index("Open tables")
    assert "bob won" in text
    assert reverse("lobby:table", args=[other_host.code]) in text  # in the open tables


def test_it_shows_at_most_ten_finished_games(client, alice, bob):
    for _ in range(12):
        game = open_table(alice, bob, seat_count=2)
        finish(game)
    client.force_login(alice)

    response = client.get(reverse("lobby:home"))

    assert len(response.context["finished"]) == 10


def test_it_shows_my_invitations_with_a_join_button(client, alice, bob, private_table):
    Invitation.objects.create(game=private_table, user=bob, invited_by=alice)
    client.force_login(bob)

    response = client.get(reverse("lobby:home"))

    assert "Alice Liddell invites you to a table" in response.text
    assert reverse("lobby:join", args=[private_table.code]) in response.text


def test_it_puts_the_csrf_token_in_htmx_headers(client):
    response = client.get("/")

    token = response.context["csrf_token"]
    assert f'hx-headers=\'{{"X-CSRFToken": "{token}"}}\'' in response.text


@pytest.mark.parametrize(
    "path", ["vendor/htmx.min.js", "vendor/htmx-ext-ws.js", "css/site.css", "css/lobby.css"]
)
def test_it_links_static_files_that_exist(client, path):
    response = client.get("/")

    assert f"/static/{path}" in response.text
    assert finders.find(path) is not None


def test_it_vendors_htmx_2_and_its_ws_extension():
    htmx = Path(finders.find("vendor/htmx.min.js")).read_text()
    ws = Path(finders.find("vendor/htmx-ext-ws.js")).read_text()

    assert 'version:"2.0.' in htmx
    assert "htmx.defineExtension('ws'" in ws


def test_it_tells_logged_out_visitors_what_full_set_is_with_a_picture(client):
    response = client.get(reverse("lobby:home"))

    text = response.text
    assert "Be the first to lay down three complete property sets" in text
    assert 'href="/how-to-play/"' in text
    assert '<img src="/static/img/table.webp"' in text
    assert 'alt="A game in play' in text
    assert finders.find("img/table.webp") is not None
    assert reverse("lobby:play_computer") not in text


def test_it_offers_a_signed_in_player_the_computer_and_a_quick_game(client, alice):
    client.force_login(alice)

    response = client.get(reverse("lobby:home"))

    text = response.text
    assert f'action="{reverse("lobby:play_computer")}"' in text
    assert f'action="{reverse("lobby:quick_game")}"' in text
    for level in ("random", "basic", "strong"):
        assert f'name="level" value="{level}"' in text
    for seats in range(2, 6):
        assert f'name="seat_count" value="{seats}"' in text
    assert 'name="seat_count" value="6"' not in text
    assert text.index("Play the computer") < text.index("My tables") < text.index("Open tables")


def test_it_lists_public_games_in_progress_for_anyone_to_watch(client, alice, bob, charlie):
    watched = open_table(alice, bob, seat_count=2).start()
    private = open_table(alice, bob, seat_count=2, private=True).start()
    waiting = open_table(bob, seat_count=3)
    ended = open_table(bob, alice, seat_count=2).start()
    finish(ended)
    client.force_login(charlie)

    response = client.get(reverse("lobby:home"))

    assert response.context["in_progress"] == [watched]
    text = response.text
    assert watched.get_absolute_url() in text
    assert private.get_absolute_url() not in text
    assert ended.get_absolute_url() not in text
    assert reverse("lobby:table", args=[waiting.code]) in text  # among the open tables
    section = text[text.index("Games in progress") :]
    assert "Alice Liddell, bob" in section
    assert f"Round {watched.state().round}" in section
    awaited = watched.seats.exclude(deadline=None).get().user
    assert f"Waiting for {awaited.name}" in section


def test_it_leaves_my_own_games_out_of_the_games_in_progress(client, alice, bob, charlie):
    open_table(alice, bob, seat_count=2).start()
    theirs = open_table(bob, charlie, seat_count=2).start()
    client.force_login(alice)

    response = client.get(reverse("lobby:home"))

    assert response.context["in_progress"] == [theirs]


def test_it_shows_the_latest_games_in_progress_first_and_at_most_ten(client, alice, bob):
    games = [open_table(alice, bob, seat_count=2).start() for _ in range(12)]
    now = timezone.now()
    for minutes, game in enumerate(games):
        Game.objects.filter(pk=game.pk).update(last_move_at=now - timedelta(minutes=minutes))

    response = client.get(reverse("lobby:home"))

    assert response.context["in_progress"] == games[:10]


def test_it_costs_the_same_queries_whatever_the_number_of_games_in_progress(
    client, alice, bob, charlie, django_assert_num_queries
):
    open_table(alice, bob, seat_count=2).start()
    client.force_login(charlie)
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("lobby:home"))
    for _ in range(4):
        open_table(alice, bob, seat_count=2).start()

    with django_assert_num_queries(len(one.captured_queries)):
        client.get(reverse("lobby:home"))


def test_it_lists_a_game_waiting_for_my_answer_under_your_move(client, alice, bob):
    """Not only the player whose turn it is: the target of an action is awaited too."""
    from games.rules.position import card_in
    from games.tests.helpers import set_position

    game = open_table(alice, bob, seat_count=2).start()
    state = set_position(
        game,
        """
        players: alice bob
        turn: alice
        plays: 3
        alice hand: debt_collector 1M
        bob hand: 2M
        bob bank: 5M
        draw: 1M 2M 3M 4M
        """,
    )
    collector = card_in(state, "alice", "hand", "debt_collector")
    game.refresh_from_db()
    game.play(0, rules.Move.play(collector, targets=[1]))  # bob owes 5M: his answer

    client.force_login(bob)
    bob_sees = client.get(reverse("lobby:home")).context
    client.force_login(alice)
    alice_sees = client.get(reverse("lobby:home")).context

    assert bob_sees["your_move"] == [game] and bob_sees["in_play"] == []
    assert alice_sees["your_move"] == [] and alice_sees["in_play"] == [game]


def test_it_counts_the_seats_taken_at_an_invitations_table(client, alice, bob, charlie):
    game = open_table(alice, charlie, private=True)
    Invitation.objects.create(game=game, user=bob, invited_by=alice)
    client.force_login(bob)

    response = client.get(reverse("lobby:home"))

    [invitation] = response.context["invitations"]
    assert invitation.taken == 2
    assert "2 / 3 players" in response.text


def test_it_leaves_out_the_invitation_to_a_table_i_sit_at(client, alice, bob):
    game = open_table(alice, bob, private=True)
    Invitation.objects.create(game=game, user=bob, invited_by=alice)
    client.force_login(bob)

    response = client.get(reverse("lobby:home"))

    assert response.context["invitations"] == []
    assert response.context["waiting_room"] == [game]
