"""The analysis of decisions: judged from the deciding seat's view only, and marked by their loss."""

import random

import pytest

from games.rules import Move, Options, analysis, apply, awaiting, new_game, view_for
from games.rules.analysis import analyse, judge, mark_for
from games.rules.basic import basic_move
from games.rules.position import card_in, position

THIRD_SET = """
    players: alice bob
    turn: alice
    plays: 3
    alice hand: {hand}
    alice bank: 1M
    alice table: dark_blue: dark_blue dark_blue; green: green green green; {third}
    bob hand: {bob_hand}
    bob table: brown: brown; red: red red red; orange: orange orange orange; yellow: yellow yellow
    bob bank: 2M 3M
    draw: {draw}
"""


def third_set(hand="sly_deal 1M", third="brown: brown", bob_hand="2M", draw="pass_go 5M yellow"):
    return position(THIRD_SET.format(hand=hand, third=third, bob_hand=bob_hand, draw=draw))


def light_blue_in_hand():
    return third_set(hand="light_blue 1M", third="light_blue: light_blue light_blue")


def test_it_gives_the_same_verdict_whatever_the_hidden_cards_are():
    one = third_set()
    two = third_set()
    # Bob holds other cards and the draw pile is in another order: only hidden cards differ.
    bob = two.players[1]
    jsn = [c for c in two.draw if two.deck[c].id == "just_say_no"][:1]
    two.draw = [c for c in two.draw if c not in jsn] + bob.hand[:1]
    bob.hand = jsn + bob.hand[1:]
    random.Random(5).shuffle(two.draw)
    assert one.players[1].hand != two.players[1].hand and one.draw != two.draw
    assert view_for(one, 0) == view_for(two, 0)
    bank = Move.bank(card_in(one, "alice", "hand", "1M"))
    verdicts = [
        judge(view_for(state, 0), bank, random.Random(7), seconds=None, deals=6)
        for state in (one, two)
    ]
    assert verdicts[0] == verdicts[1]
    assert verdicts[0]["deals"] == 6


def test_it_marks_banking_the_card_that_would_have_completed_the_third_set_a_blunder():
    state = third_set()
    sly_deal = card_in(state, "alice", "hand", "sly_deal")
    banked = judge(view_for(state, 0), Move.bank(sly_deal), random.Random(1), None, 8)
    assert banked["mark"] == "blunder"
    assert banked["loss"] >= 20
    best = Move.from_json(banked["best"])
    assert best.kind == "play" and best.card == sly_deal
    assert best.cards == (card_in(state, "bob", "table", "brown"),)


def test_it_marks_ending_the_turn_with_the_winning_property_in_hand_a_blunder():
    state = light_blue_in_hand()
    light_blue = card_in(state, "alice", "hand", "light_blue")
    ended = judge(view_for(state, 0), Move.end(), random.Random(2), None, 8)
    assert ended["mark"] == "blunder"
    assert Move.from_json(ended["best"]) == Move.lay(light_blue, "light_blue")


def test_it_tells_a_forced_deals_two_directions_apart():
    # Giving the Red for bob's Green completes alice's third set; the other way does not.
    state = position(
        """
        players: alice bob
        turn: alice
        plays: 3
        alice hand: forced_deal
        alice table: dark_blue: dark_blue dark_blue; brown: brown brown; green: green green; \
red: red
        bob table: red: red; green: green
        bob bank: 2M
        """
    )
    forced_deal = card_in(state, "alice", "hand", "forced_deal")
    give_red = card_in(state, "alice", "table", "red")
    take_green = card_in(state, "bob", "table", "green")
    give_green = card_in(state, "alice", "table", "green")
    take_red = card_in(state, "bob", "table", "red")
    wrong_way = Move.play(forced_deal, [1], cards=[give_green, take_red])

    verdict = judge(view_for(state, 0), wrong_way, random.Random(1), None, 8)

    # The win at once was given up (the two ways were one move to the analysis: no mark).
    assert verdict["best_chance"] == 1.0
    assert verdict["loss"] >= 10 and verdict["mark"] in ("mistake", "blunder")
    assert Move.from_json(verdict["best"]) == Move.play(
        forced_deal, [1], cards=[give_red, take_green]
    )


def test_it_does_not_mark_the_winning_move():
    state = light_blue_in_hand()
    lay = Move.lay(card_in(state, "alice", "hand", "light_blue"), "light_blue")
    verdict = judge(view_for(state, 0), lay, random.Random(3), None, 8)
    assert verdict["mark"] == "" and verdict["loss"] == 0
    assert verdict["best"] is None
    assert verdict["chances"] == [1.0, 0.0]


@pytest.mark.parametrize(
    "loss, mark", [(4.9, ""), (5, "inaccuracy"), (10, "mistake"), (25, "blunder")]
)
def test_it_marks_a_loss_at_5_10_and_20_points(loss, mark):
    assert mark_for(loss) == mark


def basic_game(count, enhanced, seed=11):
    state = new_game(count, seed, Options(enhanced=enhanced))
    moves = []
    while state.phase != "over" and len(moves) < 400:
        seat = awaiting(state)[0][0]
        move = basic_move(state, seat)
        apply(state, seat, move)
        moves.append((seat, move))
    return moves


@pytest.mark.parametrize("count, enhanced", [(2, False), (3, True), (5, False), (10, True)])
def test_it_analyses_games_of_2_to_10_players_in_both_editions(count, enhanced):
    moves = basic_game(count, enhanced)
    wanted = set(range(1, len(moves) + 1, 9))
    options = Options(enhanced=enhanced)
    found = analyse(list(range(count)), 11, options, moves, wanted, "code", seconds=None, deals=1)
    assert found and set(found) <= wanted
    for n, verdict in found.items():
        assert verdict["seat"] == moves[n - 1][0]
        assert len(verdict["chances"]) == count
        assert sum(verdict["chances"]) == pytest.approx(1, abs=0.01)


class TickingClock:
    """A clock for `analysis.time` that moves on by `tick` seconds each time it is read."""

    def __init__(self, tick):
        self.now, self.tick = 0.0, tick

    def perf_counter(self):
        self.now += self.tick
        return self.now


def test_it_keeps_within_the_time_given_for_the_game(monkeypatch):
    # The clock is counted, not the machine's: the verdicts do not depend on how busy it is.
    clock = TickingClock(0.01)
    monkeypatch.setattr(analysis, "time", clock)
    moves = basic_game(4, False)
    wanted = set(range(1, len(moves) + 1))
    begun = {}

    found = analyse(
        list(range(4)),
        11,
        None,
        moves,
        wanted,
        "code",
        seconds=1,
        total=0.5,
        on_verdict=lambda n, verdict: begun.setdefault(n, clock.now),
    )

    assert found
    assert max(verdict["deals"] for verdict in found.values()) <= 4
    # Once the game's time is spent, each decision samples the one deal it must.
    late = [n for n in found if begun[n] > 0.5 + 0.1]
    assert late and all(found[n]["deals"] == 1 for n in late)
    # Beyond that one deal each, the deals fit in the time given (a clock read a deal).
    extra = sum(verdict["deals"] - 1 for verdict in found.values())
    assert extra <= 0.5 / clock.tick
