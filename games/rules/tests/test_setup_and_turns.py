"""Scenario tests of set-up, turns, the piles and the table options (docs/rules.md sections 1, 2, 7, 9)."""

from collections import Counter

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
    default_move,
    legal_moves,
    new_game,
    outcome,
)
from games.rules.position import card_in, position

from .helpers import act, assert_rejected, bank_of, hand_of, kinds, table_of

ALICE, BOB, CAROL = 0, 1, 2

# --- section 1: the deck ----------------------------------------------------------------------

# Every kind of a base deck: (copies, value), from the tables of docs/rules.md sections 5 and 6.
BASE_DECK = {
    "1M": (6, 1),
    "2M": (5, 2),
    "3M": (3, 3),
    "4M": (3, 4),
    "5M": (2, 5),
    "10M": (1, 10),
    "brown": (2, 1),
    "light_blue": (3, 1),
    "pink": (3, 2),
    "orange": (3, 2),
    "red": (3, 3),
    "yellow": (3, 3),
    "green": (3, 4),
    "dark_blue": (2, 4),
    "railroad": (4, 2),
    "utility": (2, 2),
    "light_blue/brown": (1, 1),
    "light_blue/railroad": (1, 4),
    "pink/orange": (2, 2),
    "red/yellow": (2, 3),
    "dark_blue/green": (1, 4),
    "green/railroad": (1, 4),
    "railroad/utility": (1, 2),
    "any": (2, 0),
    "deal_breaker": (2, 5),
    "just_say_no": (3, 4),
    "sly_deal": (3, 3),
    "forced_deal": (3, 3),
    "debt_collector": (3, 3),
    "birthday": (3, 2),
    "double_rent": (2, 1),
    "house": (3, 3),
    "hotel": (2, 4),
    "pass_go": (10, 1),
    "rent:light_blue/brown": (2, 1),
    "rent:pink/orange": (2, 1),
    "rent:red/yellow": (2, 1),
    "rent:dark_blue/green": (2, 1),
    "rent:railroad/utility": (2, 1),
    "rent:any": (3, 3),
}

# The 21 cards the enhanced edition adds to each deck (docs/rules.md section 8).
ENHANCED_EXTRA = {
    "jail": (1, 3),
    "double_sly_deal": (1, 4),
    "speeding": (1, 2),
    "rent_transfer": (1, 3),
    "heir": (1, 2),
    "hotel": (1, 4),
    "house": (4, 3),
    "light_blue/brown": (1, 1),
    "pink/orange": (1, 2),
    "red/yellow": (1, 3),
    "dark_blue/green": (1, 4),
    "any": (2, 0),
    "1M": (1, 1),
    "2M": (1, 2),
    "3M": (1, 3),
    "4M": (1, 4),
    "5M": (1, 5),
}


def deck_counts(deck):
    return Counter(kind.id for kind in deck)


@pytest.mark.parametrize(
    ("players", "options", "size"),
    [
        (2, Options(), 106),
        (5, Options(), 106),
        (6, Options(), 212),
        (10, Options(), 212),
        (2, Options(enhanced=True), 127),
        (6, Options(enhanced=True), 254),
    ],
)
def test_it_plays_with_106_cards_127_enhanced_and_two_decks_from_6_players(players, options, size):
    state = new_game(players, 1, options)
    assert len(state.deck) == size
    in_play = len(state.draw) + sum(len(p.hand) for p in state.players)
    assert in_play == size, "every card is dealt or in the draw pile"


def test_it_has_every_base_card_in_its_count_and_value():
    deck = build_deck(1, False)
    assert deck_counts(deck) == {kind: count for kind, (count, _value) in BASE_DECK.items()}
    for kind, (_count, value) in BASE_DECK.items():
        assert KIND_BY_ID[kind].value == value, kind


def test_it_adds_the_21_enhanced_cards_to_the_base_deck():
    expected = Counter({kind: count for kind, (count, _value) in BASE_DECK.items()})
    expected.update({kind: count for kind, (count, _value) in ENHANCED_EXTRA.items()})
    assert deck_counts(build_deck(1, True)) == expected
    for kind, (_count, value) in ENHANCED_EXTRA.items():
        assert KIND_BY_ID[kind].value == value, kind


