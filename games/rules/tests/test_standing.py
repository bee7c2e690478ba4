"""Forced answers that are public, standing answers and the "money first" payment (issue 15)."""

import random

from games.rules import (
    Move,
    Standing,
    check_payment,
    forced_move,
    least_overpay,
    money_first,
    new_game,
    public_forced_move,
    standing_answer,
)
from games.rules.bots import play_random_game
from games.rules.engine import choices
from games.rules.position import card_in, position
from games.rules.standing import LEAST_OVERPAY, MONEY_FIRST

from .helpers import act, kinds

ALICE, BOB = 0, 1


def sly_deal(bob_hand, rest="draw"):
    state = position(f"""
        alice hand: sly_deal 1M
        bob hand: {bob_hand}
        bob table: red: red
        rest: {rest}
    """)
    red = card_in(state, "bob", "table", "red")
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "sly_deal"), [BOB], cards=[red]))
    return state


def debt(bob, rest="draw"):
    state = position(f"""
        alice hand: debt_collector
        {bob}
        rest: {rest}
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), [BOB]))
    return state


def deal_breaker(bob_hand):
    state = position(f"""
        alice hand: deal_breaker
        bob hand: {bob_hand}
        bob table: brown: brown brown
    """)
    brown = card_in(state, "bob", "table", "brown")
    act(
        state,
        "alice",
        Move.play(card_in(state, "alice", "hand", "deal_breaker"), [BOB], cards=[brown]),
    )
    return state


# --- which forced answers are public ----------------------------------------------------


def test_it_keeps_an_answer_forced_by_the_hand_private():
    state = sly_deal("1M green")
    assert forced_move(state, BOB) == Move.accept(BOB), "bob has no Just Say No to play"
    assert public_forced_move(state, BOB) is None, "a Just Say No may be in his hand for all we see"


def test_it_makes_public_an_answer_from_an_empty_hand():
    state = sly_deal("")
    assert public_forced_move(state, BOB) == Move.accept(BOB)


def test_it_makes_public_an_answer_when_every_just_say_no_is_in_sight():
    state = sly_deal("1M green", rest="discard")
    assert public_forced_move(state, BOB) == Move.accept(BOB)


def test_it_keeps_a_cancelled_actors_answer_private():
    state = position("""
        alice hand: sly_deal 1M
        bob hand: just_say_no
        bob table: red: red
    """)
    red = card_in(state, "bob", "table", "red")
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "sly_deal"), [BOB], cards=[red]))
    act(state, "bob", Move.just_say_no(BOB))
    assert forced_move(state, ALICE) == Move.accept(BOB)
    assert public_forced_move(state, ALICE) is None


def test_it_keeps_a_payment_of_everything_private_while_a_just_say_no_may_be_held():
    state = debt("bob bank: 1M 2M\nbob hand: 3M")
    assert forced_move(state, BOB) is not None
    assert public_forced_move(state, BOB) is None


def test_it_makes_public_the_end_of_a_turn_with_nothing_left_to_play():
    state = position("""
        plays: 0
        alice hand: 1M 2M
    """)
    assert public_forced_move(state, ALICE) == Move.end()


# --- standing answers ----------------------------------------------------------------------


def test_it_accepts_at_once_when_asked_to_and_no_just_say_no_is_held():
    state = sly_deal("1M green")
    assert standing_answer(state, BOB, Standing(accept_without_jsn=True)) == Move.accept(BOB)
    assert standing_answer(state, BOB, Standing()) is None, "off by default"


def test_it_never_accepts_at_once_while_a_just_say_no_is_held():
    state = sly_deal("1M just_say_no")
    assert standing_answer(state, BOB, Standing(accept_without_jsn=True)) is None


def test_it_does_not_accept_at_once_when_a_rent_transfer_could_answer():
    state = position("""
        options: enhanced
        alice hand: rent:red/yellow
        alice table: red: red
        bob hand: rent_transfer
        bob bank: 1M
        players: alice bob carol
    """)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    act(state, "alice", Move.play(rent, colour="red"))
    assert standing_answer(state, BOB, Standing(accept_without_jsn=True)) is None
    carol = 2
    assert standing_answer(state, carol, Standing(accept_without_jsn=True)) == Move.accept(carol)


def test_it_does_not_choose_the_card_a_speeding_discards():
    state = position("""
        options: enhanced
        alice hand: speeding
        bob hand: 1M 2M
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "speeding"), [BOB]))
    assert standing_answer(state, BOB, Standing(accept_without_jsn=True)) is None


