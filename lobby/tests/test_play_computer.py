"""Play the computer: one click on the home page creates, fills and starts a live table."""

import pytest
from django.urls import reverse

from games.models import Game

pytestmark = pytest.mark.django_db


def test_it_creates_fills_and_starts_a_live_table_and_opens_it(
    client, alice, django_capture_on_commit_callbacks
):
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("lobby:play_computer"), {"level": "strong", "seat_count": "3"}
        )

    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[game.code])
    assert game.status == Game.Status.ACTIVE
    assert (game.host, game.seat_count, game.private) == (alice, 3, False)
    assert (game.pace, game.pace_seconds) == (Game.Pace.LIVE, 60)
    seats = list(game.seats.select_related("user").order_by("position"))
    assert [seat.user for seat in seats].count(alice) == 1
    bots = [seat.user for seat in seats if seat.user != alice]
    assert [bot.bot_level for bot in bots] == ["strong", "strong"]
    assert len({bot.pk for bot in bots}) == 2


def test_it_opens_a_table_the_player_may_play_at(client, alice):
    client.force_login(alice)
    response = client.post(reverse("lobby:play_computer"), {"level": "basic", "seat_count": "2"})

    table = client.get(response.url)

    assert table.status_code == 200
    assert Game.objects.get().seat_of(alice) is not None


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"level": "genius", "seat_count": "2"},
            "Choose a computer level: Random, Basic or Strong.",
        ),
        ({"seat_count": "2"}, "Choose a computer level: Random, Basic or Strong."),
        ({"level": "basic", "seat_count": "6"}, "Choose from 2 to 5 players."),
        ({"level": "basic", "seat_count": "1"}, "Choose from 2 to 5 players."),
        ({"level": "basic", "seat_count": "two"}, "Choose from 2 to 5 players."),
    ],
)
def test_it_refuses_bad_input_on_the_home_page_and_creates_nothing(client, alice, data, message):
    client.force_login(alice)

    response = client.post(reverse("lobby:play_computer"), data)

    assert response.status_code == 200
    assert "lobby/home.html" in [t.name for t in response.templates]
    assert message in response.text
    assert 'role="alert"' in response.text
    assert not Game.objects.exists()
    assert not alice.__class__.objects.exclude(bot_level="").exists()


def test_it_asks_logged_out_visitors_to_log_in(client):
    response = client.post(reverse("lobby:play_computer"), {"level": "basic", "seat_count": "2"})

    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))
    assert not Game.objects.exists()


def test_it_sends_a_get_back_home(client, alice):
    client.force_login(alice)

    response = client.get(reverse("lobby:play_computer"))

    assert response.status_code == 302
    assert response.url == reverse("lobby:home")
    assert not Game.objects.exists()


def test_it_refuses_a_post_without_the_csrf_token(alice):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post(reverse("lobby:play_computer"), {"level": "basic", "seat_count": "2"})

    assert response.status_code == 403
    assert not Game.objects.exists()


def test_a_computer_player_is_named_in_the_readers_language(client, alice):
    client.force_login(alice)
    response = client.post(reverse("lobby:play_computer"), {"level": "basic", "seat_count": "2"})
    table_url, home = response.url, reverse("lobby:home")

    english = client.get(table_url).text + client.get(home).text
    alice.language = "zh-hans"
    alice.save()
    chinese = client.get(table_url).text + client.get(home).text

    assert "Basic bot 1" in english and "基础电脑 1" not in english
    assert "基础电脑 1" in chinese and "Basic bot 1" not in chinese


@pytest.mark.parametrize("seconds", [30, 120])
def test_it_plays_at_the_time_per_decision_chosen(client, alice, seconds):
    client.force_login(alice)
    home = client.get(reverse("lobby:home")).text
    assert 'name="pace_seconds" value="60"' in home and "120 seconds" in home

    client.post(
        reverse("lobby:play_computer"),
        {"level": "basic", "seat_count": "2", "pace_seconds": str(seconds)},
    )

    assert Game.objects.get().pace_seconds == seconds


def test_it_refuses_a_time_per_decision_not_offered(client, alice):
    client.force_login(alice)

    response = client.post(
        reverse("lobby:play_computer"),
        {"level": "basic", "seat_count": "2", "pace_seconds": "1"},
    )

    assert "Choose a time per decision." in response.text
    assert not Game.objects.exists()
