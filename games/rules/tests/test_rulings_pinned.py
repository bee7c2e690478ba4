"""Rulings whose tests were missing: each test pins one rule of docs/rules.md (cited by section).

A mutation audit of the rules engine found these rulings unguarded: the engine could get
each of them wrong and every other test would still pass. Each story below fails if it does.
"""

import pytest

from games.rules import (
    Move,
    apply,
    awaiting,
    build_deck,
    check_payment,
    default_move,
    least_overpay,
    legal_moves,
    new_game,
    outcome,
)
from games.rules.position import card_in, position
from games.rules.state import Rng

from .helpers import act, assert_rejected, bank, hand, pick, table, table_of

ALICE, BOB, CAROL = 0, 1, 2


# --- section 1: the first player ---------------------------------------------------------------


def test_it_draws_the_first_player_from_the_games_generator_right_after_the_shuffle():
    """docs/rules.md section 1: the game's generator, not some other use of the seed, picks
    who begins; its next number after the opening shuffle decides."""
    for players in (3, 4, 5):
        for seed in range(12):
            events = []
            state = new_game(players, seed, events=events)
            rng = Rng(seed)
            rng.shuffle(list(range(len(build_deck(1, False)))))
            first = rng.below(players)
            assert state.current == first, (players, seed)
            assert events[0] == {"type": "start", "first": first}


# --- section 4: paying --------------------------------------------------------------------------


def test_it_keeps_the_colour_a_paid_wild_showed_when_that_is_its_first_printed_colour():
    """docs/rules.md section 4: a wild paid keeps the colour it stood for, whichever of its
    printed colours that is (here the first)."""
    state = position("""
        alice hand: debt_collector
        alice table: red: red
        bob table: red: red/yellow; light_blue: light_blue/railroad
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), [BOB]))
    paid = pick(state, "bob", "table:red/yellow", "table:light_blue/railroad")
    act(state, "bob", Move.accept(BOB, paid))
    assert table_of(state, "alice") == "red: red red/yellow; light_blue: light_blue/railroad"
    assert table_of(state, "bob") == ""


# --- section 11: the default payment ------------------------------------------------------------


def test_it_pays_a_hotel_before_an_equally_exact_property_by_default():
    """docs/rules.md section 11: among equal overpays, Houses and Hotels go before properties
    (taking the Hotel leaves its set complete), even when the property is listed first."""
    state = position("bob table: dark_blue: dark_blue; green: green green green +house +hotel")
    paid = least_overpay(state, BOB, 4)
    assert paid == pick(state, "bob", "table:hotel")
    check_payment(state, BOB, 4, paid)


def test_it_pays_a_hotel_by_default_when_a_rent_is_answered_by_timeout():
    """docs/rules.md section 11: the default answer to a 4M rent is the Hotel, not the lone
    dark blue property of the same value."""
    state = position("""
        alice hand: rent:any
        alice table: yellow: yellow yellow
        bob table: dark_blue: dark_blue; green: green green green +house +hotel
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "rent:any"), [BOB], "yellow"))
    assert state.pending.amount == 4
    move = default_move(state, BOB)
    assert move == Move.accept(BOB, pick(state, "bob", "table:hotel"))
    act(state, "bob", move)
    assert bank(state, ALICE) == ["hotel"]
    assert table_of(state, "bob") == "dark_blue: dark_blue; green: green green green +house"


# --- section 8: Speeding ------------------------------------------------------------------------


def test_it_discards_the_card_the_target_of_speeding_chooses_not_the_first_in_hand():
    """docs/rules.md section 8: each target of Speeding discards one card of their choice."""
    state = position("""
        options: enhanced
        alice hand: speeding
        bob hand: 1M 10M deal_breaker
    """)
    speeding = card_in(state, "alice", "hand", "speeding")
    act(state, "alice", Move.play(speeding, [BOB]))
    bobs = state.players[BOB].hand
    assert sorted(m.cards for m in legal_moves(state, BOB) if m.kind == "accept") == sorted(
        (c,) for c in bobs
    )
    ten = card_in(state, "bob", "hand", "10M")
    assert bobs[0] != ten, "the card chosen is not the first in hand"
    act(state, "bob", Move.accept(BOB, (ten,)))
    assert hand(state, BOB) == ["1M", "deal_breaker"]
    assert state.discard == [speeding, ten]


# --- section 5: Forced Deal ---------------------------------------------------------------------


def test_it_gives_a_wild_by_forced_deal_in_the_colour_it_showed_not_its_first_printed_one():
    """docs/rules.md section 5: a swapped property keeps the colour it stood for, the card
    given as well as the card taken."""
    state = position("""
        alice hand: forced_deal
        alice table: yellow: red/yellow; green: green
        bob table: yellow: yellow; pink: pink
    """)
    deal = card_in(state, "alice", "hand", "forced_deal")
    give = card_in(state, "alice", "table", "red/yellow")
    take = card_in(state, "bob", "table", "pink")
    act(state, "alice", Move.play(deal, [BOB], cards=(give, take)))
    act(state, "bob", Move.accept(BOB))
    assert table_of(state, "bob") == "yellow: yellow red/yellow"
    assert table(state, ALICE) == [("green", ["green"], []), ("pink", ["pink"], [])]


# --- section 7: the stalemate and wild switches -------------------------------------------------


