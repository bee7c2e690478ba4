"""Table chat: the players' chat, the spectators' chat, their limits and who may read them.

Each game has two rooms. The seated players write in the players' chat,
which everyone watching reads; spectators write in the spectators' chat,
which the players do not receive while the game runs (no coaching through
it). Once the game has ended both are open to all, in the review too.

Only a message's id goes through the channel layer ("chat.message"); each
socket reads it and decides for its own user (games/chat/socket.py), as
boards are drawn per socket.
"""

from datetime import timedelta
from functools import partial

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.blocks import blocked_ids
from accounts.names import without_forbidden
from accounts.ratelimit import FAIL_OPEN, Limiter, Rate
from config import statements
from games.models import ChatMessage, ChatMute, Game, Report, group_name, group_send
from games.models.chat import PHRASES  # noqa: F401  (the quick phrases, for the chat panel)
from games.play.limits import lock_account

MAX_LENGTH = 500
# A user may send RATE_COUNT messages in RATE_SECONDS, in all their games together.
RATE_COUNT = 5
RATE_SECONDS = 10
_rate = Limiter("Chat", when_down=FAIL_OPEN)
# Reports one reader may file in 24 hours.
REPORTS_A_DAY = 20
# The newest messages a table, or a review at one of its moves, shows of each room.
SHOWN = 100
# How long after its end a game's chat still takes messages ("well played"): a finished
# game's page is open to anyone, and its review shows its chat for good.
OPEN_AFTER_END = timedelta(hours=1)


class ChatError(Exception):
    """A message was refused; the text tells its writer why."""


# --- writing ----------------------------------------------------------------------------------


def clean_text(raw):
    """Return `raw` with its line ends as newlines, trimmed, and no other character that
    hides or reorders text: the display names' rule (accounts/names.py), by Unicode category.
    """
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(without_forbidden(line) for line in text.split("\n")).strip()


def seat_of(game, user):
    return game.seats.filter(user_id=user.pk).values_list("position", flat=True).first()


def closed(game):
    """Whether the chat of `game`, over for longer than OPEN_AFTER_END, takes no more messages."""
    return game.status == Game.Status.FINISHED and (
        game.ended_at is None or timezone.now() - game.ended_at > OPEN_AFTER_END
    )


def writing_room(game, user, seat):
    """Return the room `user` writes in at `game` (seat: theirs, or None for a spectator)."""
    return ChatMessage.Room.PLAYERS if seat is not None else ChatMessage.Room.SPECTATORS


def chat_off(game, user):
    """Whether `user` has switched the chat off, in every game or in this one."""
    if getattr(user, "chat_off", False):
        return True
    if user.pk is None:  # a visitor never muted a game
        return False
    return bool(statements.values("chat muted", _muted, game.pk, user.pk))


def _muted(game_id, user_id):
    return ChatMute.objects.filter(game_id=game_id, user_id=user_id).values_list("pk", flat=True)[
        :1
    ]


def set_chat_off(game, user, off):
    if off:
        ChatMute.objects.get_or_create(game=game, user=user)
    else:
        ChatMute.objects.filter(game=game, user=user).delete()


def post(game, user, seat, text="", phrase="", room=""):
    """Store a message of `user` (at `seat`, None for a spectator) and announce it; return it.

    Raise ChatError with a readable reason, changing nothing, when it is refused.
    """
    if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
        raise ChatError(gettext("This game has no chat."))
    if closed(game):
        raise ChatError(gettext("This game's chat closed an hour after the game ended."))
    mine = writing_room(game, user, seat)
    if room and room != mine:
        if seat is None:
            raise ChatError(gettext("Only the players can write in the players' chat."))
        raise ChatError(gettext("The players do not write in the spectators' chat."))
    if chat_off(game, user):
        raise ChatError(gettext("Your chat is off: switch it on to write."))
    if phrase:
        if phrase not in PHRASES:
            raise ChatError(gettext("Choose one of the offered phrases."))
        text = ""
    else:
        text = clean_text(text)
        if not text:
            raise ChatError(gettext("Write a message first."))
        if len(text) > MAX_LENGTH:
            raise ChatError(
                gettext("A message can be at most %(count)s characters long.")
                % {"count": MAX_LENGTH}
            )
    take_rate_slot(user)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            game=game,
            user=user,
            room=mine,
            text=text,
            phrase=phrase,
            after_move=game.moves.count(),
        )
        transaction.on_commit(lambda: announce(game.code, message.pk))
    return message


