"""Scenario tests of winning (docs/rules.md section 7), what a player sees (10) and the
defaults (11)."""

import json

import pytest

from games.rules import (
    Move,
    Options,
    abandon,
    apply,
    awaiting,
    check_payment,
    default_move,
    event_for,
    least_overpay,
    new_game,
    outcome,
    view_for,
)
from games.rules.position import card_in, position

from .helpers import act, assert_rejected, kinds, pick
from .invariants import visible_card_ids

ALICE, BOB, CAROL = 0, 1, 2


def lay(state, kind, colour):
    return act(state, "alice", Move.lay(card_in(state, "alice", "hand", kind), colour))


# --- section 7: winning ------------------------------------------------------------------------


def test_it_wins_at_once_with_3_complete_sets_of_different_colours():
    state = position("""
        alice hand: red 1M
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; red: red red
    """)
    events = lay(state, "red", "red")
    assert events[-1] == {"type": "game_over", "winner": ALICE, "reason": "win"}
    assert outcome(state) == {"winner": ALICE, "reason": "win"}
    assert awaiting(state) == [] and state.plays_left == 2
    assert_rejected(state, ALICE, Move.bank(card_in(state, "alice", "hand", "1M")), "game is over")


def test_it_wins_when_a_free_wild_move_completes_the_third_set():
    state = position("""
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; yellow: yellow yellow; red: red/yellow
        plays: 0
    """)
    act(state, "alice", Move.move_wild(card_in(state, "alice", "table", "red/yellow"), "yellow"))
    assert outcome(state) == {"winner": ALICE, "reason": "win"}


def test_it_does_not_count_two_complete_sets_of_one_colour_twice():
    state = position("""
        alice hand: any
        alice table: brown: brown brown; red: red red red; red: red/yellow red/yellow
    """)
    lay(state, "any", "red")
    assert outcome(state) is None
    assert view_for(state, ALICE)["players"][ALICE]["complete_colours"] == ["brown", "red"]


def test_it_needs_4_complete_sets_in_the_enhanced_edition():
    state = position("""
        options: enhanced
        alice hand: green
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; green: green green; yellow: yellow yellow; red: red/yellow
    """)
    assert view_for(state, None)["sets_to_win"] == 4
    act(state, "alice", Move.move_wild(card_in(state, "alice", "table", "red/yellow"), "yellow"))
    assert outcome(state) is None, "three complete sets win only the base game"
    lay(state, "green", "green")
    assert outcome(state) == {"winner": ALICE, "reason": "win"}


def test_it_counts_only_sets_with_a_house_with_built_sets():
    state = position("""
        options: enhanced built_sets
        alice hand: yellow house
        alice table: brown: brown brown +house; dark_blue: dark_blue dark_blue +house; green: green green green +house; railroad: railroad railroad railroad railroad; red: red red red; yellow: yellow yellow
    """)
    lay(state, "yellow", "yellow")
    view = view_for(state, ALICE)
    assert outcome(state) is None
    assert view["players"][ALICE]["complete_colours"] == ["brown", "dark_blue", "green"]
    yellow = card_in(state, "alice", "table", "yellow")
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "house"), cards=(yellow,)))
    assert outcome(state) == {"winner": ALICE, "reason": "win"}


def test_it_refuses_built_sets_without_the_enhanced_edition():
    with pytest.raises(ValueError, match="enhanced"):
        new_game(2, 1, Options(built_sets=True))


def test_it_ends_with_no_winner_when_the_players_abandon_the_game():
    state = new_game(2, 4)
    events = abandon(state)
    assert events == [{"type": "game_over", "winner": -1, "reason": "abandoned"}]
    assert outcome(state) == {"winner": None, "reason": "abandoned"}
    assert abandon(state) == [], "an ended game stays as it ended"


# --- section 10: what a player sees ---------------------------------------------------------------


def hidden_from(state, seat):
    hidden = set(state.draw)
    for other, player in enumerate(state.players):
        if other != seat:
            hidden.update(player.hand)
    return hidden


def test_it_shows_a_player_their_own_hand_and_only_counts_of_the_others():
    state = new_game(3, 12)
    view = view_for(state, BOB)
    assert [c["id"] for c in view["hand"]] == state.players[BOB].hand
    assert [p["hand_count"] for p in view["players"]] == [len(p.hand) for p in state.players]
    assert not visible_card_ids(view) & hidden_from(state, BOB)
    assert all("hand" not in p for p in view["players"])


