"""Every option of a table menu says which card, set or player it means: no two alike."""

import random
from collections import Counter

import pytest
from django.utils import translation

from games import rules
from games.rules.bots import play_random_game
from games.rules.position import card_in, position
from games.rules.state import Options
from games.table.cardnames import kind_name
from games.table.presenting import present

# The SQLite run only: engine states drawn as menus: no database.
pytestmark = pytest.mark.one_database


def menus(table):
    """Yield (menu name, [labels]) for every menu of a presented table."""
    for entry in table["hand"] or ():
        # A move chosen in two steps reads as its step and its button.
        yield f"hand {entry['card']['name']}", [shown(c) for c in entry["controls"]]
    for player in table["players"]:
        for s in player["sets"]:
            for item in s["cards"]:
                yield f"table {item['card']['name']}", [c["label"] for c in item["controls"]]
    prompt = table["prompt"] or {}
    for answer in prompt.get("answers", ()):
        yield "answer", [c["label"] for c in answer["controls"]]
        if answer["pay"]:
            # Cards of one kind in one place (two 5M in the bank) are the same to a payment.
            kinds = {
                (c["kind"], c["where"]): f"{c['name']} {c['where']}" for c in answer["pay"]["cards"]
            }
            yield "pay", list(kinds.values())


def shown(control):
    return f"{control['step']} / {control['label']}" if control["step"] else control["label"]


def duplicates(state):
    found = []
    for seat in range(len(state.seats)):
        view = rules.view_for(state, seat)
        table = present(view, {player: f"p{player}" for player in state.seats})
        for name, labels in menus(table):
            twice = [label for label, count in Counter(labels).items() if count > 1]
            if twice:
                found.append((name, twice))
    return found


@pytest.mark.parametrize(
    "players, options, seed",
    [
        (2, Options(), 1),
        (3, Options(enhanced=True), 2),
        (4, Options(), 3),
        (5, Options(enhanced=True), 4),
        (7, Options(), 5),
    ],
)
def test_it_labels_the_options_of_every_menu_apart(players, options, seed):
    rng = random.Random(seed)
    found = []
    for game in range(3):
        state = rules.new_game(players, seed=seed * 100 + game, options=options)

        def check(state, seat, move, events):
            if not found:
                found.extend(duplicates(state))

        with translation.override("en"):
            play_random_game(state, rng, check)
    assert found == []


def labels_of(text, kind_id, place="hand", seat="alice"):
    state = position(text)
    view = rules.view_for(state, 0)
    with translation.override("en"):
        table = present(view, {player: player for player in state.seats})
    card = card_in(state, seat, place, kind_id)
    entries = (
        table["hand"]
        if place == "hand"
        else [item for s in table["players"][0]["sets"] for item in s["cards"]]
    )
    [entry] = [e for e in entries if e["card"]["id"] == card]
    return [shown(control) for control in entry["controls"]], table


def test_it_names_the_wild_and_the_set_a_forced_deal_gives():
    labels, _table = labels_of(
        """
        players: alice bob
        turn: alice
        alice hand: forced_deal
        alice table: red: red red/yellow; yellow: red/yellow yellow
        bob table: utility: utility
        """,
        "forced_deal",
    )

    with translation.override("en"):
        wild, red, yellow = (kind_name(k) for k in ("red/yellow", "red", "yellow"))
    take = "Take bob's Utility property"
    assert labels == [
        "Bank it (3M)",
        f"{take} / Give your {red} for it",
        f"{take} / Give your {wild} (red set) for it",
        f"{take} / Give your {wild} (yellow set) for it",
        f"{take} / Give your {yellow} for it",
    ]


def test_it_offers_a_forced_deal_in_two_steps_what_to_take_then_what_to_give():
    text = """
    players: alice bob carol
    turn: alice
    alice hand: forced_deal
    alice table: railroad: railroad; utility: utility
    bob table: red: red red; green: green
    carol table: orange: orange
    """
    labels, table = labels_of(text, "forced_deal")

    # One step per card to take (the two Red properties of one set are one), each with
    # every card to give: 3 steps of 2, where a flat menu listed 6 swaps.
    assert labels == [
        "Bank it (3M)",
        "Take bob's Red property / Give your Railroad property for it",
        "Take bob's Red property / Give your Utility property for it",
        "Take bob's Green property / Give your Railroad property for it",
        "Take bob's Green property / Give your Utility property for it",
        "Take carol's Orange property / Give your Railroad property for it",
        "Take carol's Orange property / Give your Utility property for it",
    ]
    # Each button posts the swap it says: the card given first, then the card taken.
    state = position(text)
    [entry] = [e for e in table["hand"] if e["card"]["kind"] == "forced_deal"]
    last = dict(entry["controls"][-1]["fields"])
    assert entry["controls"][-1]["fields"][-2:] == [
        ("cards", card_in(state, "alice", "table", "utility")),
        ("cards", card_in(state, "carol", "table", "orange")),
    ]
    assert last["targets"] == 2


def test_it_offers_a_double_sly_deals_pair_under_each_of_its_cards():
    labels, _table = labels_of(
        """
        players: alice bob
        turn: alice
        options: enhanced
        alice hand: double_sly_deal
        bob table: red: red red; green: green
        """,
        "double_sly_deal",
    )

    assert labels == [
        "Bank it (4M)",
        "Take bob's Red property / Also take Red property",
        "Take bob's Red property / Also take Green property",
        "Take bob's Green property / Also take Red property",
    ]


def test_it_numbers_the_sets_of_one_colour_to_build_on_and_to_break():
    text = """
    players: alice bob
    turn: alice
    options: enhanced
    alice hand: house deal_breaker
    alice table: brown: brown brown; brown: any any
    bob table: green: green green green; green: green/railroad dark_blue/green dark_blue/green
    """
    build, table = labels_of(text, "house")
    take, _table = labels_of(text, "deal_breaker")

    assert [s["number"] for s in table["players"][0]["sets"]] == [1, 2]
    assert [s["number"] for s in table["players"][1]["sets"]] == [1, 2]
    assert "Build on your brown set 1" in build and "Build on your brown set 2" in build
    assert "Take bob's complete green set 1" in take and "Take bob's complete green set 2" in take
