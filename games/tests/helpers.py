"""Helpers for the table tests: positions on a real game, posting moves."""

import re

from django.urls import reverse

from games.rules.position import position

ALICE, BOB = 0, 1


def set_position(game, text):
    """Put the position `text` (players named by username) on `game`.

    Return the position's state, its seats still named (for card_in).
    """
    state = position(text)
    users = {seat.user.username: seat.user_id for seat in game.seats.select_related("user")}
    snapshot = state.to_json()
    snapshot["seats"] = [users[name] for name in state.seats]
    game.snapshot = snapshot
    game.save(update_fields=["snapshot"])
    return state


def post_move(client, game, version=None, htmx=False, **fields):
    """Post a move's fields to the move view, from the game's current version by default."""
    if version is None:
        game.refresh_from_db()
        version = game.version
    data = {"version": version}
    data.update({k: v for k, v in fields.items() if v is not None})
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("games:move", args=[game.code]), data, headers=headers)


def card_ids(html):
    """Return the ids of the cards drawn in `html` (data-card attributes)."""
    return {int(n) for n in re.findall(r'data-card="(\d+)"', html)}


def text(html):
    """Return the words of `html`: tags dropped, spaces joined, apostrophes unescaped."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace("&#x27;", "'")


def snapshot_of(game):
    game.refresh_from_db()
    return (game.snapshot, game.version, game.moves.count())


def state_of(game):
    """Return the game's engine state as saved now."""
    game.refresh_from_db()
    return game.state()