def test_it_shows_the_draw_pile_only_as_a_count_and_never_the_generator():
    state = new_game(3, 12)
    for seat in (None, ALICE, BOB, CAROL):
        view = view_for(state, seat)
        assert view["draw_count"] == len(state.draw)
        text = json.dumps(view)
        assert "draw" not in view and "rng" not in text and "seed" not in text
        assert str(state.rng.state) not in text
        assert not visible_card_ids(view) & set(state.draw)


def test_it_shows_a_spectator_no_hand_and_no_moves():
    state = new_game(3, 12)
    view = view_for(state, None)
    assert view["hand"] is None and view["moves"] == [] and view["choices"] == []
    assert not visible_card_ids(view) & hidden_from(state, None)


def test_it_shows_everyone_the_banks_tables_and_discard_pile():
    state = position("""
        alice hand: 2M
        alice bank: 10M
        alice table: red: red red red/yellow +house
        discard: pass_go
    """)
    for seat in (None, BOB):
        view = view_for(state, seat)
        alice = view["players"][ALICE]
        assert [c["kind"] for c in alice["bank"]] == ["10M"] and alice["bank_total"] == 10
        [red] = alice["sets"]
        assert [c["kind"] for c in red["cards"]] == ["red", "red", "red/yellow"]
        assert red["house"]["kind"] == "house" and red["complete"] is True
        assert [c["kind"] for c in view["discard"]] == ["pass_go"]
        assert alice["hand_count"] == 1


def test_it_refuses_a_view_for_a_seat_that_does_not_exist():
    state = new_game(2, 1)
    for seat in (2, -1, "0"):
        with pytest.raises(ValueError):
            view_for(state, seat)


def test_it_shows_the_round_in_which_every_player_has_one_turn():
    state = new_game(3, 6)
    rounds = []
    while outcome(state) is None:
        if state.phase == "play":
            rounds.append(view_for(state, None)["round"])
        seat = awaiting(state)[0][0]
        apply(state, seat, default_move(state, seat))
    assert rounds[:7] == [1, 1, 1, 2, 2, 2, 3]
    assert rounds[-3:] == [200, 200, 200], "the 200-round limit ends the game after round 200"


def test_it_shows_drawn_cards_only_to_the_player_who_drew_them():
    state = position("""
        alice hand: 1M
        bob hand: 2M
        draw: 5M 10M
    """)
    events = act(state, "alice", Move.end())
    [draw] = [e for e in events if e["type"] == "draw"]
    mine = event_for(draw, BOB)
    assert sorted(kinds(state, mine["secret"]["cards"])) == ["10M", "5M"]
    for seat in (ALICE, None):
        theirs = event_for(draw, seat)
        assert theirs == {"type": "draw", "seat": BOB, "count": 2}


def test_it_shows_the_cards_put_under_the_draw_pile_only_to_their_owner():
    state = position("""
        alice hand: 1M 2M 3M 4M 5M 10M red green
    """)
    act(state, "alice", Move.end())
    green = card_in(state, "alice", "hand", "green")
    [put_back] = [e for e in act(state, "alice", Move.discard([green])) if e["type"] == "discard"]
    assert event_for(put_back, ALICE)["secret"] == {"cards": [green]}
    assert event_for(put_back, BOB) == {"type": "discard", "seat": ALICE, "count": 1}
    assert "secret" not in event_for(put_back, None)


# --- section 11: defaults ---------------------------------------------------------------------


def test_it_ends_the_turn_by_default_in_the_play_phase():
    state = position("""
        alice hand: 10M red pass_go
        bob hand: 1M
    """)
    assert default_move(state, ALICE) == Move.end()
    assert default_move(state, BOB) is None


def test_it_accepts_an_action_by_default_without_just_say_no():
    state = position("""
        alice hand: sly_deal
        bob hand: just_say_no
        bob table: red: red
    """)
    red = card_in(state, "bob", "table", "red")
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "sly_deal"), [BOB], cards=[red]))
    assert default_move(state, BOB) == Move.accept(BOB)
    assert default_move(state, ALICE) is None


