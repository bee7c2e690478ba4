"""Every piece of the site that copies, replaces or patches third-party code, in one list.

Each entry names the module holding the piece, the package whose code it
copies or reaches into, the version of that package it was last read
against, and what it copies. `config/tests/test_patches.py` fails when the
installed version of one of these packages differs from the one written
here: an upgrade of Django, Daphne, Channels, channels-redis or Twisted is a
conscious step. To take one: read the upstream code each piece names
against the new version, mend the piece if it changed, run `make test`,
then write the new version here. What each piece buys, measured, is in
docs/performance.md ("Mechanisms of our own").
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Piece:
    module: str  # where it lives in this project
    package: str  # the distribution it copies or patches
    version: str  # the version it was read against
    copies: str  # what upstream code it stands for


PIECES = (
    Piece(
        "config/http.py (PooledASGIHandler)",
        "Django",
        "6.1.3",
        "django.core.handlers.asgi.ASGIHandler.handle and its request/response steps",
    ),
    Piece(
        "config/http.py (leave_bodies_unparsed)",
        "Twisted",
        "26.10.0",
        "twisted.web.http.Request.requestReceived's parsing of form bodies (turned off)",
    ),
    Piece(
        "config/http.py (leave_bodies_unparsed)",
        "daphne",
        "4.2.3",
        "daphne.http_protocol.WebRequest, which inherits that parsing",
    ),
    Piece(
        "config/mailbox.py",
        "daphne",
        "4.2.3",
        "daphne.server.Server.create_application (each connection's asyncio.Queue)",
    ),
    Piece(
        "games/live/sockets.py (SelfChecking.__call__)",
        "channels",
        "4.3.2",
        "channels.consumer.AsyncConsumer.__call__ (and await_many_dispatch)",
    ),
    Piece(
        "config/layers.py (LeanChannelLayer)",
        "channels",
        "4.3.2",
        "channels.layers.InMemoryChannelLayer's semantics (the embedded set-up's layer)",
    ),
    Piece(
        "config/socket_auth.py",
        "channels",
        "4.3.2",
        "channels.auth.AuthMiddlewareStack (cookies, session and user middlewares)",
    ),
    Piece(
        "config/statements.py",
        "Django",
        "6.1.3",
        "the SQL compiler's output (as_sql, select, converters) and Model.from_db / save",
    ),
    Piece(
        "games/live/sockets.py (watch_layer)",
        "channels-redis",
        "4.3.0",
        "nothing copied: it relies on RedisPubSubChannelLayer's reader task logging Redis's "
        "errors and subscribing again after a reconnect, a cancelled receive forgetting its "
        "channel, and __getattr__ needing a running loop (games.models.broadcasts.send_to_groups); "
        "ReaderOutage filters that reader's log (logger channels_redis.pubsub) of a lost Redis",
    ),
    Piece(
        "config/caches.py (RedisCache)",
        "Django",
        "6.1.3",
        "django.core.cache.backends.redis.RedisCache._cache (one RedisCacheClient per cache "
        "object, made from _class, _servers and _options), shared per process instead",
    ),
    Piece(
        "accounts/users.py",
        "Django",
        "6.1.3",
        "QuerySet.get(pk=...) as ModelBackend.get_user calls it",
    ),
    Piece(
        "accounts/sessions.py",
        "Django",
        "6.1.3",
        "django.contrib.sessions.backends.db.SessionStore.load",
    ),
)
