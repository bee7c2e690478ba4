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


def test_it_lists_at_most_the_newest_tables_of_each_host(client, settings, alice, bob):
    settings.LOBBY_TABLES_PER_HOST = 3
    flood = [open_table(alice) for _ in range(6)]
    honest = open_table(bob)

    response = client.get(reverse("lobby:tables"))

    listed = response.context["open_tables"]
    assert listed == [honest, *reversed(flood[-3:])]
    for older in flood[:3]:
        assert older.code not in response.text


def test_it_pages_the_open_tables(client, settings, alice, bob, charlie):
    settings.LOBBY_PAGE_TABLES = 2
    games = [open_table(host) for host in (alice, bob, charlie)]

    first = client.get(reverse("lobby:tables"))
    second = client.get(reverse("lobby:tables"), {"page": 2})

    assert first.context["open_tables"] == [games[2], games[1]]
    assert f'href="{reverse("lobby:tables")}?page=2"' in first.text
    assert second.context["open_tables"] == [games[0]]
    assert "Older tables" not in second.text
    assert f'href="{reverse("lobby:tables")}">Newer tables' in second.text


def test_it_keeps_only_the_first_page_live(client, settings, alice, bob):
    settings.LOBBY_PAGE_TABLES = 1
    open_table(alice)
    open_table(bob)
    client.force_login(bob)

    assert 'ws-connect="/ws/lobby/"' in client.get(reverse("lobby:tables")).text
    assert "/ws/lobby/" not in client.get(reverse("lobby:tables"), {"page": 2}).text


def test_it_reads_a_bad_page_number_as_the_first_page(client, alice, table):
    for page in ("x", "-3", "0"):
        response = client.get(reverse("lobby:tables"), {"page": page})

        assert response.status_code == 200
        assert response.context["open_tables"] == [table]


def test_it_says_when_a_page_is_past_the_last(client, table):
    response = client.get(reverse("lobby:tables"), {"page": 5})

    assert "No more open tables." in response.text
    assert table.code not in response.text


def test_it_shows_the_first_page_on_the_home_page_with_a_link_to_the_next(
    client, settings, alice, bob
):
    settings.LOBBY_PAGE_TABLES = 1
    open_table(alice)
    newest = open_table(bob)

    response = client.get(reverse("lobby:home"))

    assert response.context["open_tables"] == [newest]
    assert f'href="{reverse("lobby:tables")}?page=2"' in response.text


def test_it_lists_every_table_of_a_host_when_unbounded(client, settings, alice):
    settings.LOBBY_TABLES_PER_HOST = 0
    games = [open_table(alice) for _ in range(5)]

    response = client.get(reverse("lobby:tables"))

    assert response.context["open_tables"] == games[::-1]


def test_it_reads_a_page_with_its_hosts_and_seats_taken_in_one_query(
    alice, bob, charlie, django_assert_num_queries
):
    from lobby.views import listed_tables

    open_table(alice, bob)
    open_table(charlie, seat_count=4)

    with django_assert_num_queries(1):
        listed, more = listed_tables()
        shown = [(game.host.name, game.taken, game.seat_count) for game in listed]

    assert shown == [("charlie", 1, 4), ("Alice Liddell", 2, 3)]
    assert not more
