"""Computer players: legal moves at every level, no peeking, greedy sense, the arena."""

import contextlib
import io
import json
import random

import pytest

from games.rules import Move, apply, awaiting, forced_move, new_game, search, view_for
from games.rules.arena import main as arena_main, wilson
from games.rules.bots import LEVELS, bot_move, choose
from games.rules.determinize import determinize
from games.rules.position import card_in, position
from games.rules.state import Options

from .helpers import act, pick, table_of
from .invariants import check_invariants

ALICE, BOB, CAROL = 0, 1, 2


def play_bots(levels, seed, options, budget=1, limit=None, check=None):
    """Play a game with `levels[seat]` at each seat; every bot move must be legal.

    Stop after `limit` bot decisions when given. Return the state.
    """
    state = new_game(len(levels), seed, options)
    rng = random.Random(seed)
    made = 0
    while state.phase != "over" and (limit is None or made < limit):
        seat = awaiting(state)[0][0]
        view = view_for(state, seat)
        move = choose(levels[seat], view, rng, budget)
        assert move is not None, "an awaited seat always has a move"
        apply(state, seat, move)  # raises IllegalMove if the bot broke a rule
        made += 1
        if check is not None:
            check(state)
    return state


# --- legal moves ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("enhanced", [False, True], ids=["base", "enhanced"])
def test_it_plays_only_legal_moves_at_the_random_and_basic_levels(players, enhanced):
    options = Options(enhanced=enhanced)
    reasons = set()
    for game in range(3 if players <= 5 else 1):
        levels = [("basic", "random")[(seat + game) % 2] for seat in range(players)]
        state = play_bots(levels, 1000 * players + game, options, check=check_invariants)
        reasons.add(state.end_reason)
    assert reasons <= {"win", "stalemate", "round_limit"}


@pytest.mark.parametrize("players", [2, 3, 5, 6, 10])
@pytest.mark.parametrize("enhanced", [False, True], ids=["base", "enhanced"])
def test_it_plays_only_legal_moves_at_the_strong_level(players, enhanced):
    levels = [LEVELS[seat % 3] for seat in range(players)][::-1]
    play_bots(levels, 77 + players, Options(enhanced=enhanced), budget=1, limit=60)


def test_it_plays_whole_games_of_basic_players_to_a_win():
    for seed in range(20):
        state = play_bots(["basic", "basic", "basic"], seed, Options(), check=check_invariants)
        assert state.end_reason == "win"


def test_it_plays_built_sets_games_with_the_basic_player():
    options = Options(enhanced=True, built_sets=True, wild_moves_cost_a_play=True)
    for seed in range(4):
        play_bots(["basic", "basic"], seed, options, check=check_invariants)


def test_it_has_nothing_to_choose_for_a_seat_that_is_not_awaited():
    state = new_game(3, 4)
    idle = next(s for s in range(3) if s not in {a[0] for a in awaiting(state)})
    for level in LEVELS:
        assert choose(level, view_for(state, idle), 1, 1) is None


def test_it_refuses_an_unknown_level():
    state = new_game(2, 4)
    with pytest.raises(ValueError):
        choose("grandmaster", view_for(state, state.current), 1)


# --- no peeking ----------------------------------------------------------------------------------


def hide_differently(state, seat, seed):
    """Return a copy of `state` whose hidden parts differ: other hands, draw order, generator."""
    other = state.copy()
    rng = random.Random(seed)
    hidden = list(other.draw)
    for i, player in enumerate(other.players):
        if i != seat:
            hidden += player.hand
    rng.shuffle(hidden)
    for i, player in enumerate(other.players):
        if i != seat:
            count = len(player.hand)
            player.hand = hidden[:count]
            del hidden[:count]
    other.draw = hidden
    other.rng.state = rng.getrandbits(64)
    return other


def test_it_sees_the_same_view_in_states_that_differ_only_in_hidden_cards():
    state = new_game(3, 21)
    other = hide_differently(state, state.current, 5)
    assert other != state
    assert view_for(other, state.current) == view_for(state, state.current)


