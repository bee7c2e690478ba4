"""Scenario tests of the base action cards (docs/rules.md section 5), Just Say No and multi-target actions."""

import pytest

from games.rules import (
    KIND_BY_ID,
    Choice,
    Move,
    Options,
    apply,
    awaiting,
    build_deck,
    choices,
    legal_moves,
    new_table_options,
)
from games.rules.position import card_in, position

from .helpers import assert_rejected, bank, hand, kinds, table

ALICE, BOB, CAROL = 0, 1, 2


def play_moves_of(state, seat, card):
    return [m for m in legal_moves(state, seat) if m.kind == "play" and m.card == card]


# --- the card table of section 5 -------------------------------------------------------------

BASE_ACTIONS = [
    ("deal_breaker", 2, 5),
    ("just_say_no", 3, 4),
    ("sly_deal", 3, 3),
    ("forced_deal", 3, 3),
    ("debt_collector", 3, 3),
    ("birthday", 3, 2),
    ("double_rent", 2, 1),
    ("house", 3, 3),
    ("hotel", 2, 4),
    ("pass_go", 10, 1),
    ("rent:light_blue/brown", 2, 1),
    ("rent:pink/orange", 2, 1),
    ("rent:red/yellow", 2, 1),
    ("rent:dark_blue/green", 2, 1),
    ("rent:railroad/utility", 2, 1),
    ("rent:any", 3, 3),
]


@pytest.mark.parametrize(("kind_id", "count", "value"), BASE_ACTIONS)
def test_it_has_each_base_action_card_in_its_count_and_value(kind_id, count, value):
    deck = build_deck(1, False)
    assert sum(1 for kind in deck if kind.id == kind_id) == count
    assert KIND_BY_ID[kind_id].value == value


def test_it_has_47_action_cards_in_a_base_deck():
    deck = build_deck(1, False)
    assert sum(1 for kind in deck if kind.category in ("action", "rent")) == 47
    assert sum(count for _id, count, _value in BASE_ACTIONS) == 47


# --- Deal Breaker ------------------------------------------------------------------------------


