"""Random playouts (OpenSpiel's random_sim_test): seeded games checked after every move."""

import random

import pytest

from games.rules import IllegalMove, apply, awaiting, new_game, replay
from games.rules.bots import play_random_game
from games.rules.state import Options

from .invariants import check_invariants, check_round_trip, check_views

GAMES = 1000
OPTIONS = [
    Options(),
    Options(wild_moves_cost_a_play=True),
    Options(enhanced=True),
    Options(enhanced=True, built_sets=True),
    Options(enhanced=True, built_sets=True, wild_moves_cost_a_play=True),
]


def play_checked(players, seed, options, check_views_every=1):
    rng = random.Random(seed)
    state = new_game(players, seed, options)
    check_invariants(state)
    log = []
    sizes = []

    def check(state, seat, move, _events):
        log.append((seat, move))
        check_invariants(state)
        # A built-sets game can run to a stalemate of 10,000 moves and more, repeating itself:
        # the JSON round trip after every move of the first thousand, then a sample.
        if len(log) < 1000 or len(log) % 13 == 0:
            sizes.append(check_round_trip(state))
        # Views cost a render per seat: every move early on, then a sample.
        if len(log) % (check_views_every if len(log) < 300 else 97) == 0:
            check_views(state)

    play_random_game(state, rng, check)
    assert state.phase == "over"
    again = replay(players, seed, options, log)
    assert again == state, "replaying the moves reproduces the game"
    return state, max(sizes, default=0)


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: "-".join(k for k, v in o.to_json().items() if v) or "base"
)
def test_it_keeps_invariants_in_random_playouts(players, options):
    games = 8 if players <= 5 else 3
    if options.built_sets:
        games = 1  # random players rarely build four sets: these games run to a stalemate
    reasons = set()
    for game in range(games):
        state, largest = play_checked(
            players, game * 7919 + players, options, check_views_every=1 if game < 3 else 9
        )
        reasons.add(state.end_reason)
        assert largest < 8 * 1024, "a snapshot stays under 8 KB of JSON"
    assert reasons <= {"win", "stalemate", "round_limit"}
    if not options.built_sets:
        assert "win" in reasons


class CheckEveryMove:
    """Record the moves of a game and check the table invariants after each."""

    def __init__(self):
        self.log = []

    def __call__(self, state, seat, move, _events):
        self.log.append((seat, move))
        check_invariants(state)


# The games in a few parts, so that the parts run side by side (pytest-xdist); each game
# has its own generator, so a part (or one game) plays the same alone as in the whole.
PARTS = 4


@pytest.mark.parametrize("part", range(PARTS))
def test_it_keeps_the_table_invariants_over_a_thousand_games(part):
    reasons = {}
    size = GAMES // PARTS
    for game in range(part * size, (part + 1) * size):
        rng = random.Random(2026 * GAMES + game)
        players = 2 + game % 9
        options = OPTIONS[game % 5]
        if options.built_sets and game % 20 > 1:
            options = OPTIONS[
                game % 3
            ]  # built-sets games run long (to a stalemate): a few are enough
        state = new_game(players, game, options)
        checked = CheckEveryMove()
        play_random_game(state, rng, checked)
        reasons[state.end_reason] = reasons.get(state.end_reason, 0) + 1
        check_round_trip(state)
        if game % 25 == 0:
            assert replay(players, game, options, checked.log) == state
    assert set(reasons) <= {"win", "stalemate", "round_limit"}
    assert reasons["win"] > size * 0.9


def test_it_rejects_moves_from_players_not_awaited():
    state = new_game(3, 5)
    waiting = {seat for seat, _decision, _share in awaiting(state)}
    for seat in set(range(3)) - waiting:
        before = state.to_json()
        with pytest.raises(IllegalMove):
            apply(state, seat, __import__("games.rules", fromlist=["Move"]).Move.end())
        assert state.to_json() == before


def test_it_gives_the_same_game_for_the_same_seed():
    first, _ = play_checked(4, 99, Options(), check_views_every=50)
    second, _ = play_checked(4, 99, Options(), check_views_every=50)
    assert first == second
    third, _ = play_checked(4, 100, Options(), check_views_every=50)
    assert third != first