def test_it_asks_for_a_payment_with_a_choice_unless_a_pay_rule_is_set():
    state = debt("bob bank: 5M 1M 2M")
    assert standing_answer(state, BOB, Standing(accept_without_jsn=True)) is None
    paid = standing_answer(state, BOB, Standing(pay_rule=LEAST_OVERPAY))
    assert paid == Move.accept(BOB, least_overpay(state, BOB, 5))


def test_it_pays_by_rule_even_while_a_just_say_no_is_held():
    # Whatever the hand holds, or the speed of the payment would tell.
    state = debt("bob bank: 5M 1M 2M\nbob hand: just_say_no")
    paid = standing_answer(state, BOB, Standing(pay_rule=MONEY_FIRST))
    assert paid == Move.accept(BOB, (card_in(state, "bob", "bank", "5M"),))


def test_it_says_no_to_a_deal_breaker_only_while_holding_a_just_say_no():
    always = Standing(jsn_deal_breaker=True)
    assert standing_answer(deal_breaker("just_say_no 1M"), BOB, always) == Move.just_say_no(BOB)
    assert standing_answer(deal_breaker("1M"), BOB, always) is None
    assert standing_answer(deal_breaker("just_say_no 1M"), BOB, Standing()) is None
    assert standing_answer(sly_deal("just_say_no 1M"), BOB, always) is None, "a Deal Breaker only"


def test_it_says_no_again_when_the_deal_breaker_is_answered_back():
    state = position("""
        alice hand: deal_breaker just_say_no
        bob hand: just_say_no just_say_no
        bob table: brown: brown brown
    """)
    brown = card_in(state, "bob", "table", "brown")
    act(
        state,
        "alice",
        Move.play(card_in(state, "alice", "hand", "deal_breaker"), [BOB], cards=[brown]),
    )
    act(state, "bob", Move.just_say_no(BOB))
    act(state, "alice", Move.just_say_no(BOB))
    assert standing_answer(state, BOB, Standing(jsn_deal_breaker=True)) == Move.just_say_no(BOB)


# --- the "money first" payment -------------------------------------------------------------


def test_it_pays_money_first_even_when_a_property_would_overpay_less():
    state = debt("bob bank: 10M\nbob table: green: green")
    assert kinds(state, money_first(state, BOB, 3)) == ["10M"]
    assert kinds(state, least_overpay(state, BOB, 3)) == ["green"], "the default overpays less"


def test_it_keeps_complete_sets_whole_when_another_way_exists():
    state = debt("bob bank: 1M\nbob table: brown: brown brown; green: green")
    assert sorted(kinds(state, money_first(state, BOB, 5))) == ["1M", "green"]


def test_it_breaks_a_complete_set_only_when_it_must():
    state = debt("bob bank: 1M\nbob table: dark_blue: dark_blue dark_blue; brown: brown")
    paid = money_first(state, BOB, 5)
    check_payment(state, BOB, 5, paid)
    assert "dark_blue" in kinds(state, paid)


def test_it_pays_a_building_before_breaking_its_set():
    state = debt("bob bank: 1M\nbob table: red: red red red +house")
    assert sorted(kinds(state, money_first(state, BOB, 3))) == ["house"]


def test_it_always_pays_a_valid_selection():
    # Every payment met in random games: money_first's selection is one the rules allow.
    checked = 0

    def check(state, _seat, _move, _events):
        nonlocal checked
        for seat in range(len(state.seats)):
            for choice in choices(state, seat):
                if choice.kind == "pay":
                    paid = money_first(state, seat, choice.amount)
                    check_payment(state, seat, choice.amount, paid)
                    checked += 1

    for seed in range(12):
        play_random_game(new_game(["a", "b", "c"], seed), random.Random(seed), check)
    assert checked > 50
