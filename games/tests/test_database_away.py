"""A move made while the database is away (PostgreSQL restarting) is refused readably.

Its transaction never commits, so nothing of it is kept; the page shows why,
and the socket it came over stays open for the next move.
"""

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError
from django.test import Client

from accounts.sessions import SessionStore
from games.models import Game
from games.rules.position import card_in
from games.tests.helpers import post_move, set_position, snapshot_of
from games.tests.test_socket_moves import answers_until, at_version, close, opened, send_move

AWAY = "The site cannot reach its database just now: nothing was changed."


@pytest.fixture
def database_away(monkeypatch):
    """Make Game.play fail as it does when PostgreSQL restarts under it."""
    real = Game.play

    def away(self, *args, **kwargs):
        if away.failing:
            raise OperationalError("server closed the connection unexpectedly")
        return real(self, *args, **kwargs)

    away.failing = True
    monkeypatch.setattr(Game, "play", away)
    return away


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
def test_it_answers_a_move_posted_while_the_database_is_away_with_a_readable_503(
    table_game, alice, database_away, htmx
):
    state = set_position(table_game, "alice hand: 5M red")
    before = snapshot_of(table_game)
    client = Client(raise_request_exception=False)  # as a browser: the answer, not the raise
    client.force_login(alice)

    response = post_move(
        client, table_game, htmx=htmx, kind="bank", card=card_in(state, "alice", "hand", "5M")
    )

    assert response.status_code == 503
    assert AWAY in response.content.decode() and response["Retry-After"] == "5"
    assert snapshot_of(table_game) == before


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/games/{code}/"])
def test_it_answers_readably_when_the_session_cannot_be_read(table_game, alice, monkeypatch, path):
    """The session is read by a middleware, before any view: a lost database is a 503 there too."""
    client = Client(raise_request_exception=False)
    client.force_login(alice)

    def away(self):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(SessionStore, "load", away)
    response = client.get(path.format(code=table_game.code))

    assert response.status_code == 503
    assert AWAY in response.content.decode() and response["Retry-After"] == "5"


@pytest.mark.django_db
def test_other_errors_still_get_the_site_s_500_page(table_game, alice, monkeypatch):
    client = Client(raise_request_exception=False)
    client.force_login(alice)

    def broken(self):
        raise ValueError("a bug")

    monkeypatch.setattr(SessionStore, "load", broken)
    response = client.get("/")

    assert response.status_code == 500
    assert AWAY not in response.content.decode()


@pytest.mark.django_db(transaction=True)
async def test_it_tells_a_socket_s_move_made_while_the_database_is_away_and_keeps_the_socket(
    table_game, alice, database_away
):
    state = await sync_to_async(set_position)(table_game, "alice hand: 5M 1M red")
    five, one = (card_in(state, "alice", "hand", money) for money in ("5M", "1M"))
    sockets = await opened(table_game, alice)
    try:
        await send_move(sockets[0], table_game, kind="bank", card=str(five))
        refused = await answers_until(sockets[0], lambda html: AWAY in html)
        database_away.failing = False  # back
        await send_move(sockets[0], table_game, kind="bank", card=str(one))
        made = await answers_until(sockets[0], at_version(table_game.version + 1))
    finally:
        await close(sockets)

    assert 'role="alert"' in refused[-1]
    assert "alice banked 1M" in made[-1]
