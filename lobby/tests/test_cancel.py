import pytest
from django.urls import reverse

from games.models import Game
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def cancel(game):
    return reverse("lobby:cancel", args=[game.code])


def test_it_cancels_the_table(client, alice, bob, django_capture_on_commit_callbacks):
    game = open_table(alice, bob)
    client.force_login(alice)

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(cancel(game), follow=True)

    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert game.ended_at is not None
    assert response.redirect_chain == [(reverse("lobby:home"), 302)]
    assert "The table is cancelled." in response.text
    assert response.context["open_tables"] == []
    assert len(callbacks) == 1


def test_it_refuses_a_player_who_is_not_the_host(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(bob)

    assert client.post(cancel(game)).status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_it_refuses_a_started_game(client, alice, bob):
    game = open_table(alice, bob, seat_count=2).start()
    client.force_login(alice)

    client.post(cancel(game))

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_it_answers_htmx_with_a_redirect_home(client, alice, table):
    client.force_login(alice)

    response = client.post(cancel(table), headers={"HX-Request": "true"})

    assert response["HX-Redirect"] == reverse("lobby:home")
