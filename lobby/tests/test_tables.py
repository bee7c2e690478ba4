import pytest
from django.urls import reverse

from games.models import Game
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def test_it_lists_open_public_tables_only(client, alice, bob, charlie):
    public = open_table(alice)
    private = open_table(bob, private=True)
    started = open_table(charlie, alice, seat_count=2).start()
    cancelled = open_table(charlie).cancel()

    response = client.get(reverse("lobby:tables"))

    assert response.context["open_tables"] == [public]
    for hidden in (private, started, cancelled):
        assert hidden.code not in response.text


def test_it_describes_each_table(client, alice, bob):
    game = open_table(
        alice,
        bob,
        seat_count=4,
        options={"enhanced": True, "built_sets": True},
        pace=Game.Pace.CORRESPONDENCE,
        pace_days=3,
    )

    response = client.get(reverse("lobby:tables"))

    assert "Alice Liddell" in response.text
    assert "2 / 4" in response.text
    assert "Enhanced edition, built sets" in response.text
    assert "Correspondence, 3 days per move, reserve 3 days" in response.text
    assert reverse("lobby:join", args=[game.code]) in response.text


def test_it_shows_my_own_table_without_a_join_button(client, alice, table):
    client.force_login(alice)

    response = client.get(reverse("lobby:tables"))

    assert "Your table" in response.text
    assert reverse("lobby:join", args=[table.code]) not in response.text


def test_it_connects_a_logged_in_user_to_the_lobby_socket(client, bob):
    client.force_login(bob)
    response = client.get(reverse("lobby:tables"))

    assert 'ws-connect="/ws/lobby/"' in response.text
    assert "No open tables right now" in response.text


def test_it_opens_no_lobby_socket_for_an_anonymous_visitor(client):
    response = client.get(reverse("lobby:tables"))

    assert "ws-connect" not in response.text
    assert "No open tables right now" in response.text
