"""Helpers shared by the scenario tests of the rules engine."""

import importlib.util
from pathlib import Path

import pytest

from games.rules import IllegalMove, apply
from games.rules.position import card_in


def assert_rejected(state, seat, move, words):
    """Assert that `move` is refused with a message holding `words`, changing nothing.

    `words` is one phrase or a list of phrases, matched case-insensitively.
    Return the message.
    """
    before = state.to_json()
    with pytest.raises(IllegalMove) as caught:
        apply(state, seat, move)
    message = str(caught.value)
    for word in [words] if isinstance(words, str) else words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    assert state.to_json() == before, "a rejected move changes nothing"
    return message


def seat_of(state, name):
    return state.seats.index(name)


def act(state, name, move):
    """Apply `move` for the player called `name`; return the events."""
    _state, events = apply(state, seat_of(state, name), move)
    return events


def kinds(state, cards):
    return [state.deck[c].id for c in cards]


def hand_of(state, name):
    return sorted(kinds(state, state.players[seat_of(state, name)].hand))


def bank_of(state, name):
    return sorted(kinds(state, state.players[seat_of(state, name)].bank))


def table_of(state, name):
    """Return a player's table in the text form of `position`: "red: red red/yellow +house; brown: brown"."""
    found = []
    for s in state.players[seat_of(state, name)].sets:
        words = kinds(state, s.cards)
        words += ["+house"] if s.house >= 0 else []
        words += ["+hotel"] if s.hotel >= 0 else []
        found.append(f"{s.colour}: {' '.join(words)}")
    return "; ".join(found)


def pick(state, name, *places):
    """Return distinct card ids named "hand:5M", "bank:2M", "table:red", "table:house" ...

    A kind named twice in one place gives two different cards.
    """
    picked = []
    for spec in places:
        place, _sep, kind_id = spec.partition(":")
        nth = sum(1 for p in places[: len(picked)] if p == spec)
        picked.append(card_in(state, name, place, kind_id, nth))
    return tuple(picked)


def table(state, seat):
    """The table of `seat` as a sorted list of (colour, sorted kind ids, buildings)."""
    found = []
    for s in state.players[seat].sets:
        buildings = [state.deck[b].id for b in (s.house, s.hotel) if b >= 0]
        found.append((s.colour, sorted(kinds(state, s.cards)), buildings))
    return sorted(found)


def bank(state, seat):
    return sorted(kinds(state, state.players[seat].bank))


def hand(state, seat):
    return sorted(kinds(state, state.players[seat].hand))


def load_script(name):
    """Import scripts/<name>.py of the repository as a module."""
    path = Path(__file__).resolve().parents[3] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
