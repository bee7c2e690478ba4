"""Scenario tests of the enhanced edition (docs/rules.md section 8): its action cards, buildings and goal."""

import pytest

from games.rules import (
    KIND_BY_ID,
    Move,
    apply,
    awaiting,
    build_deck,
    choices,
    event_for,
    legal_moves,
    view_for,
)
from games.rules.position import card_in, position
from games.rules.state import Rng

from .helpers import assert_rejected, bank, hand, table
from .invariants import check_views

ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3


# --- the card table of section 8 ---------------------------------------------------------------

ENHANCED_COUNTS = [
    # (kind, copies in an enhanced deck, value)
    ("jail", 1, 3),
    ("double_sly_deal", 1, 4),
    ("speeding", 1, 2),
    ("rent_transfer", 1, 3),
    ("heir", 1, 2),
    ("hotel", 2 + 1, 4),
    ("house", 3 + 4, 3),
    ("light_blue/brown", 1 + 1, 1),
    ("pink/orange", 2 + 1, 2),
    ("red/yellow", 2 + 1, 3),
    ("dark_blue/green", 1 + 1, 4),
    ("light_blue/railroad", 1, 4),
    ("green/railroad", 1, 4),
    ("railroad/utility", 1, 2),
    ("any", 2 + 2, 0),
    ("1M", 6 + 1, 1),
    ("2M", 5 + 1, 2),
    ("3M", 3 + 1, 3),
    ("4M", 3 + 1, 4),
    ("5M", 2 + 1, 5),
    ("10M", 1, 10),
]


@pytest.mark.parametrize(("kind_id", "count", "value"), ENHANCED_COUNTS)
def test_it_has_each_enhanced_card_in_its_count_and_value(kind_id, count, value):
    deck = build_deck(1, True)
    assert sum(1 for kind in deck if kind.id == kind_id) == count
    assert KIND_BY_ID[kind_id].value == value


def test_it_adds_21_cards_in_the_enhanced_edition():
    assert len(build_deck(1, True)) == 127
    assert len(build_deck(1, False)) == 106
    for kind_id in ("jail", "double_sly_deal", "speeding", "rent_transfer", "heir"):
        assert not any(kind.id == kind_id for kind in build_deck(1, False))


# --- Jail --------------------------------------------------------------------------------------


def test_it_makes_the_jailed_player_skip_their_next_turn_without_drawing():
    state = position("""
        players: alice bob carol
        options: enhanced
        alice hand: jail 1M
        bob hand: 1M
        carol hand: 1M
        draw: 2M 3M 4M 5M 10M pass_go
    """)
    jail = card_in(state, "alice", "hand", "jail")
    apply(state, ALICE, Move.play(jail, targets=(BOB,)))
    assert awaiting(state) == [(BOB, "answer", BOB)]
    apply(state, BOB, Move.accept(BOB))
    assert state.players[BOB].jailed == 1
    assert state.discard == [jail] and state.phase == "play" and state.plays_left == 2
    turns = state.turns
    _state, events = apply(state, ALICE, Move.end())
    assert {"type": "skip", "seat": BOB} in events
    assert not [e for e in events if e["type"] == "draw" and e["seat"] == BOB]
    assert state.current == CAROL and state.turns == turns + 2
    assert hand(state, BOB) == ["1M"]
    assert hand(state, CAROL) == ["1M", "2M", "3M"]
    assert state.players[BOB].jailed == 0
    apply(state, CAROL, Move.end())
    assert state.current == ALICE and hand(state, ALICE) == ["1M", "4M", "5M"]
    apply(state, ALICE, Move.end())
    assert state.current == BOB and len(state.players[BOB].hand) == 3


def test_it_gives_the_turn_back_to_the_jailer_in_a_two_player_game():
    state = position("""
        options: enhanced
        alice hand: jail 1M
        bob hand: 1M
        draw: 2M 3M
    """)
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "jail"), targets=(BOB,)))
    apply(state, BOB, Move.accept(BOB))
    apply(state, ALICE, Move.end())
    assert state.current == ALICE and state.phase == "play" and state.plays_left == 3
    assert hand(state, ALICE) == ["1M", "2M", "3M"]
    assert hand(state, BOB) == ["1M"]


