"""The list of a player's finished games, newest first, filtered by opponent, paginated."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.urls import reverse

from accounts.models import GameTogether
from games.models import Game, Seat
from games.tests.review_helpers import started_game, stored_game
from games.views import GAMES_PER_PAGE

pytestmark = pytest.mark.django_db

URL = reverse("games:finished")


def codes(response):
    return [row["review_url"].split("/")[2] for row in response.context["rows"]]


def ended_hours_ago(game, hours):
    game.ended_at = game.ended_at - timedelta(hours=hours)
    game.save(update_fields=["ended_at"])
    game.seats.update(ended_at=game.ended_at)  # as Game.play leaves a finished game
    GameTogether.objects.filter(game=game).update(ended_at=game.ended_at)
    return game


def test_it_lists_my_finished_games_newest_first_with_their_reviews(client, alice, bob, charlie):
    old = ended_hours_ago(stored_game([alice, bob], seed=9), 5)
    new = ended_hours_ago(stored_game([charlie, alice], seed=8), 1)
    stored_game([bob, charlie], seed=7)  # not alice's
    Game.objects.create(host=alice)  # not finished
    client.force_login(alice)

    response = client.get(URL)

    assert response.status_code == 200
    assert codes(response) == [new.code, old.code]
    html = response.content.decode()
    assert reverse("games:review", args=[new.code]) in html
    result = Seat.objects.get(game=new, user=alice).get_result_display()
    assert response.context["rows"][0]["result"] == result


def test_it_lists_another_players_games_against_one_opponent(client, alice, bob, charlie):
    with_bob = stored_game([alice, bob], seed=9)
    stored_game([alice, charlie], seed=8)
    client.force_login(charlie)

    response = client.get(URL, {"player": "alice", "opponent": "bob"})

    assert codes(response) == [with_bob.code]
    assert client.get(URL, {"player": "alice", "opponent": "nobody"}).context["rows"] == []


def test_it_pages_a_long_list(client, alice, bob):
    games = [
        ended_hours_ago(stored_game([alice, bob], seed=9), h) for h in range(GAMES_PER_PAGE + 2)
    ]
    client.force_login(bob)

    first = client.get(URL, {"player": "alice"})
    older = games[GAMES_PER_PAGE - 1].code
    second = client.get(URL, {"player": "alice", "before": older})
    back = client.get(URL, {"player": "alice", "after": games[GAMES_PER_PAGE].code})

    assert codes(first) == [g.code for g in games[:GAMES_PER_PAGE]]
    assert codes(second) == [g.code for g in games[GAMES_PER_PAGE:]]
    assert codes(back) == codes(first)
    assert f"player=alice&amp;before={older}" in first.content.decode()
    assert f"after={games[GAMES_PER_PAGE].code}" in second.content.decode()
    assert "before=" not in second.content.decode()  # the oldest page


def test_it_shows_the_first_page_for_a_code_not_in_the_list(client, alice, bob, charlie):
    mine = stored_game([alice, bob], seed=9)
    theirs = stored_game([bob, charlie], seed=8)
    client.force_login(alice)

    for cursor in ({"before": theirs.code}, {"after": "nosuchgame"}, {"before": "a\x00b"}):
        response = client.get(URL, cursor)
        assert response.status_code == 200
        assert codes(response) == [mine.code]


def test_it_answers_404_for_an_unknown_player(client, alice):
    client.force_login(alice)

    assert client.get(URL, {"player": "nobody"}).status_code == 404


def test_it_answers_for_a_closed_account_as_for_an_unknown_one(client, alice, bob):
    stored_game([alice, bob], seed=9)
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    client.force_login(alice)

    assert client.get(URL, {"player": "bob"}).status_code == 404  # as its profile
    together = client.get(URL, {"player": "alice", "opponent": "bob"})
    nobody = client.get(URL, {"player": "alice", "opponent": "nobody"})
    assert together.context["rows"] == [] == nobody.context["rows"]


def test_it_sends_a_logged_out_visitor_to_log_in(client):
    assert client.get(URL).status_code == 302


def test_it_lists_a_game_as_soon_as_it_ends_by_a_move(client, alice, bob):
    game = started_game([alice, bob], seed=7)
    client.force_login(alice)

    client.post(reverse("games:resign", args=[game.code]))

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert {seat.ended_at for seat in game.seats.all()} == {game.ended_at}
    assert codes(client.get(URL)) == [game.code]
    assert client.get(reverse("lobby:home")).context["finished"] == [game]


def test_it_copies_the_end_of_the_games_finished_before_the_migration(alice, bob, charlie):
    finished = stored_game([alice, bob], seed=9)
    playing = started_game([bob, charlie], seed=8)
    Seat.objects.update(ended_at=None)
    migration = importlib.import_module("games.migrations.0009_page_indexes")

    migration.copy_ends(django_apps, None)

    assert {seat.ended_at for seat in finished.seats.all()} == {finished.ended_at}
    assert {seat.ended_at for seat in playing.seats.all()} == {None}
