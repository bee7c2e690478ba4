"""A move costs as few queries on move 300 as on move 30, and not many on move 1.

The move path reads the locked game row and its seats, writes one Move row,
the game and the seats' clocks, and the notifications; the table it redraws
(htmx) reads the last moves of the log, never the whole of it. None of that
may grow with the game. The same position is played in three games: one just
dealt, one after SHORT moves and one after LONG moves. All three stay under
the bounds below, and the last two count exactly the same queries. (The
first may count one fewer: a log shorter than what the table shows has no
earlier action to read for the answers in it, games/table/log.py `move_log`.)

The move that ends a game does more, once: it replays the log for the
summary and the review's checkpoints (one read of the log, one insert of
the checkpoints) and counts the players' totals and ratings. It has its own
bound, the same for a short game and a long one.
"""

import copy
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import rules
from games.models import Game
from games.rules.bots import random_move
from games.tests.helpers import set_position
from games.tests.review_helpers import started_game

pytestmark = pytest.mark.django_db

SHORT = 30  # moves played before the position: twice the last moves the table shows
LONG = 300

# Queries of one Game.play, and of the move view around it (session, user, rendering).
# Counted at 11, 20 and 15 when these bounds were set: a little room, not a lot.
PLAY_QUERIES = 13
VIEW_QUERIES = 23  # htmx: the redrawn board, with the last moves of the log
REDIRECT_QUERIES = 17  # without htmx: the move and a redirect
# The move that ends a game: the same and the summary, checkpoints, totals and ratings.
# Counted at 18, then 22 with Seat.ended_at, head-to-head records and the analysis queue,
# 23 with the games-together rows, 25 with the resignations read apart from the absences and
# the day's rated games of the players (accounts.stats._rated).
END_QUERIES = 25

POSITION = """
players: alice bob
turn: alice
plays: 3
alice hand: 5M 1M 2M 3M red sly_deal
alice table: brown: brown
bob hand: 1M 4M
bob table: yellow: yellow
"""

MOVES = {
    "bank": lambda state: rules.Move.bank(card_named(state, "5M")),
    "end": lambda state: rules.Move.end(),
}


def card_named(state, kind):
    from games.rules.position import card_in

    return card_in(state, 0, "hand", kind)


def settled(state):
    """Return a copy of `state` after the moves Game.play makes by itself.

    These players are people with no standing answers: only the answers that are
    forced in public cards are made for them (an answer forced by the hand waits).
    """
    state = copy.deepcopy(state)
    while not state.over:
        forced = next(
            (
                (seat, move)
                for seat, _decision, _share in rules.awaiting(state)
                if (move := rules.public_forced_move(state, seat)) is not None
            ),
            None,
        )
        if forced is None:
            break
        rules.apply(state, *forced)
    return state


def ends_the_game(state, seat, move):
    after = copy.deepcopy(state)
    rules.apply(after, seat, move)
    return settled(after).over


def play_random(game, count, rng, stop_before_end=True):
    """Play `count` random moves through Game.play, never one that ends the game."""
    stuck = 0
    while game.moves.count() < count:
        state = game.state()
        seat = rng.choice(rules.awaiting(state))[0]
        candidates = [random_move(state, seat, rng) for _ in range(8)]
        move = next((m for m in candidates if not ends_the_game(state, seat, m)), None)
        if move is None:
            # An answer the player has no choice about is theirs to give (issue 15): when it
            # ends the game, no other move is left. The seeds below never come to that.
            stuck += 1
            assert stuck < 50, "every move left ends the game: choose another seed"
            continue
        stuck = 0
        game.play(seat, move)
    return game


def fresh_clocks(game):
    """Start both games' seats from the same clocks: nobody awaited, nothing reminded."""
    game.seats.update(awaited_since=None, deadline=None, timeout_at=None, reminded=False)
    game.notifications.all().delete()


def count_play(game, kind):
    state = set_position(game, POSITION)
    fresh_clocks(game)
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        game.play(0, MOVES[kind](state), version=game.version)
    return len(queries)


def count_view(game, kind, user, htmx):
    state = set_position(game, POSITION)
    fresh_clocks(game)
    game.refresh_from_db()
    client = Client()
    client.force_login(user)
    fields = {"version": game.version}
    move = MOVES[kind](state).to_json()
    fields.update(move)
    headers = {"HX-Request": "true"} if htmx else {}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("games:move", args=[game.code]), fields, headers=headers)
    assert response.status_code == (200 if htmx else 302)
    game.refresh_from_db()
    assert game.moves.latest("n").move == move
    return len(queries)


def test_it_costs_as_many_queries_late_in_a_game_as_early(alice, bob):
    dealt, early, late = (
        started_game([alice, bob], pace=Game.Pace.CORRESPONDENCE, seed=seed) for seed in (1, 2, 3)
    )
    play_random(early, SHORT, random.Random(2))
    play_random(late, LONG, random.Random(8))
    assert late.status == Game.Status.ACTIVE and late.moves.count() >= LONG

    counts = {}
    for kind in MOVES:
        games = (dealt, early, late)
        counts[kind, "Game.play"] = [count_play(game, kind) for game in games]
        for htmx, name in ((True, "view (htmx)"), (False, "view (redirect)")):
            counts[kind, name] = [count_view(game, kind, alice, htmx) for game in games]

    bounds = {"Game.play": PLAY_QUERIES, "view (htmx)": VIEW_QUERIES}
    bounds["view (redirect)"] = REDIRECT_QUERIES
    wrong = {
        key: (n_dealt, n_early, n_late)
        for key, (n_dealt, n_early, n_late) in counts.items()
        if not (n_early == n_late and max(n_dealt, n_late) <= bounds[key[1]])
    }
    assert wrong == {}, counts


def play_to_the_last_move(game, rng):
    """Play random moves through Game.play until the next one would end the game; return it."""
    while True:
        state = game.state()
        seat = rng.choice(rules.awaiting(state))[0]
        move = random_move(state, seat, rng)
        if ends_the_game(state, seat, move):
            return seat, move
        game.play(seat, move)


def last_move_queries(users, seed):
    """Return (moves before it, queries) of the move that ends a random game."""
    game = started_game(users, pace=Game.Pace.CORRESPONDENCE, seed=seed)
    seat, move = play_to_the_last_move(game, random.Random(seed))
    moves = game.moves.count()
    with CaptureQueriesContext(connection) as queries:
        game.play(seat, move, version=game.version)
    assert game.status == Game.Status.FINISHED and game.summary is not None
    assert game.checkpoints.exists()
    return moves, len(queries)


def test_it_ends_a_short_game_and_a_long_one_in_as_many_queries(alice, bob, charlie):
    # Random games of about 150 and 500 moves.
    (short, short_queries), (long, long_queries) = (
        last_move_queries([alice, bob, charlie], seed) for seed in (8, 32)
    )

    assert long > 3 * short
    assert short_queries == long_queries <= END_QUERIES
