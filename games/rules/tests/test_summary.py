"""The summary of a game (its review's numbers) and the view that reveals every hand."""

import random

import pytest

from games.rules import Move, Options, new_game, review_view, summarize, view_for
from games.rules.bots import play_random_game
from games.rules.position import card_in, position
from games.rules.summary import Tally

from .helpers import act

ALICE, BOB, CAROL = 0, 1, 2


def tallied(text):
    """Return (state, tally, play) for a position; play(name, move) applies and counts a move."""
    state = position(text)
    tally = Tally(state)

    def play(name, move):
        tally.count(act(state, name, move))

    return state, tally, play


def numbers(tally, seat, *keys):
    return [tally.players[seat][key] for key in keys]


def test_it_counts_rent_with_its_doubles_as_money_paid_and_collected():
    state, tally, play = tallied("""
        players: alice bob carol
        alice hand: rent:red/yellow double_rent
        alice table: red: red red
        bob bank: 5M 1M
        carol bank: 2M
    """)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    double = card_in(state, "alice", "hand", "double_rent")
    play("alice", Move.play(rent, colour="red", cards=(double,)))  # 3M x2 = 6M
    play("bob", Move.accept(BOB, state.players[BOB].bank))
    play("carol", Move.accept(CAROL, state.players[CAROL].bank))

    alice = tally.players[ALICE]
    assert alice["actions"] == {"rent:red/yellow": 1, "double_rent": 1}
    assert numbers(tally, ALICE, "rent_collected", "rent_paid") == [8, 0]
    assert numbers(tally, BOB, "rent_paid", "debts_paid") == [6, 0]
    assert numbers(tally, CAROL, "rent_paid", "debts_paid") == [2, 0]


