import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Game, Invitation
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def join(game):
    return reverse("lobby:join", args=[game.code])


def test_it_seats_bob_in_the_first_free_seat(
    client, bob, table, django_capture_on_commit_callbacks
):
    client.force_login(bob)

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(join(table))

    assert response.status_code == 302
    assert response.url == reverse("lobby:table", args=[table.code])
    assert table.seat_of(bob) == 1
    assert len(callbacks) == 1  # the lobby and the seated players, after the commit


def test_it_fills_the_seat_a_player_left(client, alice, bob, charlie):
    dave = get_user_model().objects.create_user("dave")
    game = open_table(alice, charlie, dave, seat_count=4)
    game.leave(charlie)
    client.force_login(bob)

    client.post(join(game))

    assert game.seat_of(bob) == 1


def test_it_does_nothing_for_a_player_already_seated(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(bob)

    client.post(join(game))

    assert game.seats.count() == 2


def test_it_refuses_a_full_table(client, alice, bob, charlie):
    game = open_table(alice, bob, seat_count=2)  # full, but not started (yet)
    client.force_login(charlie)

    response = client.post(join(game), follow=True)

    assert game.seat_of(charlie) is None
    assert "This table is full." in response.text


def test_it_refuses_a_started_table(client, alice, bob, charlie):
    game = open_table(alice, bob, seat_count=2).start()
    client.force_login(charlie)

    response = client.post(join(game))

    assert game.seat_of(charlie) is None
    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == ["This game has already started."]


def test_it_refuses_a_cancelled_table(client, bob, table):
    table.cancel()
    client.force_login(bob)

    response = client.post(join(table), follow=True)

    assert table.seat_of(bob) is None
    assert "This table was cancelled." in response.text


def test_it_starts_the_game_when_the_last_seat_is_taken(client, alice, bob, charlie):
    game = open_table(alice, bob)
    client.force_login(charlie)

    response = client.post(join(game))

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.state().seats == [alice.pk, bob.pk, charlie.pk]
    assert response.url == game.get_absolute_url()


def test_it_refuses_a_private_table_without_invitation(client, charlie, private_table):
    client.force_login(charlie)

    response = client.post(join(private_table))

    assert response.status_code == 404
    assert private_table.seat_of(charlie) is None


def test_it_seats_an_invited_player_at_a_private_table(client, alice, bob, private_table):
    Invitation.objects.create(game=private_table, user=bob, invited_by=alice)
    client.force_login(bob)

    client.post(join(private_table))

    assert private_table.seat_of(bob) == 1


def test_it_answers_htmx_with_the_room(client, bob, table):
    client.force_login(bob)

    response = client.post(join(table), headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="room"')
    assert "2 of 3 seats taken" in response.text
    assert "<html" not in response.text


def test_it_answers_htmx_with_a_redirect_when_the_game_starts(client, alice, bob, charlie):
    game = open_table(alice, bob)
    client.force_login(charlie)

    response = client.post(join(game), headers={"HX-Request": "true"})

    assert response["HX-Redirect"] == game.get_absolute_url()


def test_it_answers_htmx_with_the_reason_of_a_refusal(client, alice, bob, charlie):
    game = open_table(alice, bob, seat_count=2)
    client.force_login(charlie)

    response = client.post(join(game), headers={"HX-Request": "true"})

    assert "This table is full." in response.text


def test_it_shows_the_room_on_get(client, bob, table):
    client.force_login(bob)

    response = client.get(join(table))

    assert response.url == reverse("lobby:table", args=[table.code])
    assert table.seat_of(bob) is None