@pytest.mark.parametrize("level", LEVELS)
def test_it_decides_without_peeking_at_hidden_cards(level):
    rng = random.Random(8)
    compared = 0
    for seed in range(6 if level != "strong" else 2):
        state = new_game(2 + seed % 3, seed, Options(enhanced=seed % 2 == 1))
        decisions = 0
        while state.phase != "over" and decisions < (40 if level != "strong" else 12):
            seat = awaiting(state)[0][0]
            if forced_move(state, seat) is None:
                other = hide_differently(state, seat, rng.getrandbits(32))
                mine = bot_move(state, seat, level, seed=decisions, budget=2)
                theirs = bot_move(other, seat, level, seed=decisions, budget=2)
                assert mine == theirs, "the hidden cards changed the bot's decision"
                compared += 1
            apply(state, seat, bot_move(state, seat, "basic", seed=0))
            decisions += 1
    assert compared > 10


def test_it_deals_the_unseen_cards_into_the_hidden_places_only():
    state = new_game(4, 3)
    seat = state.current
    guess = determinize(view_for(state, seat), random.Random(1))
    assert guess.players[seat].hand == state.players[seat].hand
    for mine, theirs in zip(guess.players, state.players):
        assert len(mine.hand) == len(theirs.hand)
        assert mine.bank == theirs.bank
    assert len(guess.draw) == len(state.draw)
    hidden = sorted(
        state.draw + [c for i, p in enumerate(state.players) if i != seat for c in p.hand]
    )
    assert (
        sorted(guess.draw + [c for i, p in enumerate(guess.players) if i != seat for c in p.hand])
        == hidden
    )
    check_invariants(guess)


# --- the basic player's sense --------------------------------------------------------------------


def basic(state, name):
    seat = state.seats.index(name)
    return bot_move(state, seat, "basic", seed=0)


def test_it_completes_a_set_before_anything_else():
    state = position("""
        alice hand: 10M pass_go red birthday green
        alice table: red: red red; green: green
        bob bank: 5M 3M
    """)
    assert basic(state, "alice") == Move.lay(card_in(state, "alice", "hand", "red"), "red")


def test_it_lays_a_wild_in_the_colour_it_completes():
    state = position("""
        alice hand: red/yellow
        alice table: red: red; yellow: yellow yellow
    """)
    assert basic(state, "alice") == Move.lay(
        card_in(state, "alice", "hand", "red/yellow"), "yellow"
    )


def test_it_charges_the_biggest_rent():
    state = position("""
        alice hand: rent:light_blue/brown rent:red/yellow 1M
        alice table: red: red red; brown: brown brown
        bob bank: 10M
    """)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    assert basic(state, "alice") == Move.play(rent, colour="red")


def test_it_doubles_a_big_rent():
    state = position("""
        alice hand: rent:dark_blue/green double_rent
        alice table: dark_blue: dark_blue dark_blue
        bob bank: 10M 5M 4M
    """)
    rent, double = pick(state, "alice", "hand:rent:dark_blue/green", "hand:double_rent")
    assert basic(state, "alice") == Move.play(rent, colour="dark_blue", cards=(double,))


def test_it_aims_a_rent_of_any_colour_at_the_player_who_can_pay_most():
    state = position("""
        players: alice bob carol
        alice hand: rent:any
        alice table: green: green green
        bob bank: 1M
        carol bank: 5M
    """)
    rent = card_in(state, "alice", "hand", "rent:any")
    assert basic(state, "alice") == Move.play(rent, targets=(CAROL,), colour="green")


def test_it_takes_a_complete_set_with_deal_breaker():
    state = position("""
        alice hand: deal_breaker 1M
        bob table: green: green green green; brown: brown
    """)
    card = card_in(state, "alice", "hand", "deal_breaker")
    move = basic(state, "alice")
    assert move.kind == "play" and move.card == card and move.targets == (BOB,)
    act(state, "alice", move)
    act(state, "bob", Move.accept(BOB))
    assert table_of(state, "alice") == "green: green green green"


def test_it_steals_the_property_that_completes_its_set():
    state = position("""
        alice hand: sly_deal
        alice table: orange: orange orange
        bob table: orange: orange; pink: pink pink
    """)
    move = basic(state, "alice")
    assert move == Move.play(
        card_in(state, "alice", "hand", "sly_deal"),
        targets=(BOB,),
        cards=pick(state, "bob", "table:orange"),
    )


def test_it_banks_money_and_keeps_just_say_no_in_hand():
    state = position("""
        alice hand: just_say_no 3M
    """)
    assert basic(state, "alice") == Move.bank(card_in(state, "alice", "hand", "3M"))
    act(state, "alice", basic(state, "alice"))
    assert basic(state, "alice") == Move.end()


