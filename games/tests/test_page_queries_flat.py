"""The pages a player opens cost as many queries, and as much database work, with 400 finished
games as with 25 (issue 17).

The home page, the table, the profile, "your turn", the player's finished
games and everyone's (their first and their oldest page) and the leaderboard
read a player's history through indexes, a page at a time: none may count or
read it all. The finished games are made as page_bench makes them.
"""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import profile
from games.tools.management.commands.page_bench import finished_history
from games.views import GAMES_PER_PAGE

pytestmark = pytest.mark.django_db

FEW, MANY = 25, 400  # both more than a page (GAMES_PER_PAGE): each list has an oldest page


def page_paths(alice, oldest, table):
    return {
        "home": reverse("lobby:home"),
        "table": table.get_absolute_url(),
        "profile": reverse("accounts:profile", args=[alice.username]),
        "your turn": reverse("lobby:your_turn"),
        "finished": reverse("games:finished"),
        "finished, oldest": f"{reverse('games:finished')}?before={oldest}",
        "recent": reverse("games:recent"),
        "recent, oldest": f"{reverse('games:recent')}?before={oldest}",
        "leaderboard": reverse("accounts:leaderboard"),
    }


STEPS = 100  # SQLite VM instructions per count of the database's work


class Work:
    """Count SQLite's VM instructions, by STEPS (0 on PostgreSQL, which is not measured)."""

    def __init__(self):
        self.count = 0

    def step(self):
        self.count += 1

    def __enter__(self):
        if connection.vendor == "sqlite":
            connection.ensure_connection()
            connection.connection.set_progress_handler(self.step, STEPS)
        return self

    def __exit__(self, *exc):
        if connection.vendor == "sqlite":
            connection.connection.set_progress_handler(None, 0)


def queries_of(client, paths):
    """Return {page: (queries, database work)}.

    A count of every finished game, or a sort of them all, is one query, but
    its work grows with them.
    """
    found = {}
    for name, path in paths.items():
        client.get(path)  # the first request of a page may fill a cache
        with Work() as work, CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        assert response.status_code == 200, name
        found[name] = (len(queries), work.count)
    return found


def test_it_reads_as_many_queries_for_a_long_history_as_for_a_short_one(
    client, alice, bob, charlie, started_game, monkeypatch
):
    # The profile draws the last HISTORY_POINTS ratings: fewer than either history here.
    monkeypatch.setattr(profile, "HISTORY_POINTS", 10)
    client.force_login(alice)
    visitor = Client()  # bob, on alice's profile: his record against her
    visitor.force_login(bob)
    profile_of_alice = {"profile, a visitor's": reverse("accounts:profile", args=[alice.username])}
    first = finished_history(alice, [bob, charlie], FEW)
    # The page after this game holds the oldest games: the same games, with more after them.
    oldest = first[GAMES_PER_PAGE].code
    few = queries_of(client, page_paths(alice, oldest, started_game))
    few.update(queries_of(visitor, profile_of_alice))

    finished_history(alice, [bob, charlie], MANY - FEW)
    many = queries_of(client, page_paths(alice, oldest, started_game))
    many.update(queries_of(visitor, profile_of_alice))

    assert {page: queries for page, (queries, _work) in many.items()} == {
        page: queries for page, (queries, _work) in few.items()
    }
    for page, (_queries, work) in many.items():
        assert work <= few[page][1] * 1.1 + 10, f"{page}: work {few[page][1]}, then {work}"


def test_it_shows_the_oldest_page_of_a_long_history(client, alice, bob):
    games = finished_history(alice, [bob], MANY)
    client.force_login(alice)

    response = client.get(reverse("games:finished"), {"before": games[GAMES_PER_PAGE].code})

    shown = [row["review_url"].split("/")[2] for row in response.context["rows"]]
    assert shown == [game.code for game in reversed(games[:GAMES_PER_PAGE])]
    assert "before=" not in response.content.decode()


def test_it_reads_the_games_with_one_opponent_alike_however_many_others_follow(
    client, alice, bob, charlie
):
    first = finished_history(alice, [bob], FEW)
    oldest = first[GAMES_PER_PAGE].code
    client.force_login(alice)
    finished = reverse("games:finished")
    versus = reverse("accounts:versus", args=[alice.username, bob.username])
    paths = {
        "finished with bob": f"{finished}?opponent=bob",
        "finished with bob, oldest": f"{finished}?opponent=bob&before={oldest}",
        "alice against bob": versus,
        "alice against bob, oldest": f"{versus}?before={oldest}",
    }
    few = queries_of(client, paths)

    finished_history(alice, [charlie], MANY - FEW)  # newer games, none of them with bob
    many = queries_of(client, paths)

    assert {page: queries for page, (queries, _work) in many.items()} == {
        page: queries for page, (queries, _work) in few.items()
    }
    for page, (_queries, work) in many.items():
        assert work <= few[page][1] * 1.1 + 10, f"{page}: work {few[page][1]}, then {work}"
    shown = client.get(paths["finished with bob"]).context["rows"]
    assert [row["review_url"].split("/")[2] for row in shown] == [
        game.code for game in reversed(first[-GAMES_PER_PAGE:])
    ]
    page = client.get(paths["alice against bob, oldest"]).context["page"]
    assert [game.code for game in page.object_list] == [
        game.code for game in reversed(first[:GAMES_PER_PAGE])
    ]
