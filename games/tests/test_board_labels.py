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
        yield f"hand {entry['card']['name']}", [c["label"] for c in entry["controls"]]
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
    return [control["label"] for control in entry["controls"]], table


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
    take = "for bob's Utility property"
    assert sorted(labels) == sorted(
        [
            "Bank it (3M)",
            f"Swap your {red} {take}",
            f"Swap your {wild} (red set) {take}",
            f"Swap your {wild} (yellow set) {take}",
            f"Swap your {yellow} {take}",
        ]
    )


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
