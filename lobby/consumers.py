"""The lobby sockets: the open tables list, one waiting room, and a user's header badges.

Only logged-in users get a lobby socket: anonymous visitors see the lists as
the page drew them (a hostile visitor could otherwise open thousands, each
drawn again at every change). And every lobby socket draws a burst of
changes once: at most one render per LOBBY_RENDER_SECONDS (1 by default),
the first at once and the rest of the burst together at the end of the
interval. The open tables list, the same for everyone but for the tables a
user sits at, the CSRF token and the language, is drawn once per process
for all its sockets (`Listing`), and each change is heard once per process
(`LobbyHub`).
"""

import asyncio
import logging
import re
import time

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from games.models import LOBBY_GROUP, Game, Seat, user_group
from games.sockets import SelfChecking, check_period
from lobby.context_processors import NavCounts
from lobby.views import may_see, open_tables, room_context

log = logging.getLogger(__name__)


def render_interval():
    return getattr(settings, "LOBBY_RENDER_SECONDS", 1.0)


class LobbyHub:
    """This process's one member of the lobby group: it hears each change once and tells its sockets.

    With one group member per socket, every change would be one channel-layer
    message per socket, and the in-memory layer scans all its channels at
    every message: a thousand lobby sockets made each move wait seconds. The
    hub joins the group again every GAME_SOCKET_CHECK_SECONDS (a Redis
    restart forgets memberships). It lives on the event loop.
    """

    def __init__(self):
        self.sockets = set()
        self.task = None

    def join(self, socket):
        self.sockets.add(socket)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.listen())

    def leave(self, socket):
        self.sockets.discard(socket)

    async def listen(self):
        layer = get_channel_layer()
        channel = await layer.new_channel()
        joined = False
        while True:
            try:
                if not joined:
                    await layer.group_add(LOBBY_GROUP, channel)
                    joined = True
                message = await asyncio.wait_for(layer.receive(channel), check_period())
            except TimeoutError:
                joined = False
                continue
            except Exception:
                log.warning("The lobby hub lost the channel layer; trying again", exc_info=True)
                joined = False
                await asyncio.sleep(1)
                continue
            if message.get("type") == "lobby.updated":
                LISTING.changed_at = time.monotonic()
                for socket in list(self.sockets):
                    socket.lobby_changed()


HUB = LobbyHub()


class LobbyConsumer(SelfChecking, WebsocketConsumer):
    """Send the open tables (at ws/lobby/) or a table's seats (at ws/lobby/<code>/).

    Only a bare "lobby.updated" travels through the group; each socket then
    sends the fragment for its own user, as the page would over HTTP. Now
    and then it joins the group again and sends the fragment if it changed
    (games/sockets.py): an update lost while Redis was down heals then.
    """

    # No channel of its own: the process's hub hears the group for all its sockets.
    channel_layer_alias = None
    sent = None
    rendered_at = float("-inf")
    render_waiting = False

    def connect(self):
        self.code = self.scope["url_route"]["kwargs"].get("code")
        self.request = socket_request(self.scope)
        if not self.request.user.is_authenticated:
            self.close()
            return
        if self.code and self._table() is None:
            self.close()
            return
        self.loop.call_soon_threadsafe(HUB.join, self)
        self.accept()
        # Every (re)connect starts with a render: the socket may have missed
        # updates while it was down.
        self.send_fragment()

    def disconnect(self, code):
        self.loop.call_soon_threadsafe(HUB.leave, self)

    def lobby_changed(self):
        """Render once the interval since the last render has passed (on the event loop)."""
        now = time.monotonic()
        if self.render_waiting:
            return
        self.render_waiting = True
        self.after(max(0.0, self.rendered_at + render_interval() - now), {"type": "lobby.render"})

    def lobby_render(self, event):
        self.render_waiting = False
        self.send_fragment()

    def socket_check(self, event):
        super().socket_check(event)
        self.send_fragment(if_changed=True)

    def send_fragment(self, if_changed=False):
        started = time.monotonic()
        self.rendered_at = started
        with translation.override(language_of(self.request)):
            if self.code:
                game = self._table()
                if game is None:
                    return
                context = room_context(self.request, game) | {"oob": True}
                html = render_to_string("lobby/table.html#room", context, request=self.request)
            else:
                # A list read in the last interval and after the last change heard.
                fresh_since = max(LISTING.changed_at, started - render_interval())
                html = LISTING.html(self.request, fresh_since)
        send_unless_same(self, html, if_changed)

    def _table(self):
        game = Game.objects.select_related("host").filter(code=self.code).first()
        if game is None or not may_see(self.request, game):
            return None
        return game