def test_it_pays_with_bank_cards_before_properties():
    state = position("""
        alice hand: debt_collector
        bob bank: 3M
        bob table: brown: brown; light_blue: light_blue
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), [BOB]))
    state.pending.amount = 2  # the least overpaying default would give both properties
    assert basic(state, "bob") == Move.accept(BOB, pick(state, "bob", "bank:3M"))


def test_it_pays_with_a_lone_property_rather_than_break_a_near_complete_set():
    state = position("""
        alice hand: birthday
        bob table: pink: pink pink; railroad: railroad
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "birthday")))
    assert basic(state, "bob") == Move.accept(BOB, pick(state, "bob", "table:railroad"))


def test_it_keeps_just_say_no_against_a_small_rent():
    state = position("""
        alice hand: rent:light_blue/brown
        alice table: brown: brown
        bob hand: just_say_no
        bob bank: 1M 2M
    """)
    rent = card_in(state, "alice", "hand", "rent:light_blue/brown")
    act(state, "alice", Move.play(rent, colour="brown"))
    assert basic(state, "bob") == Move.accept(BOB, pick(state, "bob", "bank:1M"))


def test_it_answers_a_big_loss_with_just_say_no():
    state = position("""
        alice hand: rent:dark_blue/green double_rent
        alice table: dark_blue: dark_blue dark_blue
        bob hand: just_say_no
        bob bank: 10M 5M 1M
    """)
    rent, double = pick(state, "alice", "hand:rent:dark_blue/green", "hand:double_rent")
    act(state, "alice", Move.play(rent, colour="dark_blue", cards=(double,)))
    assert basic(state, "bob") == Move.just_say_no(BOB)


def test_it_answers_a_deal_breaker_with_just_say_no():
    state = position("""
        alice hand: deal_breaker
        bob hand: just_say_no
        bob table: red: red red red
    """)
    act(
        state,
        "alice",
        Move.play(
            card_in(state, "alice", "hand", "deal_breaker"),
            [BOB],
            cards=pick(state, "bob", "table:red"),
        ),
    )
    assert basic(state, "bob") == Move.just_say_no(BOB)
    act(state, "bob", Move.just_say_no(BOB))
    assert basic(state, "alice") == Move.accept(BOB)


