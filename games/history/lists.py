"""What the lists of games read: only the columns they show, as plain values where they can.

A list of twenty games reads a hundred rows (the games, their seats, their
players); building every column of each (a game's engine state and summary,
a user's password and settings, every date) cost most of those pages' time,
then building a model instance of each row, prefetching them, and compiling
the queries again on every request. The lists read plain values (`seated`,
`finished_rows`) or build their few models from one row of values each
(config.statements.joined), with statements compiled once per process.
"""

from accounts.names import shown_name
from config import statements
from config.dates import date_text
from config.links import link
from games.models import Game, Seat

# What a list shows of a player: the name, the profile link, whether a computer plays.
PLAYER_NAMES = ("username", "display_name", "bot_level")
# What a list shows of a game; with the columns lists are sorted and filtered by.
GAME_FIELDS = ("code", "status", "seat_count", "turn_number", "ended_at", "winner")
# The lobby's lists also say each table's options and pace.
TABLE_FIELDS = (
    *GAME_FIELDS,
    *("options", "pace", "pace_seconds", "pace_days", "reserve_days", "private"),
    *("created_at", "last_move_at", "turn_deadline", "host"),
)


# What a list shows of a seat: its player, result and clock.
SEAT_FIELDS = (
    "game",
    "user",
    "position",
    "result",
    "deadline",
    "timeout_at",
    "reserve",
    "ended_at",
)


def seats_with_games(name, build, *args):
    """Return the Seats of the queryset `build(*args)` with their games (TABLE_FIELDS): `joined`."""
    return statements.joined(name, build, args, Seat, SEAT_FIELDS, {"game": (Game, TABLE_FIELDS)})


RESULTS = dict(Seat.Result.choices)


class Row(dict):
    """A list's row: a dict (what templates look up first), whose keys read as attributes too."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Player:
    """A seated player as a list shows them: a name and a profile link, without a User row."""

    __slots__ = ("pk", "username", "name", "result", "deadline")

    def __init__(self, pk, username, display_name, bot_level, result, deadline):
        self.pk, self.username = pk, username
        self.name = shown_name(username, display_name, bot_level)
        self.result, self.deadline = result, deadline

    @property
    def url(self):
        return link("accounts:profile", self.username)


def seated(game_ids):
    """Return {game id: [Player, ...] in seat order} for the games `game_ids` (one query)."""
    seats = {game_id: [] for game_id in game_ids}
    if seats:
        for game_id, *player in statements.values("seated", _seats_of, list(seats)):
            seats[game_id].append(Player(*player))
    return seats


def _seats_of(game_ids):
    return (
        Seat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "position")
        .values_list(
            "game_id",
            "user_id",
            "user__username",
            "user__display_name",
            "user__bot_level",
            "result",
            "deadline",
        )
    )


def finished_rows(games, player_id=None):
    """Return the rows a list of finished games draws, as plain dicts: one query for the seats.

    `games`: (id, code, ended_at, turns, winner id) of a page of games. Each row
    says its players (name and profile link, in seat order), the winner's name,
    and, with `player_id`, that player's result. Values, not model instances:
    building a hundred models and prefetching them cost most of a list's time.
    """
    seats = seated([game[0] for game in games])
    rows = []
    for game_id, code, ended_at, turns, winner_id in games:
        players = seats[game_id]
        rows.append(
            Row(
                code=code,
                ended_at=ended_at,
                ended_iso=ended_at.isoformat(),
                ended_text=date_text(ended_at),
                names=[player.name for player in players],
                players=players,
                winner=next((p.name for p in players if p.pk == winner_id), None),
                result=next(
                    (RESULTS.get(p.result, p.result) for p in players if p.pk == player_id), ""
                ),
                turns=turns,
                review_url=link("games:review", code),
            )
        )
    return rows
