"""The last moves in words: built from the move log and public card data only."""

import copy
import html
import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import rules
from games.models import Move
from games.rules.bots import random_move
from games.rules.cards import build_deck
from games.rules.position import card_in, position
from games.table.log import _Teller, dealt_state, full_log, move_log
from games.tests.helpers import set_position
from games.tests.review_helpers import started_game
from games.tests.test_move_queries import play_random

DECK = build_deck(1, True)
BASE_DECK = build_deck(1, False)
NAMES = ["alice", "bob", "dave"]


def card(kind_id, nth=0, deck=DECK):
    return [i for i, kind in enumerate(deck) if kind.id == kind_id][nth]


def tell(*moves):
    """Tell (seat, move) pairs in order; return the sentences."""
    teller = _Teller(NAMES, DECK)
    with translation.override("en"):
        return [teller.tell(seat, move) for seat, move in moves]


def test_it_tells_turn_moves():
    assert tell(
        (0, {"kind": "bank", "card": card("pass_go")}),
        (0, {"kind": "lay", "card": card("red"), "colour": "red"}),
        (0, {"kind": "move_wild", "card": card("any"), "colour": "green"}),
        (0, {"kind": "play", "card": card("pass_go", 1)}),
        (0, {"kind": "play", "card": card("house"), "cards": [card("green")]}),
        (0, {"kind": "end"}),
    ) == [
        "alice banked Pass Go as 1M",
        "alice laid Red property",
        "alice moved Multicolour wild to green",
        "alice played Pass Go and drew 2 cards",
        "alice built a House on green",
        "alice ended the turn",
    ]


def test_it_tells_rent_and_payments():
    rent = card("rent:red/yellow")
    doubles = [card("double_rent"), card("double_rent", 1)]
    assert tell(
        (0, {"kind": "play", "card": rent, "colour": "red", "cards": doubles}),
        (1, {"kind": "accept", "share": 1, "cards": [card("10M")]}),
        (2, {"kind": "transfer", "share": 2, "targets": [1]}),
        (1, {"kind": "accept", "share": 2}),
    ) == [
        "alice charged everyone red rent (doubled 2 times)",
        "bob paid alice 10M (10M)",
        "dave used Rent Transfer: bob pays instead",
        "bob had nothing to pay alice",
    ]


def test_it_tells_taking_actions_and_their_answers():
    assert tell(
        (0, {"kind": "play", "card": card("sly_deal"), "targets": [1], "cards": [card("red")]}),
        (1, {"kind": "accept", "share": 1}),
        (
            0,
            {
                "kind": "play",
                "card": card("forced_deal"),
                "targets": [1],
                "cards": [card("brown"), card("green")],
            },
        ),
        (1, {"kind": "just_say_no", "share": 1}),
        (0, {"kind": "just_say_no", "share": 1}),
        (1, {"kind": "accept", "share": 1}),
        (
            0,
            {
                "kind": "play",
                "card": card("deal_breaker"),
                "targets": [1],
                "cards": [card("dark_blue")],
            },
        ),
        (1, {"kind": "just_say_no", "share": 1}),
        (0, {"kind": "accept", "share": 1}),
    ) == [
        "alice played Sly Deal on bob for Red property",
        "alice took Red property from bob",
        "alice played Forced Deal on bob: Brown property for Green property",
        "bob said Just Say No",
        "alice said Just Say No",
        "alice swapped Brown property for bob's Green property",
        "alice played Deal Breaker on bob for a dark blue set",
        "bob said Just Say No",
        "alice accepted the Just Say No",
    ]


def test_it_tells_enhanced_actions_without_secrets():
    sentences = tell(
        (0, {"kind": "play", "card": card("heir"), "targets": [1]}),
        (1, {"kind": "accept", "share": 1}),
        (0, {"kind": "play", "card": card("speeding"), "targets": [1, 2]}),
        (1, {"kind": "accept", "share": 1, "cards": [card("5M")]}),
        (2, {"kind": "accept", "share": 2}),
        (0, {"kind": "play", "card": card("jail"), "targets": [2]}),
        (2, {"kind": "accept", "share": 2}),
        (0, {"kind": "discard", "cards": [card("4M"), card("3M")]}),
    )

    assert sentences == [
        "alice played Heir on bob",
        "alice took a random card from bob's hand",
        "alice played Speeding on bob, dave",
        "bob discarded 5M",
        "dave had no card to discard",
        "alice played Jail on dave",
        "dave went to jail",
        "alice put 2 cards on the bottom of the draw pile",
    ]


