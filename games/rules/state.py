"""The state of one game: plain data with a JSON round trip."""

from dataclasses import asdict, dataclass, fields

from .cards import build_deck, decks_for

MASK64 = (1 << 64) - 1

# Phases: what the game waits for.
PLAY = "play"  # the current player plays cards or ends the turn
DISCARD = "discard"  # the current player puts cards over 7 at the bottom of the draw pile
RESPOND = "respond"  # players answer an action (Just Say No, pay, accept ...)
OVER = "over"  # the game has ended

# Why a game ended.
WIN = "win"
STALEMATE = "stalemate"
ROUND_LIMIT = "round_limit"
ABANDONED = "abandoned"
RESIGNED = "resigned"  # the others resigned (or went absent): the last one left wins


class Rng:
    """The game's own generator (splitmix64): its whole state is one integer."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state & MASK64

    def next(self):
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n):
        """Return a number in range(n) (n < 2**32, bias below 2**-32)."""
        return (self.next() * n) >> 64

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = (self.next() * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]


@dataclass(frozen=True)
class Options:
    """The table options of docs/rules.md section 9."""

    enhanced: bool = False
    built_sets: bool = False
    wild_moves_cost_a_play: bool = False
    # Not a table option: the rule of the games begun before the Pass Go ruling of docs/rules.md
    # section 7 (the Pass Go went to the discard pile before the draw). Their move logs
    # replay exactly only under it; no new game gets it (see `new_table_options`).
    pass_go_discards_first: bool = False

    LEGACY = ("pass_go_discards_first",)

    def to_json(self):
        data = asdict(self)
        for name in self.LEGACY:
            if not data[name]:
                del data[name]  # the snapshots of today's games do not mention old rules
        return data

    @classmethod
    def from_json(cls, data):
        data = data or {}
        unknown = set(data) - {field.name for field in fields(cls)}
        if unknown:
            raise ValueError(f"Unknown table options: {', '.join(sorted(unknown))}")
        return cls(**{k: bool(v) for k, v in data.items()})


def new_table_options(options):
    """Return the table options of a new game modelled on one with `options` (a rematch).

    A new game is played under today's rules: the legacy ones are left out.
    """
    return {name: value for name, value in (options or {}).items() if name not in Options.LEGACY}


class PropertySet:
    """Properties of one colour grouped on a player's table, with buildings."""

    __slots__ = ("colour", "cards", "house", "hotel")

    def __init__(self, colour, cards, house=-1, hotel=-1):
        self.colour = colour
        self.cards = cards
        self.house = house
        self.hotel = hotel

    def to_json(self):
        return [self.colour, list(self.cards), self.house, self.hotel]

    @classmethod
    def from_json(cls, data):
        colour, cards, house, hotel = data
        return cls(colour, list(cards), house, hotel)


class Player:
    __slots__ = ("hand", "bank", "sets", "jailed")

    def __init__(self, hand=None, bank=None, sets=None, jailed=0):
        self.hand = hand if hand is not None else []
        self.bank = bank if bank is not None else []
        self.sets = sets if sets is not None else []
        self.jailed = jailed

    def to_json(self):
        return {
            "hand": list(self.hand),
            "bank": list(self.bank),
            "sets": [s.to_json() for s in self.sets],
            "jailed": self.jailed,
        }

    @classmethod
    def from_json(cls, data):
        return cls(
            list(data["hand"]),
            list(data["bank"]),
            [PropertySet.from_json(s) for s in data["sets"]],
            data["jailed"],
        )


class Share:
    """One targeted player's part of a pending action.

    `jsn` counts the Just Say Nos played in this share's chain: while it is
    even the action stands and `debtor` must answer; while odd the player who
    was cancelled must answer. `origin` is the seat first aimed at, and keys
    the share; after a Rent Transfer `debtor` is the new payer and
    `transferred_by` the player who transferred.
    """

    __slots__ = ("origin", "debtor", "jsn", "transferred_by")

    def __init__(self, origin, debtor, jsn=0, transferred_by=-1):
        self.origin = origin
        self.debtor = debtor
        self.jsn = jsn
        self.transferred_by = transferred_by

    def to_json(self):
        return [self.origin, self.debtor, self.jsn, self.transferred_by]


