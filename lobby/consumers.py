"""The lobby socket: keeps the open tables list, or one waiting room, up to date."""

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation

from games.models import LOBBY_GROUP, Game
from lobby.views import may_see, open_tables, room_context


class LobbyConsumer(WebsocketConsumer):
    """Send the open tables (at ws/lobby/) or a table's seats (at ws/lobby/<code>/).

    Only a bare "lobby.updated" travels through the group; each socket then
    renders the fragment for its own user, as the page would over HTTP.
    """

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

    def send_fragment(self):
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
        self.send(text_data=html)

    def _table(self):
        game = Game.objects.select_related("host").filter(code=self.code).first()
        if game is None or not may_see(self.request, game):
            return None
        return game


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