@pytest.mark.django_db
def test_it_finds_the_action_an_answer_answers_before_the_window(table_game):
    table_game.moves.all().delete()
    rent = card("rent:red/yellow", deck=BASE_DECK)
    moves = [(0, {"kind": "play", "card": rent, "colour": "red"})]
    moves += [(1, {"kind": "just_say_no", "share": 1}), (0, {"kind": "just_say_no", "share": 1})]
    moves += [(1, {"kind": "accept", "share": 1, "cards": [card("2M", deck=BASE_DECK)]})]
    for n, (seat, move) in enumerate(moves, start=1):
        Move.objects.create(
            game=table_game, n=n, seat=seat, move=move, cause="timeout" if n == 4 else ""
        )

    with translation.override("en"):
        lines = move_log(table_game, NAMES, BASE_DECK, length=1)

    [line] = lines
    assert (line["n"], line["seat"], line["cause"]) == (4, 1, "timeout")
    assert line["text"] == "bob paid alice 2M (2M) (out of time)"


def test_it_does_not_break_on_a_move_it_cannot_read():
    assert tell((0, {"kind": "bank", "card": 9999}), (1, {"kind": "warp"})) == [
        "alice made a move",
        "bob made a move",
    ]


@pytest.mark.django_db
def test_it_numbers_the_table_s_last_moves_as_the_review_does(client, alice, bob):

    game = started_game([alice, bob], seed=5)
    play_random(game, 10, random.Random(5))
    # Taking a seat back makes a new version without a move: move numbers skip one.
    seat = game.seats.get(position=1)
    seat.absent = True
    seat.save()
    game.come_back(bob)
    play_random(game, 25, random.Random(6))
    rows = list(game.moves.order_by("n"))
    assert rows[-1].n > len(rows)  # the numbers `n` no longer count the moves
    client.force_login(alice)

    with translation.override("en"):
        page = client.get(reverse("games:table", args=[game.code])).content.decode()
        every = full_log(rows, ["alice", "bob"], game.state().deck, dealt_state(game))

    log = page[page.index('id="log"') :]
    shown = [
        (int(v), html.unescape(t)) for v, t in re.findall(r'<li value="(\d+)">(.*?)</li>', log)
    ]
    assert [number for number, _text in shown] == list(range(len(rows), len(rows) - 15, -1))
    # The review numbers its moves 1, 2, ... in the order of the log (games/history/review.py).
    assert all(text == every[number - 1]["text"] for number, text in shown)


RENT_POSITION = """
players: alice bob dave
turn: alice
plays: 3
alice hand: rent:red/yellow rent:any double_rent double_rent
alice table: yellow: yellow yellow; red: red; green: green green green +house +hotel
bob bank: 10M
dave bank: 5M
"""


def tell_rent(text, colour, doubles=0, target=None):
    """Tell alice's rent of `colour` in the position `text`, with the engine state known."""
    state = position(text)
    rent = card_in(state, "alice", "hand", "rent:any" if target else "rent:red/yellow")
    move = {"kind": "play", "card": rent, "colour": colour}
    move["cards"] = [card_in(state, "alice", "hand", "double_rent", i) for i in range(doubles)]
    if target is not None:
        move["targets"] = [target]
    teller = _Teller(NAMES, state.deck, state)
    with translation.override("en"):
        return teller.tell(0, move), state.pending.amount


@pytest.mark.parametrize(
    "colour, doubles, target, text",
    [
        ("yellow", 0, None, "alice charged everyone 4M yellow rent"),
        ("red", 0, None, "alice charged everyone 2M red rent"),
        ("yellow", 1, None, "alice charged everyone 8M yellow rent (doubled)"),
        ("yellow", 2, None, "alice charged everyone 16M yellow rent (doubled 2 times)"),
        ("red", 0, 1, "alice charged bob 2M red rent"),
        ("green", 1, 2, "alice charged dave 28M green rent (doubled)"),
    ],
)
def test_it_tells_the_amount_each_payer_owes_for_rent(colour, doubles, target, text):
    told, owed = tell_rent(RENT_POSITION, colour, doubles, target)

    assert told == text
    assert f" {owed}M " in told


