"""Public history in the view: a turn ended with plays left, and what the strong player reads in it."""

import random

from games.rules import Move, view_for
from games.rules.position import position
from games.rules.search import guess, held_back
from games.rules.state import GameState

from .helpers import act

ALICE, BOB = 0, 1


def held_position():
    """Bob ends his turn with two plays left, holding a Just Say No and a Deal Breaker."""
    state = position("""
        turn: bob
        plays: 3
        bob hand: just_say_no deal_breaker 1M
        alice hand: 2M
    """)
    act(
        state,
        "bob",
        Move.bank(next(c for c in state.players[BOB].hand if state.deck[c].id == "1M")),
    )
    act(state, "bob", Move.end())
    return state


def test_it_tells_everyone_the_hand_size_of_a_turn_ended_with_plays_left():
    state = held_position()
    for seat in (ALICE, BOB, None):
        view = view_for(state, seat)
        assert view["players"][BOB]["held"] == 2
        assert view["players"][ALICE]["held"] is None


def test_it_forgets_it_when_the_seat_uses_every_play():
    state = position("""
        turn: alice
        plays: 1
        alice hand: 1M 2M
    """)
    state.held[ALICE] = 4
    act(state, "alice", Move.bank(state.players[ALICE].hand[0]))
    act(state, "alice", Move.end())
    assert view_for(state, BOB)["players"][ALICE]["held"] is None


def test_it_keeps_it_in_the_snapshot_and_reads_old_snapshots():
    state = held_position()
    data = state.to_json()
    assert GameState.from_json(data) == state
    del data["held"]
    assert GameState.from_json(data).held == [-1, -1]


def test_it_reads_a_held_back_hand_only_while_it_has_not_grown():
    state = held_position()
    view = view_for(state, ALICE)
    assert held_back(view, BOB)
    assert not held_back(view, ALICE)
    view["players"][BOB]["hand_count"] = 3  # a card came in since
    assert not held_back(view, BOB)
    assert not held_back(view_for(state, BOB), ALICE)


def test_it_deals_a_held_back_hand_the_cards_a_player_keeps():
    state = held_position()
    view = view_for(state, ALICE)
    rng = random.Random(3)
    kept = 0
    for _ in range(50):
        deal = guess(view, rng)
        kept += all(
            deal.deck[c].id in ("just_say_no", "deal_breaker") for c in deal.players[BOB].hand
        )
    # Unread, two of about 100 unseen cards would rarely both be one of these 5.
    assert kept >= 45
