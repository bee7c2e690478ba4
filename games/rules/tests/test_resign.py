"""Resigning (docs/rules.md section 7, "Ruling (resign)"): a loss, the seat played by the
defaults."""

import random

from games.rules import (
    GameState,
    Move,
    apply,
    awaiting,
    default_move,
    legal_moves,
    new_game,
    outcome,
    replay,
    view_for,
)
from games.rules.position import card_in, position

from .helpers import act, assert_rejected

ALICE, BOB, CAROL = 0, 1, 2


def test_it_round_trips_a_resign_move_and_the_resigned_seats_through_json():
    move = Move.resign()
    assert move.to_json() == {"kind": "resign"}
    assert Move.from_json(move.to_json()) == move
    state = new_game(["alice", "bob", "carol"], seed=3)
    apply(state, BOB, Move.resign())
    assert state.to_json()["resigned"] == [BOB]
    assert GameState.from_json(state.to_json()) == state
    assert GameState.from_json(state.to_json()).resigned == (BOB,)


def test_it_reads_a_snapshot_from_before_resigning_existed():
    state = new_game(2, seed=5)
    data = state.to_json()
    del data["resigned"]
    assert GameState.from_json(data).resigned == ()


def test_it_ends_a_two_player_game_at_once_and_the_other_player_wins():
    state = position("""
        players: alice bob
        turn: alice
        alice hand: 1M
    """)
    events = act(state, "bob", Move.resign())  # off-turn: resigning needs no turn
    assert events == [
        {"type": "resign", "seat": BOB},
        {"type": "game_over", "winner": ALICE, "reason": "resigned"},
    ]
    assert outcome(state) == {"winner": ALICE, "reason": "resigned"}
    assert awaiting(state) == []


def test_it_goes_on_in_a_three_player_game_until_one_player_is_left():
    state = position("""
        players: alice bob carol
        turn: alice
    """)
    act(state, "alice", Move.resign())
    assert outcome(state) is None
    assert state.resigned == (ALICE,)
    # The resigned seat is still awaited: its decisions are made by the defaults.
    assert awaiting(state) == [(ALICE, "play", -1)]
    assert default_move(state, ALICE) == Move.end()
    act(state, "alice", default_move(state, ALICE))
    assert state.current == BOB
    act(state, "carol", Move.resign())
    assert outcome(state) == {"winner": BOB, "reason": "resigned"}


def test_it_gives_a_resigned_players_payment_to_the_defaults():
    state = position("""
        players: alice bob carol
        turn: alice
        alice hand: debt_collector
        bob bank: 2M 5M
        bob hand: just_say_no
    """)
    act(state, "alice", Move.play(card_in(state, "alice", "hand", "debt_collector"), (BOB,)))
    act(state, "bob", Move.resign())
    assert awaiting(state) == [(BOB, "answer", BOB)]
    move = default_move(state, BOB)
    assert move == Move.accept(BOB, (card_in(state, "bob", "bank", "5M"),))
    act(state, "bob", move)
    assert sorted(state.deck[c].id for c in state.players[ALICE].bank) == ["5M"]


def test_a_resigned_player_never_wins_even_when_the_defaults_complete_the_sets():
    # "Their result is a loss": a Forced Deal's card completing a resigned seat's third set
    # does not end the game.
    state = position("""
        players: alice bob carol
        turn: alice
        alice hand: forced_deal
        alice table: yellow: yellow
        bob table: green: green green green; railroad: railroad railroad railroad railroad; yellow: yellow yellow; red: red
    """)
    act(state, "bob", Move.resign())
    deal = card_in(state, "alice", "hand", "forced_deal")
    give, take = card_in(state, "alice", "table", "yellow"), card_in(state, "bob", "table", "red")
    act(state, "alice", Move.play(deal, (BOB,), cards=(give, take)))
    act(state, "bob", default_move(state, BOB))

    assert len([s for s in state.players[BOB].sets if s.colour == "yellow"][0].cards) == 3
    assert outcome(state) is None and awaiting(state) == [(ALICE, "play", -1)]


def test_it_refuses_to_resign_twice_or_after_the_end():
    state = position("""
        players: alice bob carol
    """)
    assert_rejected(state, BOB, Move("resign", card=3), "choices that do not belong")
    act(state, "bob", Move.resign())
    assert_rejected(state, BOB, Move.resign(), "already resigned")
    act(state, "carol", Move.resign())
    assert_rejected(state, ALICE, Move.resign(), "game is over")


def test_it_never_offers_resigning_among_the_legal_moves():
    # Bots and random playouts choose among legal moves: none of them resigns by chance.
    state = new_game(3, seed=11)
    for seat in range(3):
        assert all(m.kind != "resign" for m in legal_moves(state, seat))


def test_it_shows_who_resigned_in_every_view():
    state = new_game(["alice", "bob", "carol"], seed=2)
    apply(state, CAROL, Move.resign())
    for seat in (None, ALICE, CAROL):
        assert [p["resigned"] for p in view_for(state, seat)["players"]] == [False, False, True]


def _playout(seed, players):
    """Play a random game in which players resign now and then; the resigned play defaults."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    log = []
    while not state.over:
        if rng.random() < 0.01:
            seat = rng.choice([s for s in range(players) if s not in state.resigned])
            apply(state, seat, Move.resign())
            log.append((seat, Move.resign()))
            continue
        seat = awaiting(state)[0][0]
        if seat in state.resigned:
            move = default_move(state, seat)
        else:
            moves = legal_moves(state, seat)
            move = rng.choice(moves) if moves else default_move(state, seat)
        apply(state, seat, move)
        log.append((seat, move))
    return state, log


def test_it_replays_games_with_resignations_exactly():
    ended_by_resigning = 0
    for seed in range(12):
        players = 2 + seed % 3
        state, log = _playout(seed, players)
        assert replay(list(range(players)), seed, {}, log) == state
        if state.end_reason == "resigned":
            ended_by_resigning += 1
            assert len(state.resigned) == players - 1
            assert state.winner not in state.resigned
    assert ended_by_resigning > 0
