"""A whole game state guessed from what one player sees: the input of the computer players.

A view (observe.view_for) shows the player's own hand, every table, bank and
the discard pile, and only counts of the other hands and of the draw pile.
`determinize` deals the cards the player cannot see at random into those
hands and that pile, so the result is one of the states the player could be
in. The player's own legal moves in it are exactly those of the real game:
they depend only on public cards and the player's own hand.
"""

from .cards import build_deck, decks_for
from .state import RESPOND, GameState, Options, Pending, Player, PropertySet, Rng, Share


def determinize(view, rng):
    """Return a GameState agreeing with `view`, the unseen cards shuffled by `rng` (random.Random).

    The game's own generator is replaced by one seeded from `rng`: what the
    view does not show (the seed, the draw order, other hands) stays unknown.
    """
    seat = view["seat"]
    if seat is None:
        raise ValueError("A spectator's view has no hand to play from.")
    options = Options.from_json(view["options"])
    seats = [p["player"] for p in view["players"]]
    state = GameState(options, seats, Rng(rng.getrandbits(64)))
    seen = set()
    players = []
    for data in view["players"]:
        bank = [c["id"] for c in data["bank"]]
        sets = []
        for s in data["sets"]:
            cards = [c["id"] for c in s["cards"]]
            house = s["house"]["id"] if s["house"] else -1
            hotel = s["hotel"]["id"] if s["hotel"] else -1
            sets.append(PropertySet(s["colour"], cards, house, hotel))
            seen.update(cards)
            seen.update(b for b in (house, hotel) if b >= 0)
        seen.update(bank)
        players.append(Player([], bank, sets, data["jailed"]))
    hand = [c["id"] for c in view["hand"]]
    players[seat].hand = hand
    seen.update(hand)
    discard = [c["id"] for c in view["discard"]]
    seen.update(discard)
    size = len(build_deck(decks_for(len(seats)), options.enhanced))
    unseen = [c for c in range(size) if c not in seen]
    rng.shuffle(unseen)
    for other, data in enumerate(view["players"]):
        if other != seat:
            count = data["hand_count"]
            players[other].hand = unseen[:count]
            del unseen[:count]
    if len(unseen) != view["draw_count"]:
        raise ValueError("The view's card counts do not add up.")
    state.players = players
    state.held = [-1 if p.get("held") is None else p["held"] for p in view["players"]]
    state.draw = unseen
    state.discard = discard
    state.current = view["current"]
    state.plays_left = view["plays_left"]
    state.phase = view["phase"]
    state.turns = view["turn"]
    # Not in a view: how many quiet turns went by. Assume cards moved this turn.
    state.quiet = 0
    state.active = True
    outcome = view["outcome"]
    if outcome is not None:
        state.winner = outcome["winner"] if outcome["winner"] is not None else -1
        state.end_reason = outcome["reason"]
    pending = view["pending"]
    if pending is not None and state.phase == RESPOND:
        shares = {}
        for share in pending["shares"]:
            transferred_by = share["transferred_by"]
            shares[share["origin"]] = Share(
                share["origin"],
                share["debtor"],
                share["just_say_nos"],
                transferred_by if transferred_by is not None else -1,
            )
        state.pending = Pending(
            pending["effect"],
            pending["actor"],
            pending["card"]["id"],
            pending["colour"],
            pending["amount"],
            tuple(c["id"] for c in pending["cards"]),
            shares,
        )
    return state
