import pytest
from django.urls import reverse

from accounts.tests.test_stats import finished
from games.models import Game, Seat


def test_it_is_visible_to_anonymous_visitors(client, alice):
    response = client.get(reverse("accounts:profile", args=["alice"]))

    assert response.status_code == 200
    assert "<h1>Alice Liddell</h1>" in response.text
    assert "@alice" in response.text
    assert "Joined" in response.text
    assert response.context["totals"].games == 0
    assert "Not rated yet." in response.text


def test_it_counts_the_finished_games_played(client, alice, bob, charlie):
    for _ in range(2):
        finished([alice, bob], ["win", "loss"])
    finished([bob, charlie], ["draw", "draw"])
    unfinished = Game.objects.create(host=bob)
    Seat.objects.create(game=unfinished, user=bob, position=0)

    alices = client.get(alice.get_absolute_url())
    bobs = client.get(bob.get_absolute_url())
    charlies = client.get(charlie.get_absolute_url())

    assert alices.context["totals"].games == 2
    assert '<dd class="games-played">2</dd>' in alices.text
    assert bobs.context["totals"].games == 3
    assert charlies.context["totals"].games == 1


def test_it_shows_the_joined_date(client, alice):
    response = client.get(alice.get_absolute_url())

    assert f'datetime="{alice.date_joined:%Y-%m-%d}"' in response.text


def test_it_uses_the_username_without_a_display_name(client, bob):
    response = client.get(reverse("accounts:profile", args=["bob"]))

    assert "<h1>bob</h1>" in response.text
    assert "@bob" not in response.text


def test_it_links_to_settings_on_your_own_profile(client, alice):
    client.force_login(alice)

    response = client.get(alice.get_absolute_url())

    assert "Edit your settings" in response.text


def test_it_has_no_settings_link_on_someone_elses_profile(client, alice, charlie):
    client.force_login(charlie)

    response = client.get(alice.get_absolute_url())

    assert response.status_code == 200
    assert "Edit your settings" not in response.text


def test_it_never_shows_the_email_address(client, alice, charlie):
    client.force_login(charlie)

    response = client.get(alice.get_absolute_url())

    assert "alice@example.com" not in response.text


@pytest.mark.django_db
def test_it_404s_for_an_unknown_user(client):
    response = client.get(reverse("accounts:profile", args=["nobody"]))

    assert response.status_code == 404


def test_it_404s_for_a_deactivated_user(client, alice):
    alice.is_active = False
    alice.save()

    response = client.get(alice.get_absolute_url())

    assert response.status_code == 404
