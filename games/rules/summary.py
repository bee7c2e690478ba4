"""What happened in a game, per player: the numbers its review shows.

The summary is plain JSON data counted from the events of a replay:

    {
        "moves": 412,              # moves in the log
        "turns": 57,               # turns begun, skipped ones included
        "rounds": 29,
        "winner": 0,               # seat, or None
        "end_reason": "win",       # state.WIN, STALEMATE, ROUND_LIMIT, ABANDONED or RESIGNED
        "winning_sets": ["brown", "green", "dark_blue"],  # the winner's complete colours
        "resigned": [1],           # the seats that resigned
        "players": [{"seat": 0, ...}, ...],  # see new_tally
    }
"""

from .cards import COLOURS, DEAL_BREAKER, RENT
from .engine import abandon, apply, new_game
from .table import complete_colours


def new_tally(seat):
    """Return the counts of one player, all zero.

    `actions`: action and rent cards played for their effect on the player's
    turn, by card kind id (Double the Rent, House and Hotel included; Just
    Say No and Rent Transfer are answers, counted apart). Money is counted at
    the value of the cards handed over (no change is given, docs/rules.md 4):
    `rent_*` from rent cards, `debts_*` from Debt Collector and It's My
    Birthday. `properties_stolen` counts the property cards the player took
    with Sly Deal, Double Sly Deal, Forced Deal or Deal Breaker (buildings
    aside; the card given away in a Forced Deal is a swap, not a theft), and
    `properties_lost` those taken from them; `sets_*` the complete sets moved
    by Deal Breaker.
    """
    return {
        "seat": seat,
        "banked": 0,
        "laid": 0,
        "actions": {},
        "just_say_no": 0,
        "rent_transfer": 0,
        "rent_collected": 0,
        "rent_paid": 0,
        "debts_collected": 0,
        "debts_paid": 0,
        "properties_stolen": 0,
        "properties_lost": 0,
        "sets_stolen": 0,
        "sets_lost": 0,
    }


class Tally:
    """Count what each player did, from the events of a game's moves in order."""

    def __init__(self, state):
        self.deck = state.deck
        self.players = [new_tally(seat) for seat in range(len(state.seats))]
        self.moves = 0
        self.action = None  # (actor, effect) of the latest action played: what is answered

    def count(self, events):
        for event in events:
            counter = getattr(self, "_" + event["type"], None)
            if counter is not None:
                counter(event, self.players[event["seat"]])

    def _bank(self, event, player):
        player["banked"] += 1

    def _lay(self, event, player):
        player["laid"] += 1

    def _play(self, event, player):
        self._played(player, self.deck[event["card"]].id)
        for _card in event.get("doubles", ()):
            self._played(player, "double_rent")
        self.action = (event["seat"], event["effect"])

    def _build(self, event, player):
        self._played(player, self.deck[event["card"]].id)

    def _played(self, player, kind):
        player["actions"][kind] = player["actions"].get(kind, 0) + 1

    def _just_say_no(self, event, player):
        player["just_say_no"] += 1

    def _transfer(self, event, player):
        player["rent_transfer"] += 1

    def _pay(self, event, player):
        _actor, effect = self.action
        kind = "rent" if effect == RENT else "debts"  # Debt Collector or It's My Birthday
        player[kind + "_paid"] += event["paid"]
        self.players[event["to"]][kind + "_collected"] += event["paid"]

    def _take(self, event, player):
        actor, effect = self.action
        if event["seat"] != actor:
            return  # the card a Forced Deal gives in exchange
        victim = self.players[event["from"]]
        taken = sum(1 for c in event["cards"] if self.deck[c].is_property)
        player["properties_stolen"] += taken
        victim["properties_lost"] += taken
        if effect == DEAL_BREAKER:
            player["sets_stolen"] += 1
            victim["sets_lost"] += 1

    def summary(self, state):
        """Return the summary of the game as it stands in `state` (normally its end)."""
        winner = state.winner if state.winner >= 0 else None
        winning = complete_colours(state, winner) if winner is not None else ()
        return {
            "moves": self.moves,
            "turns": state.turns,
            "rounds": state.round,
            "winner": winner,
            "end_reason": state.end_reason,
            "winning_sets": [c for c in COLOURS if c in winning],
            "resigned": list(state.resigned),  # seats, in seat order
            "players": self.players,
        }


def summarize(players, seed, options, moves, abandoned=False, on_position=None):
    """Replay a game and return its summary.

    `moves` is a list of (seat, Move). `abandoned`: the game ended because its
    players left, which no move records. `on_position(n, state)` is called
    after the deal (n = 0) and after each move n; the state is the replay's
    own, changed in place by the next move.
    """
    state = new_game(players, seed, options)
    tally = Tally(state)
    if on_position is not None:
        on_position(0, state)
    for n, (seat, move) in enumerate(moves, 1):
        _state, events = apply(state, seat, move)
        tally.count(events)
        tally.moves = n
        if on_position is not None:
            on_position(n, state)
    if abandoned:
        tally.count(abandon(state))
    return tally.summary(state)