@pytest.mark.parametrize("options", ["", "options: wild_moves_cost_a_play"])
def test_a_wild_switch_draws_and_plays_no_card_so_a_round_of_switches_is_a_stalemate(options):
    """docs/rules.md sections 2 (step 3) and 7, Ruling (stalemate): switching a wild draws
    and plays no card (even where it uses a play), so a turn with only switches is quiet, and
    a round of such turns ends the game."""
    state = position(f"""
        {options}
        alice hand: 1M
        alice table: red: red/yellow
        bob hand: 2M
        bob table: pink: pink/orange
        rest: alice bank
    """)
    act(state, "alice", Move.end())  # Alice's turn was not quiet: it began the position
    act(state, "bob", Move.move_wild(card_in(state, "bob", "table", "pink/orange"), "orange"))
    act(state, "bob", Move.end())
    assert outcome(state) is None, "one quiet turn is not yet a round"
    act(state, "alice", Move.move_wild(card_in(state, "alice", "table", "red/yellow"), "yellow"))
    assert outcome(state) is None and state.phase == "play"
    act(state, "alice", Move.end())
    assert outcome(state) == {"winner": None, "reason": "stalemate"}
    assert table_of(state, "alice") == "yellow: red/yellow"
    assert table_of(state, "bob") == "orange: pink/orange"


# --- section 5: rent --------------------------------------------------------------------------


def test_it_charges_the_rent_of_the_best_set_of_the_colour_wherever_it_is_listed():
    """docs/rules.md section 5: the rent is that of the best set of the colour, here the middle
    one of three red sets (6M, 6M + 3M for the House, 2M)."""
    state = position("""
        alice hand: rent:any
        alice table: red: red red red; red: red/yellow red/yellow any +house; red: any
        bob bank: 10M
    """)
    rent = card_in(state, "alice", "hand", "rent:any")
    act(state, "alice", Move.play(rent, [BOB], "red"))
    assert state.pending.amount == 9
    act(state, "bob", Move.accept(BOB, pick(state, "bob", "bank:10M")))
    assert bank(state, ALICE) == ["10M"]


# --- section 2: a banked action card is money ---------------------------------------------------


def test_it_refuses_to_play_an_action_card_from_the_bank_for_its_effect():
    """docs/rules.md section 2: an action card in a bank is money for the rest of the game; it
    is no longer held, so playing it for what it does is an IllegalMove."""
    state = position("""
        alice hand: 1M
        alice bank: sly_deal pass_go
        bob table: red: red
    """)
    sly = card_in(state, "alice", "bank", "sly_deal")
    red = card_in(state, "bob", "table", "red")
    assert_rejected(state, ALICE, Move.play(sly, [BOB], cards=(red,)), "do not hold that card")
    pass_go = card_in(state, "alice", "bank", "pass_go")
    assert_rejected(state, ALICE, Move.play(pass_go), "do not hold that card")
    assert not [m for m in legal_moves(state, ALICE) if m.card in (sly, pass_go)]
    assert bank(state, ALICE) == ["pass_go", "sly_deal"] and state.plays_left == 3


# --- section 8: Rent Transfer -------------------------------------------------------------------


def test_it_offers_the_new_payer_of_a_transferred_rent_their_just_say_no():
    """docs/rules.md section 8, Rent Transfer: the player named may answer with a Just Say No;
    it is among their legal moves, and then nobody pays that share."""
    state = position("""
        players: alice bob carol
        options: enhanced
        alice hand: rent:any
        alice table: red: red red
        bob hand: rent_transfer
        bob bank: 3M
        carol hand: just_say_no
        carol bank: 3M
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "rent:any"), [BOB], "red"))
    act(state, "bob", Move.transfer(BOB, CAROL))
    assert awaiting(state) == [(CAROL, "answer", BOB)]
    moves = legal_moves(state, CAROL)
    assert Move.just_say_no(BOB) in moves
    act(state, "carol", Move.just_say_no(BOB))
    act(state, "bob", Move.accept(BOB))
    assert bank(state, ALICE) == [] and bank(state, BOB) == ["3M"] and bank(state, CAROL) == ["3M"]
    assert state.phase == "play"


# --- section 8: Jail -------------------------------------------------------------------------


def test_two_jails_before_the_targets_turn_make_them_miss_two_turns():
    """docs/rules.md section 8, Ruling (Jail): every Jail is one turn missed, so two Jails
    played on one player before their turn make them miss two turns in a row."""
    state = position("""
        players: alice bob carol dave erin fay
        options: enhanced
        alice hand: jail jail
    """)
    for _jail in range(2):
        act(state, "alice", Move.play(card_in(state, "alice", "hand", "jail"), [BOB]))
        act(state, "bob", Move.accept(BOB))
    assert state.players[BOB].jailed == 2
    skipped, order = 0, []
    while len(order) < 12:
        seat = state.current
        order.append(seat)
        _state, events = apply(state, seat, Move.end())
        if state.phase == "discard":
            _state, more = apply(state, seat, default_move(state, seat))
            events += more
        skipped += events.count({"type": "skip", "seat": BOB})
    assert skipped == 2 and state.players[BOB].jailed == 0
    assert order == [0, 2, 3, 4, 5, 0, 2, 3, 4, 5, 0, 1], "bob plays at his third turn"
