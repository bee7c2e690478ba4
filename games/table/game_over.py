"""What a player sees once their game has ended: the rematch and where to go next.

Drawn in the table's status fragment for the players of a finished game; the
rematch itself (a new private table) is made by Game.ask_rematch.
"""

from django.urls import reverse

from games.rules.bots import LEVELS


def game_over_context(game, user, names_by_user):
    """Return the game-over area of finished `game` as its player `user` sees it.

    `names_by_user` maps the players' user ids to their names.
    """
    area = {
        "rematch_url": reverse("games:rematch", args=[game.code]),
        "computer_url": reverse("games:computer", args=[game.code]),
        "lobby_url": reverse("lobby:home"),
        "rematch": None,
    }
    table = game.rematch
    if table is None or table.status == table.Status.CANCELLED:
        return area
    accepted = set(table.seats.values_list("user_id", flat=True))
    area["rematch"] = {
        "asked_by": names_by_user.get(table.host_id, ""),  # the host is one of the players
        "accepted": [name for uid, name in names_by_user.items() if uid in accepted],
        "waiting_for": [name for uid, name in names_by_user.items() if uid not in accepted],
        "i_accepted": user.id in accepted,
        "asked_by_me": table.host_id == user.id,
        "started": table.status != table.Status.OPEN,
        "url": table.get_absolute_url(),
    }
    return area


def computer_level(seats):
    """Return the level of the computer players among `seats` (a game's), else basic."""
    for seat in seats:
        if seat.user.bot_level in LEVELS:
            return seat.user.bot_level
    return "basic"
