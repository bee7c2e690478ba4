"""What one player (or a spectator) may see of a game: the only data that leaves the engine."""

from .cards import FULL_SET, rent_for
from .engine import awaiting, choices, legal_moves, outcome
from .table import complete_colours, sets_to_win


def card_json(state, card):
    kind = state.deck[card]
    return {"id": card, "kind": kind.id, "value": kind.value}


def view_for(state, seat=None):
    """Return the game as `seat` sees it; `seat` None is a spectator.

    Own hand in full, other hands as counts, the draw pile as a count;
    never the order of the draw pile, another hand, or the generator.
    """
    if seat is not None and not (type(seat) is int and 0 <= seat < len(state.seats)):
        raise ValueError("No such seat.")
    enhanced = state.options.enhanced
    players = []
    for i, player in enumerate(state.players):
        sets = []
        for s in player.sets:
            complete = len(s.cards) == FULL_SET[s.colour]
            sets.append(
                {
                    "colour": s.colour,
                    "cards": [card_json(state, c) for c in s.cards],
                    "house": card_json(state, s.house) if s.house >= 0 else None,
                    "hotel": card_json(state, s.hotel) if s.hotel >= 0 else None,
                    "complete": complete,
                    "size": FULL_SET[s.colour],
                    "rent": rent_for(s.colour, len(s.cards), s.house >= 0, s.hotel >= 0, enhanced),
                }
            )
        players.append(
            {
                "seat": i,
                "player": state.seats[i],
                "hand_count": len(player.hand),
                "bank": [card_json(state, c) for c in player.bank],
                "bank_total": sum(state.deck[c].value for c in player.bank),
                "sets": sets,
                "complete_colours": sorted(complete_colours(state, i)),
                "jailed": player.jailed,
                "resigned": i in state.resigned,
                # Public history: the hand size with which this seat's last turn ended
                # though plays were left (None if it used them all or held nothing).
                "held": state.held[i] if state.held[i] >= 0 else None,
            }
        )
    pending = None
    if state.pending is not None:
        p = state.pending
        pending = {
            "effect": p.effect,
            "actor": p.actor,
            "card": card_json(state, p.card),
            "colour": p.colour,
            "amount": p.amount,
            "cards": [card_json(state, c) for c in p.cards],
            "shares": [
                {
                    "origin": s.origin,
                    "debtor": s.debtor,
                    "just_say_nos": s.jsn,
                    "transferred_by": s.transferred_by if s.transferred_by >= 0 else None,
                    "awaiting": p.awaited(s),
                }
                for s in p.shares.values()
            ],
        }
    view = {
        "seat": seat,
        "options": state.options.to_json(),
        "sets_to_win": sets_to_win(state),
        "phase": state.phase,
        "current": state.current,
        "turn": state.turns,
        "round": state.round,
        "plays_left": state.plays_left,
        "draw_count": len(state.draw),
        "discard": [card_json(state, c) for c in state.discard],
        "players": players,
        "pending": pending,
        "awaiting": [
            {"seat": s, "decision": d, "share": sh if sh >= 0 else None}
            for s, d, sh in awaiting(state)
        ],
        "outcome": outcome(state),
        "hand": None,
        "moves": [],
        "choices": [],
    }
    if seat is not None:
        view["hand"] = [card_json(state, c) for c in state.players[seat].hand]
        view["moves"] = [m.to_json() for m in legal_moves(state, seat)]
        view["choices"] = [c.to_json() for c in choices(state, seat)]
    return view


def event_for(event, seat=None):
    """Return `event` as `seat` may see it: private details only for the players they concern."""
    if "secret" not in event:
        return event
    visible = dict(event)
    del visible["secret_to"]
    if seat is None or seat not in event["secret_to"]:
        del visible["secret"]
    return visible


def review_view(state):
    """Return the spectator's view of `state` with every hand revealed (`view["hands"]`, by seat).

    Only for the review of a game that has ended (docs/rules.md section 10: then
    everything is revealed), at any of its positions. The draw pile stays a
    count: its order is never part of a view.
    """
    view = view_for(state, None)
    view["hands"] = [[card_json(state, c) for c in player.hand] for player in state.players]
    return view