def test_it_refuses_jail_without_one_other_player():
    state = position("""
        options: enhanced
        alice hand: jail
    """)
    jail = card_in(state, "alice", "hand", "jail")
    assert_rejected(state, ALICE, Move.play(jail), "Choose one player")
    assert_rejected(state, ALICE, Move.play(jail, targets=(ALICE,)), "Choose another player")


# --- Double Sly Deal ---------------------------------------------------------------------------


def test_it_takes_two_properties_from_one_player_by_double_sly_deal():
    state = position("""
        options: enhanced
        alice hand: double_sly_deal
        alice table: red: red
        bob table: red: red/yellow; green: green green; brown: brown brown
    """)
    card = card_in(state, "alice", "hand", "double_sly_deal")
    wild = card_in(state, "bob", "table", "red/yellow")
    green = card_in(state, "bob", "table", "green")
    apply(state, ALICE, Move.play(card, targets=(BOB,), cards=(wild, green)))
    assert awaiting(state) == [(BOB, "answer", BOB)]
    apply(state, BOB, Move.accept(BOB))
    assert table(state, ALICE) == [("green", ["green"], []), ("red", ["red", "red/yellow"], [])]
    assert table(state, BOB) == [("brown", ["brown", "brown"], []), ("green", ["green"], [])]
    assert state.discard == [card] and state.plays_left == 2 and state.phase == "play"


def test_it_takes_both_cards_of_one_incomplete_set_by_double_sly_deal():
    state = position("""
        options: enhanced
        alice hand: double_sly_deal
        bob table: green: green green
    """)
    card = card_in(state, "alice", "hand", "double_sly_deal")
    greens = tuple(state.players[BOB].sets[0].cards)
    apply(state, ALICE, Move.play(card, targets=(BOB,), cards=greens))
    apply(state, BOB, Move.accept(BOB))
    assert table(state, ALICE) == [("green", ["green", "green"], [])]
    assert len(state.players[ALICE].sets) == 1
    assert table(state, BOB) == []


def test_it_refuses_double_sly_deal_on_a_card_of_a_complete_set():
    state = position("""
        options: enhanced
        alice hand: double_sly_deal
        bob table: red: red; green: green green green
    """)
    card = card_in(state, "alice", "hand", "double_sly_deal")
    red = card_in(state, "bob", "table", "red")
    green = card_in(state, "bob", "table", "green")
    move = Move.play(card, targets=(BOB,), cards=(red, green))
    assert_rejected(state, ALICE, move, "Double Sly Deal cannot take a card from a complete set")
    assert not [m for m in legal_moves(state, ALICE) if m.kind == "play" and m.card == card]


def test_it_refuses_double_sly_deal_from_two_players_or_of_one_card():
    state = position("""
        players: alice bob carol
        options: enhanced
        alice hand: double_sly_deal
        bob table: red: red
        carol table: green: green
    """)
    card = card_in(state, "alice", "hand", "double_sly_deal")
    red = card_in(state, "bob", "table", "red")
    green = card_in(state, "carol", "table", "green")
    assert_rejected(
        state,
        ALICE,
        Move.play(card, targets=(BOB,), cards=(red, green)),
        "belongs to another player",
    )
    assert_rejected(
        state, ALICE, Move.play(card, targets=(BOB,), cards=(red, red)), "Choose two properties"
    )
    assert_rejected(
        state, ALICE, Move.play(card, targets=(BOB,), cards=(red,)), "Choose two properties"
    )


# --- Speeding ----------------------------------------------------------------------------------

SPEEDING = """
    players: alice bob carol
    options: enhanced
    alice hand: speeding
    bob hand: 5M 1M
    carol hand: deal_breaker
"""


