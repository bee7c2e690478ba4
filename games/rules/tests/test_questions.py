"""What each seat is asked (rules.questions): docs/rules.md section 11, answers at once."""

from games.rules import Move, questions
from games.rules.position import card_in, position
from games.rules.tests.helpers import act, seat_of

BIRTHDAY = """
players: alice bob charlie
turn: alice
plays: 3
alice hand: birthday just_say_no
alice table: red: red
bob hand: just_say_no
bob bank: 2M 5M
charlie hand: just_say_no
charlie bank: 2M 3M
"""


def asked(state, name):
    return questions(state)[seat_of(state, name)]


def birthday(text=BIRTHDAY):
    state = position(text)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "birthday")))
    return state


def pay(state, name):
    act(state, name, Move.accept(seat_of(state, name), [card_in(state, name, "bank", "2M")]))


def test_another_targets_answer_leaves_a_targets_question_as_it_was():
    state = birthday()
    before = asked(state, "charlie")
    pay(state, "bob")
    assert asked(state, "charlie") == before


def test_a_targets_own_answer_changes_its_question():
    state = birthday()
    before = asked(state, "bob")
    pay(state, "bob")
    assert asked(state, "bob") != before


def test_a_just_say_no_changes_the_question_of_the_target_and_of_the_actor_only():
    state = birthday()
    before = {name: asked(state, name) for name in ("alice", "bob", "charlie")}
    act(state, "bob", Move.just_say_no(seat_of(state, "bob")))
    assert asked(state, "bob") != before["bob"]  # no longer asked
    assert asked(state, "alice") != before["alice"]  # asked to counter
    assert asked(state, "charlie") == before["charlie"]


def test_payments_the_actor_receives_while_it_counters_leave_its_question():
    state = birthday()
    act(state, "bob", Move.just_say_no(seat_of(state, "bob")))
    countering = asked(state, "alice")
    pay(state, "charlie")  # money into alice's bank
    assert asked(state, "alice") == countering


def test_a_payers_own_cards_are_part_of_its_question():
    base = birthday()
    other = birthday(BIRTHDAY.replace("bob bank: 2M 5M", "bob bank: 2M 4M"))
    assert asked(base, "bob") != asked(other, "bob")
    # A seat asked nothing is asked the same whatever its bank holds.
    assert asked(base, "alice")[0] == asked(other, "alice")[0]


def test_a_rent_transfer_that_names_a_player_changes_their_question():
    # docs/rules.md section 11, Reading: a second share to answer is a new question.
    state = position("""
        players: alice bob charlie
        turn: alice
        plays: 3
        options: enhanced
        alice hand: rent:red/yellow
        alice table: red: red
        bob hand: rent_transfer
        bob bank: 1M
        charlie bank: 3M 2M
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "rent:red/yellow"), colour="red"))
    before = asked(state, "charlie")
    act(state, "bob", Move.transfer(seat_of(state, "bob"), seat_of(state, "charlie")))
    assert asked(state, "charlie") != before
