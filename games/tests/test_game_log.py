"""The whole log of a game: every move in words with its time, public information only."""

import pytest
from django.urls import reverse

from games import rules
from games.models import Game, Move
from games.tests.helpers import card_ids
from games.tests.review_helpers import stored_game

pytestmark = pytest.mark.django_db


def log_url(game):
    return reverse("games:log", args=[game.code])


def test_it_shows_a_seated_player_every_move_of_their_game_in_play(client, alice, table_game):
    first = table_game.state().current
    for _move in range(20):
        state = table_game.state()
        seat = rules.awaiting(state)[0][0]
        table_game.play(seat, rules.default_move(state, seat))  # ends turns, discards over 7
    fourth = table_game.moves.order_by("n")[3]
    Move.objects.filter(pk=fourth.pk).update(cause=Move.Cause.TIMEOUT)
    client.force_login(alice)

    response = client.get(log_url(table_game))

    assert response.status_code == 200
    html = response.content.decode()
    lines = response.context["lines"]
    assert len(lines) == table_game.moves.count() > 15  # more than the table's last moves
    assert lines[0]["text"] == f"{['alice', 'bob'][first]} ended the turn"
    assert "(out of time)" in lines[3]["text"]
    assert html.count("<time") == len(lines)
    assert not card_ids(html), "no card of any hand or pile is drawn"
    assert "Review the game" not in html


def test_it_refuses_the_log_of_a_game_in_play_to_an_outsider(client, charlie, table_game):
    client.force_login(charlie)

    response = client.get(log_url(table_game))

    assert response.status_code == 403
    assert "Only the players at this table" in response.content.decode()


def test_it_shows_the_log_of_a_finished_game_to_anyone_logged_in(client, alice, bob, charlie):
    game = stored_game([alice, bob], seed=9)
    client.force_login(charlie)

    response = client.get(log_url(game))

    assert response.status_code == 200
    assert len(response.context["lines"]) == game.moves.count()
    assert "Review the game" in response.content.decode()


def test_it_links_the_table_to_its_whole_log_for_its_players(client, alice, charlie, table_game):
    client.force_login(alice)
    assert log_url(table_game) in client.get(table_game.get_absolute_url()).content.decode()
    client.force_login(charlie)
    assert log_url(table_game) not in client.get(table_game.get_absolute_url()).content.decode()


def test_it_sends_a_logged_out_visitor_to_log_in(client, table_game):
    assert client.get(log_url(table_game)).status_code == 302
    assert Game.objects.count() == 1