def test_it_makes_two_players_each_discard_a_card_of_their_choice_by_speeding():
    state = position(SPEEDING)
    card = card_in(state, "alice", "hand", "speeding")
    apply(state, ALICE, Move.play(card, targets=(BOB, CAROL)))
    assert sorted(awaiting(state)) == [(BOB, "answer", BOB), (CAROL, "answer", CAROL)]
    breaker = card_in(state, "carol", "hand", "deal_breaker")
    apply(state, CAROL, Move.accept(CAROL, (breaker,)))
    assert state.phase == "respond"
    five = card_in(state, "bob", "hand", "5M")
    apply(state, BOB, Move.accept(BOB, (five,)))
    assert state.discard == [card, breaker, five]
    assert hand(state, BOB) == ["1M"] and hand(state, CAROL) == []
    assert bank(state, ALICE) == [] and state.players[ALICE].hand == []
    assert state.phase == "play" and state.plays_left == 2


def test_it_lets_one_target_of_speeding_say_no_while_the_other_discards():
    state = position(SPEEDING.replace("bob hand: 5M 1M", "bob hand: 5M just_say_no"))
    card = card_in(state, "alice", "hand", "speeding")
    apply(state, ALICE, Move.play(card, targets=(BOB, CAROL)))
    jsn = card_in(state, "bob", "hand", "just_say_no")
    apply(state, BOB, Move.just_say_no(BOB))
    assert sorted(awaiting(state)) == [(ALICE, "counter", BOB), (CAROL, "answer", CAROL)]
    breaker = card_in(state, "carol", "hand", "deal_breaker")
    apply(state, CAROL, Move.accept(CAROL, (breaker,)))
    apply(state, ALICE, Move.accept(BOB))
    assert hand(state, BOB) == ["5M"] and hand(state, CAROL) == []
    assert state.discard == [card, jsn, breaker]
    assert state.phase == "play" and state.pending is None


def test_it_transfers_a_doubled_rent_at_its_full_amount():
    text = TRANSFER.replace(
        "alice hand: rent:red/yellow", "alice hand: rent:red/yellow double_rent"
    )
    state = position(text)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    apply(
        state,
        ALICE,
        Move.play(rent, colour="red", cards=(card_in(state, "alice", "hand", "double_rent"),)),
    )
    apply(state, BOB, Move.transfer(BOB, CAROL))
    assert state.pending.amount == 6
    carol = tuple(state.players[CAROL].bank)
    apply(state, CAROL, Move.accept(BOB, carol))
    assert bank(state, ALICE) == ["3M", "3M"] and bank(state, BOB) == ["3M"]
    assert awaiting(state) == [(CAROL, "answer", CAROL)]
    apply(state, CAROL, Move.accept(CAROL))
    assert state.phase == "play" and bank(state, ALICE) == ["3M", "3M"]


def test_it_makes_one_player_discard_by_speeding_aimed_at_one():
    state = position(SPEEDING)
    card = card_in(state, "alice", "hand", "speeding")
    apply(state, ALICE, Move.play(card, targets=(CAROL,)))
    assert awaiting(state) == [(CAROL, "answer", CAROL)]
    apply(state, CAROL, Move.accept(CAROL, (card_in(state, "carol", "hand", "deal_breaker"),)))
    assert hand(state, BOB) == ["1M", "5M"] and hand(state, CAROL) == []
    assert state.phase == "play"


def test_it_asks_exactly_one_card_from_the_hand_for_speeding():
    state = position(SPEEDING)
    apply(
        state, ALICE, Move.play(card_in(state, "alice", "hand", "speeding"), targets=(BOB, CAROL))
    )
    bobs = tuple(state.players[BOB].hand)
    words = "Choose one card from your hand"
    assert_rejected(state, BOB, Move.accept(BOB), words)
    assert_rejected(state, BOB, Move.accept(BOB, bobs), words)
    assert_rejected(
        state, BOB, Move.accept(BOB, (card_in(state, "carol", "hand", "deal_breaker"),)), words
    )
    moves = [m for m in legal_moves(state, BOB) if m.kind == "accept"]
    assert sorted(moves) == sorted(Move.accept(BOB, (c,)) for c in bobs)


