"""Scenario tests of the table: sets, complete sets, wilds, buildings and rent (docs/rules.md section 3)."""

import pytest

from games.rules import Move, legal_moves, view_for
from games.rules.position import card_in, position

from .helpers import act, bank_of, pick, table_of

ALICE, BOB = 0, 1

# colour: (full set, rent by cards in the set), the table of docs/rules.md section 3.
RENT_TABLE = {
    "brown": (2, [1, 2]),
    "light_blue": (3, [1, 2, 3]),
    "pink": (3, [1, 2, 4]),
    "orange": (3, [1, 3, 5]),
    "red": (3, [2, 3, 6]),
    "yellow": (3, [2, 4, 6]),
    "green": (3, [2, 4, 7]),
    "dark_blue": (2, [3, 8]),
    "railroad": (4, [1, 2, 3, 4]),
    "utility": (2, [1, 2]),
}
BUILDABLE = [c for c in RENT_TABLE if c not in ("railroad", "utility")]


def lay(state, kind, colour):
    act(state, "alice", Move.lay(card_in(state, "alice", "hand", kind), colour))


def complete_colours(state, seat=ALICE):
    return view_for(state, seat)["players"][seat]["complete_colours"]


# --- sets ------------------------------------------------------------------------------------


def test_it_starts_a_set_for_the_first_property_of_a_colour():
    state = position("""
        alice hand: red/yellow
        alice table: red: red
    """)
    lay(state, "red/yellow", "yellow")
    assert table_of(state, "alice") == "red: red; yellow: red/yellow"


def test_it_joins_a_property_to_the_incomplete_set_of_its_colour():
    state = position("""
        alice hand: red/yellow
        alice table: red: red red red; yellow: yellow; red: red/yellow
    """)
    lay(state, "red/yellow", "red")
    assert (
        table_of(state, "alice") == "red: red red red; yellow: yellow; red: red/yellow red/yellow"
    )


def test_it_starts_a_second_set_when_the_only_set_of_the_colour_is_complete():
    state = position("""
        alice hand: any
        alice table: dark_blue: dark_blue dark_blue
    """)
    lay(state, "any", "dark_blue")
    assert table_of(state, "alice") == "dark_blue: dark_blue dark_blue; dark_blue: any"
    sets = view_for(state, ALICE)["players"][ALICE]["sets"]
    assert [(s["complete"], s["size"]) for s in sets] == [(True, 2), (False, 2)]


@pytest.mark.parametrize("colour", list(RENT_TABLE))
def test_it_completes_a_set_at_its_full_set_size(colour):
    full = RENT_TABLE[colour][0]
    state = position(f"""
        alice hand: {colour}
        alice table: {colour}: {" ".join([colour] * (full - 1))}
    """)
    assert complete_colours(state) == []
    lay(state, colour, colour)
    assert complete_colours(state) == [colour]
    assert len(state.players[ALICE].sets) == 1


def test_it_counts_two_complete_sets_of_one_colour_as_one_colour():
    state = position("""
        alice table: red: red red red; red: red/yellow red/yellow any; brown: brown brown
    """)
    assert complete_colours(state) == ["brown", "red"]
    assert [s["complete"] for s in view_for(state, ALICE)["players"][ALICE]["sets"]] == [True] * 3


# --- merging after a removal -------------------------------------------------------------------


def sizes(state, seat):
    return sorted((s.colour, len(s.cards)) for s in state.players[seat].sets)


def test_it_merges_two_incomplete_railroad_sets_with_overflow_when_a_wild_leaves():
    state = position("""
        alice table: railroad: railroad railroad railroad/utility green/railroad; railroad: railroad railroad light_blue/railroad
    """)
    act(
        state,
        "alice",
        Move.move_wild(card_in(state, "alice", "table", "railroad/utility"), "utility"),
    )
    # 3 + 3 railroads cannot stay as two incomplete sets: they become 4 + 2.
    assert sizes(state, ALICE) == [("railroad", 2), ("railroad", 4), ("utility", 1)]
    assert complete_colours(state) == ["railroad"]


