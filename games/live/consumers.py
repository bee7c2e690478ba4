"""The game socket: each connection receives its own user's view of the board.

Only a version travels through the channel layer ("game.updated"); every
socket renders what ITS user may see (rules.view_for) and sends it as
hx-swap-oob fragments. A connection starts with the whole board, so a
client that missed updates while disconnected heals by reconnecting. A page
sends its moves over its socket (games/live/moves.py), each carrying the
version it was drawn from, as the POST does.

How a socket recovers when the channel layer fails (Redis restarted; the
fault tests in games/tests/test_faults.py):

- The broadcasts made while Redis is down are lost. Each process's layer
  subscribes again to its sockets' groups once Redis is back.
- A process's heartbeat on the layer (games/live/sockets.py, watch_layer)
  tells every socket of the process when it fails: each shows "live updates
  are slower just now" and checks itself every second. The first check after a
  heartbeat came back sends the board if it is behind and takes the notice
  away: within a few seconds of Redis coming back, without a reconnect. A
  socket opened while Redis is away is refused (games/live/sockets.py), and
  the page tries again after a few seconds (static/js/sockets.js), saying
  meanwhile that it is reconnecting (static/js/table.js).
- Every socket also checks itself every GAME_SOCKET_CHECK_SECONDS (20 by
  default; jittered): it joins its group again (a no-op when it is still in
  it) and sends the board if it is behind. So any other lost broadcast (a
  group's expiry, a full channel) heals within one period.
"""

from contextlib import contextmanager

from channels.generic.websocket import WebsocketConsumer
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connection
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation

from games.chat.socket import ChatSocket
from games.live.moves import SocketMoves
from games.live.sockets import LAYER_ERRORS, SelfChecking
from games.models import Game, Seat, group_name
from games.table.board import board_update, game_at
from games.table.memo import WouldWait, without_waiting
from games.views import may_watch


class GameConsumer(SocketMoves, ChatSocket, SelfChecking, WebsocketConsumer):
    group = None
    shown = None  # what the page shows: a mark by fragment (games.table.board.fragment_marks)
    chosen_language = None
    allowed_at = None  # the status at which may_watch last let the user in (None: refused)

    def connect(self):
        self.user = self.scope.get("user")
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.group = None
        self.sent_version = -1
        self.shown = None
        if self.user is None or not self.user.is_authenticated:
            self.end_session()
            return
        game = Game.objects.only("private", "status", "host").filter(code=self.code).first()
        if game is None or not may_watch(self.user, game):
            self.close()
            return
        self.allowed_at = game.status
        self.group = group_name(self.code)
        try:
            self.join_group(self.group)
        except LAYER_ERRORS:
            # Redis away: the board is drawn from the database all the same, and the
            # socket joins its group as soon as Redis is back (games/live/sockets.py).
            self.layer_failed()
        self.accept()
        self.send_board()

    def plays_here(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return False
        code = self.scope["url_route"]["kwargs"]["code"]
        playing = Seat.objects.filter(game__code=code, game__status=Game.Status.ACTIVE)
        return playing.filter(user=user).exists()

    def disconnect(self, close_code):
        if self.group:
            self.leave_group(self.group)

    async def handled_on_loop(self, message):
        """Draw a broadcast's board on the event loop when this process remembers all of it.

        After a move made in this process (games.table.board.remember) a socket's
        redraw reads nothing: it is drawn here, without the hop to a thread and
        back. Anything that would read the database (a move made in another
        process, a correspondence game's vacations, the game's end) or wait for
        another thread's drawing is refused before it starts, and the broadcast
        goes to the thread (game_updated) as any other message. A change of who is
        here drawn less than a second ago is drawn later (ChatSocket.presence_heard).
        """
        if message.get("type") == "presence.changed":
            return self.presence_heard()  # games/chat/socket.py
        if message.get("type") != "game.updated":
            return False
        version = message.get("version", 0)
        if version <= self.sent_version:
            return True
        try:
            with no_queries(), without_waiting(), translation.override(self.language()):
                game = game_at(self.code, version)
                if game is None or not game.status == self.allowed_at == Game.Status.ACTIVE:
                    return False  # the thread asks still_allowed first
                html, shown = board_update(game, self.user, self.shown)
        except (SynchronousOnlyOperation, QueryRefused, WouldWait):
            return False
        self.shown = shown
        self.sent_version = game.version
        await self.send_on_loop({"type": "websocket.send", "text": html})
        return True

    def game_updated(self, event):
        version = event.get("version", 0)
        if version > self.sent_version:
            self.send_board(version)

    def socket_check(self, event):
        """Join the group again and catch up with the game (see the module docstring)."""
        super().socket_check(event)
        if not self.group or self.is_gone:  # gone: its groups are left (SelfChecking.gone)
            return
        try:
            self.join_group(self.group)
        finally:
            # Read after the join, so that no move falls between the two (its broadcast
            # before the join, its version before the read); and read when the join fails
            # too: while the layer fails the check is what keeps the page following the game.
            version = Game.objects.filter(code=self.code).values_list("version", flat=True)
            version = version.first()
            if version is not None and version > self.sent_version:
                self.send_board()

    def socket_layer_down(self, event):
        self.send_live_status(paused=True)

    def socket_layer_up(self, event):
        """In the group again: the check that joined it caught up already; say so no longer."""
        self.send_live_status(paused=False)

    def send_live_status(self, paused):
        with translation.override(self.language()):
            html = render_to_string("games/table.html#live_status", {"oob": True, "paused": paused})
        self.send(text_data=html)

    def still_allowed(self, game):
        """Whether the user may still watch `game`; if not, close this socket.

        Asked again whenever the status changed since it was last asked, and at
        every question while the table is open: a private table's seats change
        until it starts, and who left it (the host aside) may watch it no more.
        """
        if self.allowed_at is None:  # refused: closed, and nothing more is drawn for it
            return False
        if game.status == self.allowed_at != Game.Status.OPEN:
            return True
        if game.private and not may_watch(self.user, game):
            self.allowed_at = None
            self.close()
            return False
        self.allowed_at = game.status
        return True

    def send_board(self, version=None):
        """Send the board; at `version` (a broadcast's) the game is read once for all sockets."""
        game = game_at(self.code, version)
        if game is None or game.status == Game.Status.OPEN or not self.still_allowed(game):
            return
        with translation.override(self.language()):
            html, self.shown = board_update(game, self.user, self.shown)
        self.sent_version = game.version
        self.send(text_data=html)
        self.board_sent(game)  # games/chat/socket.py: the chat's rooms when the game ends

    def language(self):
        """Return the language of this socket's pages: the user's choice, else the browser's.

        Found once: the socket's user (and headers) are those of its connect.
        """
        if self.chosen_language is None:
            self.chosen_language = self.find_language()
        return self.chosen_language

    def find_language(self):
        chosen = getattr(self.user, "language", "")
        if chosen:
            try:
                return translation.get_supported_language_variant(chosen)
            except LookupError:
                pass
        request = HttpRequest()
        request.COOKIES = self.scope.get("cookies", {})
        for name, value in self.scope.get("headers", ()):
            if name == b"accept-language":
                request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
        return translation.get_language_from_request(request)


class QueryRefused(Exception):
    """A query was asked for on the event loop (see GameConsumer.handled_on_loop)."""


def _refuse(execute, sql, params, many, context):
    raise QueryRefused(sql)


@contextmanager
def no_queries():
    """Refuse any query made meanwhile, before it runs (on an event loop Django refuses them
    anyway, unless DJANGO_ALLOW_ASYNC_UNSAFE is set)."""
    with connection.execute_wrapper(_refuse):
        yield
