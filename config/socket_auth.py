"""A socket's cookies, session and user, in one copy of its scope; and which pages may open it.

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
from urllib.parse import urlsplit

from channels.auth import get_user
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http.cookie import parse_cookie
from django.utils.http import is_same_domain


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


# Which pages may open the site's sockets: its own, as Django's CSRF check has it.
#
# Channels' AllowedHostsOriginValidator compares the Origin's host name with
# ALLOWED_HOSTS and nothing else, so a page of the same host on another port
# (another program on the same machine or domain) could open a signed-in
# user's sockets: cookies are not kept apart by port. A socket whose Origin
# names another host and port than its own Host header (the socket's address,
# as the browser sent it) is refused too, unless the Origin is one of
# CSRF_TRUSTED_ORIGINS, as Django's CSRF check allows. Without a Host header
# (no browser omits it; a test's communicator does) the host names decide.


def same_origin(headers):
    """Whether raw ASGI `headers` name one site in Origin and Host (or lack either)."""
    found = {name.lower(): value.decode("latin-1") for name, value in headers}
    origin, host = found.get(b"origin"), found.get(b"host")
    if not origin or not host or trusted(origin):
        return True
    return urlsplit(origin).netloc.lower() == host.lower()


def trusted(origin):
    """Whether `origin` is one of CSRF_TRUSTED_ORIGINS, "https://*.example.com" included,
    matched as Django's CsrfViewMiddleware matches them."""
    scheme, netloc = urlsplit(origin)[:2]
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        allowed = urlsplit(entry)
        if entry == origin or (
            "*" in allowed.netloc
            and allowed.scheme == scheme
            and is_same_domain(netloc, allowed.netloc.lstrip("*"))
        ):
            return True
    return False


def SameOriginValidator(application):  # noqa: N802 (a middleware factory, as Channels' is)
    """Wrap `application`: sockets from pages of ALLOWED_HOSTS, and of the socket's own port."""
    checked = AllowedHostsOriginValidator(application)

    async def validate(scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(scope.get("headers", ())):
            return await WebsocketDenier()(scope, receive, send)
        return await checked(scope, receive, send)

    return validate
