"""A readable text form of a position, for tests: what FEN is to chess.

    players: alice bob
    turn: alice
    plays: 3
    alice hand: sly_deal 5M red
    alice bank: 1M 2M
    alice table: red: red red/yellow +house; brown: brown
    bob hand: just_say_no
    draw: pass_go 1M
    discard: 2M
    rest: draw

Cards are named by kind id (cards.CARD_KINDS): "5M", "red", "red/yellow" (a
two-colour wild), "any" (multicolour wild), "sly_deal", "rent:red/yellow",
"rent:any". A table is sets separated by ";", each "colour: cards", with
"+house" and "+hotel" for buildings; a wild stands for its set's colour.
"draw" lists the top of the draw pile first. Every card not named goes to
the place "rest" names: "draw" (below the named draw cards, the default),
"discard", or "NAME bank". Other lines: "options: enhanced built_sets
wild_moves_cost_a_play", "jailed: NAME", "seed: N".
"""

from .cards import KIND_BY_ID
from .state import PLAY, GameState, Options, PropertySet, Rng


def position(text):
    """Build a GameState from the text form."""
    lines = [line.split("#")[0].strip() for line in text.strip().splitlines()]
    fields = {}
    for line in lines:
        if line:
            key, _sep, value = line.partition(":")
            fields.setdefault(key.strip(), []).append(value.strip())
    names = fields.get("players", ["alice bob"])[0].split()
    option_words = fields.get("options", [""])[0].split()
    options = Options(**{word: True for word in option_words})
    seed = int(fields.get("seed", ["0"])[0])
    state = GameState(options, names, Rng(seed))
    unused = {}
    for card, kind in enumerate(state.deck):
        unused.setdefault(kind.id, []).append(card)

    def take(kind_id):
        if kind_id not in KIND_BY_ID:
            raise ValueError(f"Unknown card kind {kind_id!r}")
        if not unused.get(kind_id):
            raise ValueError(f"No {kind_id!r} left in the deck")
        return unused[kind_id].pop(0)

    def seat_of(name):
        return names.index(name)

    for key, values in fields.items():
        words = key.split()
        if len(words) != 2 or words[0] not in names:
            continue
        player = state.players[seat_of(words[0])]
        for value in values:
            if words[1] == "hand":
                player.hand.extend(take(k) for k in value.split())
            elif words[1] == "bank":
                player.bank.extend(take(k) for k in value.split())
            elif words[1] == "table":
                for chunk in value.split(";"):
                    if chunk.strip():
                        player.sets.append(_parse_set(chunk, take))
            else:
                raise ValueError(f"Unknown field {key!r}")
    state.draw = [take(k) for k in reversed(fields.get("draw", [""])[0].split())]
    state.discard = [take(k) for k in fields.get("discard", [""])[0].split()]
    rest = sorted(card for cards in unused.values() for card in cards)
    where = fields.get("rest", ["draw"])[0].split()
    if where == ["draw"]:
        state.draw[0:0] = rest
    elif where == ["discard"]:
        state.discard[0:0] = rest
    elif len(where) == 2 and where[1] == "bank":
        state.players[seat_of(where[0])].bank.extend(rest)
    else:
        raise ValueError(f"Unknown rest {where!r}")
    for name in fields.get("jailed", [""])[0].split():
        state.players[seat_of(name)].jailed = 1
    state.current = seat_of(fields.get("turn", [names[0]])[0])
    state.plays_left = int(fields.get("plays", ["3"])[0])
    state.phase = PLAY
    state.turns = 1
    state.active = True
    return state


def _parse_set(chunk, take):
    colour, _sep, rest = chunk.partition(":")
    colour = colour.strip()
    found = PropertySet(colour, [])
    for word in rest.split():
        if word == "+house":
            found.house = take("house")
        elif word == "+hotel":
            found.hotel = take("hotel")
        else:
            kind = KIND_BY_ID.get(word)
            if kind is None or not kind.is_property or colour not in kind.colours:
                raise ValueError(f"{word!r} cannot stand in a {colour} set")
            found.cards.append(take(word))
    return found


def card_in(state, name_or_seat, place, kind_id, nth=0):
    """Return the id of the nth card of `kind_id` in a player's hand, bank or table."""
    seat = name_or_seat if isinstance(name_or_seat, int) else state.seats.index(name_or_seat)
    player = state.players[seat]
    if place == "table":
        cards = [
            c for s in player.sets for c in s.cards + [b for b in (s.house, s.hotel) if b >= 0]
        ]
    else:
        cards = getattr(player, place)
    found = [c for c in cards if state.deck[c].id == kind_id]
    if len(found) <= nth:
        raise LookupError(f"No {kind_id!r} number {nth} in {name_or_seat}'s {place}")
    return found[nth]


def describe(state):
    """Return the text form of the public and private parts of `state` (draw pile not listed)."""
    deck = state.deck
    lines = [
        f"players: {' '.join(str(s) for s in state.seats)}",
        f"turn: {state.seats[state.current]}",
    ]
    lines.append(f"plays: {state.plays_left}  # phase: {state.phase}")
    for seat, player in zip(state.seats, state.players):
        lines.append(f"{seat} hand: {' '.join(deck[c].id for c in player.hand)}")
        lines.append(f"{seat} bank: {' '.join(deck[c].id for c in player.bank)}")
        sets = []
        for s in player.sets:
            words = [deck[c].id for c in s.cards]
            words += ["+house"] if s.house >= 0 else []
            words += ["+hotel"] if s.hotel >= 0 else []
            sets.append(f"{s.colour}: {' '.join(words)}")
        lines.append(f"{seat} table: {'; '.join(sets)}")
    lines.append(f"discard: {' '.join(deck[c].id for c in state.discard)}")
    return "\n".join(lines)
