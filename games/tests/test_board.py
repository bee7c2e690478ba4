"""The table as drawn from random games: every legal move has a control, no secret leaks."""

import random
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import rules
from games.rules.bots import play_random_game
from games.rules.state import Options
from games.table.board import FRAGMENTS
from games.table.presenting import present

# The SQLite run only: engine states drawn as the table: no database.
pytestmark = pytest.mark.one_database

CARD_FIELDS = re.compile(r'data-card="(\d+)"|name="cards?" value="(\d+)"')


def drawn_cards(html):
    return {int(a or b) for a, b in CARD_FIELDS.findall(html)}


def render(state, seat, version):
    view = rules.view_for(state, seat)
    table = present(view, {player: f"p{player}" for player in state.seats})
    table["log"] = []
    context = {
        "code": "abc",
        "version": version,
        "asked": version,
        "status": "active",
        "seat": seat,
        "move_url": "/games/abc/move/",
        "review_url": "/games/abc/review/",
        "socket_url": "/ws/games/abc/",
        "table": table,
        "oob": True,
    }
    html = "".join(render_to_string(f"games/table.html#{name}", context) for name in FRAGMENTS)
    return view, html


def check_position(state, version):
    secret_draw = set(state.draw)
    for seat in [None, *range(len(state.seats))]:
        view, html = render(state, seat, version)
        others = {c for i, p in enumerate(state.players) if i != seat for c in p.hand}
        assert not drawn_cards(html) & (others | secret_draw), "no hidden card is drawn"
        forms = html.count('name="kind"')
        # One control per decision; moves that do the same (taking either of two Red
        # properties of one set) share one (games/table/board.py, _Labels.distinct).
        kinds = {(m["kind"], m.get("card"), m.get("colour")) for m in view["moves"]}
        least = len(kinds) + len(view["choices"])
        assert least <= forms <= len(view["moves"]) + len(view["choices"]), "a control each"
        if seat is not None:
            assert set(state.players[seat].hand) <= drawn_cards(html)


@pytest.mark.parametrize(
    "players, options",
    [(2, Options()), (3, Options(enhanced=True)), (4, Options(wild_moves_cost_a_play=True))],
)
def test_it_draws_every_decision_of_random_games(players, options):
    rng = random.Random(players)
    state = rules.new_game(players, seed=players * 31, options=options)
    moves = 0

    def check(state, seat, move, events):
        nonlocal moves
        moves += 1
        if moves % 9 == 0 or (state.phase != "play" and moves % 3 == 0):
            check_position(state, moves)

    with translation.override("en"):
        check_position(state, 0)
        play_random_game(state, rng, check)
    assert state.phase == "over"


def test_it_names_a_player_it_has_no_name_for_by_their_seat():
    state = rules.new_game(["alice", "bob", "carol"], seed=3)
    with translation.override("en"):
        table = present(rules.view_for(state, 0), {"alice": "Alice", "carol": "Carol"})
    assert table["names"] == ["Alice", "Player 2", "Carol"]
