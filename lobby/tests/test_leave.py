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


def test_it_bounds_how_often_one_player_sits_down_and_leaves(client, alice, bob, charlie, settings):
    # Each seat taken or left redraws the header of every player at the table: a player
    # who joins and leaves in a loop would have the server redraw them without end.
    settings.SEATINGS_PER_MINUTE = 4
    game = open_table(alice, seat_count=3)
    client.force_login(bob)
    join = reverse("lobby:join", args=[game.code])
    for _ in range(2):
        client.post(join)
        client.post(leave(game))

    refused = client.post(join, follow=True)

    assert game.seat_of(bob) is None
    assert "You are sitting down and leaving too fast." in refused.text
    client.force_login(charlie)  # another player is not slowed down by bob
    client.post(join)
    assert game.seat_of(charlie) is not None
