"""Quick game: a seat at the fitting open table that has waited longest, else a new table."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def waited(game, minutes):
    Game.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(minutes=minutes))
    return game


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "x")


def test_it_seats_me_at_the_table_that_has_waited_longest(client, alice, bob, charlie):
    newer = waited(open_table(alice, seat_count=3), 5)
    older = waited(open_table(bob, seat_count=3), 30)
    client.force_login(charlie)

    response = client.post(reverse("lobby:quick_game"))

    assert response.status_code == 302
    assert response.url == reverse("lobby:table", args=[older.code])
    assert older.seat_of(charlie) is not None
    assert newer.seat_of(charlie) is None
    assert Game.objects.count() == 2


def test_it_never_picks_a_private_full_started_correspondence_or_own_table(
    client, alice, bob, charlie, dave
):
    waited(open_table(bob, seat_count=3, private=True), 60)
    waited(open_table(bob, alice, seat_count=2), 55)  # full
    started = waited(open_table(bob, alice, seat_count=3), 50)
    Game.objects.filter(pk=started.pk).update(status=Game.Status.ACTIVE)
    waited(open_table(bob, seat_count=3, pace=Game.Pace.CORRESPONDENCE), 45)
    waited(open_table(charlie, seat_count=3), 40)  # charlie's own
    waited(open_table(bob, charlie, seat_count=3), 35)  # charlie sits there already
    fitting = waited(open_table(dave, seat_count=4), 1)
    client.force_login(charlie)

    response = client.post(reverse("lobby:quick_game"))

    assert response.url == reverse("lobby:table", args=[fitting.code])
    assert fitting.seat_of(charlie) is not None
    assert Game.objects.filter(seats__user=charlie).count() == 3  # own, already there, fitting


def test_it_opens_the_game_when_my_seat_fills_the_table(client, alice, bob):
    table = open_table(alice, seat_count=2)
    client.force_login(bob)

    response = client.post(reverse("lobby:quick_game"))

    table.refresh_from_db()
    assert table.status == Game.Status.ACTIVE
    assert response.url == reverse("games:table", args=[table.code])


def test_it_creates_a_live_table_when_none_fits(client, alice, bob):
    open_table(bob, seat_count=3, private=True)
    client.force_login(alice)

    response = client.post(reverse("lobby:quick_game"), follow=True)

    game = Game.objects.get(host=alice)
    assert response.redirect_chain == [(reverse("lobby:table", args=[game.code]), 302)]
    assert game.status == Game.Status.OPEN
    assert (game.pace, game.pace_seconds, game.seat_count, game.private) == ("live", 60, 4, False)
    assert [seat.user for seat in game.seats.all()] == [alice]
    assert "No table was waiting for players" in response.text


def test_it_sends_me_back_to_my_own_waiting_table_instead_of_opening_another(client, alice):
    client.force_login(alice)
    client.post(reverse("lobby:quick_game"))

    response = client.post(reverse("lobby:quick_game"))

    game = Game.objects.get()
    assert response.url == reverse("lobby:table", args=[game.code])


def test_it_tries_the_next_table_when_the_first_fills_meanwhile(
    client, monkeypatch, alice, bob, charlie
):
    first = waited(open_table(alice, seat_count=3), 30)
    second = waited(open_table(bob, seat_count=3), 10)
    join = Game.join

    def racing_join(game, user):
        if game.pk == first.pk:  # someone else took the last seat, and it started
            Game.objects.filter(pk=first.pk).update(status=Game.Status.ACTIVE)
        return join(game, user)

    monkeypatch.setattr(Game, "join", racing_join)
    client.force_login(charlie)

    response = client.post(reverse("lobby:quick_game"))

    assert response.url == reverse("lobby:table", args=[second.code])
    assert second.seat_of(charlie) is not None


def test_it_asks_logged_out_visitors_to_log_in_and_ignores_a_get(client, alice, table):
    response = client.post(reverse("lobby:quick_game"))
    assert response.url.startswith(reverse("accounts:login"))

    client.force_login(alice)
    response = client.get(reverse("lobby:quick_game"))
    assert response.url == reverse("lobby:home")
    assert Game.objects.count() == 1
