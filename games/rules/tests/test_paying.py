"""Scenario tests of paying a debt (docs/rules.md section 4)."""

import pytest

from games.rules import Choice, IllegalMove, Move, awaiting, check_payment, choices, legal_moves
from games.rules.position import card_in, position

from .helpers import act, assert_rejected, bank_of, hand_of, pick, table_of

ALICE, BOB, CAROL = 0, 1, 2


def collect_debt(state):
    """Alice plays her Debt Collector at Bob: Bob owes her 5M."""
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), [BOB]))
    assert state.pending.amount == 5


def celebrate(state):
    """Alice plays It's My Birthday: every other player owes her 2M."""
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "birthday")))
    assert state.pending.amount == 2


def test_it_pays_from_bank_and_table_and_never_from_the_hand():
    state = position("""
        alice hand: debt_collector
        bob hand: 10M 5M
        bob bank: 1M
        bob table: brown: brown
    """)
    collect_debt(state)
    assert_rejected(
        state, BOB, Move.accept(BOB, pick(state, "bob", "hand:5M")), "bank and your table"
    )
    everything = pick(state, "bob", "bank:1M", "table:brown")
    assert [m for m in legal_moves(state, BOB) if m.kind == "accept"] == [
        Move.accept(BOB, everything)
    ]
    act(state, "bob", Move.accept(BOB, everything))
    assert hand_of(state, "bob") == ["10M", "5M"]
    assert bank_of(state, "alice") == ["1M"] and table_of(state, "alice") == "brown: brown"


def test_it_lets_the_debtor_choose_among_bank_and_table_cards():
    state = position("""
        alice hand: debt_collector
        bob bank: 5M
        bob table: red: red red
    """)
    collect_debt(state)
    assert choices(state, BOB) == [
        Choice("pay", pick(state, "bob", "bank:5M", "table:red", "table:red"), amount=5, share=BOB)
    ]
    act(state, "bob", Move.accept(BOB, pick(state, "bob", "table:red", "table:red")))
    assert bank_of(state, "bob") == ["5M"]
    assert table_of(state, "alice") == "red: red red"
    assert state.phase == "play" and state.pending is None


def test_it_refuses_a_payment_that_does_not_cover_the_debt():
    state = position("""
        alice hand: debt_collector
        bob bank: 3M 1M 5M
    """)
    collect_debt(state)
    assert_rejected(state, BOB, Move.accept(BOB, pick(state, "bob", "bank:3M", "bank:1M")), "4M")
    assert_rejected(state, BOB, Move.accept(BOB), "0M; you owe 5M")


def test_it_refuses_a_payment_naming_one_card_twice():
    state = position("""
        alice hand: debt_collector
        bob bank: 3M 1M 5M
    """)
    collect_debt(state)
    three = card_in(state, "bob", "bank", "3M")
    assert_rejected(state, BOB, Move.accept(BOB, (three, three)), "only once")


def test_it_takes_everything_payable_when_it_is_worth_less_than_the_debt():
    state = position("""
        alice hand: debt_collector
        bob bank: 1M 2M
        bob table: brown: brown
    """)
    collect_debt(state)
    assert choices(state, BOB) == []
    assert_rejected(
        state, BOB, Move.accept(BOB, pick(state, "bob", "bank:1M", "bank:2M")), "everything you can"
    )
    act(state, "bob", Move.accept(BOB, pick(state, "bob", "bank:2M", "table:brown", "bank:1M")))
    assert bank_of(state, "bob") == [] and table_of(state, "bob") == ""
    assert bank_of(state, "alice") == ["1M", "2M"] and table_of(state, "alice") == "brown: brown"


def test_it_pays_nothing_when_nothing_is_payable():
    state = position("""
        alice hand: debt_collector
        bob hand: 10M
    """)
    collect_debt(state)
    assert legal_moves(state, BOB) == [Move.accept(BOB)]
    events = act(state, "bob", Move.accept(BOB))
    assert {"type": "pay", "seat": BOB, "to": ALICE, "cards": [], "amount": 5, "paid": 0} in events
    assert awaiting(state) == [(ALICE, "play", -1)]
    assert hand_of(state, "bob") == ["10M"]


# --- the "no card that could be left out" ruling -------------------------------------------------

LEAVE_OUT = """
    bob bank: 1M 2M 3M 3M 4M 5M 10M sly_deal
    bob table: green: green
"""


@pytest.mark.parametrize(
    ("amount", "cards"),
    [
        (5, ["bank:5M"]),
        (5, ["bank:3M", "bank:3M"]),  # 6M, and neither 3M alone covers 5M
        (5, ["bank:4M", "bank:2M"]),  # 6M is fine though the 5M alone would be exact
        (5, ["bank:1M", "bank:4M"]),
        (5, ["table:green", "bank:2M"]),
        (5, ["bank:sly_deal", "bank:2M"]),  # an action card in the bank is money
        (2, ["bank:10M"]),  # no change is given
        (7, ["bank:4M", "bank:3M"]),
    ],
)
def test_it_accepts_a_payment_in_which_every_card_is_needed(amount, cards):
    state = position(LEAVE_OUT)
    check_payment(state, BOB, amount, pick(state, "bob", *cards))