def test_it_tells_the_enhanced_edition_s_rent_with_its_buildings():
    # Enhanced edition: a House adds 4 and a Hotel 5 (docs/rules.md section 8).
    text = "options: enhanced\n" + RENT_POSITION.replace("rent:red/yellow", "rent:dark_blue/green")
    state = position(text)
    rent = card_in(state, "alice", "hand", "rent:dark_blue/green")
    teller = _Teller(NAMES, state.deck, state)

    with translation.override("en"):
        told = teller.tell(0, {"kind": "play", "card": rent, "colour": "green"})

    assert told == "alice charged everyone 16M green rent"


def test_it_tells_the_amount_in_chinese():
    state = position(RENT_POSITION)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    teller = _Teller(NAMES, state.deck, state)

    with translation.override("zh-hans"):
        told = teller.tell(0, {"kind": "play", "card": rent, "colour": "yellow"})

    assert told == "alice 向所有人收取黄色租金 4M"


def test_it_leaves_the_amount_out_when_the_log_does_not_fit_the_state():
    state = position(RENT_POSITION)
    teller = _Teller(NAMES, state.deck, state)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")

    with translation.override("en"):
        # bob cannot move in alice's turn: the state is dropped, the sentence stays whole.
        assert teller.tell(1, {"kind": "end"}) == "bob ended the turn"
        assert teller.tell(0, {"kind": "play", "card": rent, "colour": "yellow"}) == (
            "alice charged everyone yellow rent"
        )


def play_until_rent(game, rng, render):
    """Play random moves through Game.play until a rent is charged and answered.

    Return the amount it charged; `render` is called after every move.
    """
    amount = None
    while True:
        state = game.state()
        if amount is not None and state.pending is None:
            return amount
        awaiting = rules.awaiting(state)
        assert awaiting, "the game ended before anyone charged a rent"
        seat = rng.choice(awaiting)[0]
        move = random_move(state, seat, rng)
        _after, events = rules.apply(copy.deepcopy(state), seat, move)
        game.play(seat, move)
        render()
        charged = [e for e in events if e["type"] == "play" and e["effect"] == "rent"]
        if charged and amount is None:
            amount = charged[0]["amount"]


@pytest.mark.django_db
@pytest.mark.parametrize("drawn_every_move", [True, False], ids=["drawn", "cold"])
def test_it_tells_the_rent_of_a_real_game_on_the_table_and_the_whole_log(
    client, alice, bob, drawn_every_move, monkeypatch
):
    # A fixed deal: the random moves below charge a rent before the game ends.
    game = started_game([alice, bob], seed=2026)
    client.force_login(alice)
    table = reverse("games:table", args=[game.code])

    def render():
        if drawn_every_move:
            with translation.override("en"):
                client.get(table)

    with monkeypatch.context() as patch:
        # The rent's amount is kept with its move: drawn at every version or cold, no
        # table replays the log to tell it (a long game's would cost seconds).
        patch.setattr(rules, "new_game", lambda *args: pytest.fail("replayed"))
        amount = play_until_rent(game, random.Random(8), render)
        with translation.override("en"):
            page = html.unescape(client.get(table).content.decode())
    with translation.override("en"):
        whole = html.unescape(client.get(reverse("games:log", args=[game.code])).content.decode())

    sentence = re.search(r"(alice|bob) charged (everyone|alice|bob) (\d+)M \w[\w ]* rent", page)
    assert sentence and int(sentence.group(3)) == amount, page[page.index('id="log"') :]
    assert sentence.group(0) in whole
    deck = game.state().deck
    rents = [
        m
        for m in game.moves.all()
        if m.move["kind"] == "play" and deck[m.move["card"]].effect == "rent"
    ]
    assert rents[0].details == {"amount": amount}


