"""The page of recently finished games: everyone's, newest first, each linking to its review."""

import pytest
from django.urls import reverse

from accounts.tests.test_stats import finished

pytestmark = pytest.mark.django_db


def test_it_lists_every_finished_game_newest_first(client, alice, bob, charlie):
    older = finished([alice, bob], ["win", "loss"], when=1)
    newer = finished([bob, charlie], ["draw", "draw"], when=2)
    client.force_login(charlie)

    response = client.get(reverse("games:recent"))

    assert [g.code for g in response.context["page"].object_list] == [newer.code, older.code]
    assert reverse("games:review", args=[older.code]) in response.text
    assert "No winner" in response.text


def test_it_costs_the_same_queries_for_many_games(
    client, alice, bob, charlie, django_assert_max_num_queries
):
    for n in range(15):
        finished([alice, bob, charlie], ["loss", "win", "loss"], when=n)
    client.force_login(alice)
    # The session, the user, the header's badges, the games, their seats with their players.
    with django_assert_max_num_queries(5):
        assert client.get(reverse("games:recent")).status_code == 200


def test_it_sends_a_logged_out_visitor_to_log_in(client):
    response = client.get(reverse("games:recent"))
    assert response.status_code == 302 and "/login/" in response.url


def test_it_links_the_site_pages_from_the_header(client, alice):
    client.force_login(alice)
    header = client.get(reverse("lobby:home")).text.split("</header>")[0]
    for name in ("lobby:tables", "games:recent", "accounts:leaderboard"):
        assert f'href="{reverse(name)}"' in header
