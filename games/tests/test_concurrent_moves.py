"""Twenty copies of one move posted at once (a frantic double click, many tabs): one counts.

Every copy carries the version of the board it was made from. Game.play locks
the game row and compares that version with the version at which the seat's
question last changed, so the first copy to get the lock is played and moves
the seat's question on; the other nineteen find a board that has changed and
are told so ("The board has changed since
you saw it"), changing nothing.

The move is banking one of several cards with plays left: nothing is forced
after it, so exactly one Move row and one version step follow from it.

Two ways of posting at once, the same assertions:
- twenty threads, each with its own Django test client and so its own
  database connection, against the test database (SQLite takes its write
  lock at BEGIN, PostgreSQL locks the row with SELECT ... FOR UPDATE);
- twenty threads posting real HTTP requests, session cookie and CSRF token
  included, to a live Daphne server (the whole ASGI stack, as a browser).
"""

import http.client
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode, urlsplit

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils.crypto import get_random_string

from games.models import Game
from games.rules.position import card_in
from games.tests.helpers import ALICE, set_position, state_of

COPIES = 20
STALE = "The board has changed since you saw it"

POSITION = """
players: alice bob
turn: alice
plays: 3
alice hand: 5M 1M 2M 3M red
bob hand: 1M
"""


def at_once(post):
    """Call `post()` from COPIES threads released together; return the results in order."""
    start = threading.Barrier(COPIES)

    def one(_n):
        start.wait(timeout=30)
        return post()

    with ThreadPoolExecutor(COPIES) as pool:
        return list(pool.map(one, range(COPIES)))


def assert_one_move_was_played(game, before, bodies, card):
    game.refresh_from_db()
    assert game.version == before.version + 1
    assert game.moves.count() == before.moves
    assert list(game.moves.values_list("move", flat=True))[-1] == {"kind": "bank", "card": card}
    assert state_of(game).players[ALICE].bank == [card]
    stale = [body for body in bodies if STALE in body]
    assert len(stale) == COPIES - 1
    assert all("You do not hold that card" not in body for body in bodies)


class Before:
    def __init__(self, game):
        game.refresh_from_db()
        self.version = game.version
        self.moves = game.moves.count() + 1  # the count after the one move


@pytest.fixture
def five(table_game):
    state = set_position(table_game, POSITION)
    return card_in(state, "alice", "hand", "5M")


@pytest.mark.django_db(transaction=True)
def test_it_plays_one_of_twenty_identical_moves_posted_at_once(table_game, alice, five):
    before = Before(table_game)
    login = Client()
    login.force_login(alice)
    session = login.cookies[settings.SESSION_COOKIE_NAME].value
    url = reverse("games:move", args=[table_game.code])
    fields = {"version": before.version, "kind": "bank", "card": five}

    def post():
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = session
        try:
            response = client.post(url, fields, headers={"HX-Request": "true"})
            return response.status_code, response.content.decode()
        finally:
            connection.close()  # this thread's own connection

    answers = at_once(post)

    assert [status for status, _body in answers] == [200] * COPIES
    assert_one_move_was_played(table_game, before, [body for _status, body in answers], five)


@pytest.mark.django_db(transaction=True)
def test_it_plays_one_of_twenty_identical_moves_sent_at_once_to_a_live_server(
    live_asgi_server, table_game, alice, five
):
    before = Before(table_game)
    login = Client()
    login.force_login(alice)
    session = login.cookies[settings.SESSION_COOKIE_NAME].value
    # The CSRF cookie holds a secret; a form or htmx header may carry the secret itself.
    csrf = get_random_string(32)
    server = urlsplit(live_asgi_server)
    body = urlencode({"version": before.version, "kind": "bank", "card": five})
    headers = {
        "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={csrf}",
        "X-CSRFToken": csrf,
        "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded",
    }

    def post():
        conn = http.client.HTTPConnection(server.hostname, server.port, timeout=60)
        try:
            conn.request("POST", f"/games/{table_game.code}/move/", body, headers)
            response = conn.getresponse()
            return response.status, response.read().decode()
        finally:
            conn.close()

    answers = at_once(post)

    assert [status for status, _body in answers] == [200] * COPIES
    assert_one_move_was_played(table_game, before, [body for _status, body in answers], five)
    assert Game.objects.get(pk=table_game.pk).status == Game.Status.ACTIVE
