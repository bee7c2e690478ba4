"""Which pages may open the site's sockets: its own, as Django's CSRF check has it.

Channels' AllowedHostsOriginValidator compares the Origin's host name with
ALLOWED_HOSTS and nothing else, so a page of the same host on another port
(another program on the same machine or domain) could open a signed-in
user's sockets: cookies are not kept apart by port. A socket whose Origin
names another host and port than its own Host header (the socket's address,
as the browser sent it) is refused too, unless the Origin is one of
CSRF_TRUSTED_ORIGINS, as Django's CSRF check allows. Without a Host header
(no browser omits it; a test's communicator does) the host names decide.
"""

from urllib.parse import urlsplit

from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from django.conf import settings


def same_origin(headers):
    """Whether raw ASGI `headers` name one site in Origin and Host (or lack either)."""
    found = {name.lower(): value.decode("latin-1") for name, value in headers}
    origin, host = found.get(b"origin"), found.get(b"host")
    if not origin or not host or origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    return urlsplit(origin).netloc.lower() == host.lower()


def SameOriginValidator(application):  # noqa: N802 (a middleware factory, as Channels' is)
    """Wrap `application`: sockets from pages of ALLOWED_HOSTS, and of the socket's own port."""
    checked = AllowedHostsOriginValidator(application)

    async def validate(scope, receive, send):
        if scope["type"] == "websocket" and not same_origin(scope.get("headers", ())):
            return await WebsocketDenier()(scope, receive, send)
        return await checked(scope, receive, send)

    return validate