def take_rate_slot(user):
    """Count a message against its writer's rate; raise ChatError when over it.

    A sliding window in the cache, which every server process shares (Redis
    in production): accounts/ratelimit.py. Two messages at the very same
    moment may both pass: the bound is for floods, not for one message more.
    A failing cache must not stop the chat: it lets every message through.
    """
    if not _rate.take(f"chat-rate:{user.pk}", Rate(RATE_COUNT, RATE_SECONDS)):
        raise ChatError(
            gettext("You are writing too fast: wait a few seconds before your next message.")
        )


def announce(code, message_id):
    group_send(group_name(code), {"type": "chat.message", "id": message_id})


def report(message, user):
    """Record `user`'s report of `message` (once); a message of their own is not reported.

    A reader files at most REPORTS_A_DAY reports in 24 hours: enough for any
    honest table, too few to bury the moderators' list. Counted under the
    reader's row lock, as the fair shares are: reports sent at once are
    counted one after the other.
    """
    if message.user_id == user.pk:
        raise ChatError(gettext("You cannot report your own message."))
    with transaction.atomic():
        lock_account(user)
        if Report.objects.filter(message=message, reporter=user).exists():
            return
        since = timezone.now() - timedelta(days=1)
        if Report.objects.filter(reporter=user, created_at__gte=since).count() >= REPORTS_A_DAY:
            raise ChatError(
                gettext("You have sent %(count)s reports today: try again tomorrow.")
                % {"count": REPORTS_A_DAY}
            )
        Report.objects.get_or_create(message=message, reporter=user)


# --- reading ----------------------------------------------------------------------------------


def readable_rooms(game, seat):
    """Return the rooms a reader at `seat` (None: a spectator) receives in `game`."""
    if seat is not None and game.status != Game.Status.FINISHED:
        return [ChatMessage.Room.PLAYERS]
    return [ChatMessage.Room.PLAYERS, ChatMessage.Room.SPECTATORS]


def may_read(message, game, user, seat):
    """Whether `message` reaches `user` (at `seat`): its room, their blocks and their switch."""
    if message.removed_at is not None or message.room not in readable_rooms(game, seat):
        return False
    if message.user_id in blocked_ids(user):
        return False
    return not chat_off(game, user)


def messages_for(game, user, rooms, upto_move=None, newest=SHOWN):
    """Return {room: [messages]} of `rooms`, without the authors `user` has blocked."""
    found = {}
    hidden = sorted(blocked_ids(user))
    for room in rooms:
        if upto_move is not None:  # a review: the messages up to one of its moves
            query = room_messages(room, None, game.pk, hidden).filter(after_move__lte=upto_move)
            query = query.select_related("user")
            found[room] = list(query[:newest] if newest else query)[::-1]
            continue
        # The table's chat: a statement compiled once per room (config.statements).
        found[room] = statements.joined(
            ("chat", room, newest),
            partial(room_messages, room, newest),
            [game.pk, hidden],
            ChatMessage,
            MESSAGE_FIELDS,
            {"user": (get_user_model(), ("username", "display_name", "bot_level"))},
        )[::-1]
    return found


# Every column of a message; of its author, the name.
MESSAGE_FIELDS = ("game", "user", "room", "text", "phrase", "after_move", "created_at")


def room_messages(room, newest, game_id, hidden):
    """Return the messages of `room` in game `game_id`, newest first, but those of `hidden` authors."""
    query = ChatMessage.objects.filter(game_id=game_id, room=room, removed_at=None)
    query = query.exclude(user_id__in=hidden).order_by("-pk")
    return query[:newest] if newest else query
