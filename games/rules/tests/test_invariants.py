"""The invariant checker of the random playouts refuses each defect planted in a good state.

The playouts (test_playouts.py) prove nothing if check_invariants passes
everything: each case below breaks one rule of a state it accepts.
"""

import pytest

from games.rules import new_game
from games.rules.cards import FULL_SET, GREEN, RAILROAD
from games.rules.state import PropertySet

from .invariants import check_invariants


def find(state, test):
    return next(i for i, kind in enumerate(state.deck) if test(kind))


def table():
    """Return a started game of 2 whose seat 0 holds a complete green set with a house."""
    state = new_game(2, 11)
    state.draw.extend(state.players[0].hand + state.players[1].hand)
    state.players[0].hand, state.players[1].hand = [], []
    greens = [i for i, k in enumerate(state.deck) if k.colours == (GREEN,)][: FULL_SET[GREEN]]
    house = find(state, lambda k: k.effect == "house")
    for card in [*greens, house]:
        state.draw.remove(card)
    state.players[0].sets.append(PropertySet(GREEN, greens, house))
    money = find(state, lambda k: k.category == "money")
    state.draw.remove(money)
    state.players[1].bank.append(money)
    state.players[1].hand.append(state.draw.pop())
    check_invariants(state)
    return state


def lose_a_card(state):
    state.draw.pop()


def copy_a_card(state):
    state.players[1].hand.append(state.players[0].sets[0].cards[0])


def card_out_of_deck(state):
    state.players[1].hand[0] = len(state.deck)


def property_in_bank(state):
    card = next(c for c in state.draw if state.deck[c].is_property)
    state.draw.remove(card)
    state.players[1].bank.append(card)


def wrong_colour(state):
    railroad = find(state, lambda k: k.colours == (RAILROAD,))
    state.draw.remove(railroad)
    state.draw.append(state.players[0].sets[0].cards[0])
    state.players[0].sets[0].cards[0] = railroad


def money_in_a_set(state):
    money = state.players[1].bank[0]
    state.players[1].bank = []
    state.draw.append(state.players[0].sets[0].cards[0])
    state.players[0].sets[0].cards[0] = money


def house_on_an_incomplete_set(state):
    state.draw.append(state.players[0].sets[0].cards.pop())


def set_above_its_size(state):
    extra = next(c for c in state.draw if GREEN in state.deck[c].colours)
    state.draw.remove(extra)
    state.players[0].sets[0].cards.append(extra)


def two_incomplete_sets_of_a_colour(state):
    s = state.players[0].sets[0]
    state.draw.append(s.house)
    s.house = -1
    state.players[0].sets.append(PropertySet(GREEN, [s.cards.pop()]))


def empty_set(state):
    state.players[1].sets.append(PropertySet(GREEN, []))


def hotel_without_house(state):
    s = state.players[0].sets[0]
    hotel = find(state, lambda k: k.effect == "hotel")
    state.draw.remove(hotel)
    state.draw.append(s.house)
    s.house, s.hotel = -1, hotel


def money_as_a_house(state):
    s = state.players[0].sets[0]
    state.draw.append(s.house)
    s.house = state.players[1].bank.pop()


def house_on_a_railroad(state):
    railroads = [c for c in state.draw if state.deck[c].colours == (RAILROAD,)][
        : FULL_SET[RAILROAD]
    ]
    for card in railroads:
        state.draw.remove(card)
    s = state.players[0].sets[0]
    state.players[0].sets.append(PropertySet(RAILROAD, railroads, s.house))
    s.house = -1


def too_many_plays(state):
    state.plays_left = 4


@pytest.mark.parametrize(
    ("plant", "message"),
    [
        (lose_a_card, "every card is in exactly one place"),
        (copy_a_card, "every card is in exactly one place"),
        (card_out_of_deck, "every card is in exactly one place"),
        (property_in_bank, "no property in a bank"),
        (wrong_colour, "a set holds properties of its colour"),
        (money_in_a_set, "a set holds properties of its colour"),
        (house_on_an_incomplete_set, "buildings only on complete sets"),
        (set_above_its_size, "no set above its size"),
        (two_incomplete_sets_of_a_colour, "at most one incomplete set per colour"),
        (empty_set, "no empty set"),
        (hotel_without_house, "a hotel stands on a house"),
        (money_as_a_house, "a house is a house card"),
        (house_on_a_railroad, "no house on a railroad or utility"),
        (too_many_plays, "at most three plays a turn"),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_it_refuses_a_state_with_a_planted_defect(plant, message):
    state = table()
    plant(state)
    with pytest.raises(AssertionError, match=message):
        check_invariants(state)
