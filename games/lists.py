"""What the lists of games read: only the columns they show.

A list of twenty games reads a hundred rows (the games, their seats, their
players); building every column of each (a game's engine state and summary,
a user's password and settings, every date) cost most of those pages' time.
"""

from django.db.models import Prefetch

from games.models import Seat

# What a list shows of a player: the name, the profile link, whether a computer plays.
PLAYER_FIELDS = ("user__username", "user__display_name", "user__bot_level")
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


def seats_with_players():
    """Return the Seat rows of a list, with the names of their players."""
    return Seat.objects.select_related("user").only(*SEAT_FIELDS, *PLAYER_FIELDS)


def game_seats(prefix=""):
    """Return the prefetch of each game's seats with their players' names, for a list of games."""
    return Prefetch(f"{prefix}seats", queryset=seats_with_players())


def players(relation):
    """Return the fields a list shows of the player `relation` (e.g. "game__winner")."""
    return [f"{relation}__{name.removeprefix('user__')}" for name in PLAYER_FIELDS]
