"""What the chat panel shows one user, and its fragments for htmx answers and sockets."""

from datetime import timedelta

from django.template.loader import render_to_string
from django.utils import timezone

from config import statements
from games.chat import messages as chat, presence
from games.models import Game, Seat
from games.table.board import player_name, seats_at

MINUTE = timedelta(minutes=1)  # seen less than this ago: "just now", not "0 minutes ago"


def chat_context(game, user, seat, **extra):
    """Return what the table's chat panel shows `user` (at `seat`), or None for no chat."""
    if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
        return None
    off = chat.chat_off(game, user)
    here = presence.present(game.code, [s.user_id for s in seats_at(game)])
    if seat is not None:
        here |= {user.pk}  # the viewer has the table open: their socket is about to say so
    rooms = [] if off else chat.readable_rooms(game, seat)
    found = chat.messages_for(game, user, rooms)
    return {
        "reported": reported_by(user, found),
        "code": game.code,
        "off": off,
        "off_always": bool(getattr(user, "chat_off", False)),
        "rooms": [{"name": room, "messages": found[room]} for room in rooms],
        "writes_in": chat.writing_room(game, user, seat),
        "closed": chat.closed(game),
        "phrases": [(key, str(label)) for key, label in chat.PHRASES.items()],
        "viewer": user.pk,
        "people": people(game, here),
        # What the page shows of presence, for its socket to draw again if it changed before
        # the socket joined the game's group (games/chat/socket.py, chat_connect).
        "here": ",".join(map(str, sorted(here))),
        "correspondence": game.pace == Game.Pace.CORRESPONDENCE,
        **extra,
    }


def reported_by(user, found):
    """Return the ids of the messages in `found` that `user` has reported (no query if none may be)."""
    others = [m.pk for messages in found.values() for m in messages if m.user_id != user.pk]
    if not others:
        return set()
    return set(
        chat.Report.objects.filter(reporter=user, message_id__in=others).values_list(
            "message_id", flat=True
        )
    )


def people(game, here=None, here_too=()):
    """Return the players of `game`: name, whether they have its table open now, last seen."""
    seats = seats_at(game)
    if here is None:
        here = presence.present(game.code, [s.user_id for s in seats])
    here = set(here) | set(here_too)
    # Read afresh: the seats of a version are kept (games/table/board.py), their seen_at moves on.
    seen = dict(statements.values("seen at", _seen_at, game.pk))
    now = timezone.now()
    return [
        {
            "seat": s.position,
            "name": player_name(s.user),
            # A computer player never leaves its table.
            "here": s.user_id in here or bool(s.user.bot_level),
            "seen_at": seen.get(s.user_id),
            "seen_just_now": bool(seen.get(s.user_id)) and now - seen[s.user_id] < MINUTE,
        }
        for s in seats
    ]


def _seen_at(game_id):
    return Seat.objects.filter(game_id=game_id).values_list("user_id", "seen_at")


def review_chat(game, user, upto_move):
    """Return both rooms' newest messages written up to move `upto_move` of a finished game."""
    rooms = chat.readable_rooms(game, None)
    found = chat.messages_for(game, user, rooms, upto_move=upto_move, newest=chat.SHOWN)
    return {"rooms": [{"name": room, "messages": found[room]} for room in rooms], "viewer": user.pk}


def new_message_html(message, viewer_id):
    """Return the fragment that appends `message` to its room's list on a reader's page."""
    context = {"message": message, "chat": {"code": message.game.code, "viewer": viewer_id}}
    return render_to_string("games/chat.html#new_message", context)


def presence_html(game, here):
    context = {
        "oob": True,
        "chat": {
            "people": people(game, here),
            "correspondence": game.pace == Game.Pace.CORRESPONDENCE,
        },
    }
    return render_to_string("games/chat.html#presence", context)


def rooms_html(game, user, seat):
    """Return the fragment that replaces the rooms on `user`'s page ("" when their chat is off)."""
    context = chat_context(game, user, seat)
    if context is None or context["off"]:
        return ""
    return render_to_string("games/chat.html#rooms", {"oob": True, "chat": context})