def test_it_lets_a_player_with_an_empty_hand_answer_speeding_with_nothing():
    state = position("""
        options: enhanced
        alice hand: speeding
        bob bank: 5M
    """)
    card = card_in(state, "alice", "hand", "speeding")
    apply(state, ALICE, Move.play(card, targets=(BOB,)))
    five = card_in(state, "bob", "bank", "5M")
    assert_rejected(state, BOB, Move.accept(BOB, (five,)), "hand is empty")
    apply(state, BOB, Move.accept(BOB))
    assert state.discard == [card] and bank(state, BOB) == ["5M"]
    assert state.phase == "play"


def test_it_refuses_speeding_aimed_at_myself_or_more_than_two_players():
    state = position("""
        players: alice bob carol dave
        options: enhanced
        alice hand: speeding
    """)
    card = card_in(state, "alice", "hand", "speeding")
    assert_rejected(
        state, ALICE, Move.play(card, targets=(BOB, CAROL, DAVE)), "one or two other players"
    )
    assert_rejected(state, ALICE, Move.play(card), "one or two other players")
    assert_rejected(state, ALICE, Move.play(card, targets=(BOB, BOB)), "one or two other players")
    assert_rejected(state, ALICE, Move.play(card, targets=(ALICE, BOB)), "other players")
    speeding = [m for m in legal_moves(state, ALICE) if m.kind == "play"]
    assert len(speeding) == 3 + 3  # each other player alone, each pair


# --- Rent Transfer -----------------------------------------------------------------------------

TRANSFER = """
    players: alice bob carol
    options: enhanced
    alice hand: rent:red/yellow
    alice table: red: red red
    bob hand: rent_transfer
    bob bank: 3M
    carol hand: just_say_no
    carol bank: 3M 3M
"""


def start_rent(text=TRANSFER):
    state = position(text)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    apply(state, ALICE, Move.play(rent, colour="red"))
    assert state.pending.amount == 3
    return state, rent


def test_it_makes_another_player_pay_my_rent_by_rent_transfer():
    state, rent = start_rent()
    transfer = card_in(state, "bob", "hand", "rent_transfer")
    offered = [m for m in legal_moves(state, BOB) if m.kind == "transfer"]
    assert offered == [Move.transfer(BOB, CAROL)]
    apply(state, BOB, Move.transfer(BOB, CAROL))
    share = state.pending.shares[BOB]
    assert (share.debtor, share.transferred_by) == (CAROL, BOB)
    assert sorted(awaiting(state)) == [(CAROL, "answer", BOB), (CAROL, "answer", CAROL)]
    assert sorted(c.share for c in choices(state, CAROL)) == [BOB, CAROL]
    apply(state, CAROL, Move.accept(BOB, (card_in(state, "carol", "bank", "3M", 0),)))
    apply(state, CAROL, Move.accept(CAROL, (card_in(state, "carol", "bank", "3M", 0),)))
    assert bank(state, ALICE) == ["3M", "3M"]
    assert bank(state, BOB) == ["3M"] and bank(state, CAROL) == []
    assert state.discard == [rent, transfer]
    assert state.phase == "play" and state.plays_left == 2


def test_it_never_transfers_a_transferred_rent_again():
    """docs/rules.md section 8, Ruling (Rent Transfer): the new payer pays or says no."""
    state = position("""
        players: alice bob carol dave erin fay
        options: enhanced
        alice hand: rent:red/yellow
        alice table: red: red red
        bob hand: rent_transfer
        carol hand: rent_transfer
        carol bank: 3M 3M
    """)
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "rent:red/yellow"), colour="red"))
    apply(state, BOB, Move.transfer(BOB, CAROL))
    assert Move.transfer(CAROL, DAVE) in legal_moves(state, CAROL), "her own share: yes"
    assert not any(m.kind == "transfer" and m.share == BOB for m in legal_moves(state, CAROL))
    assert_rejected(state, CAROL, Move.transfer(BOB, DAVE), "cannot be transferred again")