@pytest.mark.django_db
def test_it_tells_the_amount_of_the_rent_waiting_for_answers(client, alice, table_game):
    state = set_position(
        table_game,
        """
        players: alice bob
        turn: alice
        alice hand: rent:red/yellow
        alice table: yellow: yellow yellow
        bob bank: 10M 5M
        """,
    )
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    table_game.play(0, {"kind": "play", "card": rent, "colour": "yellow"})
    client.force_login(alice)

    with translation.override("en"):
        page = client.get(reverse("games:table", args=[table_game.code])).content.decode()

    # A position set by hand is not its log's, yet the rent waiting now knows its amount.
    assert "alice charged everyone 4M yellow rent" in page


@pytest.mark.django_db
def test_it_tells_a_new_rent_on_from_the_last_version_with_the_amount_waited_for(
    alice, table_game, monkeypatch
):
    from games.table import log
    from games.table.presenting import view_deck

    state = set_position(
        table_game,
        """
        players: alice bob
        turn: alice
        alice hand: rent:red/yellow 1M
        alice table: yellow: yellow yellow
        bob bank: 10M 5M
        """,
    )
    names = ["alice", "bob"]
    deck = view_deck(rules.view_for(state, None))
    table_game.play(0, {"kind": "bank", "card": card_in(state, "alice", "hand", "1M")})
    with translation.override("en"):
        log.recent_moves(table_game, names, deck)  # the table drawn before the rent
        table_game.play(
            0,
            {
                "kind": "play",
                "card": card_in(state, "alice", "hand", "rent:red/yellow"),
                "colour": "yellow",
            },
        )
        monkeypatch.setattr(log, "_told", lambda *a: pytest.fail("the whole log told again"))
        lines = log.recent_moves(table_game, names, deck)

    assert lines[-1]["text"] == "alice charged everyone 4M yellow rent"


def test_it_tells_only_the_new_moves_of_each_version_and_the_same_as_the_whole_log(
    alice, bob, charlie, monkeypatch
):
    from games.table import log
    from games.table.presenting import view_deck

    continued = []
    real = log._continued

    def counting(*args):
        found = real(*args)
        continued.append(found is not None)
        return found

    monkeypatch.setattr(log, "_continued", counting)
    game = started_game([alice, bob, charlie], seed=11)
    rng = random.Random(11)
    names = ["alice", "bob", "charlie"]
    deck = view_deck(rules.view_for(game.state(), None))
    with translation.override("en"):
        while game.status == game.Status.ACTIVE and game.moves.count() < 160:
            state = game.state()
            seat = rng.choice(rules.awaiting(state))[0]
            game.play(seat, random_move(state, seat, rng))
            assert log.recent_moves(game, names, deck) == move_log(game, names, deck)

    assert sum(continued) > len(continued) / 2  # most versions told only their new moves


def test_it_names_both_colours_of_a_wild_moved_when_it_knows_the_position():
    state = position("alice hand: 1M\nalice table: red: red/yellow red")
    wild = card_in(state, "alice", "table", "red/yellow")
    teller = _Teller(["alice", "bob"], state.deck, state)
    with translation.override("en"):
        line = teller.tell(0, {"kind": "move_wild", "card": wild, "colour": "yellow"})
    assert line == "alice moved Wild red/yellow from red to yellow"


@pytest.mark.django_db
def test_the_tables_last_moves_name_both_colours_of_a_wild_moved(table_game, alice):
    from games.table.board import table_context

    state = set_position(
        table_game,
        "players: alice bob\nturn: alice\nplays: 3\nalice hand: 1M 2M\n"
        "alice table: red: red/yellow red",
    )
    table_game.play(0, rules.Move.bank(card_in(state, "alice", "hand", "1M")))
    with translation.override("en"):
        table_context(table_game, alice)  # the table as drawn after the first move
        wild = card_in(state, "alice", "table", "red/yellow")
        table_game.play(0, rules.Move.move_wild(wild, "yellow"))
        texts = [line["text"] for line in table_context(table_game, alice)["table"]["log"]]
    assert texts[-1] == "alice moved Wild red/yellow from red to yellow"
    with translation.override("zh-hans"):
        texts = [line["text"] for line in table_context(table_game, alice)["table"]["log"]]
    assert "从" in texts[-1]