CSRF_MARK = "\x00csrf\x00"


class Listing:
    """The open tables list of this process, read once per change and drawn once per kind of user.

    Users differ only by the tables they sit at (their "Your table" links),
    their language and their CSRF token, put into each copy as it is sent.
    All synchronous consumers of a process run in one thread: no lock.
    """

    def __init__(self):
        self.forget()

    def forget(self):
        # Monotonic times: of the last "lobby.updated" any socket heard, of the last read.
        self.changed_at = float("-inf")
        self.read_at = float("-inf")
        self.games = []
        self.seated = {}
        self.drawn = {}

    def html(self, request, fresh_since):
        """Return the fragment for `request`'s user, from a list read after `fresh_since`."""
        if self.read_at <= fresh_since:
            self.read_at = time.monotonic()
            self.games = open_tables(AnonymousUser())
            self.seated = {}
            for game_id, user_id in Seat.objects.filter(game__in=self.games).values_list(
                "game_id", "user_id"
            ):
                self.seated.setdefault(user_id, set()).add(game_id)
            self.drawn = {}
        mine = frozenset(self.seated.get(request.user.pk, ()))
        key = (translation.get_language(), mine)
        if key not in self.drawn:
            for game in self.games:
                game.is_mine = game.pk in mine
            context = {"open_tables": self.games, "oob": True}
            html = render_to_string("lobby/tables.html#open_tables", context, request=request)
            self.drawn[key] = CSRF_INPUT.sub(
                f'name="csrfmiddlewaretoken" value="{CSRF_MARK}"', html
            )
        return self.drawn[key].replace(CSRF_MARK, get_token(request))


LISTING = Listing()


class UserConsumer(SelfChecking, WebsocketConsumer):
    """Send a logged-in user's header badges (at ws/me/): on connect and after every change.

    Only a bare "user.updated" travels through the user's group (see
    games.models.broadcast_users); the socket counts the games waiting for
    its user and their unread notifications itself, and counts again now and
    then (games/sockets.py), sending the badges if they changed.
    """

    sent = None

    def connect(self):
        self.request = socket_request(self.scope)
        self.group = None
        if not self.request.user.is_authenticated:
            self.close()
            return
        self.group = user_group(self.request.user.pk)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        # Counts may have changed while the socket was down: start with fresh ones.
        self.send_badges()

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        """Ignore anything sent: the socket only speaks."""

    def user_updated(self, event):
        self.send_badges()

    def socket_check(self, event):
        super().socket_check(event)
        if self.group:
            async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
            self.send_badges(if_changed=True)

    def send_badges(self, if_changed=False):
        context = {"nav": NavCounts(self.request.user), "oob": True}
        with translation.override(language_of(self.request)):
            html = render_to_string("base.html#nav_badges", context, request=self.request)
        send_unless_same(self, html, if_changed)


# A CSRF token is masked afresh at every render: it does not make a fragment different.
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def send_unless_same(consumer, html, if_changed):
    """Send `html` on `consumer`'s socket, unless `if_changed` and it is what was sent last."""
    same_as = CSRF_INPUT.sub("", html)
    if if_changed and same_as == consumer.sent:
        return
    consumer.sent = same_as
    consumer.send(text_data=html)


def socket_request(scope):
    """Return an HttpRequest with what the lobby templates use: user, session, cookies, CSRF.

    With it the fragments sent over the socket carry working forms (a CSRF
    token matching the browser's cookie) and the user's language.
    """
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = scope.get("path", "")
    request.user = scope["user"]
    request.session = scope["session"]
    request.COOKIES = scope.get("cookies", {})
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    csrf_secret = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if len(csrf_secret) == 32 and csrf_secret.isalnum():
        request.META["CSRF_COOKIE"] = csrf_secret
    return request


def language_of(request):
    """Return the language the user's pages are in (see accounts.middleware)."""
    saved = getattr(request.user, "language", "")
    if saved:
        try:
            return translation.get_supported_language_variant(saved)
        except LookupError:
            pass
    return translation.get_language_from_request(request)