def test_it_lets_the_new_payer_of_a_rent_transfer_say_no_so_nobody_pays_that_share():
    state, rent = start_rent()
    transfer = card_in(state, "bob", "hand", "rent_transfer")
    jsn = card_in(state, "carol", "hand", "just_say_no")
    apply(state, BOB, Move.transfer(BOB, CAROL))
    apply(state, CAROL, Move.just_say_no(BOB))
    assert sorted(awaiting(state)) == [(BOB, "counter", BOB), (CAROL, "answer", CAROL)]
    apply(state, BOB, Move.accept(BOB))
    assert awaiting(state) == [(CAROL, "answer", CAROL)]
    apply(state, CAROL, Move.accept(CAROL, (card_in(state, "carol", "bank", "3M", 0),)))
    assert bank(state, ALICE) == ["3M"]
    assert bank(state, BOB) == ["3M"] and bank(state, CAROL) == ["3M"]
    assert state.discard == [rent, transfer, jsn]
    assert state.phase == "play"


def test_it_lets_the_transferrer_say_no_to_the_new_payers_no_so_the_new_payer_pays():
    """docs/rules.md 8: the new payer's Just Say No is an answer like any other, and may be
    answered."""
    state, rent = start_rent(
        TRANSFER.replace("bob hand: rent_transfer", "bob hand: rent_transfer just_say_no")
    )
    transfer = card_in(state, "bob", "hand", "rent_transfer")
    carols, bobs = (
        card_in(state, "carol", "hand", "just_say_no"),
        card_in(state, "bob", "hand", "just_say_no"),
    )
    apply(state, BOB, Move.transfer(BOB, CAROL))
    apply(state, CAROL, Move.just_say_no(BOB))
    apply(state, BOB, Move.just_say_no(BOB))  # bob's No cancels carol's: his share is hers again
    assert sorted(awaiting(state)) == [(CAROL, "answer", BOB), (CAROL, "answer", CAROL)]
    assert not [m for m in legal_moves(state, CAROL) if m.kind == "just_say_no"]
    apply(state, CAROL, Move.accept(BOB, (card_in(state, "carol", "bank", "3M", 0),)))
    apply(state, CAROL, Move.accept(CAROL, (card_in(state, "carol", "bank", "3M", 0),)))
    assert bank(state, ALICE) == ["3M", "3M"]
    assert bank(state, BOB) == ["3M"] and bank(state, CAROL) == []
    assert state.discard == [rent, transfer, carols, bobs]
    assert state.phase == "play"


def test_a_transferred_share_starts_a_new_just_say_no_chain_in_the_view():
    """docs/rules.md 8: the named player answers the share as any other; the view of it must
    not count the Just Say Nos played on it before it was handed on."""
    state = position("""
        players: alice bob carol
        turn: alice
        plays: 3
        options: enhanced
        alice hand: rent:any just_say_no
        alice table: red: red
        bob hand: just_say_no rent_transfer
        bob bank: 1M
        carol bank: 3M
    """)
    rent = card_in(state, "alice", "hand", "rent:any")
    apply(state, ALICE, Move.play(rent, colour="red", targets=[BOB]))
    apply(state, BOB, Move.just_say_no(BOB))
    apply(state, ALICE, Move.just_say_no(BOB))
    apply(state, BOB, Move.transfer(BOB, CAROL))

    [share] = view_for(state, CAROL)["pending"]["shares"]
    assert (share["debtor"], share["transferred_by"]) == (CAROL, BOB)
    assert share["just_say_nos"] == 0


def test_it_refuses_a_rent_transfer_to_the_collector_or_to_myself():
    state, _rent = start_rent()
    words = "other than yourself and the collector"
    assert_rejected(state, BOB, Move.transfer(BOB, ALICE), words)
    assert_rejected(state, BOB, Move.transfer(BOB, BOB), words)
    assert_rejected(state, CAROL, Move.transfer(CAROL, BOB), "You hold no Rent Transfer")
    assert_rejected(state, CAROL, Move.transfer(BOB, CAROL), "not your turn to answer")


