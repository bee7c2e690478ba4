"""A socket's cookies, session and user, in one copy of its scope.

Channels' AuthMiddlewareStack (cookies, then session, then user) copies the
scope three times and wraps `send` in a session wrapper, and every socket
holds all of it for its whole life: about 3 KB a socket. The wrapper only
ever saves the session on an HTTP response, never over a socket, so a
socket loses nothing by going without it: this middleware reads the same
cookie, the same session store and the same user (channels.auth.get_user,
which checks the session's password hash), and makes one copy.
"""

from importlib import import_module

from channels.auth import get_user
from django.conf import settings
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
        scope["user"] = await get_user(scope)
        return await self.inner(scope, receive, send)
