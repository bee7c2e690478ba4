"""Decisions with exactly one legal answer (issue 4): forced_move finds them, and only them."""

import random

import pytest

from games.rules import Move, apply, awaiting, default_move, forced_move, legal_moves, new_game
from games.rules.bots import random_move
from games.rules.position import card_in, position
from games.rules.state import Options

from .helpers import act, pick

ALICE, BOB, CAROL = 0, 1, 2


def sly_deal(bob_hand):
    state = position(f"""
        alice hand: sly_deal just_say_no 1M
        bob hand: {bob_hand}
        bob table: red: red
    """)
    red = card_in(state, "bob", "table", "red")
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "sly_deal"), [BOB], cards=[red]))
    return state


def test_it_forces_accepting_an_action_without_a_just_say_no_to_hand():
    assert forced_move(sly_deal("1M green"), BOB) == Move.accept(BOB)


def test_it_does_not_force_an_answer_when_a_just_say_no_is_held():
    assert forced_move(sly_deal("1M just_say_no"), BOB) is None


def test_it_forces_accepting_a_cancelled_action_without_a_just_say_no_to_answer_back():
    state = position("""
        alice hand: sly_deal 1M
        bob hand: just_say_no
        bob table: red: red
    """)
    red = card_in(state, "bob", "table", "red")
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "sly_deal"), [BOB], cards=[red]))
    act(state, "bob", Move.just_say_no(BOB))
    assert forced_move(state, ALICE) == Move.accept(BOB)
    assert forced_move(state, BOB) is None, "only the awaited player has a decision"


def debt(bob):
    state = position(f"""
        alice hand: debt_collector
        {bob}
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), [BOB]))
    return state


def test_it_forces_a_payment_that_must_give_everything_payable():
    state = debt("bob bank: 1M 2M\nbob table: brown: brown any")
    move = forced_move(state, BOB)
    assert move.kind == "accept" and move.share == BOB
    assert sorted(move.cards) == sorted(pick(state, "bob", "bank:1M", "bank:2M", "table:brown"))
    apply(state, BOB, move)
    assert state.phase == "play"


def test_it_forces_an_empty_payment_from_a_player_with_nothing():
    assert forced_move(debt("bob hand: 3M"), BOB) == Move.accept(BOB)


def test_it_does_not_force_a_payment_with_a_choice_of_cards():
    assert forced_move(debt("bob bank: 5M 1M"), BOB) is None


def test_it_does_not_force_a_payment_when_a_just_say_no_is_held():
    assert forced_move(debt("bob bank: 1M\nbob hand: just_say_no"), BOB) is None


def test_it_does_not_force_a_rent_payment_when_a_rent_transfer_is_held():
    state = position("""
        players: alice bob carol
        options: enhanced
        alice hand: rent:red/yellow
        alice table: red: red red
        bob hand: rent_transfer
        bob bank: 1M
        carol bank: 1M
    """)
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "rent:red/yellow"), colour="red"))
    assert forced_move(state, BOB) is None
    assert forced_move(state, CAROL) == Move.accept(CAROL, pick(state, "carol", "bank:1M"))


@pytest.mark.parametrize(("bob_hand", "forced"), [("", True), ("5M", True), ("5M 1M", False)])
def test_it_forces_speeding_only_when_there_is_no_card_to_choose(bob_hand, forced):
    state = position(f"""
        options: enhanced
        alice hand: speeding
        bob hand: {bob_hand}
    """)
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "speeding"), targets=(BOB,)))
    expected = Move.accept(BOB, tuple(state.players[BOB].hand)) if forced else None
    assert forced_move(state, BOB) == expected


def test_it_forces_the_end_of_a_turn_with_nothing_left_to_play():
    state = position("""
        alice hand: 1M
        bob hand: 1M
    """)
    assert forced_move(state, ALICE) is None, "banking the card is a choice"
    act(state, "alice", Move.bank(card_in(state, "alice", "hand", "1M")))
    assert forced_move(state, ALICE) == Move.end()


def test_it_never_forces_a_discard():
    state = position("""
        alice hand: 10M 5M any deal_breaker pass_go 3M red green 4M
    """)
    act(state, "alice", Move.end())
    assert forced_move(state, ALICE) is None


@pytest.mark.parametrize("players", [2, 3, 5])
def test_it_forces_only_legal_moves_that_are_also_the_default(players):
    """Over random games: a forced move is legal, and it is what a timeout would play."""
    rng = random.Random(players)
    forced_seen = 0
    for seed in range(12):
        state = new_game(players, seed, Options(enhanced=seed % 2 == 1))
        while state.phase != "over":
            for seat, _decision, _share in awaiting(state):
                move = forced_move(state, seat)
                if move is None:
                    continue
                forced_seen += 1
                legal = legal_moves(state, seat)
                assert move in legal, move
                default = default_move(state, seat)
                if default.share == move.share:
                    assert default.kind == move.kind and sorted(default.cards) == sorted(move.cards)
            seat = rng.choice(awaiting(state))[0]
            apply(state, seat, random_move(state, seat, rng))
    assert forced_seen > 0