@pytest.mark.parametrize("action", ["birthday", "debt_collector"])
def test_it_refuses_rent_transfer_against_birthday_and_debt_collector(action):
    state = position(TRANSFER.replace("rent:red/yellow", action))
    card = card_in(state, "alice", "hand", action)
    apply(state, ALICE, Move.play(card, targets=() if action == "birthday" else (BOB,)))
    assert not [m for m in legal_moves(state, BOB) if m.kind == "transfer"]
    assert_rejected(state, BOB, Move.transfer(BOB, CAROL), "Rent Transfer only answers rent")


def test_it_allows_no_rent_transfer_in_a_two_player_game():
    state = position("""
        options: enhanced
        alice hand: rent:red/yellow
        alice table: red: red red
        bob hand: rent_transfer
        bob bank: 3M
    """)
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "rent:red/yellow"), colour="red"))
    assert not [m for m in legal_moves(state, BOB) if m.kind == "transfer"]
    assert_rejected(state, BOB, Move.transfer(BOB, ALICE), "other than yourself and the collector")


def test_it_refuses_rent_transfer_in_the_play_phase_but_banks_it():
    state = position("""
        players: alice bob carol
        options: enhanced
        alice hand: rent_transfer
    """)
    card = card_in(state, "alice", "hand", "rent_transfer")
    assert_rejected(
        state, ALICE, Move.play(card, targets=(BOB,)), "only played in answer to an action"
    )
    apply(state, ALICE, Move.bank(card))
    assert state.players[ALICE].bank == [card] and state.plays_left == 2


# --- Heir --------------------------------------------------------------------------------------


def heir_state(seed, players="alice bob"):
    state = position(f"""
        players: {players}
        options: enhanced
        seed: {seed}
        alice hand: heir
        bob hand: 1M 2M 3M 4M 5M
    """)
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "heir"), targets=(BOB,)))
    return state


def test_it_takes_a_card_chosen_by_the_games_generator_by_heir():
    taken = set()
    for seed in range(12):
        state = heir_state(seed)
        before = list(state.players[BOB].hand)
        predict = Rng(state.rng.state)
        expected = before[predict.below(len(before))]
        apply(state, BOB, Move.accept(BOB))
        assert state.players[ALICE].hand == [expected]
        assert sorted(state.players[BOB].hand) == sorted(c for c in before if c != expected)
        assert state.rng.state == predict.state
        taken.add(state.deck[expected].id)
    assert len(taken) > 1, "the card taken depends on the generator"


def test_it_shows_the_card_taken_by_heir_only_to_the_two_players():
    state = heir_state(5, "alice bob carol")
    _state, events = apply(state, BOB, Move.accept(BOB))
    [event] = [e for e in events if e["type"] == "heir"]
    card = state.players[ALICE].hand[0]
    assert event_for(event, ALICE)["secret"] == {"card": card}
    assert event_for(event, BOB)["secret"] == {"card": card}
    assert "secret" not in event_for(event, CAROL)
    assert "secret" not in event_for(event, None)
    check_views(state)


def test_it_takes_nothing_by_heir_from_an_empty_hand():
    state = position("""
        options: enhanced
        alice hand: heir
        bob bank: 5M
    """)
    card = card_in(state, "alice", "hand", "heir")
    apply(state, ALICE, Move.play(card, targets=(BOB,)))
    apply(state, BOB, Move.accept(BOB))
    assert state.players[ALICE].hand == [] and state.players[BOB].hand == []
    assert bank(state, BOB) == ["5M"] and state.discard == [card] and state.phase == "play"


# --- Just Say No against every enhanced action -------------------------------------------------

