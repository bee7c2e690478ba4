"""The client's address behind trusted proxies, for the throttles and the socket limits.

Daphne's --proxy-headers takes the left-most entry of X-Forwarded-For, which
the client writes itself: anyone could choose the address they are counted
as (never refused, and able to lock out any address they name). A proxy
appends the address it saw to the right of what it was sent, so with
settings.TRUSTED_PROXY_HOPS proxies in front, the entry that many places from
the right is the one the outermost trusted proxy wrote: that is the client's.
With 0 (no proxy, the default) the headers are ignored and the connection's
own address counts.
"""

import ipaddress

from django.conf import settings


def forwarded_client(headers, hops):
    """Return the client's address from raw ASGI `headers`, trusting `hops` proxies; or None."""
    entries = []
    for name, value in headers:
        if name.lower() == b"x-forwarded-for":
            # Several header lines are one list, in order (RFC 9110 5.3).
            entries += [e.strip() for e in value.decode("latin-1").split(",") if e.strip()]
    if not entries:
        return None
    # Fewer entries than proxies (a client that reached an inner proxy directly):
    # the left-most is the best there is.
    return _address(entries[-min(hops, len(entries))])


def _address(entry):
    # "1.2.3.4", "2001:db8::1", and forms with a port: "1.2.3.4:5678", "[2001:db8::1]:80".
    candidates = [entry]
    if entry.startswith("["):
        candidates.append(entry[1:].partition("]")[0])
    elif entry.count(":") == 1:
        candidates.append(entry.partition(":")[0])
    for candidate in candidates:
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            continue
    return entry[:100]  # what the trusted proxy wrote, unusual as it is


class TrustedProxyMiddleware:
    """Take from a request's headers only what a trusted proxy wrote (HTTP and sockets).

    scope["client"] comes from the trusted proxies' entry of X-Forwarded-For. And
    scope["root_path"] is always empty: Daphne takes it from a Daphne-Root-Path
    header that any client can send, and Django would put it before every link of
    the page (href="/evil/..."), and keep a drawn piece for each value sent
    (lobby/templatetags/once.py), about 2 KB a request. The site is served at its
    server's root; FORCE_SCRIPT_NAME is the setting for another place.
    """

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            scope = {**scope, "root_path": ""}
            hops = settings.TRUSTED_PROXY_HOPS
            address = forwarded_client(scope.get("headers", []), hops) if hops > 0 else None
            if address is not None:
                scope["client"] = [address, 0]
        return await self.app(scope, receive, send)
