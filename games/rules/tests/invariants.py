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


def check_invariants(state):
    deck = state.deck
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
    assert len(seen) == len(deck) == len(set(seen)), "every card is in exactly one place"
    assert min(seen) == 0 and max(seen) == len(deck) - 1
    for player in state.players:
        for card in player.bank:
            assert not deck[card].is_property, "no property in a bank"
        for card in player.hand:
            assert 0 <= card < len(deck)
        incomplete = {}
        for s in player.sets:
            full = FULL_SET[s.colour]
            assert s.cards, "no empty set"
            assert len(s.cards) <= full, "no set above its size"
            for card in s.cards:
                assert deck[card].is_property and s.colour in deck[card].colours
            if len(s.cards) < full:
                assert s.colour not in incomplete, "at most one incomplete set per colour"
                incomplete[s.colour] = s
                assert s.house < 0 and s.hotel < 0, "buildings only on complete sets"
            if s.house >= 0:
                assert deck[s.house].effect == "house" and s.colour not in UNBUILDABLE
            if s.hotel >= 0:
                assert deck[s.hotel].effect == "hotel" and s.house >= 0
    if state.phase == RESPOND:
        assert state.pending is not None and state.pending.shares
    if state.phase == OVER:
        assert state.pending is None
    assert 0 <= state.plays_left <= 3


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
