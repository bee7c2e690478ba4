"""The waiting room of a table that has not started."""

import pytest
from django.urls import reverse

from games.models import Invitation
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def room(game):
    return reverse("lobby:table", args=[game.code])


def test_it_shows_the_seats_options_pace_and_host(client, alice, bob):
    game = open_table(alice, bob, seat_count=4, options={"wild_moves_cost_a_play": True})
    client.force_login(bob)

    response = client.get(room(game))

    assert response.status_code == 200
    text = response.text
    assert "2 of 4 seats taken" in text
    assert text.count('class="seat free"') == 2
    assert "Alice Liddell" in text and "bob" in text
    assert "Standard rules, wild moves cost a play" in text
    assert "Live, 60 s per decision" in text
    assert f'ws-connect="/ws/lobby/{game.code}/"' in text


def test_it_offers_an_outsider_to_join(client, charlie, table):
    client.force_login(charlie)

    response = client.get(room(table))

    assert response.context["can_join"]
    assert reverse("lobby:join", args=[table.code]) in response.text
    assert reverse("lobby:start", args=[table.code]) not in response.text
    assert reverse("lobby:cancel", args=[table.code]) not in response.text
    assert table.share_token not in response.text


def test_it_offers_a_seated_player_to_leave_and_the_share_link(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(bob)

    response = client.get(room(game))

    assert f'action="{reverse("lobby:leave", args=[game.code])}"' in response.text
    assert f'action="{reverse("lobby:join", args=[game.code])}"' not in response.text
    assert reverse("lobby:cancel", args=[game.code]) not in response.text
    assert f"http://testserver/t/{game.code}/join/{game.share_token}/" in response.text


def test_it_offers_the_host_start_cancel_and_invite(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(alice)

    response = client.get(room(game))

    for name in ("start", "cancel", "invite"):
        assert reverse(f"lobby:{name}", args=[game.code]) in response.text
    assert reverse("lobby:leave", args=[game.code]) not in response.text


def test_it_offers_no_start_to_a_host_alone(client, alice, table):
    client.force_login(alice)

    response = client.get(room(table))

    assert reverse("lobby:start", args=[table.code]) not in response.text


def test_it_asks_a_logged_out_visitor_to_log_in_to_join(client, table):
    response = client.get(room(table))

    assert response.status_code == 200
    assert f"/accounts/login/?next=/t/{table.code}/" in response.text


def test_it_hides_a_private_table_from_outsiders(client, charlie, private_table):
    client.force_login(charlie)

    assert client.get(room(private_table)).status_code == 404


def test_it_hides_a_private_table_from_logged_out_visitors(client, private_table):
    assert client.get(room(private_table)).status_code == 404


def test_it_shows_a_private_table_to_an_invited_player(client, alice, bob, private_table):
    Invitation.objects.create(game=private_table, user=bob, invited_by=alice)
    client.force_login(bob)

    assert client.get(room(private_table)).status_code == 200


def test_it_sends_players_to_the_game_once_it_has_started(client, alice, bob):
    game = open_table(alice, bob, seat_count=2).start()
    client.force_login(bob)

    response = client.get(room(game))

    assert response.status_code == 302
    assert response.url == game.get_absolute_url()


def test_it_redirects_htmx_to_the_game_once_it_has_started(client, alice, bob):
    game = open_table(alice, bob, seat_count=2).start()
    client.force_login(bob)

    response = client.get(room(game), headers={"HX-Request": "true"})

    assert response["HX-Redirect"] == game.get_absolute_url()


def test_it_says_when_a_table_was_cancelled(client, bob, table):
    table.cancel()
    client.force_login(bob)

    response = client.get(room(table))

    assert "This table was cancelled." in response.text
    assert reverse("lobby:join", args=[table.code]) not in response.text


def test_it_answers_404_for_an_unknown_code(client):
    assert client.get("/t/nosuchcode/").status_code == 404
