"""A POST's and a table page's reads, each statement written once per process (config/statements.py).

The POST reads its player's seat with its game; the table page its game and
the viewer's seat. The move's own reads and writes (the locked game, its
seats) are with the models (games/models/game.py). The reads are
config.statements' (the ORM's own SQL, converters and instances, compiled on
first use).
"""

from config.statements import joined, values
from games.models import Game, Notification, Seat
from games.models.game import column_names


def seat_at(code, user_id):
    """Return the seat of user `user_id` at table `code` with its game (its large columns left)."""
    found = joined(
        "a player's seat",
        lambda code, user_id: Seat.objects.filter(game__code=code, user_id=user_id)[:1],
        (code, user_id),
        Seat,
        column_names(Seat),
        {"game": (Game, column_names(Game, leave=("snapshot", "summary")))},
    )
    return found[0] if found else None


# A table page's reads (games.views.table).


def game_by_code(code):
    """Return game `code` with every column, or None."""
    found = joined(
        "a game by its code",
        lambda code: Game.objects.filter(code=code),
        (code,),
        Game,
        column_names(Game),
        {},
    )
    return found[0] if found else None


def own_seat(game, user_id):
    """Return user `user_id`'s seat at `game` as it is now (its standing answers), or None."""
    found = joined(
        "a user's seat at a game",
        lambda game_id, user_id: Seat.objects.filter(game_id=game_id, user_id=user_id)[:1],
        (game.pk, user_id),
        Seat,
        column_names(Seat),
        {},
    )
    for seat in found:
        Seat.game.field.set_cached_value(seat, game)
    return found[0] if found else None


def has_unread(user_id, game_id):
    """Whether user `user_id` has a notification of game `game_id` not read yet."""
    return bool(
        values(
            "unread notifications of a game",
            lambda user_id, game_id: Notification.objects.filter(
                user_id=user_id, game_id=game_id, read_at=None
            ).values_list("id")[:1],
            user_id,
            game_id,
        )
    )
