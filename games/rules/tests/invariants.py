"""Invariants every reachable state keeps, checked after every move of the random playouts."""

import json
import re

from games.rules import GameState, view_for
from games.rules.cards import FULL_SET, UNBUILDABLE
from games.rules.state import OVER, RESPOND


def card_places(state):
    """Return every card id in the state with the place it is in."""
    places = [(c, "draw") for c in state.draw] + [(c, "discard") for c in state.discard]
    for seat, player in enumerate(state.players):
        places += [(c, f"hand{seat}") for c in player.hand]
        places += [(c, f"bank{seat}") for c in player.bank]
        for s in player.sets:
            places += [(c, f"table{seat}") for c in s.cards]
            places += [(b, f"table{seat}") for b in (s.house, s.hotel) if b >= 0]
    return places


class DeckFacts:
    """What check_invariants asks of each card of one deck, worked out once per deck.

    A playout checks the table after every move (a thousand games are some
    120,000 checks): asking each card's kind again each time was half their cost.
    """

    def __init__(self, deck):
        self.deck = deck
        self.ids = frozenset(range(len(deck)))
        self.properties = frozenset(i for i, kind in enumerate(deck) if kind.is_property)
        # The cards that may lie in a set of each colour.
        self.fits = {
            colour: frozenset(i for i in self.properties if colour in deck[i].colours)
            for colour in FULL_SET
        }
        self.houses = frozenset(i for i, kind in enumerate(deck) if kind.effect == "house")
        self.hotels = frozenset(i for i, kind in enumerate(deck) if kind.effect == "hotel")


_FACTS = {}


def deck_facts(deck):
    """Return the DeckFacts of `deck` (decks are built once each: cards.build_deck)."""
    facts = _FACTS.get(id(deck))
    if facts is None or facts.deck is not deck:
        facts = _FACTS[id(deck)] = DeckFacts(deck)
    return facts


def check_invariants(state):
    deck = state.deck
    facts = deck_facts(deck)
    seen = state.draw + state.discard
    for player in state.players:
        seen += player.hand
        seen += player.bank
        for s in player.sets:
            seen += s.cards
            if s.house >= 0:
                seen.append(s.house)
            if s.hotel >= 0:
                seen.append(s.hotel)
    # As many places as cards, and every card in one: each card is in exactly one place.
    assert len(seen) == len(deck) and facts.ids.issubset(seen), "every card is in exactly one place"
    for player in state.players:
        assert facts.properties.isdisjoint(player.bank), "no property in a bank"
        incomplete = set()
        for s in player.sets:
            full = FULL_SET[s.colour]
            assert s.cards, "no empty set"
            assert len(s.cards) <= full, "no set above its size"
            assert facts.fits[s.colour].issuperset(s.cards), "a set holds properties of its colour"
            if len(s.cards) < full:
                assert s.colour not in incomplete, "at most one incomplete set per colour"
                incomplete.add(s.colour)
                assert s.house < 0 and s.hotel < 0, "buildings only on complete sets"
            if s.house >= 0:
                assert s.house in facts.houses, "a house is a house card"
                assert s.colour not in UNBUILDABLE, "no house on a railroad or utility"
            if s.hotel >= 0:
                assert s.hotel in facts.hotels and s.house >= 0, "a hotel stands on a house"
    if state.phase == RESPOND:
        assert state.pending is not None and state.pending.shares
    if state.phase == OVER:
        assert state.pending is None
    assert 0 <= state.plays_left <= 3, "at most three plays a turn"


def check_round_trip(state):
    data = state.to_json()
    text = json.dumps(data)
    again = GameState.from_json(json.loads(text))
    assert again.to_json() == data
    return len(text)


CARD_ID = re.compile(r'"id": (\d+)')


def visible_card_ids(view):
    """Return the ids of every card shown in a view (cards are the dicts with an "id")."""
    return {int(found) for found in CARD_ID.findall(json.dumps(view))}


def check_views(state):
    """No view shows another player's hand cards or anything of the draw pile."""
    draw = set(state.draw)
    for seat in [None, *range(len(state.seats))]:
        view = view_for(state, seat)
        hidden = set(draw)
        for other, player in enumerate(state.players):
            if other != seat:
                hidden.update(player.hand)
        shown = visible_card_ids(view)
        assert not shown & hidden, f"seat {seat} sees hidden cards {shown & hidden}"
        named = set()
        for move in view["moves"]:
            named.update(move.get("cards", []))
            if "card" in move:
                named.add(move["card"])
        for choice in view["choices"]:
            named.update(choice["eligible"])
        assert not named & hidden, f"seat {seat}'s moves name hidden cards"
        assert "draw" not in view and "rng" not in view
        if seat is None:
            assert view["hand"] is None
        else:
            assert [c["id"] for c in view["hand"]] == state.players[seat].hand