def test_it_takes_a_complete_set_with_its_buildings_by_deal_breaker_and_does_not_merge_it():
    state = position("""
        alice hand: deal_breaker
        alice table: red: red
        bob table: red: red red red/yellow +house +hotel; brown: brown
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    taken = card_in(state, "bob", "table", "red/yellow")
    apply(state, ALICE, Move.play(card, targets=(BOB,), cards=(taken,)))
    assert state.phase == "respond"
    assert awaiting(state) == [(BOB, "answer", BOB)]
    apply(state, BOB, Move.accept(BOB))
    assert table(state, ALICE) == [
        ("red", ["red"], []),
        ("red", ["red", "red", "red/yellow"], ["house", "hotel"]),
    ]
    assert len(state.players[ALICE].sets) == 2
    assert table(state, BOB) == [("brown", ["brown"], [])]
    assert bank(state, BOB) == [] and bank(state, ALICE) == []
    assert state.discard == [card]
    assert state.phase == "play" and state.plays_left == 2 and state.pending is None


def test_it_refuses_deal_breaker_on_an_incomplete_set():
    state = position("""
        alice hand: deal_breaker
        bob table: red: red red; green: green green green
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    red = card_in(state, "bob", "table", "red")
    assert_rejected(
        state,
        ALICE,
        Move.play(card, targets=(BOB,), cards=(red,)),
        "Deal Breaker only takes a complete set",
    )


def test_it_refuses_deal_breaker_on_my_own_set():
    state = position("""
        alice hand: deal_breaker
        alice table: green: green green green
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    green = card_in(state, "alice", "table", "green")
    assert_rejected(
        state, ALICE, Move.play(card, targets=(BOB,), cards=(green,)), "another player's table"
    )


def test_it_refuses_a_deal_breaker_naming_the_wrong_owner():
    state = position("""
        players: alice bob carol
        alice hand: deal_breaker
        carol table: brown: brown brown
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    brown = card_in(state, "carol", "table", "brown")
    assert_rejected(
        state, ALICE, Move.play(card, targets=(BOB,), cards=(brown,)), "belongs to another player"
    )
    assert_rejected(state, ALICE, Move.play(card, targets=(CAROL,)), "Choose one complete set")


def test_it_offers_deal_breaker_only_when_another_player_has_a_complete_set():
    state = position("""
        alice hand: deal_breaker
        alice table: green: green green green
        bob table: red: red red; brown: brown
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    assert play_moves_of(state, ALICE, card) == []
    assert Move.bank(card) in legal_moves(state, ALICE)
    state = position("""
        alice hand: deal_breaker
        bob table: red: red red; brown: brown brown
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    brown = card_in(state, "bob", "table", "brown")
    assert play_moves_of(state, ALICE, card) == [Move.play(card, targets=(BOB,), cards=(brown,))]


def test_it_wins_when_a_deal_breaker_brings_the_third_complete_set():
    state = position("""
        alice hand: deal_breaker
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue
        bob table: green: green green green
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    apply(
        state,
        ALICE,
        Move.play(card, targets=(BOB,), cards=(card_in(state, "bob", "table", "green"),)),
    )
    assert state.phase == "respond"
    apply(state, BOB, Move.accept(BOB))
    assert state.phase == "over" and state.winner == ALICE and state.end_reason == "win"


# --- Just Say No -------------------------------------------------------------------------------

SLY = """
    alice hand: sly_deal just_say_no
    alice table: red: red
    bob hand: just_say_no just_say_no
    bob table: red: red/yellow
"""


def start_sly(text=SLY):
    state = position(text)
    sly = card_in(state, "alice", "hand", "sly_deal")
    wild = card_in(state, "bob", "table", "red/yellow")
    apply(state, ALICE, Move.play(sly, targets=(BOB,), cards=(wild,)))
    return state, sly, wild


def test_it_refuses_just_say_no_played_for_effect_in_the_play_phase():
    state = position("alice hand: just_say_no\nbob table: red: red")
    card = card_in(state, "alice", "hand", "just_say_no")
    assert_rejected(state, ALICE, Move.play(card), "only played in answer to an action")
    assert_rejected(
        state, ALICE, Move.play(card, targets=(BOB,)), "only played in answer to an action"
    )
    assert not play_moves_of(state, ALICE, card)


def test_it_banks_just_say_no_as_4m_money():
    state = position("alice hand: just_say_no")
    card = card_in(state, "alice", "hand", "just_say_no")
    apply(state, ALICE, Move.bank(card))
    assert state.players[ALICE].bank == [card]
    assert state.players[ALICE].hand == []
    assert state.plays_left == 2
    assert KIND_BY_ID["just_say_no"].value == 4


def test_it_cancels_an_action_with_just_say_no_and_discards_the_just_say_no():
    state, sly, wild = start_sly()
    bob_jsn = state.players[BOB].hand[0]
    apply(state, BOB, Move.just_say_no(BOB))
    assert awaiting(state) == [(ALICE, "counter", BOB)]
    assert state.discard == [sly, bob_jsn]
    apply(state, ALICE, Move.accept(BOB))
    assert table(state, BOB) == [("red", ["red/yellow"], [])]
    assert table(state, ALICE) == [("red", ["red"], [])]
    assert hand(state, BOB) == ["just_say_no"]
    assert hand(state, ALICE) == ["just_say_no"]
    assert state.phase == "play" and state.pending is None and state.plays_left == 2


def test_it_lets_the_cancelled_player_counter_with_just_say_no_even_with_no_plays_left():
    state = position(SLY + "plays: 1")
    sly = card_in(state, "alice", "hand", "sly_deal")
    wild = card_in(state, "bob", "table", "red/yellow")
    apply(state, ALICE, Move.play(sly, targets=(BOB,), cards=(wild,)))
    assert state.plays_left == 0
    bob_jsn = card_in(state, "bob", "hand", "just_say_no")
    alice_jsn = card_in(state, "alice", "hand", "just_say_no")
    apply(state, BOB, Move.just_say_no(BOB))
    apply(state, ALICE, Move.just_say_no(BOB))
    assert awaiting(state) == [(BOB, "answer", BOB)]
    assert state.plays_left == 0
    apply(state, BOB, Move.accept(BOB))
    assert table(state, ALICE) == [("red", ["red", "red/yellow"], [])]
    assert table(state, BOB) == []
    assert state.discard == [sly, bob_jsn, alice_jsn]
    assert state.plays_left == 0 and state.phase == "play"


def test_it_resolves_a_just_say_no_chain_of_three_as_cancelled():
    state, sly, wild = start_sly()
    first, third = state.players[BOB].hand
    second = card_in(state, "alice", "hand", "just_say_no")
    apply(state, BOB, Move.just_say_no(BOB))
    assert awaiting(state) == [(ALICE, "counter", BOB)]
    apply(state, ALICE, Move.just_say_no(BOB))
    assert awaiting(state) == [(BOB, "answer", BOB)]
    apply(state, BOB, Move.just_say_no(BOB))
    assert awaiting(state) == [(ALICE, "counter", BOB)]
    assert state.pending.shares[BOB].jsn == 3
    apply(state, ALICE, Move.accept(BOB))
    assert state.discard == [sly, first, second, third]
    assert table(state, BOB) == [("red", ["red/yellow"], [])]
    assert table(state, ALICE) == [("red", ["red"], [])]
    assert state.players[ALICE].hand == [] and state.players[BOB].hand == []
    assert state.plays_left == 2 and state.phase == "play"


def test_it_offers_just_say_no_and_accept_to_whoever_the_chain_waits_for():
    state, sly, wild = start_sly()
    assert legal_moves(state, BOB) == [Move.just_say_no(BOB), Move.accept(BOB)]
    assert legal_moves(state, ALICE) == []
    apply(state, BOB, Move.just_say_no(BOB))
    assert legal_moves(state, ALICE) == [Move.just_say_no(BOB), Move.accept(BOB)]
    assert legal_moves(state, BOB) == []
    assert_rejected(state, BOB, Move.accept(BOB), "not your turn to answer")


def test_it_refuses_just_say_no_from_a_player_who_holds_none():
    state = position("""
        alice hand: sly_deal
        bob hand: 5M
        bob table: red: red
    """)
    sly = card_in(state, "alice", "hand", "sly_deal")
    apply(
        state, ALICE, Move.play(sly, targets=(BOB,), cards=(card_in(state, "bob", "table", "red"),))
    )
    assert_rejected(state, BOB, Move.just_say_no(BOB), "You hold no Just Say No")
    assert_rejected(state, ALICE, Move.just_say_no(BOB), "not your turn to answer")


CANCEL_CASES = {
    "deal_breaker": (
        "bob table: green: green green green",
        lambda s: Move.play(
            card_in(s, "alice", "hand", "deal_breaker"),
            targets=(BOB,),
            cards=(card_in(s, "bob", "table", "green"),),
        ),
    ),
    "sly_deal": (
        "bob table: red: red",
        lambda s: Move.play(
            card_in(s, "alice", "hand", "sly_deal"),
            targets=(BOB,),
            cards=(card_in(s, "bob", "table", "red"),),
        ),
    ),
    "forced_deal": (
        "alice table: pink: pink\nbob table: red: red",
        lambda s: Move.play(
            card_in(s, "alice", "hand", "forced_deal"),
            targets=(BOB,),
            cards=(card_in(s, "alice", "table", "pink"), card_in(s, "bob", "table", "red")),
        ),
    ),
    "debt_collector": (
        "",
        lambda s: Move.play(card_in(s, "alice", "hand", "debt_collector"), targets=(BOB,)),
    ),
    "birthday": ("", lambda s: Move.play(card_in(s, "alice", "hand", "birthday"))),
    "rent:red/yellow": (
        "alice table: red: red red",
        lambda s: Move.play(card_in(s, "alice", "hand", "rent:red/yellow"), colour="red"),
    ),
    "rent:any": (
        "alice table: green: green",
        lambda s: Move.play(
            card_in(s, "alice", "hand", "rent:any"), colour="green", targets=(BOB,)
        ),
    ),
}


@pytest.mark.parametrize("action", list(CANCEL_CASES))
def test_it_cancels_every_targeted_base_action_with_just_say_no(action):
    extra, make_move = CANCEL_CASES[action]
    state = position(f"""
        alice hand: {action} 1M
        bob hand: just_say_no 2M
        bob bank: 5M 3M
        {extra}
    """)
    before = state.to_json()["players"]
    move = make_move(state)
    jsn = card_in(state, "bob", "hand", "just_say_no")
    apply(state, ALICE, move)
    assert awaiting(state) == [(BOB, "answer", BOB)]
    apply(state, BOB, Move.just_say_no(BOB))
    apply(state, ALICE, Move.accept(BOB))
    after = state.to_json()["players"]
    for seat in (ALICE, BOB):
        assert after[seat]["bank"] == before[seat]["bank"]
        assert after[seat]["sets"] == before[seat]["sets"]
    assert hand(state, ALICE) == ["1M"]
    assert hand(state, BOB) == ["2M"]
    assert state.discard == [move.card, jsn]
    assert state.phase == "play" and state.pending is None and state.plays_left == 2


# --- Sly Deal ----------------------------------------------------------------------------------


def test_it_takes_a_property_by_sly_deal_keeping_its_colour_and_joining_my_incomplete_set():
    state = position("""
        alice hand: sly_deal
        alice table: red: red; yellow: yellow
        bob table: yellow: red/yellow yellow
    """)
    sly = card_in(state, "alice", "hand", "sly_deal")
    wild = card_in(state, "bob", "table", "red/yellow")
    apply(state, ALICE, Move.play(sly, targets=(BOB,), cards=(wild,)))
    apply(state, BOB, Move.accept(BOB))
    assert table(state, ALICE) == [("red", ["red"], []), ("yellow", ["red/yellow", "yellow"], [])]
    assert len(state.players[ALICE].sets) == 2
    assert table(state, BOB) == [("yellow", ["yellow"], [])]
    assert state.discard == [sly]
    assert state.plays_left == 2 and state.phase == "play"


def test_it_starts_a_new_set_for_a_stolen_card_when_my_set_of_its_colour_is_complete():
    state = position("""
        alice hand: sly_deal
        alice table: red: red red red
        bob table: red: red/yellow; yellow: yellow
    """)
    sly = card_in(state, "alice", "hand", "sly_deal")
    wild = card_in(state, "bob", "table", "red/yellow")
    apply(state, ALICE, Move.play(sly, targets=(BOB,), cards=(wild,)))
    apply(state, BOB, Move.accept(BOB))
    assert table(state, ALICE) == [("red", ["red", "red", "red"], []), ("red", ["red/yellow"], [])]
    assert table(state, BOB) == [("yellow", ["yellow"], [])]


def test_it_refuses_sly_deal_on_a_card_of_a_complete_set():
    state = position("""
        alice hand: sly_deal
        bob table: green: green green dark_blue/green; red: red
    """)
    sly = card_in(state, "alice", "hand", "sly_deal")
    green = card_in(state, "bob", "table", "dark_blue/green")
    assert_rejected(
        state,
        ALICE,
        Move.play(sly, targets=(BOB,), cards=(green,)),
        "Sly Deal cannot take a card from a complete set",
    )
    red = card_in(state, "bob", "table", "red")
    assert play_moves_of(state, ALICE, sly) == [Move.play(sly, targets=(BOB,), cards=(red,))]


def test_it_offers_sly_deal_only_with_a_property_to_take():
    state = position("""
        alice hand: sly_deal
        alice table: red: red
        bob table: green: green green green
    """)
    sly = card_in(state, "alice", "hand", "sly_deal")
    assert play_moves_of(state, ALICE, sly) == []
    mine = card_in(state, "alice", "table", "red")
    assert_rejected(
        state, ALICE, Move.play(sly, targets=(BOB,), cards=(mine,)), "another player's table"
    )
    assert_rejected(state, ALICE, Move.play(sly, targets=(BOB,)), "Choose one property")


def test_it_refuses_a_sly_deal_naming_the_wrong_owner():
    state = position("""
        players: alice bob carol
        alice hand: sly_deal
        bob table: red: red
    """)
    sly = card_in(state, "alice", "hand", "sly_deal")
    red = card_in(state, "bob", "table", "red")
    assert_rejected(
        state, ALICE, Move.play(sly, targets=(CAROL,), cards=(red,)), "belongs to another player"
    )


def test_it_wins_when_a_sly_deal_completes_the_third_set():
    state = position("""
        alice hand: sly_deal
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; red: red red
        bob table: red: red
    """)
    sly = card_in(state, "alice", "hand", "sly_deal")
    apply(
        state, ALICE, Move.play(sly, targets=(BOB,), cards=(card_in(state, "bob", "table", "red"),))
    )
    apply(state, BOB, Move.accept(BOB))
    assert state.winner == ALICE and state.phase == "over" and state.end_reason == "win"


# --- Forced Deal -------------------------------------------------------------------------------


def test_it_swaps_properties_by_forced_deal_each_keeping_its_colour():
    state = position("""
        alice hand: forced_deal
        alice table: green: green; red: red/yellow
        bob table: pink: pink; red: red
    """)
    deal = card_in(state, "alice", "hand", "forced_deal")
    give = card_in(state, "alice", "table", "red/yellow")
    take = card_in(state, "bob", "table", "pink")
    apply(state, ALICE, Move.play(deal, targets=(BOB,), cards=(give, take)))
    assert awaiting(state) == [(BOB, "answer", BOB)]
    apply(state, BOB, Move.accept(BOB))
    assert table(state, ALICE) == [("green", ["green"], []), ("pink", ["pink"], [])]
    assert table(state, BOB) == [("red", ["red", "red/yellow"], [])]
    assert state.discard == [deal] and state.plays_left == 2


@pytest.mark.parametrize(
    ("give_kind", "take_kind", "words"),
    [
        ("green", "red", "Forced Deal cannot give away a card from a complete set"),
        ("pink", "brown", "Forced Deal cannot take a card from a complete set"),
    ],
)
def test_it_refuses_a_forced_deal_with_a_card_of_a_complete_set(give_kind, take_kind, words):
    state = position("""
        alice hand: forced_deal
        alice table: green: green green green; pink: pink
        bob table: brown: brown brown; red: red
    """)
    deal = card_in(state, "alice", "hand", "forced_deal")
    give = card_in(state, "alice", "table", give_kind)
    take = card_in(state, "bob", "table", take_kind)
    assert_rejected(state, ALICE, Move.play(deal, targets=(BOB,), cards=(give, take)), words)


def test_it_offers_forced_deal_only_with_a_property_of_mine_to_give():
    state = position("""
        alice hand: forced_deal
        bob table: red: red
    """)
    deal = card_in(state, "alice", "hand", "forced_deal")
    red = card_in(state, "bob", "table", "red")
    assert play_moves_of(state, ALICE, deal) == []
    assert_rejected(
        state, ALICE, Move.play(deal, targets=(BOB,), cards=(red, red)), "must be on your table"
    )


def test_it_lets_the_player_of_a_forced_deal_win_when_it_completes_both_third_sets():
    state = position("""
        alice hand: forced_deal
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; red: red red; yellow: yellow
        bob table: green: green green green; railroad: railroad railroad railroad railroad; yellow: yellow yellow; red: red
    """)
    deal = card_in(state, "alice", "hand", "forced_deal")
    give = card_in(state, "alice", "table", "yellow")
    take = card_in(state, "bob", "table", "red")
    apply(state, ALICE, Move.play(deal, targets=(BOB,), cards=(give, take)))
    apply(state, BOB, Move.accept(BOB))
    assert table(state, BOB) == [
        ("green", ["green", "green", "green"], []),
        ("railroad", ["railroad"] * 4, []),
        ("yellow", ["yellow"] * 3, []),
    ]
    assert ("red", ["red"] * 3, []) in table(state, ALICE)
    assert state.phase == "over" and state.winner == ALICE and state.end_reason == "win"


def test_it_lets_the_target_of_a_forced_deal_win_when_only_their_goal_completes():
    state = position("""
        alice hand: forced_deal
        alice table: yellow: yellow
        bob table: green: green green green; railroad: railroad railroad railroad railroad; yellow: yellow yellow; red: red
    """)
    deal = card_in(state, "alice", "hand", "forced_deal")
    apply(
        state,
        ALICE,
        Move.play(
            deal,
            targets=(BOB,),
            cards=(
                card_in(state, "alice", "table", "yellow"),
                card_in(state, "bob", "table", "red"),
            ),
        ),
    )
    apply(state, BOB, Move.accept(BOB))
    assert state.phase == "over" and state.winner == BOB


# --- Debt Collector ----------------------------------------------------------------------------


def test_it_collects_5m_by_debt_collector():
    state = position("""
        alice hand: debt_collector
        bob bank: 2M 3M 1M
    """)
    card = card_in(state, "alice", "hand", "debt_collector")
    apply(state, ALICE, Move.play(card, targets=(BOB,)))
    assert state.pending.amount == 5
    [choice] = choices(state, BOB)
    assert choice == Choice("pay", tuple(state.players[BOB].bank), amount=5, share=BOB)
    paid = (card_in(state, "bob", "bank", "2M"), card_in(state, "bob", "bank", "3M"))
    apply(state, BOB, Move.accept(BOB, paid))
    assert bank(state, ALICE) == ["2M", "3M"]
    assert bank(state, BOB) == ["1M"]
    assert state.discard == [card] and state.phase == "play" and state.plays_left == 2


def test_it_refuses_a_debt_collector_without_one_other_player():
    state = position("""
        players: alice bob carol
        alice hand: debt_collector
    """)
    card = card_in(state, "alice", "hand", "debt_collector")
    assert_rejected(state, ALICE, Move.play(card), "Choose one player")
    assert_rejected(state, ALICE, Move.play(card, targets=(BOB, CAROL)), "Choose one player")
    assert_rejected(state, ALICE, Move.play(card, targets=(ALICE,)), "Choose another player")


# --- It's My Birthday --------------------------------------------------------------------------

BIRTHDAY = """
    players: alice bob carol
    alice hand: birthday
    bob hand: just_say_no
    bob bank: 2M 5M
    carol bank: 1M 1M 3M
"""


def test_it_collects_2m_from_every_other_player_by_birthday_in_any_order():
    state = position(BIRTHDAY)
    card = card_in(state, "alice", "hand", "birthday")
    apply(state, ALICE, Move.play(card))
    assert sorted(awaiting(state)) == [(BOB, "answer", BOB), (CAROL, "answer", CAROL)]
    assert state.pending.amount == 2
    ones = (card_in(state, "carol", "bank", "1M", 0), card_in(state, "carol", "bank", "1M", 1))
    apply(state, CAROL, Move.accept(CAROL, ones))
    assert state.phase == "respond"
    assert awaiting(state) == [(BOB, "answer", BOB)]
    apply(state, BOB, Move.accept(BOB, (card_in(state, "bob", "bank", "2M"),)))
    assert bank(state, ALICE) == ["1M", "1M", "2M"]
    assert bank(state, BOB) == ["5M"]
    assert bank(state, CAROL) == ["3M"]
    assert state.phase == "play" and state.pending is None and state.plays_left == 2


def test_it_lets_one_player_say_no_to_a_birthday_while_another_pays():
    state = position(BIRTHDAY)
    card = card_in(state, "alice", "hand", "birthday")
    apply(state, ALICE, Move.play(card))
    jsn = card_in(state, "bob", "hand", "just_say_no")
    apply(state, BOB, Move.just_say_no(BOB))
    assert sorted(awaiting(state)) == [(ALICE, "counter", BOB), (CAROL, "answer", CAROL)]
    apply(state, ALICE, Move.accept(BOB))
    assert state.phase == "respond" and awaiting(state) == [(CAROL, "answer", CAROL)]
    apply(state, CAROL, Move.accept(CAROL, (card_in(state, "carol", "bank", "3M"),)))
    assert bank(state, ALICE) == ["3M"]
    assert bank(state, BOB) == ["2M", "5M"]
    assert bank(state, CAROL) == ["1M", "1M"]
    assert state.discard == [card, jsn]
    assert state.phase == "play" and state.pending is None


def test_it_lets_one_player_pay_a_two_colour_rent_before_another_says_no_to_it():
    """docs/rules.md 5: a two-colour rent is answered by each player independently, in any order."""
    state = position(
        BIRTHDAY.replace(
            "alice hand: birthday", "alice hand: rent:red/yellow\nalice table: red: red red"
        )
    )
    card = card_in(state, "alice", "hand", "rent:red/yellow")
    apply(state, ALICE, Move.play(card, colour="red"))
    assert sorted(awaiting(state)) == [(BOB, "answer", BOB), (CAROL, "answer", CAROL)]
    apply(state, CAROL, Move.accept(CAROL, (card_in(state, "carol", "bank", "3M"),)))
    assert awaiting(state) == [(BOB, "answer", BOB)]  # carol paid without waiting for bob
    jsn = card_in(state, "bob", "hand", "just_say_no")
    apply(state, BOB, Move.just_say_no(BOB))
    apply(state, ALICE, Move.accept(BOB))
    assert bank(state, ALICE) == ["3M"]
    assert bank(state, BOB) == ["2M", "5M"] and bank(state, CAROL) == ["1M", "1M"]
    assert state.discard == [card, jsn]
    assert state.phase == "play" and state.pending is None


# --- Double the Rent ---------------------------------------------------------------------------

RENT = """
    alice hand: rent:red/yellow double_rent double_rent
    alice table: red: red red
    bob bank: 10M 5M 5M 1M
"""


@pytest.mark.parametrize(("doubles", "amount"), [(0, 3), (1, 6), (2, 12)])
def test_it_multiplies_rent_by_double_the_rent_each_counting_as_a_play(doubles, amount):
    state = position(RENT)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    used = tuple(card_in(state, "alice", "hand", "double_rent", i) for i in range(doubles))
    apply(state, ALICE, Move.play(rent, colour="red", cards=used))
    assert state.pending.amount == amount
    assert state.plays_left == 3 - 1 - doubles
    assert state.discard == [rent, *used]
    assert len(state.players[ALICE].hand) == 2 - doubles


@pytest.mark.parametrize(
    ("plays", "doubles", "words"), [(2, 2, "only 2 plays left"), (1, 1, "only 1 play")]
)
def test_it_refuses_double_the_rent_with_too_few_plays_left(plays, doubles, words):
    state = position(RENT + f"plays: {plays}")
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    used = tuple(card_in(state, "alice", "hand", "double_rent", i) for i in range(doubles))
    assert_rejected(state, ALICE, Move.play(rent, colour="red", cards=used), words)
    assert all(len(m.cards) < plays for m in play_moves_of(state, ALICE, rent))


def test_it_refuses_rent_with_cards_that_are_not_my_double_the_rents():
    state = position(RENT + "alice hand: pass_go")
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    double = card_in(state, "alice", "hand", "double_rent")
    pass_go = card_in(state, "alice", "hand", "pass_go")
    words = "Only Double the Rent cards from your hand"
    assert_rejected(
        state, ALICE, Move.play(rent, colour="red", cards=(double, double)), "only once"
    )
    assert_rejected(state, ALICE, Move.play(rent, colour="red", cards=(rent,)), "only once")
    assert_rejected(state, ALICE, Move.play(rent, colour="red", cards=(pass_go,)), words)


def test_it_doubles_the_rent_of_a_built_set_charged_to_one_player():
    state = position("""
        players: alice bob carol
        alice hand: rent:any double_rent
        alice table: green: green green green +house
    """)
    rent = card_in(state, "alice", "hand", "rent:any")
    double = card_in(state, "alice", "hand", "double_rent")
    apply(state, ALICE, Move.play(rent, colour="green", targets=(BOB,), cards=(double,)))
    assert state.pending.amount == (7 + 3) * 2
    assert awaiting(state) == [(BOB, "answer", BOB)]
    assert state.plays_left == 1


def test_it_refuses_double_the_rent_played_alone_but_banks_it():
    state = position(RENT)
    double = card_in(state, "alice", "hand", "double_rent")
    assert_rejected(state, ALICE, Move.play(double), "played together with a rent card")
    apply(state, ALICE, Move.bank(double))
    assert state.players[ALICE].bank == [double] and state.plays_left == 2


# --- House and Hotel ---------------------------------------------------------------------------


def test_it_adds_3_for_a_house_and_4_for_a_hotel_to_rent():
    state = position("""
        alice hand: house hotel rent:red/yellow
        alice table: red: red red red
        bob bank: 10M 5M
    """)
    house = card_in(state, "alice", "hand", "house")
    hotel = card_in(state, "alice", "hand", "hotel")
    red = card_in(state, "alice", "table", "red")
    apply(state, ALICE, Move.play(house, cards=(red,)))
    assert state.plays_left == 2 and state.players[ALICE].sets[0].house == house
    apply(state, ALICE, Move.play(hotel, cards=(red,)))
    assert state.plays_left == 1 and state.players[ALICE].sets[0].hotel == hotel
    assert state.discard == []
    apply(state, ALICE, Move.play(card_in(state, "alice", "hand", "rent:red/yellow"), colour="red"))
    assert state.pending.amount == 6 + 3 + 4


@pytest.mark.parametrize(
    ("set_text", "card", "words"),
    [
        ("red: red red", "house", "only on complete sets"),
        (
            "railroad: railroad railroad railroad railroad",
            "house",
            "cannot go on railroads or utilities",
        ),
        ("utility: utility utility", "house", "cannot go on railroads or utilities"),
        ("red: red red red +house", "house", "already has a House"),
        ("red: red red red", "hotel", "needs a House"),
        ("red: red red red +house +hotel", "hotel", "already has a Hotel"),
    ],
)
def test_it_refuses_a_building_where_the_rules_forbid_it(set_text, card, words):
    state = position(f"""
        alice hand: {card}
        alice table: {set_text}
    """)
    building = card_in(state, "alice", "hand", card)
    target = state.players[ALICE].sets[0].cards[0]
    assert_rejected(state, ALICE, Move.play(building, cards=(target,)), words)
    assert play_moves_of(state, ALICE, building) == []


def test_it_refuses_a_building_on_another_players_set():
    state = position("""
        alice hand: house
        bob table: red: red red red
    """)
    house = card_in(state, "alice", "hand", "house")
    assert_rejected(
        state,
        ALICE,
        Move.play(house, cards=(card_in(state, "bob", "table", "red"),)),
        "your own table",
    )


# --- Pass Go -----------------------------------------------------------------------------------


def test_it_draws_2_cards_by_pass_go_as_one_play():
    state = position("""
        alice hand: pass_go
        draw: 10M deal_breaker 5M
    """)
    card = card_in(state, "alice", "hand", "pass_go")
    size = len(state.draw)
    apply(state, ALICE, Move.play(card))
    assert hand(state, ALICE) == ["10M", "deal_breaker"]
    assert len(state.draw) == size - 2
    assert kinds(state, state.draw[-1:]) == ["5M"]
    assert state.discard == [card] and state.plays_left == 2 and state.phase == "play"


def test_it_draws_nothing_by_pass_go_when_both_piles_are_empty_and_counts_the_play():
    state = position("""
        alice hand: pass_go
        rest: bob bank
    """)
    card = card_in(state, "alice", "hand", "pass_go")
    assert state.draw == [] and state.discard == []
    _state, events = apply(state, ALICE, Move.play(card))
    assert hand(state, ALICE) == []
    assert state.draw == [] and state.discard == [card]
    assert state.plays_left == 2 and state.phase == "play"
    assert not any(event["type"] == "reshuffle" for event in events)
    assert [e["count"] for e in events if e["type"] == "draw"] == [0]
    # It cannot be drawn back and played again: the hand is empty.
    assert not any(m.kind == "play" for m in legal_moves(state, ALICE))


def test_it_draws_the_last_card_and_no_pass_go_back_when_one_card_is_left():
    state = position("""
        alice hand: pass_go
        draw: 5M
        rest: bob bank
    """)
    card = card_in(state, "alice", "hand", "pass_go")
    apply(state, ALICE, Move.play(card))
    assert hand(state, ALICE) == ["5M"]
    assert state.draw == [] and state.discard == [card] and state.plays_left == 2


def test_it_reshuffles_the_discard_pile_without_the_pass_go_for_the_second_card():
    state = position("""
        alice hand: pass_go
        draw: 5M
        discard: 2M
        rest: bob bank
    """)
    card = card_in(state, "alice", "hand", "pass_go")
    _state, events = apply(state, ALICE, Move.play(card))
    assert hand(state, ALICE) == ["2M", "5M"]
    assert [e["count"] for e in events if e["type"] == "reshuffle"] == [1]
    assert state.draw == [] and state.discard == [card]


def test_it_keeps_the_old_pass_go_rule_for_games_begun_before_the_ruling():
    # Their move logs replay exactly only under the rule they were played with.
    state = position("""
        options: pass_go_discards_first
        alice hand: pass_go
        rest: bob bank
    """)
    card = card_in(state, "alice", "hand", "pass_go")
    apply(state, ALICE, Move.play(card))
    assert state.players[ALICE].hand == [card]  # discarded, reshuffled and drawn back
    assert state.draw == [] and state.discard == [] and state.plays_left == 2
    assert Options.from_json(state.options.to_json()) == state.options


def test_it_plays_every_new_game_under_the_ruling():
    assert "pass_go_discards_first" not in Options().to_json()
    old = {"enhanced": True, "pass_go_discards_first": True}
    assert new_table_options(old) == {"enhanced": True}


# --- rent --------------------------------------------------------------------------------------


def test_it_charges_two_colour_rent_to_every_other_player():
    state = position("""
        players: alice bob carol
        alice hand: rent:red/yellow
        alice table: red: red red; yellow: yellow
        bob bank: 3M
        carol bank: 1M 2M
    """)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    apply(state, ALICE, Move.play(rent, colour="red"))
    assert state.pending.amount == 3 and state.pending.colour == "red"
    assert sorted(awaiting(state)) == [(BOB, "answer", BOB), (CAROL, "answer", CAROL)]
    apply(state, BOB, Move.accept(BOB, tuple(state.players[BOB].bank)))
    apply(state, CAROL, Move.accept(CAROL, tuple(state.players[CAROL].bank)))
    assert bank(state, ALICE) == ["1M", "2M", "3M"]
    assert state.phase == "play"


def test_it_refuses_rent_for_a_colour_i_do_not_own_or_the_card_does_not_show():
    state = position("""
        alice hand: rent:red/yellow
        alice table: red: red; green: green
    """)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    assert_rejected(
        state, ALICE, Move.play(rent, colour="yellow"), "need a property of that colour"
    )
    assert_rejected(state, ALICE, Move.play(rent, colour="green"), "does not charge that colour")
    assert_rejected(
        state, ALICE, Move.play(rent, colour="red", targets=(BOB,)), "charges every other player"
    )
    assert play_moves_of(state, ALICE, rent) == [Move.play(rent, colour="red")]


def test_it_charges_the_rent_of_my_best_set_of_the_colour():
    state = position("""
        alice hand: rent:red/yellow
        alice table: red: red/yellow; red: red red red +house
    """)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    apply(state, ALICE, Move.play(rent, colour="red"))
    assert state.pending.amount == 6 + 3


def test_it_charges_rent_of_any_colour_to_one_player_only():
    state = position("""
        players: alice bob carol
        alice hand: rent:any
        alice table: green: green green
        carol bank: 4M
    """)
    rent = card_in(state, "alice", "hand", "rent:any")
    assert_rejected(state, ALICE, Move.play(rent, colour="green"), "Choose one player")
    assert_rejected(
        state, ALICE, Move.play(rent, colour="green", targets=(BOB, CAROL)), "Choose one player"
    )
    assert_rejected(
        state,
        ALICE,
        Move.play(rent, colour="red", targets=(CAROL,)),
        "need a property of that colour",
    )
    apply(state, ALICE, Move.play(rent, colour="green", targets=(CAROL,)))
    assert state.pending.amount == 4
    assert awaiting(state) == [(CAROL, "answer", CAROL)]
    apply(state, CAROL, Move.accept(CAROL, tuple(state.players[CAROL].bank)))
    assert bank(state, ALICE) == ["4M"] and state.phase == "play"


@pytest.mark.parametrize(
    ("set_text", "colour", "amount"),
    [
        ("green: any", "green", 2),
        ("red: red any", "red", 3),
        ("dark_blue: dark_blue any", "dark_blue", 8),
        ("pink: any any pink +house", "pink", 4 + 3),
    ],
)
def test_it_counts_multicolour_wilds_for_rent(set_text, colour, amount):
    state = position(f"""
        alice hand: rent:any
        alice table: {set_text}
    """)
    rent = card_in(state, "alice", "hand", "rent:any")
    apply(state, ALICE, Move.play(rent, colour=colour, targets=(BOB,)))
    assert state.pending.amount == amount
