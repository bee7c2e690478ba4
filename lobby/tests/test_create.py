import re

import pytest
from django.urls import reverse

from games.models import Game

pytestmark = pytest.mark.django_db

VALID = {
    "seat_count": "4",
    "pace": "live",
    "pace_seconds": "60",
    "pace_days": "3",
    "reserve_days": "3",
}


def test_it_shows_the_form(client, alice):
    client.force_login(alice)

    response = client.get(reverse("lobby:create"))

    assert response.status_code == 200
    assert 'name="seat_count"' in response.text
    assert 'name="built_sets"' in response.text
    assert 'name="private"' in response.text


def test_it_creates_a_table_and_seats_the_host(client, alice, django_capture_on_commit_callbacks):
    client.force_login(alice)

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(reverse("lobby:create"), VALID | {"enhanced": "on"})

    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("lobby:table", args=[game.code])
    assert game.host == alice
    assert game.status == Game.Status.OPEN
    assert game.seat_count == 4
    assert game.options == {"enhanced": True, "built_sets": False, "wild_moves_cost_a_play": False}
    assert (game.pace, game.pace_seconds, game.private) == ("live", 60, False)
    assert [(s.user, s.position) for s in game.seats.all()] == [(alice, 0)]
    assert len(callbacks) == 1  # the lobby hears of it after the commit


def test_it_creates_a_private_correspondence_table(client, alice):
    client.force_login(alice)

    client.post(
        reverse("lobby:create"),
        VALID | {"pace": "correspondence", "pace_days": "7", "reserve_days": "1", "private": "on"},
    )

    game = Game.objects.get()
    assert (game.pace, game.pace_days, game.private) == ("correspondence", 7, True)
    assert game.reserve_days == 1


def test_it_refuses_eleven_seats(client, alice):
    client.force_login(alice)

    response = client.post(reverse("lobby:create"), VALID | {"seat_count": "11"})

    assert response.status_code == 200
    assert response.context["form"].errors["seat_count"]
    assert not Game.objects.exists()


def test_it_refuses_a_pace_not_offered(client, alice):
    client.force_login(alice)

    response = client.post(reverse("lobby:create"), VALID | {"pace_seconds": "45"})

    assert response.context["form"].errors["pace_seconds"]
    assert not Game.objects.exists()


def test_it_refuses_built_sets_without_enhanced_and_keeps_the_values(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("lobby:create"),
        VALID | {"seat_count": "6", "built_sets": "on", "wild_moves_cost_a_play": "on"},
    )

    assert not Game.objects.exists()
    form = response.context["form"]
    assert form.errors["built_sets"] == ["Built sets are only played with the enhanced edition."]
    assert "Built sets are only played with the enhanced edition." in response.text
    assert re.search(r'<input [^>]*name="seat_count" value="6"', response.text)
    assert re.search(r'<input [^>]*name="built_sets"[^>]* checked', response.text)
    assert re.search(r'<input [^>]*name="wild_moves_cost_a_play"[^>]* checked', response.text)
    assert not re.search(r'<input [^>]*name="enhanced"[^>]* checked', response.text)


def test_it_asks_logged_out_visitors_to_log_in(client):
    response = client.get(reverse("lobby:create"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))


def test_it_groups_each_paces_fields_for_the_page_to_show_only_the_chosen_one(client, alice):
    client.force_login(alice)

    response = client.get(reverse("lobby:create"))

    text = response.text
    live = text[text.index('class="pace-times pace-live"') :]
    live = live[: live.index("</fieldset>")]
    correspondence = text[text.index('class="pace-times pace-correspondence"') :]
    correspondence = correspondence[: correspondence.index("</fieldset>")]
    assert 'name="pace_seconds"' in live and 'name="pace_days"' not in live
    assert 'name="pace_days"' in correspondence and 'name="reserve_days"' in correspondence
    assert 'name="pace_seconds"' not in correspondence
    assert re.search(r'<input [^>]*name="pace" value="live"[^>]* checked', text)
    assert "style=" not in text


def test_it_ignores_the_fields_of_the_pace_not_chosen(client, alice):
    client.force_login(alice)

    client.post(
        reverse("lobby:create"),
        {"seat_count": "3", "pace": "live", "pace_seconds": "30", "pace_days": "99"},
    )
    client.post(
        reverse("lobby:create"),
        {
            "seat_count": "3",
            "pace": "correspondence",
            "pace_days": "7",
            "reserve_days": "0",
            "pace_seconds": "bogus",
        },
    )

    live, correspondence = Game.objects.order_by("pk")
    assert (live.pace, live.pace_seconds, live.pace_days, live.reserve_days) == ("live", 30, 3, 3)
    assert (correspondence.pace, correspondence.pace_days) == ("correspondence", 7)
    assert (correspondence.reserve_days, correspondence.pace_seconds) == (0, 60)


def test_it_still_checks_the_fields_of_the_chosen_pace(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("lobby:create"), VALID | {"pace": "correspondence", "pace_days": "99"}
    )

    assert response.context["form"].errors["pace_days"]
    assert not Game.objects.exists()


def test_it_fills_the_empty_seats_with_computer_players_and_starts(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("lobby:create"), VALID | {"with_bots": "on", "bot_level": "random"}
    )

    game = Game.objects.get()
    assert response.url == reverse("games:table", args=[game.code])
    assert game.status == Game.Status.ACTIVE
    seats = list(game.seats.select_related("user"))
    assert len(seats) == 4
    assert sorted(seat.user.bot_level for seat in seats) == ["", "random", "random", "random"]
    assert game.seat_of(alice) is not None


def test_it_refuses_a_bad_computer_level_and_creates_nothing(client, alice):
    client.force_login(alice)

    response = client.post(reverse("lobby:create"), VALID | {"with_bots": "on", "bot_level": "x"})

    assert response.status_code == 200
    assert response.context["form"].errors["bot_level"]
    assert not Game.objects.exists()


def test_it_ignores_the_computer_level_without_the_computer_players(client, alice):
    client.force_login(alice)

    response = client.post(reverse("lobby:create"), VALID | {"bot_level": "x"})

    game = Game.objects.get()
    assert response.url == reverse("lobby:table", args=[game.code])
    assert game.status == Game.Status.OPEN
    assert game.seats.count() == 1