def test_it_doubles_every_card_with_two_decks():
    single = deck_counts(build_deck(1, False))
    assert deck_counts(build_deck(2, False)) == {kind: 2 * n for kind, n in single.items()}


@pytest.mark.parametrize(
    ("wild", "colours"),
    [
        ("light_blue/brown", {"light_blue", "brown"}),
        ("light_blue/railroad", {"light_blue", "railroad"}),
        ("pink/orange", {"pink", "orange"}),
        ("red/yellow", {"red", "yellow"}),
        ("dark_blue/green", {"dark_blue", "green"}),
        ("green/railroad", {"green", "railroad"}),
        ("railroad/utility", {"railroad", "utility"}),
    ],
)
def test_it_lays_a_two_colour_wild_in_exactly_its_two_colours(wild, colours):
    state = position(f"alice hand: {wild}")
    card = card_in(state, "alice", "hand", wild)
    lays = {m.colour for m in legal_moves(state, ALICE) if m.kind == "lay" and m.card == card}
    assert lays == colours


def test_it_turns_every_table_option_off_by_default_and_refuses_unknown_ones():
    assert new_game(2, 1).options == Options(False, False, False)
    with pytest.raises(ValueError, match="Unknown table options: jokers"):
        new_game(2, 1, {"jokers": True})


@pytest.mark.parametrize("players", [1, 11])
def test_it_refuses_fewer_than_2_or_more_than_10_players(players):
    with pytest.raises(ValueError, match="2 to 10 players"):
        new_game(players, 1)


# --- section 1: dealing and the first player -----------------------------------------------------


def test_it_deals_5_cards_to_each_player_and_the_first_player_draws_2():
    state = new_game(4, 11)
    first = state.current
    assert [len(p.hand) for p in state.players] == [7 if s == first else 5 for s in range(4)]
    assert len(state.draw) == 106 - 4 * 5 - 2
    assert state.phase == "play" and state.plays_left == 3
    assert all(p.bank == [] and p.sets == [] for p in state.players)
    assert state.discard == []


def test_it_chooses_the_first_player_by_the_seed():
    firsts = [new_game(4, seed).current for seed in range(40)]
    assert set(firsts) == {0, 1, 2, 3}, "every seat can begin"
    assert firsts == [new_game(4, seed).current for seed in range(40)], "and the seed decides"


def test_it_deals_the_same_game_for_the_same_seed_options_and_seating():
    events_a, events_b = [], []
    a = new_game(["ann", "ben", "cy"], 2024, {"enhanced": True}, events_a)
    b = new_game(["ann", "ben", "cy"], 2024, {"enhanced": True}, events_b)
    assert a == b and events_a == events_b
    other = new_game(["ann", "ben", "cy"], 2025, {"enhanced": True})
    assert [p.hand for p in other.players] != [p.hand for p in a.players]


def test_it_goes_round_the_table_in_seat_order():
    state = new_game(3, 8)
    first = state.current
    order = []
    for _turn in range(4):
        order.append(state.current)
        apply(state, state.current, Move.end())
        if state.phase == "discard":
            apply(state, state.current, default_move(state, state.current))
    assert order == [first, (first + 1) % 3, (first + 2) % 3, first]


# --- section 2: drawing ----------------------------------------------------------------------


def test_it_draws_2_cards_from_the_top_when_the_turn_begins():
    state = position("""
        alice hand: 1M
        bob hand: 2M
        draw: pass_go 3M 4M
    """)
    events = act(state, "alice", Move.end())
    assert state.current == BOB and state.phase == "play" and state.plays_left == 3
    assert hand_of(state, "bob") == ["2M", "3M", "pass_go"]
    [draw] = [e for e in events if e["type"] == "draw"]
    assert draw["seat"] == BOB and draw["count"] == 2


def test_it_draws_5_cards_when_the_hand_is_empty():
    state = position("""
        alice hand: 1M
        draw: pass_go 3M 4M 5M 10M 2M
    """)
    act(state, "alice", Move.end())
    assert hand_of(state, "bob") == ["10M", "3M", "4M", "5M", "pass_go"]
    assert kinds(state, state.draw[-1:]) == ["2M"]


# --- section 2: playing up to 3 cards -----------------------------------------------------------


