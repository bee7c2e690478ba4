"""The header's badges: games waiting for me and unread notifications, on every page."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import rules
from games.models import Game, Notification
from lobby.context_processors import nav_counts
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def started(host, *players, **fields):
    return open_table(host, *players, seat_count=len(players) + 1, **fields).start()


def waiting_for(user, game):
    """Make `game` (of two) wait for `user`: the other player ends their turn if need be."""
    state = game.state()
    if state.current != game.seat_of(user):
        game.play(state.current, rules.Move.end())
    return game


def request_of(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


def test_it_counts_the_games_waiting_for_me_and_my_unread_notifications(
    alice, bob, charlie, django_assert_num_queries
):
    mine = waiting_for(alice, started(alice, bob))
    waiting_for(alice, started(charlie, alice))
    waiting_for(bob, started(alice, bob))  # waits for bob, not alice
    finished = waiting_for(alice, started(alice, charlie))
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    Notification.objects.all().delete()
    Notification.objects.create(user=alice, game=mine, kind=Notification.Kind.YOUR_TURN)
    Notification.objects.create(user=alice, game=mine, kind=Notification.Kind.ENDED)
    Notification.objects.create(user=bob, game=mine, kind=Notification.Kind.ENDED)
    read = Notification.objects.create(user=alice, game=mine, kind=Notification.Kind.ENDED)
    Notification.objects.filter(pk=read.pk).update(read_at=read.created_at)

    nav = nav_counts(request_of(alice))["nav"]

    with django_assert_num_queries(1):  # both counts in one query
        assert (nav.your_turn, nav.unread) == (2, 2)
        assert (nav.your_turn, nav.unread) == (2, 2)  # counted once per page


def test_it_costs_nothing_for_anonymous_visitors(django_assert_num_queries):
    nav = nav_counts(request_of(AnonymousUser()))["nav"]

    with django_assert_num_queries(0):
        assert (nav.your_turn, nav.unread) == (0, 0)


def test_it_shows_the_badges_in_the_header_of_every_page(client, alice, bob):
    game = waiting_for(alice, started(alice, bob, pace=Game.Pace.CORRESPONDENCE))
    Notification.objects.create(user=alice, game=game, kind=Notification.Kind.ENDED)
    client.force_login(alice)

    for url in [reverse("lobby:home"), reverse("lobby:tables"), reverse("accounts:settings")]:
        text = client.get(url).text
        header = text[text.index("<header") : text.index("</header>")]
        assert 'hx-ext="ws" ws-connect="/ws/me/' in header
        assert f'<a id="nav-your-turn" href="{reverse("lobby:your_turn")}" class="has-badge">' in (
            header
        )
        assert (
            '<span class="badge" aria-hidden="true">1</span><span class="visually-hidden">1 game waiting for you</span>'
            in header
        )
        assert (
            '<span class="badge" aria-hidden="true">2</span><span class="visually-hidden">2 unread notifications</span>'
            in header
        )


def test_it_shows_no_badge_for_a_count_of_zero(client, alice):
    client.force_login(alice)

    text = client.get(reverse("lobby:home")).text

    assert f'<a id="nav-your-turn" href="{reverse("lobby:your_turn")}">Your turn</a>' in text
    assert 'class="badge"' not in text


def test_it_shows_no_badges_and_opens_no_socket_for_anonymous_visitors(client):
    text = client.get(reverse("lobby:home")).text

    assert 'id="nav-badges"' not in text
    assert "/ws/me/" not in text


def test_it_costs_no_query_in_fragments_without_a_header(client, alice, bob, table):
    client.force_login(alice)

    with CaptureQueriesContext(connection) as captured:
        client.post(
            reverse("lobby:invite", args=[table.code]),
            {"username": "bob"},
            headers={"HX-Request": "true"},
        )

    counts = [q["sql"] for q in captured if "COUNT" in q["sql"]]
    assert not [sql for sql in counts if "notification" in sql or "deadline" in sql]
