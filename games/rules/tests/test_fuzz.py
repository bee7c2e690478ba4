"""Illegal-move fuzz: random and malformed moves are rejected with a readable error and change nothing."""

import json
import random

import pytest

from games.rules import COLOURS, IllegalMove, Move, apply, awaiting, legal_moves, new_game
from games.rules.bots import random_move
from games.rules.moves import KINDS
from games.rules.state import GameState, Options

from .invariants import check_invariants


def junk_move(state, rng):
    """Return a move with the right shape and (mostly) nonsense values."""
    deck_size = len(state.deck)
    n = len(state.seats)

    def card():
        return rng.choice(
            [rng.randrange(deck_size), rng.randrange(deck_size), -1, deck_size, 10**9, -(10**9)]
        )

    def seat():
        return rng.choice([rng.randrange(n), rng.randrange(n), -1, n, 99])

    kind = rng.choice(KINDS)
    colour = rng.choice([*COLOURS, "", "purple", "RED", "red "])
    return Move(
        kind,
        card() if rng.random() < 0.8 else -1,
        colour if rng.random() < 0.5 else "",
        tuple(seat() for _ in range(rng.choice([0, 0, 1, 1, 2, 3]))),
        tuple(card() for _ in range(rng.choice([0, 0, 1, 2, 3, 9]))),
        seat() if rng.random() < 0.4 else -1,
    )


def try_move(state, seat, move):
    """Apply `move` to a copy; a rejection must leave the original state untouched.

    `to_json` copies every list of the state, so `before` shares nothing the
    trial could change.
    """
    before = state.to_json()
    trial = GameState.from_json(state.to_json())
    try:
        apply(trial, seat, move)
    except IllegalMove as error:
        assert str(error) and not str(error).startswith("%"), "the message is readable"
        assert trial.to_json() == before, f"{move} changed the state"
        return False
    check_invariants(trial)
    return True


@pytest.mark.parametrize("players", [2, 3, 5, 7])
@pytest.mark.parametrize("enhanced", [False, True])
def test_it_rejects_random_moves_without_changing_anything(players, enhanced):
    rng = random.Random(players * 31 + enhanced)
    rejected = 0
    for _game in range(3):
        state = new_game(players, rng.getrandbits(32), Options(enhanced=enhanced))
        while not state.over:
            for _try in range(8):
                seat = rng.choice([*range(players), -1, players])
                if not try_move(state, seat, junk_move(state, rng)):
                    rejected += 1
            seat = awaiting(state)[0][0]
            apply(state, seat, random_move(state, seat, rng))
    assert rejected > 1000


MALFORMED = [
    None,
    [],
    "end",
    {},
    {"kind": "explode"},
    {"kind": "bank"},
    {"kind": "bank", "card": "3"},
    {"kind": "bank", "card": 3.0},
    {"kind": "bank", "card": True},
    {"kind": "bank", "card": None},
    {"kind": "lay", "card": 1, "colour": 5},
    {"kind": "play", "card": 1, "targets": "1"},
    {"kind": "play", "card": 1, "targets": [1, "2"]},
    {"kind": "play", "card": 1, "cards": {"a": 1}},
    {"kind": "accept", "share": "0"},
    {"kind": "end", "extra": 1},
    {"kind": "discard", "cards": [1] * 1000},
    {"kind": "lay", "card": 1, "colour": "x" * 1000},
]


@pytest.mark.parametrize("data", MALFORMED, ids=range(len(MALFORMED)))
def test_it_rejects_malformed_json_with_a_readable_error(data):
    state = new_game(2, 11)
    before = state.to_json()
    with pytest.raises(IllegalMove) as error:
        apply(state, state.current, Move.from_json(data))
    assert str(error.value)
    assert state.to_json() == before


def test_it_rejects_moves_that_are_not_move_objects():
    state = new_game(2, 12)
    before = state.to_json()
    for move in [
        None,
        ("end",),
        {"kind": "end"},
        Move("end", "1"),
        Move("bank", 1, targets=[1]),
        Move("fly"),
    ]:
        with pytest.raises(IllegalMove, match="not a move"):
            apply(state, state.current, move)
    for seat in ["0", None, 1.0, -1, 2]:
        with pytest.raises(IllegalMove):
            apply(state, seat, Move.end())
    assert state.to_json() == before


def test_it_round_trips_every_legal_move_through_json():
    rng = random.Random(5)
    state = new_game(4, 5, Options(enhanced=True))
    seen = set()
    while not state.over:
        for seat, _decision, _share in awaiting(state):
            for move in legal_moves(state, seat):
                assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move
                seen.add(move.kind)
        seat = awaiting(state)[0][0]
        apply(state, seat, random_move(state, seat, rng))
    assert {"end", "bank", "lay", "play", "accept"} <= seen