def test_it_discards_the_lowest_value_card_when_speeding_is_accepted_by_default():
    state = position("""
        options: enhanced
        alice hand: speeding
        bob hand: 10M deal_breaker 1M just_say_no
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "speeding"), [BOB]))
    one = card_in(state, "bob", "hand", "1M")
    assert default_move(state, BOB) == Move.accept(BOB, (one,))
    apply(state, BOB, default_move(state, BOB))
    assert kinds(state, state.players[BOB].hand) == ["10M", "deal_breaker", "just_say_no"]


def test_it_lets_a_just_say_no_stand_by_default():
    state = position("""
        alice hand: sly_deal just_say_no
        bob hand: just_say_no
        bob table: red: red
    """)
    red = card_in(state, "bob", "table", "red")
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "sly_deal"), [BOB], cards=[red]))
    act(state, "bob", Move.just_say_no(BOB))
    assert default_move(state, ALICE) == Move.accept(BOB)
    apply(state, ALICE, default_move(state, ALICE))
    assert state.phase == "play" and card_in(state, "bob", "table", "red") == red


def test_it_pays_a_debt_by_default_with_the_least_overpaying_selection_and_no_just_say_no():
    state = position("""
        alice hand: debt_collector
        bob hand: just_say_no
        bob bank: 10M 3M 1M
        bob table: red: red
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), [BOB]))
    move = default_move(state, BOB)
    assert move.kind == "accept" and move.share == BOB
    assert sorted(move.cards) == sorted(pick(state, "bob", "bank:3M", "table:red"))
    apply(state, BOB, move)
    assert state.phase == "play"


@pytest.mark.parametrize(
    ("bob", "amount", "expected"),
    [
        # Exact: the single 5M rather than 3M + 2M.
        ("bob bank: 5M 3M 2M", 5, ["bank:5M"]),
        # Both overpay by 1: the bank card before the property.
        ("bob bank: 3M\nbob table: red: red", 2, ["bank:3M"]),
        # Both exact: two bank cards before one property.
        ("bob bank: 1M 3M\nbob table: green: green", 4, ["bank:1M", "bank:3M"]),
        # Equally exact, bank card against property.
        ("bob bank: 4M\nbob table: dark_blue: dark_blue", 4, ["bank:4M"]),
        # Exact from the table beats overpaying from the bank.
        ("bob bank: 10M\nbob table: green: green; brown: brown", 5, ["table:green", "table:brown"]),
        # All from the bank and exact: fewer cards.
        ("bob bank: 2M 2M 4M 1M", 4, ["bank:4M"]),
        # Overpay 1 either way: one Hotel rather than two pinks (the House alone may not go).
        ("bob table: pink: pink pink pink +house +hotel", 3, ["table:hotel"]),
        # Exact 7 with the Hotel and the House beneath it.
        ("bob table: pink: pink pink pink +house +hotel", 7, ["table:hotel", "table:house"]),
        # Equally exact, bank card against House: the bank card.
        ("bob bank: 3M\nbob table: green: green green green +house", 3, ["bank:3M"]),
        # Equally exact, House against property: the House (its set stays complete).
        ("bob table: red: red; green: green green green +house", 3, ["table:house"]),
        # Equally exact properties: the one from an incomplete set, not a complete set's.
        ("bob table: dark_blue: dark_blue dark_blue; green: green", 4, ["table:green"]),
        # Worth less than the debt: everything payable, never the multicolour wild.
        ("bob bank: 1M 2M\nbob table: red: red any", 10, ["bank:1M", "bank:2M", "table:red"]),
    ],
)
def test_it_chooses_the_payment_that_overpays_least_by_default(bob, amount, expected):
    state = position(bob)
    paid = least_overpay(state, BOB, amount)
    assert sorted(paid) == sorted(pick(state, "bob", *expected))
    check_payment(state, BOB, amount, paid)


def test_it_puts_the_lowest_value_cards_under_the_draw_pile_by_default():
    state = position("""
        alice hand: 10M 5M any deal_breaker pass_go 3M red green 4M
    """)
    act(state, "alice", Move.end())
    move = default_move(state, ALICE)
    assert sorted(kinds(state, move.cards)) == ["any", "pass_go"]
    assert default_move(state, BOB) is None
    apply(state, ALICE, move)
    assert state.current == BOB
