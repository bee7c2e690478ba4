"""The table and the piles: sets, buildings, drawing, winning."""

from .cards import (
    FULL_SET,
    HOUSE,
    UNBUILDABLE,
)
from .state import (
    OVER,
    WIN,
    PropertySet,
)

# --- the table -----------------------------------------------------------------------------


def add_property(player, card, colour):
    """Join the owner's incomplete set of `colour`, or start a new set."""
    full = FULL_SET[colour]
    for s in player.sets:
        if s.colour == colour and len(s.cards) < full:
            s.cards.append(card)
            return
    player.sets.append(PropertySet(colour, [card]))


def tidy_sets(state, seat, colours, events):
    """Restore the table's invariants after cards left sets of `colours`.

    Ruling: a set that stops being complete sends its buildings to its owner's
    bank; empty sets vanish; two incomplete sets of one colour merge.
    """
    player = state.players[seat]
    for colour in colours:
        full = FULL_SET[colour]
        incomplete = []
        for s in list(player.sets):
            if s.colour != colour or len(s.cards) >= full:
                continue
            buildings = [b for b in (s.hotel, s.house) if b >= 0]
            if buildings:
                s.house = s.hotel = -1
                player.bank.extend(buildings)
                events.append(
                    {
                        "type": "buildings_to_bank",
                        "seat": seat,
                        "cards": buildings,
                        "colour": colour,
                    }
                )
            if not s.cards:
                player.sets.remove(s)
            else:
                incomplete.append(s)
        if len(incomplete) > 1:
            pool = [card for s in incomplete for card in s.cards]
            for s in incomplete[1:]:
                player.sets.remove(s)
            incomplete[0].cards = pool[:full]
            if len(pool) > full:
                player.sets.append(PropertySet(colour, pool[full:]))


def set_of(player, card):
    for s in player.sets:
        if card in s.cards:
            return s
    return None


def table_card_owner(state, card):
    for seat, player in enumerate(state.players):
        found = set_of(player, card)
        if found is not None:
            return seat, found
    return -1, None


def loose_properties(state, seat):
    """Return the properties of `seat` not part of a complete set."""
    return [
        c for s in state.players[seat].sets if len(s.cards) < FULL_SET[s.colour] for c in s.cards
    ]


def can_build(s, effect):
    if len(s.cards) != FULL_SET[s.colour] or s.colour in UNBUILDABLE:
        return False
    if effect == HOUSE:
        return s.house < 0
    return s.house >= 0 and s.hotel < 0


def holds(state, seat, effect):
    return first_held(state, seat, effect) >= 0


def first_held(state, seat, effect):
    deck = state.deck
    for card in state.players[seat].hand:
        if deck[card].effect == effect:
            return card
    return -1


def others_in_order(state, seat):
    n = len(state.seats)
    return tuple((seat + i) % n for i in range(1, n))


def complete_colours(state, seat):
    """Return the colours in which `seat` holds a complete set that counts towards winning."""
    built = state.options.built_sets
    return {
        s.colour
        for s in state.players[seat].sets
        if len(s.cards) == FULL_SET[s.colour] and (not built or s.house >= 0)
    }


def sets_to_win(state):
    return 4 if state.options.enhanced else 3


def check_win(state, seats, events):
    """End the game if one of `seats` holds the sets that win; a resigned seat never wins
    (docs/rules.md section 7, Ruling (resign): its result is a loss)."""
    need = sets_to_win(state)
    for seat in seats:
        if seat in state.resigned:
            continue
        if len(complete_colours(state, seat)) >= need:
            end_game(state, seat, WIN, events)
            return True
    return False


def end_game(state, winner, reason, events):
    state.phase = OVER
    state.pending = None
    state.winner = winner
    state.end_reason = reason
    events.append({"type": "game_over", "winner": winner, "reason": reason})


# --- turns ---------------------------------------------------------------------------------


def draw_cards(state, seat, count, events):
    hand = state.players[seat].hand
    drawn = []
    for _i in range(count):
        if not state.draw:
            if not state.discard:
                break  # both piles are empty: draw what there is
            state.draw = state.discard
            state.discard = []
            state.rng.shuffle(state.draw)
            events.append({"type": "reshuffle", "count": len(state.draw)})
        drawn.append(state.draw.pop())
    hand.extend(drawn)
    if drawn:
        state.active = True
    events.append(
        {
            "type": "draw",
            "seat": seat,
            "count": len(drawn),
            "secret": {"cards": drawn},
            "secret_to": [seat],
        }
    )
