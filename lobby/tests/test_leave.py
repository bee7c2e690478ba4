import pytest
from django.urls import reverse

from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def leave(game):
    return reverse("lobby:leave", args=[game.code])


def test_it_frees_bobs_seat(client, alice, bob, django_capture_on_commit_callbacks):
    game = open_table(alice, bob)
    client.force_login(bob)

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(leave(game))

    assert game.seat_of(bob) is None
    assert response.url == reverse("lobby:home")
    assert len(callbacks) == 1


def test_it_refuses_the_host(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(alice)

    response = client.post(leave(game), follow=True)

    assert game.seat_of(alice) == 0
    assert "The host cannot leave the table; cancel it instead." in response.text


def test_it_refuses_once_the_game_has_started(client, alice, bob):
    game = open_table(alice, bob, seat_count=2).start()
    client.force_login(bob)

    client.post(leave(game))

    assert game.seat_of(bob) == 1


def test_it_answers_htmx_with_the_room(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(bob)

    response = client.post(leave(game), headers={"HX-Request": "true"})

    assert "1 of 3 seats taken" in response.text
    assert reverse("lobby:join", args=[game.code]) in response.text