class Pending:
    """An action played and not yet resolved for every player it aims at."""

    __slots__ = ("effect", "actor", "card", "colour", "amount", "cards", "shares")

    def __init__(self, effect, actor, card, colour="", amount=0, cards=(), shares=None):
        self.effect = effect
        self.actor = actor
        self.card = card
        self.colour = colour
        self.amount = amount
        self.cards = cards  # the cards to take (and give, for Forced Deal)
        self.shares = shares if shares is not None else {}

    def awaited(self, share):
        """Return the seat that must answer next in this share's chain."""
        if share.jsn % 2 == 0:
            return share.debtor
        return share.transferred_by if share.transferred_by >= 0 else self.actor

    def to_json(self):
        return {
            "effect": self.effect,
            "actor": self.actor,
            "card": self.card,
            "colour": self.colour,
            "amount": self.amount,
            "cards": list(self.cards),
            "shares": [s.to_json() for s in self.shares.values()],
        }

    @classmethod
    def from_json(cls, data):
        shares = {}
        for origin, debtor, jsn, transferred_by in data["shares"]:
            shares[origin] = Share(origin, debtor, jsn, transferred_by)
        return cls(
            data["effect"],
            data["actor"],
            data["card"],
            data["colour"],
            data["amount"],
            tuple(data["cards"]),
            shares,
        )


class GameState:
    """Everything about a game in progress, hidden parts included."""

    __slots__ = (
        "options",
        "seats",
        "deck",
        "players",
        "draw",
        "discard",
        "current",
        "plays_left",
        "phase",
        "pending",
        "rng",
        "turns",
        "quiet",
        "active",
        "winner",
        "end_reason",
        "resigned",
        "held",
    )

    def __init__(self, options, seats, rng):
        self.options = options
        self.seats = list(seats)  # the player ids, in seat order
        self.deck = build_deck(decks_for(len(self.seats)), options.enhanced)
        self.players = [Player() for _ in self.seats]
        self.draw = []  # the top of the draw pile is the end of the list
        self.discard = []  # the top of the discard pile is the end of the list
        self.current = 0
        self.plays_left = 0
        self.phase = PLAY
        self.pending = None
        self.rng = rng
        self.turns = 0  # turns begun, skipped ones included
        self.quiet = 0  # turns in a row in which no card was drawn or played
        self.active = False  # whether a card was drawn or played in this turn
        self.winner = -1
        self.end_reason = ""
        self.resigned = ()  # the seats that resigned, in seat order: their defaults play on
        # Per seat, a public fact: its hand size when its last turn ended with plays left
        # (it kept every card it held), else -1.
        self.held = [-1] * len(self.seats)

    @property
    def over(self):
        return self.phase == OVER

    @property
    def round(self):
        return (self.turns - 1) // len(self.seats) + 1 if self.turns else 0

    def to_json(self):
        return {
            "options": self.options.to_json(),
            "seats": list(self.seats),
            "players": [p.to_json() for p in self.players],
            "draw": list(self.draw),
            "discard": list(self.discard),
            "current": self.current,
            "plays_left": self.plays_left,
            "phase": self.phase,
            "pending": self.pending.to_json() if self.pending else None,
            "rng": self.rng.state,
            "turns": self.turns,
            "quiet": self.quiet,
            "active": self.active,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "resigned": list(self.resigned),
            "held": list(self.held),
        }

    @classmethod
    def from_json(cls, data):
        state = cls(Options.from_json(data["options"]), data["seats"], Rng(data["rng"]))
        state.players = [Player.from_json(p) for p in data["players"]]
        state.draw = list(data["draw"])
        state.discard = list(data["discard"])
        state.current = data["current"]
        state.plays_left = data["plays_left"]
        state.phase = data["phase"]
        state.pending = Pending.from_json(data["pending"]) if data["pending"] else None
        state.turns = data["turns"]
        state.quiet = data["quiet"]
        state.active = data["active"]
        state.winner = data["winner"]
        state.end_reason = data["end_reason"]
        state.resigned = tuple(data.get("resigned", ()))  # snapshots from before resigning
        state.held = list(data.get("held", state.held))  # snapshots from before it was kept
        return state

    def copy(self):
        return GameState.from_json(self.to_json())

    def __eq__(self, other):
        return isinstance(other, GameState) and self.to_json() == other.to_json()

    __hash__ = None

    def __repr__(self):
        return f"<GameState {len(self.seats)} players, turn {self.turns}, {self.phase}>"