ENHANCED_CANCEL = {
    "jail": ("", lambda s: Move.play(card_in(s, "alice", "hand", "jail"), targets=(BOB,))),
    "double_sly_deal": (
        "bob table: red: red; green: green",
        lambda s: Move.play(
            card_in(s, "alice", "hand", "double_sly_deal"),
            targets=(BOB,),
            cards=(card_in(s, "bob", "table", "red"), card_in(s, "bob", "table", "green")),
        ),
    ),
    "speeding": ("", lambda s: Move.play(card_in(s, "alice", "hand", "speeding"), targets=(BOB,))),
    "heir": ("", lambda s: Move.play(card_in(s, "alice", "hand", "heir"), targets=(BOB,))),
}


@pytest.mark.parametrize("action", list(ENHANCED_CANCEL))
def test_it_cancels_every_enhanced_action_with_just_say_no(action):
    extra, make_move = ENHANCED_CANCEL[action]
    state = position(f"""
        options: enhanced
        alice hand: {action} 1M
        bob hand: just_say_no 2M 10M
        bob bank: 5M
        {extra}
    """)
    before = state.to_json()["players"]
    move = make_move(state)
    jsn = card_in(state, "bob", "hand", "just_say_no")
    apply(state, ALICE, move)
    apply(state, BOB, Move.just_say_no(BOB))
    assert awaiting(state) == [(ALICE, "counter", BOB)]
    apply(state, ALICE, Move.accept(BOB))
    after = state.to_json()["players"]
    for seat in (ALICE, BOB):
        assert after[seat]["bank"] == before[seat]["bank"]
        assert after[seat]["sets"] == before[seat]["sets"]
        assert after[seat]["jailed"] == 0
    assert hand(state, ALICE) == ["1M"]
    assert hand(state, BOB) == ["10M", "2M"]
    assert state.discard == [move.card, jsn]
    assert state.phase == "play" and state.pending is None and state.plays_left == 2


# --- enhanced buildings and goal ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("buildings", "amount"), [("", 6), ("+house", 6 + 4), ("+house +hotel", 6 + 4 + 5)]
)
def test_it_adds_4_for_a_house_and_5_for_a_hotel_to_rent_in_the_enhanced_edition(buildings, amount):
    state = position(f"""
        options: enhanced
        alice hand: rent:red/yellow
        alice table: red: red red red {buildings}
    """)
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "rent:red/yellow"), colour="red"))
    assert state.pending.amount == amount


def test_it_needs_four_complete_sets_to_win_in_the_enhanced_edition():
    state = position("""
        options: enhanced
        alice hand: red green
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; red: red red; green: green green
    """)
    apply(state, ALICE, Move.lay(card_in(state, "alice", "hand", "red"), "red"))
    assert state.phase == "play" and state.winner == -1
    apply(state, ALICE, Move.lay(card_in(state, "alice", "hand", "green"), "green"))
    assert state.phase == "over" and state.winner == ALICE and state.end_reason == "win"


def test_it_needs_a_house_on_each_of_the_four_sets_with_built_sets():
    state = position("""
        options: enhanced built_sets
        alice hand: red house
        alice table: brown: brown brown +house; dark_blue: dark_blue dark_blue +house; green: green green green +house; railroad: railroad railroad railroad railroad; utility: utility utility; red: red red
    """)
    apply(state, ALICE, Move.lay(card_in(state, "alice", "hand", "red"), "red"))
    assert state.phase == "play" and state.winner == -1
    red = card_in(state, "alice", "table", "red")
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "house"), cards=(red,)))
    assert state.phase == "over" and state.winner == ALICE and state.end_reason == "win"


def test_it_wins_by_deal_breaker_taking_a_built_fourth_set():
    state = position("""
        options: enhanced built_sets
        alice hand: deal_breaker
        alice table: brown: brown brown +house; dark_blue: dark_blue dark_blue +house; green: green green green +house
        bob table: red: red red red +house +hotel
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    apply(
        state,
        ALICE,
        Move.play(card, targets=(BOB,), cards=(card_in(state, "bob", "table", "red"),)),
    )
    apply(state, BOB, Move.accept(BOB))
    assert ("red", ["red"] * 3, ["house", "hotel"]) in table(state, ALICE)
    assert state.phase == "over" and state.winner == ALICE
