import pytest
from django.urls import reverse

from games.models import Game
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def start(game):
    return reverse("lobby:start", args=[game.code])


def test_it_starts_with_two_players(client, alice, bob, django_capture_on_commit_callbacks):
    game = open_table(alice, bob, seat_count=4)
    client.force_login(alice)

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(start(game))

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seat_count == 2
    assert response.url == game.get_absolute_url()
    assert len(callbacks) == 2  # the game's sockets with the players' badges, and the lobby's


def test_it_refuses_a_player_who_is_not_the_host(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(bob)

    response = client.post(start(game))

    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_it_refuses_an_outsider(client, charlie, table):
    client.force_login(charlie)

    assert client.post(start(table)).status_code == 403


def test_it_needs_two_players(client, alice, table):
    client.force_login(alice)

    response = client.post(start(table), follow=True)

    table.refresh_from_db()
    assert table.status == Game.Status.OPEN
    assert "A game needs at least 2 players." in response.text


def test_it_refuses_a_game_already_started(client, alice, bob):
    game = open_table(alice, bob, seat_count=2).start()
    client.force_login(alice)

    response = client.post(start(game))

    assert [str(m) for m in response.wsgi_request._messages] == ["This game has already started."]
    game.refresh_from_db()
    assert game.version == 1


def test_it_answers_htmx_with_a_redirect_to_the_game(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(alice)

    response = client.post(start(game), headers={"HX-Request": "true"})

    assert response["HX-Redirect"] == game.get_absolute_url()