@pytest.mark.parametrize(
    ("amount", "cards"),
    [
        (5, ["bank:5M", "bank:1M"]),
        (2, ["bank:10M", "bank:1M"]),
        (5, ["bank:3M", "bank:3M", "bank:1M"]),
        (5, ["bank:2M", "bank:4M", "bank:3M"]),  # leaving out the 2M still covers 5M
        (4, ["table:green", "bank:1M"]),
        (1, ["bank:1M", "bank:2M"]),
    ],
)
def test_it_refuses_a_payment_with_a_card_that_could_be_left_out(amount, cards):
    state = position(LEAVE_OUT)
    with pytest.raises(IllegalMove, match="leave a card out"):
        check_payment(state, BOB, amount, pick(state, "bob", *cards))


# --- where paid cards go -----------------------------------------------------------------------


def test_it_gives_no_change():
    state = position("""
        alice hand: birthday
        bob bank: 10M
    """)
    celebrate(state)
    events = act(state, "bob", Move.accept(BOB, pick(state, "bob", "bank:10M")))
    assert bank_of(state, "alice") == ["10M"] and bank_of(state, "bob") == []
    [paid] = [e for e in events if e["type"] == "pay"]
    assert paid["amount"] == 2 and paid["paid"] == 10


def test_it_puts_money_and_action_cards_paid_in_the_receivers_bank():
    state = position("""
        alice hand: debt_collector
        alice bank: 1M
        bob bank: sly_deal 2M 10M
    """)
    collect_debt(state)
    act(state, "bob", Move.accept(BOB, pick(state, "bob", "bank:sly_deal", "bank:2M")))
    assert bank_of(state, "alice") == ["1M", "2M", "sly_deal"]
    assert bank_of(state, "bob") == ["10M"]
    assert hand_of(state, "alice") == []


def test_it_puts_properties_paid_on_the_receivers_table_in_the_colour_they_showed():
    state = position("""
        alice hand: debt_collector
        alice table: yellow: yellow; red: red red red
        bob table: yellow: red/yellow; green: dark_blue/green
    """)
    collect_debt(state)
    act(
        state,
        "bob",
        Move.accept(BOB, pick(state, "bob", "table:red/yellow", "table:dark_blue/green")),
    )
    assert table_of(state, "alice") == (
        "yellow: yellow red/yellow; red: red red red; green: dark_blue/green"
    )
    assert table_of(state, "bob") == ""


def test_it_puts_a_house_and_hotel_paid_in_the_receivers_bank():
    state = position("""
        alice hand: debt_collector
        bob table: red: red red red +house +hotel
    """)
    collect_debt(state)
    act(state, "bob", Move.accept(BOB, pick(state, "bob", "table:hotel", "table:house")))
    assert bank_of(state, "alice") == ["hotel", "house"]
    assert table_of(state, "alice") == ""
    assert table_of(state, "bob") == "red: red red red"
    assert bank_of(state, "bob") == []


def test_it_requires_the_hotel_to_be_paid_before_the_house():
    state = position("""
        alice hand: debt_collector
        bob bank: 2M
        bob table: red: red red red +house +hotel
    """)
    collect_debt(state)
    assert_rejected(
        state,
        BOB,
        Move.accept(BOB, pick(state, "bob", "table:house", "bank:2M")),
        "Hotel must be paid before the House",
    )
    act(state, "bob", Move.accept(BOB, pick(state, "bob", "table:hotel", "bank:2M")))
    assert bank_of(state, "alice") == ["2M", "hotel"]
    assert table_of(state, "bob") == "red: red red red +house"


def test_it_never_pays_with_a_multicolour_wild():
    state = position("""
        alice hand: debt_collector
        bob table: red: red any
    """)
    collect_debt(state)
    wild = card_in(state, "bob", "table", "any")
    red = card_in(state, "bob", "table", "red")
    assert_rejected(state, BOB, Move.accept(BOB, (red, wild)), "multicolour wild")
    assert [m for m in legal_moves(state, BOB) if m.kind == "accept"] == [Move.accept(BOB, (red,))]
    act(state, "bob", Move.accept(BOB, (red,)))
    assert table_of(state, "bob") == "red: any"
    assert table_of(state, "alice") == "red: red"


def test_it_pays_nothing_with_only_multicolour_wilds_on_the_table():
    state = position("""
        alice hand: birthday
        bob table: brown: any any
    """)
    celebrate(state)
    assert legal_moves(state, BOB) == [Move.accept(BOB)]
    act(state, "bob", Move.accept(BOB))
    assert table_of(state, "bob") == "brown: any any"


def test_it_sends_the_house_to_the_debtors_bank_when_the_hotel_and_a_card_of_the_set_are_paid():
    state = position("""
        alice hand: debt_collector
        bob table: green: green green green +house +hotel
    """)
    collect_debt(state)
    act(state, "bob", Move.accept(BOB, pick(state, "bob", "table:hotel", "table:green")))
    assert bank_of(state, "alice") == ["hotel"] and table_of(state, "alice") == "green: green"
    assert bank_of(state, "bob") == ["house"] and table_of(state, "bob") == "green: green green"


def test_it_wins_at_once_when_a_property_received_as_payment_completes_the_third_set():
    state = position("""
        players: alice bob carol
        alice hand: birthday
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; red: red red
        bob table: red: red
        carol bank: 5M
    """)
    celebrate(state)
    assert sorted(awaiting(state)) == [(BOB, "answer", BOB), (CAROL, "answer", CAROL)]
    events = act(state, "bob", Move.accept(BOB, pick(state, "bob", "table:red")))
    assert events[-1] == {"type": "game_over", "winner": ALICE, "reason": "win"}
    assert state.phase == "over" and state.winner == ALICE
    assert awaiting(state) == [], "Carol's share is never asked for"
    assert bank_of(state, "carol") == ["5M"]
