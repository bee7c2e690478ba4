"""One move (its POST and every socket's redraw) and the table page cost as many queries in a
game of 200 moves, among many games of its players, as in a game of 10 moves.

The same position is put on both games (test_move_queries's POSITION), then the
same move is posted as the page posts it (htmx), each player's socket redraws
its board (GameConsumer.send_board, as on the group's message); then a move is
made without a POST (as the worker makes one) and the sockets redraw again; and
the table page is opened by a player and by a spectator. Nothing of it may read the whole
log or every game of a player: the counts must be equal, and under the bounds.
"""

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live.consumers import GameConsumer
from games.models import Game
from games.tests.helpers import set_position
from games.tests.review_helpers import started_game, stored_game
from games.tests.test_move_queries import MOVES, POSITION, fresh_clocks, play_random

pytestmark = pytest.mark.django_db

FEW, MANY = 30, 200  # 30: twice the last moves the table shows (see test_move_queries)
OTHER_GAMES = 25  # finished games of alice and bob beside the long game

# Counted when these bounds were set (docs/performance.md): a little room, not a lot.
POST_QUERIES = 16  # counted at 15 (18 before: the game read 4 times, its seats 3 times)
SOCKET_QUERIES = 0  # a socket after the POST: the answer has read and drawn all it needs
FIRST_SOCKET_QUERIES = 4  # the first socket after a move made without a POST
PAGE_QUERIES = 13  # 12 for a player, 11 for a spectator (the chat panel: 4 or 5 of them)


def socket_of(user, game):
    """Return a game socket of `user` as its consumer stands after connecting, sending into a list."""
    consumer = GameConsumer()
    consumer.scope = {"user": user, "url_route": {"kwargs": {"code": game.code}}, "headers": ()}
    consumer.user = user
    consumer.code = game.code
    consumer.group = None
    consumer.sent_version = game.version - 1
    consumer.allowed_at = game.status  # let in by may_watch, as GameConsumer.connect does
    consumer.sent = []
    consumer.send = lambda text_data=None, bytes_data=None: consumer.sent.append(text_data)
    return consumer


def counted(action):
    with CaptureQueriesContext(connection) as queries:
        action()
    return len(queries)


def costs(game, alice, bob, charlie):
    """Return the queries of one move and its sockets, and of the table page, on `game`."""
    state = set_position(game, POSITION)
    fresh_clocks(game)
    game.refresh_from_db()
    version = game.version
    clients = {}
    for user in (alice, bob, charlie):
        clients[user] = Client()
        clients[user].force_login(user)
    sockets = [socket_of(alice, game), socket_of(bob, game)]
    fields = {"version": version, **MOVES["bank"](state).to_json()}
    url = reverse("games:move", args=[game.code])

    def post():
        response = clients[alice].post(url, fields, headers={"HX-Request": "true"})
        assert response.status_code == 200

    found = {"post": counted(post)}
    game.refresh_from_db()
    assert game.version > version
    for name, socket in zip(("alice's socket", "bob's socket"), sockets):
        found[name] = counted(lambda socket=socket: socket.game_updated({"version": game.version}))
        assert f'data-version="{game.version}"' in socket.sent[-1]
    # A move made without a POST (the worker's: a bot, a timeout): the first socket reads
    # the game, its seats and the new moves; the next one reads nothing.
    game.play(0, MOVES["end"](state), version=game.version)
    for name, socket in zip(("bob's socket first", "alice's socket next"), sockets[::-1]):
        found[name] = counted(lambda socket=socket: socket.game_updated({"version": game.version}))
        assert f'data-version="{game.version}"' in socket.sent[-1]
    page = reverse("games:table", args=[game.code])
    for user in (alice, charlie):

        def look(user=user):
            assert clients[user].get(page).status_code == 200

        found[f"page ({user.username})"] = counted(look)
    return found


def test_it_costs_as_many_queries_in_a_long_game_among_many_as_in_a_short_one(alice, bob, charlie):
    short = started_game([alice, bob], seed=43)
    play_random(short, FEW, random.Random(43))
    few = costs(short, alice, bob, charlie)

    long = started_game([alice, bob], seed=42)
    play_random(long, MANY, random.Random(42))
    for seed in range(OTHER_GAMES):
        stored_game([alice, bob], seed)
    assert long.status == Game.Status.ACTIVE and long.moves.count() >= MANY
    many = costs(long, alice, bob, charlie)

    bounds = {"post": POST_QUERIES, "alice's socket": SOCKET_QUERIES}
    bounds["bob's socket"] = bounds["alice's socket next"] = SOCKET_QUERIES
    bounds["bob's socket first"] = FIRST_SOCKET_QUERIES
    bounds["page (alice)"] = bounds["page (charlie)"] = PAGE_QUERIES
    assert few == many, (few, many)
    assert {k: v for k, v in many.items() if v > bounds[k]} == {}, many
