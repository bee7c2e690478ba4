"""A move's reads and writes, each statement written once per process (config/statements.py).

A move reads its game's row (locked) and its seats with their users, and the
POST its player's seat; it writes the move, the game and a seat or two.
Through the ORM, building and compiling those statements cost several times
what running them does (0.5 ms of CPU for the game's row against 0.1; the
seats and users of a table of four, 1.3 ms). The reads are config.statements'
(the ORM's own SQL, converters and instances, compiled on first use);
`save_fields` and `insert` (config.statements) write a row as the ORM's save
does.
"""

from functools import cache

from config.statements import insert, joined, save_fields, values  # noqa: F401  (the move's writes)


@cache
def _fields(model, leave=()):
    """The names of `model`'s columns but `leave`'s (read once: the statements are compiled once)."""
    return tuple(f.name for f in model._meta.concrete_fields if f.name not in leave)


def locked_game(pk):
    """Return game `pk` locked for the move's transaction (select_for_update), or DoesNotExist."""
    from games.models import Game  # games.models uses this module

    found = joined(
        "a move's locked game",
        lambda pk: Game.objects.select_for_update().filter(pk=pk),
        (pk,),
        Game,
        _fields(Game),
        {},
    )
    if not found:
        raise Game.DoesNotExist("Game matching query does not exist.")
    return found[0]


def table_seats(game):
    """Return `game`'s seats in order, each with its user and `game` cached, as game.seats gives."""
    from accounts.models import User
    from games.models import Seat

    seats = joined(
        "a table's seats",
        lambda game_id: Seat.objects.filter(game_id=game_id).order_by("position"),
        (game.pk,),
        Seat,
        _fields(Seat),
        {"user": (User, _fields(User))},
    )
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    return seats


def seat_at(code, user_id):
    """Return the seat of user `user_id` at table `code` with its game (its large columns left)."""
    from games.models import Game, Seat

    found = joined(
        "a player's seat",
        lambda code, user_id: Seat.objects.filter(game__code=code, user_id=user_id)[:1],
        (code, user_id),
        Seat,
        _fields(Seat),
        {"game": (Game, _fields(Game, leave=("snapshot", "summary")))},
    )
    return found[0] if found else None


# A table page's reads (games.views.table).


def game_by_code(code):
    """Return game `code` with every column, or None."""
    from games.models import Game

    found = joined(
        "a game by its code",
        lambda code: Game.objects.filter(code=code),
        (code,),
        Game,
        _fields(Game),
        {},
    )
    return found[0] if found else None


def own_seat(game, user_id):
    """Return user `user_id`'s seat at `game` as it is now (its standing answers), or None."""
    from games.models import Seat

    found = joined(
        "a user's seat at a game",
        lambda game_id, user_id: Seat.objects.filter(game_id=game_id, user_id=user_id)[:1],
        (game.pk, user_id),
        Seat,
        _fields(Seat),
        {},
    )
    for seat in found:
        Seat.game.field.set_cached_value(seat, game)
    return found[0] if found else None


def has_unread(user_id, game_id):
    """Whether user `user_id` has a notification of game `game_id` not read yet."""
    from games.models import Notification

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