def test_it_passes_a_rent_on_with_rent_transfer():
    state = position("""
        players: alice bob carol
        options: enhanced
        alice hand: rent:red/yellow
        alice table: red: red red
        bob hand: rent_transfer
        bob bank: 2M 1M
        carol bank: 5M
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "rent:red/yellow"), colour="red"))
    assert basic(state, "bob") == Move.transfer(BOB, CAROL)


def test_it_discards_the_least_useful_cards():
    state = position("""
        alice hand: just_say_no deal_breaker red red 5M rent:light_blue/brown rent:pink/orange 1M pass_go
        alice table: red: red
    """)
    act(state, "alice", Move.end())
    assert state.phase == "discard"
    move = basic(state, "alice")
    assert sorted(state.deck[c].id for c in move.cards) == [
        "rent:light_blue/brown",
        "rent:pink/orange",
    ]


# --- the strong player ---------------------------------------------------------------------------


def test_it_makes_the_same_strong_move_for_the_same_seed():
    for seed in (1, 2):
        state = new_game(3, seed)
        apply(state, state.current, Move.end()) if state.players[state.current].hand else None
        seat = awaiting(state)[0][0]
        view = view_for(state, seat)
        first = choose("strong", view, 11, budget=3)
        assert choose("strong", view, 11, budget=3) == first
        assert choose("strong", json.loads(json.dumps(view)), random.Random(11), budget=3) == first


def test_it_takes_the_win_when_it_can():
    state = position("""
        alice hand: green 10M
        alice table: green: green green; red: red red red; brown: brown brown
    """)
    assert bot_move(state, ALICE, "strong", seed=1, budget=2) == Move.lay(
        card_in(state, "alice", "hand", "green"), "green"
    )


def test_it_counts_what_its_evaluation_weighs():
    state = position("""
        alice hand: just_say_no deal_breaker sly_deal rent:red/yellow rent:dark_blue/green 3M green
        alice bank: 10M 5M 5M 4M 4M 4M 3M
        alice table: red: red red red; brown: brown
    """)
    features = search.features(state, ALICE)
    assert len(features) == len(search.FEATURES)
    assert features == pytest.approx((
        1,  # red is complete
        0.0,  # two sets to go
        0.15,  # brown is half done
        1,  # brown is one card short
        3.0,  # 35M banked, counted up to 30M
        1.0,  # 7 cards in hand
        1,  # Just Say No
        1,  # Deal Breaker
        1.0,  # 3 reds at 3M and a brown at 1M
        1.0,  # alice's turn
        0.6,  # 3 reds charge 6M
        1,  # Sly Deal
        1,  # the red rent counts, the dark blue one has no set to charge for
        0.3,  # 3M in hand
        1,  # green in hand
        0.1,  # the brown is in an incomplete set
        3.5,  # the whole bank
    ))  # fmt: skip
    assert search.features(state, BOB) == pytest.approx((0,) * 9 + (0.0,) + (0,) * 7)


def test_it_judges_a_position_by_chances_that_add_up_to_one():
    state = position("""
        alice table: red: red red red; green: green green green
        bob table: brown: brown
    """)
    for weights in (search.WEIGHTS_TWO, search.WEIGHTS_MANY, search.WEIGHTS_ENHANCED):
        assert len(weights) == len(search.FEATURES)
    chances = [search.evaluate(state, seat) for seat in (ALICE, BOB)]
    assert sum(chances) == pytest.approx(1.0)
    assert chances[ALICE] > 0.9
    state.current = BOB
    assert search.evaluate(state, BOB) > chances[BOB]  # whose turn it is counts
    state.phase, state.winner = "over", BOB
    assert (search.evaluate(state, ALICE), search.evaluate(state, BOB)) == (0.0, 1.0)


def test_it_plays_pass_go_first_without_searching(monkeypatch):
    # Basic play draws first here (Pass Go, plays to spare); the strong player
    # follows it without searching, as the search cannot value drawing first.
    state = position("""
        alice hand: pass_go sly_deal 5M red
        alice table: red: red
        bob table: green: green green; yellow: yellow
        bob bank: 3M
    """)
    pass_go = Move.play(card_in(state, "alice", "hand", "pass_go"))
    assert basic(state, "alice") == pass_go

    def searched(*args):
        raise AssertionError("the strong player searched")

    monkeypatch.setattr(search, "_play_out", searched)
    assert bot_move(state, ALICE, "strong", seed=1) == pass_go


def test_it_searches_a_pass_go_with_the_last_play(monkeypatch):
    # With one play left, nothing is decided after the draw: the search judges it.
    state = position("""
        plays: 1
        alice hand: pass_go just_say_no
        alice table: red: red
        bob bank: 3M
    """)
    assert basic(state, "alice") == Move.play(card_in(state, "alice", "hand", "pass_go"))
    played_out = []
    play_out = search._play_out

    def counted(*args):
        played_out.append(args)
        return play_out(*args)

    monkeypatch.setattr(search, "_play_out", counted)
    bot_move(state, ALICE, "strong", seed=1, budget=50)
    assert played_out


# --- the arena -----------------------------------------------------------------------------------


def test_it_prints_the_arena_figures_as_one_json_line():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        arena_main(["--a", "strong", "--b", "basic", "--games", "2", "--budget", "1", "--quiet"])
    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert result["games"] == 2 and result["players"] == 2
    assert result["a"]["wins"] + result["b"]["wins"] + result["draws"] == 2
    for side in ("a", "b"):
        figures = result[side]
        assert set(figures) >= {"level", "win_rate", "ci95", "expected_share", "mean_decision_ms"}
        assert figures["ci95"][0] <= figures["win_rate"] <= figures["ci95"][1]
    assert {"draws", "max_decision_ms"} <= set(result)


def test_it_gives_the_same_arena_results_for_the_same_seed():
    def results(*more):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            arena_main(
                [
                    "--a",
                    "basic",
                    "--b",
                    "random",
                    "--players",
                    "3",
                    "--games",
                    "6",
                    "--seed",
                    "4",
                    "--quiet",
                    *more,
                ]
            )
        found = json.loads(out.getvalue().strip().splitlines()[-1])
        return (
            [found[side]["wins"] for side in ("a", "b")],
            found["end_reasons"],
            found["mean_turns"],
        )

    alone = results()
    assert alone == results()
    # Games played two at a time in separate processes are the same games.
    assert alone == results("--jobs", "2")


def test_it_computes_wilson_intervals():
    low, high = wilson(90, 100)
    assert 0.82 < low < 0.83 and 0.94 < high < 0.95
    assert wilson(0, 0) == (0.0, 1.0)