def test_it_counts_birthdays_and_debt_collectors_as_debts():
    state, tally, play = tallied("""
        players: alice bob carol
        alice hand: birthday debt_collector
        bob bank: 10M
        carol bank: 3M 2M
    """)
    play("alice", Move.play(card_in(state, "alice", "hand", "birthday")))
    play("bob", Move.accept(BOB, state.players[BOB].bank))
    play("carol", Move.accept(CAROL, (card_in(state, "carol", "bank", "2M"),)))
    play("alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), targets=(CAROL,)))
    play("carol", Move.accept(CAROL, state.players[CAROL].bank))

    assert tally.players[ALICE]["actions"] == {"birthday": 1, "debt_collector": 1}
    assert numbers(tally, ALICE, "debts_collected", "rent_collected") == [15, 0]
    assert numbers(tally, BOB, "debts_paid") == [10]  # no change is given
    assert numbers(tally, CAROL, "debts_paid") == [5]


def test_it_counts_stolen_properties_but_not_the_card_a_forced_deal_gives():
    state, tally, play = tallied("""
        alice hand: sly_deal forced_deal deal_breaker
        alice table: brown: brown
        bob table: green: green green; red: red; dark_blue: dark_blue dark_blue +house
    """)

    def take(action, *cards):
        action = card_in(state, "alice", "hand", action)
        play("alice", Move.play(action, (BOB,), cards=[card_in(state, *c) for c in cards]))
        play("bob", Move.accept(BOB))

    take("sly_deal", ("bob", "table", "green"))
    take("forced_deal", ("alice", "table", "brown"), ("bob", "table", "red"))
    take("deal_breaker", ("bob", "table", "dark_blue"))

    keys = ("properties_stolen", "properties_lost", "sets_stolen", "sets_lost")
    assert numbers(tally, ALICE, *keys) == [4, 0, 1, 0]  # green, red, two dark blues (no House)
    assert numbers(tally, BOB, *keys) == [0, 4, 0, 1]
    assert tally.players[ALICE]["actions"] == {"sly_deal": 1, "forced_deal": 1, "deal_breaker": 1}


def test_it_counts_just_say_no_and_nothing_taken_by_a_cancelled_action():
    state, tally, play = tallied("""
        alice hand: sly_deal just_say_no
        alice table: brown: brown
        bob hand: just_say_no just_say_no
        bob table: green: green
    """)
    green = card_in(state, "bob", "table", "green")
    play("alice", Move.play(card_in(state, "alice", "hand", "sly_deal"), (BOB,), cards=(green,)))
    play("bob", Move.just_say_no(BOB))
    play("alice", Move.just_say_no(BOB))
    play("bob", Move.just_say_no(BOB))
    play("alice", Move.accept(BOB))

    assert numbers(tally, ALICE, "just_say_no", "properties_stolen") == [1, 0]
    assert numbers(tally, BOB, "just_say_no", "properties_lost") == [2, 0]


def test_it_counts_a_transferred_rent_as_paid_by_the_player_who_paid_it():
    state, tally, play = tallied("""
        players: alice bob carol
        options: enhanced
        alice hand: rent:any
        alice table: green: green green
        bob hand: rent_transfer
        carol bank: 4M
    """)
    play("alice", Move.play(card_in(state, "alice", "hand", "rent:any"), (BOB,), "green"))
    play("bob", Move.transfer(BOB, CAROL))
    play("carol", Move.accept(BOB, state.players[CAROL].bank))

    assert numbers(tally, BOB, "rent_transfer", "rent_paid") == [1, 0]
    assert numbers(tally, CAROL, "rent_paid") == [4]
    assert numbers(tally, ALICE, "rent_collected") == [4]


def test_it_counts_banked_and_laid_cards_and_buildings():
    state, tally, play = tallied("""
        alice hand: 5M pass_go green house
        alice table: green: green green
    """)
    play("alice", Move.bank(card_in(state, "alice", "hand", "5M")))
    play("alice", Move.bank(card_in(state, "alice", "hand", "pass_go")))
    play("alice", Move.lay(card_in(state, "alice", "hand", "green"), "green"))
    play("alice", Move.end())
    play("bob", Move.end())
    house = card_in(state, "alice", "hand", "house")
    play("alice", Move.play(house, cards=(card_in(state, "alice", "table", "green"),)))

    assert numbers(tally, ALICE, "banked", "laid", "actions") == [2, 1, {"house": 1}]


def test_it_sums_up_the_end_with_the_winner_and_the_winning_colours_in_colour_order():
    state, tally, play = tallied("""
        alice hand: green
        alice table: dark_blue: dark_blue dark_blue; green: green green; brown: brown brown
    """)
    play("alice", Move.lay(card_in(state, "alice", "hand", "green"), "green"))

    summary = tally.summary(state)
    assert summary["winner"] == ALICE and summary["end_reason"] == "win"
    assert summary["winning_sets"] == ["brown", "green", "dark_blue"]
    assert summary["turns"] == 1 and summary["rounds"] == 1


def random_log(players, seed, options=None):
    rng = random.Random(seed)
    state = new_game(players, seed, options)
    log = []
    play_random_game(state, rng, lambda _s, seat, move, _e: log.append((seat, move)))
    return state, log


@pytest.mark.parametrize("players", [2, 3, 5, 10])
@pytest.mark.parametrize("options", [Options(), Options(enhanced=True)], ids=["base", "enhanced"])
def test_it_sums_up_random_games_consistently(players, options):
    for seed in range(6):
        state, log = random_log(players, seed * 31 + players, options)
        summary = summarize(state.seats, seed * 31 + players, options, log)
        totals = {
            key: sum(p[key] for p in summary["players"])
            for key in summary["players"][0]
            if key not in ("seat", "actions")
        }
        assert totals["rent_paid"] == totals["rent_collected"]
        assert totals["debts_paid"] == totals["debts_collected"]
        assert totals["properties_stolen"] == totals["properties_lost"]
        assert totals["sets_stolen"] == totals["sets_lost"]
        kinds = [move.kind for _seat, move in log]
        assert totals["banked"] == kinds.count("bank")
        assert totals["laid"] == kinds.count("lay")
        assert totals["just_say_no"] == kinds.count("just_say_no")
        assert totals["rent_transfer"] == kinds.count("transfer")
        plays = [move for _seat, move in log if move.kind == "play"]
        played = sum(sum(p["actions"].values()) for p in summary["players"])
        assert played == len(plays) + sum(len(m.cards) for m in plays if m.colour)  # doubles
        assert summary["moves"] == len(log) and summary["turns"] == state.turns
        assert (summary["winner"], summary["end_reason"]) == (
            state.winner if state.winner >= 0 else None,
            state.end_reason,
        )
        if summary["winner"] is not None:
            assert len(summary["winning_sets"]) >= (4 if options.enhanced else 3)


def test_it_calls_back_at_every_position_and_ends_an_abandoned_game():
    state, log = random_log(2, 5)
    positions = []
    summary = summarize(
        state.seats, 5, None, log[:10], abandoned=True, on_position=lambda n, s: positions.append(n)
    )
    assert positions == list(range(11))
    assert summary["end_reason"] == "abandoned" and summary["winner"] is None
    assert summary["moves"] == 10


def test_it_reveals_every_hand_in_the_review_view_and_nothing_more():
    state = new_game(["alice", "bob", "carol"], 3)
    view = review_view(state)
    assert view["hands"] == [view_for(state, seat)["hand"] for seat in range(3)]
    spectator = view_for(state, None)
    del view["hands"]
    assert view == spectator, "apart from the hands, the review shows what a spectator sees"
    assert "draw" not in view and view["draw_count"] == len(state.draw)