def test_it_allows_3_plays_in_any_mix_and_no_more():
    state = position("""
        alice hand: red 1M pass_go 2M
        draw: 3M 4M
    """)
    act(state, "alice", Move.lay(card_in(state, "alice", "hand", "red"), "red"))
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "pass_go")))
    act(state, "alice", Move.bank(card_in(state, "alice", "hand", "1M")))
    assert state.plays_left == 0
    assert_rejected(state, ALICE, Move.bank(card_in(state, "alice", "hand", "2M")), "no plays left")
    assert legal_moves(state, ALICE) == [Move.end()]
    assert table_of(state, "alice") == "red: red"
    assert bank_of(state, "alice") == ["1M"]
    assert hand_of(state, "alice") == ["2M", "3M", "4M"]


@pytest.mark.parametrize("action", ["deal_breaker", "just_say_no", "house", "rent:any", "pass_go"])
def test_it_banks_an_action_card_as_money_for_the_rest_of_the_game(action):
    state = position(f"alice hand: {action}")
    card = card_in(state, "alice", "hand", action)
    assert Move.bank(card) in legal_moves(state, ALICE)
    act(state, "alice", Move.bank(card))
    assert state.players[ALICE].bank == [card] and state.plays_left == 2
    assert state.discard == []
    assert not [m for m in legal_moves(state, ALICE) if m.card == card]


@pytest.mark.parametrize("kind", ["red", "red/yellow", "any"])
def test_it_never_banks_a_property(kind):
    state = position(f"alice hand: {kind}")
    card = card_in(state, "alice", "hand", kind)
    assert_rejected(state, ALICE, Move.bank(card), "can never be banked")
    assert Move.bank(card) not in legal_moves(state, ALICE)


def test_it_counts_each_pass_go_as_one_play():
    state = position("""
        alice hand: pass_go pass_go pass_go pass_go
        draw: 1M 2M 3M 4M 5M 10M
    """)
    for _play in range(3):
        act(state, "alice", Move.play(card_in(state, "alice", "hand", "pass_go")))
    assert state.plays_left == 0
    assert hand_of(state, "alice") == ["10M", "1M", "2M", "3M", "4M", "5M", "pass_go"]
    assert kinds(state, state.discard) == ["pass_go"] * 3
    assert_rejected(
        state, ALICE, Move.play(card_in(state, "alice", "hand", "pass_go")), "no plays left"
    )


def test_it_allows_a_turn_with_no_plays():
    state = position("""
        alice hand: 1M red
        bob hand: 2M
    """)
    before = hand_of(state, "alice")
    events = act(state, "alice", Move.end())
    assert events[0] == {"type": "end_turn", "seat": ALICE}
    assert hand_of(state, "alice") == before
    assert awaiting(state) == [(BOB, "play", -1)]


# --- section 2: the hand limit ----------------------------------------------------------------


def test_it_puts_the_8th_card_on_the_bottom_of_the_draw_pile():
    state = position("""
        alice hand: 1M 2M 3M 4M 5M 10M red green
        bob hand: 2M
        draw: 3M 4M 5M
        rest: discard
    """)
    discard_before = list(state.discard)
    events = act(state, "alice", Move.end())
    assert events[-1] == {"type": "must_discard", "seat": ALICE, "count": 1}
    assert awaiting(state) == [(ALICE, "discard", -1)]
    assert choices(state, ALICE) == [Choice("discard", tuple(state.players[ALICE].hand), count=1)]
    green = card_in(state, "alice", "hand", "green")
    act(state, "alice", Move.discard([green]))
    assert len(state.players[ALICE].hand) == 7 and "green" not in hand_of(state, "alice")
    assert state.discard == discard_before, "not the discard pile"
    # Bob drew the two top cards; the green waits under the last one.
    assert hand_of(state, "bob") == ["2M", "3M", "4M"]
    assert kinds(state, state.draw) == ["green", "5M"]


def test_it_puts_several_cards_over_7_on_the_bottom_of_the_draw_pile():
    state = position("""
        alice hand: 1M 2M 3M 4M 5M 10M red green pass_go
        bob hand: 2M
        draw: 3M 4M 5M
        rest: discard
    """)
    act(state, "alice", Move.end())
    chosen = (card_in(state, "alice", "hand", "red"), card_in(state, "alice", "hand", "10M"))
    act(state, "alice", Move.discard(chosen))
    assert set(state.draw[:2]) == set(chosen)
    assert kinds(state, state.draw[2:]) == ["5M"]


