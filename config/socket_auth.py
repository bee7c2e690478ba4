"""A socket's cookies, session and user, in one copy of its scope.

Channels' AuthMiddlewareStack (cookies, then session, then user) copies the
scope three times and wraps `send` in a session wrapper, and every socket
holds all of it for its whole life: about 3 KB a socket. The wrapper only
ever saves the session on an HTTP response, never over a socket, so a
socket loses nothing by going without it: this middleware reads the same
cookie, the same session store and the same user (channels.auth.get_user,
which checks the session's password hash), and makes one copy.

While the database is away (PostgreSQL restarting) no socket can be checked:
the handshake is refused (Daphne answers 403 to a close before the accept),
which the page's socket (htmx-ext-ws) sees as an abnormal closure (1006) and
tries again after its back-off, instead of the 500 an exception here would
make. (A server may not close with 1013, "try again later": Autobahn allows
1000 and 3000-4999 only, and the page reconnects on neither.)
"""

from importlib import import_module

from channels.auth import get_user
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http.cookie import parse_cookie


class SocketAuthMiddleware:
    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        cookies = {}
        for name, value in scope.get("headers", ()):
            if name == b"cookie":
                cookies = parse_cookie(value.decode("latin1"))
                break
        store = import_module(settings.SESSION_ENGINE).SessionStore
        scope = dict(
            scope, cookies=cookies, session=store(cookies.get(settings.SESSION_COOKIE_NAME))
        )
        try:
            scope["user"] = await get_user(scope)
        except (OperationalError, InterfaceError):
            await receive()  # websocket.connect
            await send({"type": "websocket.close"})
            return None
        return await self.inner(scope, receive, send)
