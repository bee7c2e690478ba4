"""The lobby sockets: the open tables list, one waiting room, and a user's header badges."""

import re

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation

from games.models import LOBBY_GROUP, Game, user_group
from games.sockets import SelfChecking
from lobby.context_processors import NavCounts
from lobby.views import may_see, open_tables, room_context


class LobbyConsumer(SelfChecking, WebsocketConsumer):
    """Send the open tables (at ws/lobby/) or a table's seats (at ws/lobby/<code>/).

    Only a bare "lobby.updated" travels through the group; each socket then
    renders the fragment for its own user, as the page would over HTTP. Now
    and then it joins the group again and sends the fragment if it changed
    (games/sockets.py): an update lost while Redis was down heals then.
    """

    sent = None

    def connect(self):
        self.code = self.scope["url_route"]["kwargs"].get("code")
        self.request = socket_request(self.scope)
        if self.code and self._table() is None:
            self.close()
            return
        async_to_sync(self.channel_layer.group_add)(LOBBY_GROUP, self.channel_name)
        self.accept()
        # Every (re)connect starts with a fresh render: the socket may have
        # missed updates while it was down.
        self.send_fragment()

    def disconnect(self, code):
        async_to_sync(self.channel_layer.group_discard)(LOBBY_GROUP, self.channel_name)

    def lobby_updated(self, event):
        self.send_fragment()

    def socket_check(self, event):
        async_to_sync(self.channel_layer.group_add)(LOBBY_GROUP, self.channel_name)
        self.send_fragment(if_changed=True)

    def send_fragment(self, if_changed=False):
        with translation.override(language_of(self.request)):
            if self.code:
                game = self._table()
                if game is None:
                    return
                context = room_context(self.request, game) | {"oob": True}
                html = render_to_string("lobby/table.html#room", context, request=self.request)
            else:
                context = {"open_tables": open_tables(self.request.user), "oob": True}
                html = render_to_string(
                    "lobby/tables.html#open_tables", context, request=self.request
                )
        send_unless_same(self, html, if_changed)

    def _table(self):
        game = Game.objects.select_related("host").filter(code=self.code).first()
        if game is None or not may_see(self.request, game):
            return None
        return game


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