def test_it_refuses_a_discard_of_the_wrong_cards_or_number():
    state = position("""
        alice hand: 1M 2M 3M 4M 5M 10M red green pass_go
        bob hand: 2M
    """)
    act(state, "alice", Move.end())
    one = card_in(state, "alice", "hand", "1M")
    two = card_in(state, "alice", "hand", "2M")
    assert_rejected(state, ALICE, Move.discard([one]), "exactly 2 cards")
    assert_rejected(state, ALICE, Move.discard([one, one]), "from your hand")
    assert_rejected(state, ALICE, Move.discard([one, card_in(state, "bob", "hand", "2M")]), "hand")
    assert_rejected(state, ALICE, Move.bank(two), "bottom of the draw pile first")
    assert_rejected(state, ALICE, Move.end(), "bottom of the draw pile first")
    assert_rejected(state, BOB, Move.discard([one, two]), "no cards to discard")


def test_it_refuses_a_discard_of_more_cards_than_the_hand_is_over_7():
    """docs/rules.md 2: "... until you hold 7", not fewer: emptying the hand on purpose would
    draw 5 next turn instead of 2."""
    state = position("""
        alice hand: 1M 2M 3M 4M 5M 10M red green
        bob hand: 2M
    """)
    act(state, "alice", Move.end())
    three = [card_in(state, "alice", "hand", kind) for kind in ("green", "red", "1M")]
    assert_rejected(state, ALICE, Move.discard(three), "exactly 1 card to put")
    assert len(state.players[ALICE].hand) == 8


def test_it_asks_for_no_discard_at_exactly_7_cards():
    state = position("""
        alice hand: 1M 2M 3M 4M 5M 10M red
        bob hand: 2M
    """)
    act(state, "alice", Move.end())
    assert state.current == BOB and state.phase == "play"
    assert len(state.players[ALICE].hand) == 7


# --- section 7: the draw pile running out -------------------------------------------------------


def test_it_reshuffles_the_discard_pile_when_the_draw_pile_runs_out_mid_draw():
    state = position("""
        alice hand: 1M
        bob hand: 2M
        draw: 5M
        rest: discard
    """)
    five = state.draw[-1]
    reshuffled = len(state.discard)
    events = act(state, "alice", Move.end())
    assert {"type": "reshuffle", "count": reshuffled} in events
    [draw] = [e for e in events if e["type"] == "draw"]
    assert draw["count"] == 2 and draw["secret"]["cards"][0] == five
    assert len(state.players[BOB].hand) == 3
    assert state.discard == [] and len(state.draw) == reshuffled - 1


def test_it_reshuffles_with_the_games_generator():
    text = """
        alice hand: 1M
        bob hand: 2M
        draw: 5M
        rest: discard
        seed: 77
    """
    first, again = position(text), position(text)
    act(first, "alice", Move.end())
    act(again, "alice", Move.end())
    assert first == again
    other = position(text.replace("seed: 77", "seed: 78"))
    act(other, "alice", Move.end())
    assert other.draw != first.draw


def test_it_draws_what_there_is_when_both_piles_are_empty():
    state = position("""
        alice hand: 1M
        bob hand: 2M
        draw: 5M
        rest: alice bank
    """)
    events = act(state, "alice", Move.end())
    assert hand_of(state, "bob") == ["2M", "5M"]
    assert state.draw == [] and state.discard == []
    assert [e["count"] for e in events if e["type"] == "draw"] == [1]
    events = act(state, "bob", Move.end())
    assert [e["count"] for e in events if e["type"] == "draw"] == [0]
    assert state.current == ALICE and state.phase == "play"


# --- section 7: games that end with no winner -------------------------------------------------


def test_it_ends_in_a_stalemate_after_a_full_round_with_no_card_drawn_or_played():
    state = position("""
        alice hand: 1M
        bob hand: 2M
        rest: alice bank
    """)
    act(state, "alice", Move.end())  # Alice's turn was not quiet: it began the position
    act(state, "bob", Move.end())
    assert outcome(state) is None, "one quiet turn is not yet a round"
    events = act(state, "alice", Move.end())
    assert outcome(state) == {"winner": None, "reason": "stalemate"}
    assert events[-1] == {"type": "game_over", "winner": -1, "reason": "stalemate"}
    assert awaiting(state) == []
    assert_rejected(state, BOB, Move.end(), "game is over")


