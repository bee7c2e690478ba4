"""Each page a player opens makes a fixed, small number of queries, and reads no column twice.

Issue 17: every query of a page costs about a millisecond of server CPU to
build and run. The counts below are today's: a page that needs one more
query fails here, on purpose (raise its count only with a reason). The
lists read only the columns they show (games/history/lists.py); a template that
touched a column left out would read it again, one query per row: no page
may load a deferred field.
"""

import pytest
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, Invitation, Seat
from games.tests.test_page_queries_flat import page_paths
from games.tools.management.commands.page_bench import finished_history
from games.views import GAMES_PER_PAGE

pytestmark = pytest.mark.django_db

# The session, the user, the header's badges (one query), then the page's own.
QUERIES = {
    "home": 9,
    "table": 10,
    "profile": 9,
    "your turn": 8,
    "finished": 5,
    "finished, oldest": 6,
    "recent": 5,
    "recent, oldest": 6,
    "leaderboard": 5,
    "finished with bob": 6,
    "alice against bob": 6,
}


@pytest.fixture
def no_deferred_reads(monkeypatch):
    """Fail any read of a column a query left out (Model.refresh_from_db of deferred fields)."""
    read = Model.refresh_from_db

    def refresh(self, using=None, fields=None, **kwargs):
        if fields is not None:
            raise AssertionError(f"{type(self).__name__}.{', '.join(fields)} read again")
        return read(self, using=using, fields=fields, **kwargs)

    monkeypatch.setattr(Model, "refresh_from_db", refresh)


def table(host, *players, **fields):
    game = Game.objects.create(host=host, **{"seat_count": 3, **fields})
    for position, user in enumerate([host, *players]):
        Seat.objects.create(game=game, user=user, position=position)
    return game


def test_it_makes_as_few_queries_as_counted_on_each_page(
    client, alice, bob, charlie, started_game, without_broadcasts, no_deferred_reads
):
    games = finished_history(alice, [bob, charlie], 2 * GAMES_PER_PAGE + 5)
    # Every list of the home page has a row: open tables, alice's waiting room, an
    # invitation, a game in progress she may watch.
    invited = table(charlie)
    Invitation.objects.create(game=invited, user=alice, invited_by=charlie)
    table(alice)
    with without_broadcasts():
        table(bob, charlie, seat_count=2).start()
    client.force_login(alice)
    paths = page_paths(alice, games[GAMES_PER_PAGE].code, started_game)
    paths["finished with bob"] = f"{reverse('games:finished')}?opponent=bob"
    paths["alice against bob"] = reverse("accounts:versus", args=["alice", "bob"])

    found = {}
    for page, path in paths.items():
        client.get(path)  # the first request of a page may fill a cache
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200, page
        found[page] = len(queries)

    assert found == QUERIES
    home = client.get(reverse("lobby:home")).context
    assert [len(home[name]) for name in ("invitations", "waiting_room", "in_progress")] == [1, 1, 1]
