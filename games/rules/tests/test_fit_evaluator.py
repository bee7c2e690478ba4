"""scripts/fit_evaluator.py: the positions it fits the strong player's evaluator to."""

from games.rules import search
from games.rules.basic import basic_move
from games.rules.engine import apply, awaiting, new_game
from games.rules.state import Options
from games.rules.tests import helpers


def test_it_records_every_seat_at_every_turn_start_of_a_basic_game():
    fit = helpers.load_script("fit_evaluator")
    rows, winner = fit.positions(2, 5, Options(), search.features)
    state = new_game(2, 5, Options())
    first = [search.features(state, seat) for seat in range(2)]
    while state.phase != "over":
        seat = awaiting(state)[0][0]
        apply(state, seat, basic_move(state, seat))
    assert rows[0] == first
    assert len(rows) == state.turns
    assert all(len(row) == 2 and len(row[0]) == len(search.FEATURES) for row in rows)
    assert winner == state.winner >= 0


def test_it_keeps_only_games_with_a_winner_and_their_positions():
    fit = helpers.load_script("fit_evaluator")
    data = fit.collect(6, [2, 3], 1, Options(), search.features)
    assert data
    for rows, winner in data:
        assert 0 <= winner < len(rows[0])
        assert {len(row) for row in rows} == {len(rows[0])}