def test_a_turn_skipped_in_jail_is_a_quiet_turn_of_the_round():
    """docs/rules.md 7 and 8: a jailed player's skipped turn draws and plays nothing."""
    state = position("""
        players: alice bob carol
        options: enhanced
        jailed: carol
        alice hand: 1M
        bob hand: 2M
        carol hand: 3M
        rest: alice bank
    """)
    act(state, "alice", Move.end())  # Alice's turn was not quiet: it began the position
    events = act(state, "bob", Move.end())  # carol's turn is skipped: alice's comes
    assert {"type": "skip", "seat": CAROL} in events and state.current == ALICE
    assert outcome(state) is None, "bob's and carol's quiet turns are not yet a round"
    act(state, "alice", Move.end())
    assert outcome(state) == {"winner": None, "reason": "stalemate"}


def test_it_counts_a_quiet_round_again_after_a_card_is_played():
    state = position("""
        alice hand: 1M
        bob hand: 2M
        rest: alice bank
    """)
    act(state, "alice", Move.end())
    act(state, "bob", Move.bank(card_in(state, "bob", "hand", "2M")))
    act(state, "bob", Move.end())
    act(state, "alice", Move.end())
    assert outcome(state) is None
    act(state, "bob", Move.end())
    assert outcome(state) == {"winner": None, "reason": "stalemate"}


@pytest.mark.parametrize("players", [2, 3])
def test_it_ends_with_no_winner_after_200_rounds(players):
    events = []
    state = new_game(players, 31, events=events)
    turns = Counter(e["seat"] for e in events if e["type"] == "turn")
    while outcome(state) is None:
        seat = awaiting(state)[0][0]
        _state, events = apply(state, seat, default_move(state, seat))
        turns.update(e["seat"] for e in events if e["type"] == "turn")
    assert outcome(state) == {"winner": None, "reason": "round_limit"}
    assert turns == {seat: 200 for seat in range(players)}
    assert state.turns == 200 * players


# --- section 2 and 9: rearranging wilds -------------------------------------------------------


def test_it_moves_wilds_for_free_any_number_of_times():
    state = position("""
        alice table: red: red red/yellow; yellow: yellow
        plays: 0
    """)
    wild = card_in(state, "alice", "table", "red/yellow")
    assert Move.move_wild(wild, "yellow") in legal_moves(state, ALICE)
    act(state, "alice", Move.move_wild(wild, "yellow"))
    assert table_of(state, "alice") == "red: red; yellow: yellow red/yellow"
    act(state, "alice", Move.move_wild(wild, "red"))
    act(state, "alice", Move.move_wild(wild, "yellow"))
    assert table_of(state, "alice") == "red: red; yellow: yellow red/yellow"
    assert state.plays_left == 0


def test_it_counts_a_wild_move_as_a_play_with_the_table_option():
    state = position("""
        options: wild_moves_cost_a_play
        alice table: red: red red/yellow; yellow: yellow
        plays: 1
    """)
    wild = card_in(state, "alice", "table", "red/yellow")
    act(state, "alice", Move.move_wild(wild, "yellow"))
    assert state.plays_left == 0
    assert_rejected(state, ALICE, Move.move_wild(wild, "red"), "no plays left")
    assert legal_moves(state, ALICE) == [Move.end()]


def test_it_moves_a_multicolour_wild_to_any_other_colour():
    state = position("alice table: red: any")
    wild = card_in(state, "alice", "table", "any")
    moves = {m.colour for m in legal_moves(state, ALICE) if m.kind == "move_wild"}
    others = "brown light_blue pink orange yellow green dark_blue railroad utility"
    assert moves == set(others.split())
    act(state, "alice", Move.move_wild(wild, "utility"))
    assert table_of(state, "alice") == "utility: any"


def test_it_moves_only_wilds_of_my_table_to_colours_they_show():
    state = position("""
        alice table: red: red red/yellow
        bob table: yellow: red/yellow
    """)
    assert_rejected(
        state, ALICE, Move.move_wild(card_in(state, "alice", "table", "red"), "yellow"), "wild"
    )
    wild = card_in(state, "alice", "table", "red/yellow")
    assert_rejected(state, ALICE, Move.move_wild(wild, "green"), "cannot stand for that colour")
    assert_rejected(state, ALICE, Move.move_wild(wild, "red"), "already stands for that colour")
    theirs = card_in(state, "bob", "table", "red/yellow")
    assert_rejected(state, ALICE, Move.move_wild(theirs, "red"), "not on your table")