def test_it_merges_two_incomplete_sets_when_a_card_is_paid_away():
    state = position("""
        alice hand: birthday
        bob table: railroad: railroad railroad railroad/utility green/railroad; railroad: railroad railroad light_blue/railroad
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "birthday")))
    act(state, "bob", Move.accept(BOB, (card_in(state, "bob", "table", "railroad"),)))
    assert sizes(state, BOB) == [("railroad", 2), ("railroad", 4)]
    assert table_of(state, "alice") == "railroad: railroad"


def test_it_merges_into_a_complete_set_without_the_buildings_it_lost():
    state = position("""
        alice table: red: red red red/yellow +house; red: red/yellow
    """)
    act(state, "alice", Move.move_wild(card_in(state, "alice", "table", "red/yellow"), "yellow"))
    assert sizes(state, ALICE) == [("red", 3), ("yellow", 1)]
    assert table_of(state, "alice") == "red: red red red/yellow; yellow: red/yellow"
    assert bank_of(state, "alice") == ["house"]


# --- multicolour wilds -------------------------------------------------------------------------


def test_it_lays_a_multicolour_wild_in_any_colour():
    state = position("alice hand: any")
    wild = card_in(state, "alice", "hand", "any")
    lays = {m.colour for m in legal_moves(state, ALICE) if m.kind == "lay" and m.card == wild}
    assert lays == set(RENT_TABLE)


def test_it_lets_a_multicolour_wild_stand_alone_and_charge_rent():
    state = position("""
        alice hand: any rent:any
        bob bank: 10M
    """)
    lay(state, "any", "dark_blue")
    assert table_of(state, "alice") == "dark_blue: any"
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "rent:any"), [BOB], "dark_blue"))
    assert state.pending.amount == 3


def test_it_completes_a_set_with_multicolour_wilds_alone():
    state = position("alice hand: any any")
    lay(state, "any", "brown")
    lay(state, "any", "brown")
    assert table_of(state, "alice") == "brown: any any"
    assert complete_colours(state) == ["brown"]


# --- Houses and Hotels -------------------------------------------------------------------------


def test_it_offers_houses_only_on_complete_sets_other_than_railroad_and_utility():
    state = position("""
        alice hand: house
        alice table: red: red red red; green: green green; railroad: railroad railroad railroad railroad; utility: utility utility; dark_blue: dark_blue dark_blue +house; brown: brown any
    """)
    house = card_in(state, "alice", "hand", "house")
    targets = [m.cards for m in legal_moves(state, ALICE) if m.kind == "play" and m.card == house]
    assert targets == [
        (card_in(state, "alice", "table", "red"),),
        (card_in(state, "alice", "table", "brown"),),
    ]


def test_it_offers_a_hotel_only_on_a_set_with_a_house_and_no_hotel():
    state = position("""
        alice hand: hotel
        alice table: red: red red red; green: green green green +house; dark_blue: dark_blue dark_blue +house +hotel
    """)
    hotel = card_in(state, "alice", "hand", "hotel")
    targets = [m.cards for m in legal_moves(state, ALICE) if m.kind == "play" and m.card == hotel]
    assert targets == [(card_in(state, "alice", "table", "green"),)]
    act(state, "alice", Move.play(hotel, cards=targets[0]))
    assert table_of(state, "alice") == (
        "red: red red red; green: green green green +house +hotel; "
        "dark_blue: dark_blue dark_blue +house +hotel"
    )
    assert state.plays_left == 2 and state.discard == []


def test_it_sends_the_buildings_to_the_owners_bank_when_a_wild_moves_away():
    state = position("""
        alice table: red: red red red/yellow +house +hotel
    """)
    act(state, "alice", Move.move_wild(card_in(state, "alice", "table", "red/yellow"), "yellow"))
    assert table_of(state, "alice") == "red: red red; yellow: red/yellow"
    assert bank_of(state, "alice") == ["hotel", "house"]
    assert state.plays_left == 3


def test_it_sends_the_buildings_to_the_owners_bank_when_a_card_of_the_set_is_paid():
    state = position("""
        alice hand: birthday
        bob table: green: green green green +house +hotel
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "birthday")))
    events = act(state, "bob", Move.accept(BOB, pick(state, "bob", "table:green")))
    assert table_of(state, "bob") == "green: green green"
    assert bank_of(state, "bob") == ["hotel", "house"]
    assert table_of(state, "alice") == "green: green"
    assert bank_of(state, "alice") == []
    assert any(e["type"] == "buildings_to_bank" and e["seat"] == BOB for e in events)


def test_it_keeps_the_buildings_when_a_card_leaves_another_set_of_the_colour():
    state = position("""
        alice table: red: red red red +house; red: red/yellow
    """)
    act(state, "alice", Move.move_wild(card_in(state, "alice", "table", "red/yellow"), "yellow"))
    assert table_of(state, "alice") == "red: red red red +house; yellow: red/yellow"
    assert bank_of(state, "alice") == []


# --- rent --------------------------------------------------------------------------------------

RENT_CASES = [
    (colour, count, rent)
    for colour, (_full, rents) in RENT_TABLE.items()
    for count, rent in enumerate(rents, start=1)
]


def charge_rent(state, colour):
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "rent:any"), [BOB], colour))
    return state.pending.amount


@pytest.mark.parametrize(("colour", "count", "rent"), RENT_CASES)
def test_it_charges_the_rent_of_the_table_for_each_colour_and_card_count(colour, count, rent):
    state = position(f"""
        alice hand: rent:any
        alice table: {colour}: {" ".join([colour] * count)}
        bob bank: 10M
    """)
    assert charge_rent(state, colour) == rent


@pytest.mark.parametrize("colour", BUILDABLE)
@pytest.mark.parametrize(
    ("options", "buildings", "extra"),
    [
        ("", "+house", 3),
        ("", "+house +hotel", 3 + 4),
        ("enhanced", "+house", 4),
        ("enhanced", "+house +hotel", 4 + 5),
    ],
)
def test_it_adds_the_buildings_to_the_rent_of_a_complete_set(colour, options, buildings, extra):
    full, rents = RENT_TABLE[colour]
    state = position(f"""
        options: {options}
        alice hand: rent:any
        alice table: {colour}: {" ".join([colour] * full)} {buildings}
        bob bank: 10M
    """)
    assert charge_rent(state, colour) == rents[-1] + extra