def test_it_moves_wilds_only_in_the_owners_play_phase():
    state = position("""
        alice hand: debt_collector 1M 2M 3M 4M 5M 10M red green
        alice table: red: red/yellow
        bob table: yellow: red/yellow
        bob bank: 5M
    """)
    mine = card_in(state, "alice", "table", "red/yellow")
    theirs = card_in(state, "bob", "table", "red/yellow")
    assert_rejected(state, BOB, Move.move_wild(theirs, "red"), "not your turn")
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), [BOB]))
    assert state.phase == "respond"
    assert_rejected(state, BOB, Move.move_wild(theirs, "red"), "waiting for answers")
    assert_rejected(state, ALICE, Move.move_wild(mine, "yellow"), "waiting for answers")
    assert not [m for m in legal_moves(state, BOB) if m.kind == "move_wild"]
    act(state, "bob", Move.accept(BOB, (card_in(state, "bob", "bank", "5M"),)))
    act(state, "alice", Move.end())
    assert state.phase == "discard"
    assert_rejected(state, ALICE, Move.move_wild(mine, "yellow"), "bottom of the draw pile first")


# --- section 2: what a play needs ---------------------------------------------------------------

EVERY_PLAY = """
    players: alice bob carol
    options: enhanced
    turn: {turn}
    plays: {plays}
    {who} hand: red green/railroad 1M pass_go birthday debt_collector sly_deal forced_deal deal_breaker double_sly_deal house hotel jail heir speeding rent:red/yellow rent:any double_rent
    {who} table: red: red red; yellow: yellow
    carol table: green: green green green; dark_blue: dark_blue; brown: brown
"""


def every_play(who, turn, plays):
    """A position where `who` holds a card of every kind that is played; their moves with them."""
    state = position(EVERY_PLAY.format(who=who, turn=turn, plays=plays))
    seat = state.seats.index(who)
    current, state.current = state.current, seat
    moves = [m for m in legal_moves(state, seat) if m.kind not in ("end", "move_wild")]
    state.current = current
    kinds_played = {state.deck[m.card].id for m in moves}
    assert len(kinds_played) == 18 and {m.kind for m in moves} == {"bank", "lay", "play"}
    return state, seat, moves


def test_every_play_needs_a_play_left():
    """Each kind of card the turn plays (bank, lay, every action) is refused with none left."""
    state, seat, moves = every_play("alice", "alice", 3)
    state.plays_left = 0
    for move in moves:
        assert_rejected(state, seat, move, "no plays left")


def test_every_play_waits_for_its_players_turn():
    state, seat, moves = every_play("bob", "alice", 3)
    assert state.current == ALICE
    for move in moves:
        assert_rejected(state, seat, move, "not your turn")


def test_it_lays_only_property_cards_and_only_in_a_colour_they_show():
    state = position("alice hand: red red/yellow rent:red/yellow")
    red, wild = (
        card_in(state, "alice", "hand", "red"),
        card_in(state, "alice", "hand", "red/yellow"),
    )
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    assert_rejected(state, ALICE, Move.lay(red, "green"), "cannot stand for that colour")
    assert_rejected(state, ALICE, Move.lay(wild, "green"), "cannot stand for that colour")
    assert_rejected(state, ALICE, Move.lay(rent, "red"), "Only property cards")


def test_it_counts_the_quiet_turns_in_a_row_only():
    state = position("""
        alice hand: 1M
        bob hand: 2M
        rest: alice bank
    """)
    act(state, "alice", Move.end())  # Alice's turn was not quiet: it began the position
    act(state, "bob", Move.end())  # quiet
    act(state, "alice", Move.bank(card_in(state, "alice", "hand", "1M")))
    act(state, "alice", Move.end())  # not quiet: the count starts again
    act(state, "bob", Move.end())
    assert outcome(state) is None, "one quiet turn since a card was played"
    act(state, "alice", Move.end())
    assert outcome(state) == {"winner": None, "reason": "stalemate"}
