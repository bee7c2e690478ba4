"""Settings for Full Set.

Everything that differs between a laptop, CI and production comes from
environment variables. The defaults give a working development site on
SQLite with the in-memory channel layer; DATABASE_URL switches to PostgreSQL
and REDIS_URL to the Redis channel layer and cache. With DEBUG off the site
runs in production mode: a secret key from the environment, HTTPS only,
secure cookies and static files served by WhiteNoise (after collectstatic).
"""

import os
import warnings
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.getenv(name, default)


def envbool(name: str, default: bool) -> bool:
    value = os.getenv(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: int) -> int:
    value = os.getenv(name)
    if value is None or value == "":
        return default
    return int(value)


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def redis_database(url: str, number: int) -> str:
    """Return the Redis URL with its database number replaced by `number`."""
    parts = urlsplit(url)
    if parts.scheme == "unix":  # unix:///run/redis.sock?db=0: the path is the socket's
        query = urlencode({**dict(parse_qsl(parts.query)), "db": str(number)})
        return f"unix://{parts.netloc}{parts.path}?{query}"
    return parts._replace(path=f"/{number}").geturl()


def database_from_url(url: str) -> dict:
    """Return a DATABASES entry for a postgres://user:pass@host:port/name URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(f"DATABASE_URL: unsupported scheme {parts.scheme!r}")
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured("DATABASE_URL: missing database name")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": unquote(parts.hostname or ""),
        "PORT": str(parts.port or ""),
        # Query parameters such as ?sslmode=require go straight to libpq. A new connection
        # to a server that hangs gives up after 5 s (libpq waits for good by default): the
        # request gets the readable "database unavailable" answer, not an endless wait.
        "OPTIONS": {"connect_timeout": "5", **dict(parse_qsl(parts.query))},
    }


DEBUG = envbool("DEBUG", True)

SECRET_KEY = env("SECRET_KEY")
make_a_key = "make one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(f"Set SECRET_KEY when DEBUG is off; {make_a_key}")
    SECRET_KEY = "django-insecure-dev-only-key-do-not-use-in-production"
elif not DEBUG and len(SECRET_KEY) < 50:
    # Sessions, password reset links and CSRF tokens are signed with it.
    raise ImproperlyConfigured(f"SECRET_KEY is too short (50 characters at least); {make_a_key}")

# How many proxies in front of the site append to X-Forwarded-For (0: none).
# The client's address, which the throttles count, is the entry that many
# places from the right: the one the outermost trusted proxy wrote, never one
# the client sent (config/proxy.py). `manage.py serve --proxy-headers` makes it
# 1 unless it is set.
TRUSTED_PROXY_HOPS = envint("TRUSTED_PROXY_HOPS", 0)

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    # First, so that runserver serves HTTP and WebSockets through Daphne.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "accounts",
    "games",
    "lobby",
]
# The measuring tools (games/tools/: benchmarks, the load test, the echo socket): installed in
# development, and in production only when asked for (FULLSET_TOOLS=1).
TOOLS = envbool("FULLSET_TOOLS", DEBUG)
if TOOLS:
    INSTALLED_APPS.append("games.tools")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Reads the session and the user first: a database restarting gets a readable 503.
    "config.middleware.DatabaseUnavailableMiddleware",
    # After LocaleMiddleware and AuthenticationMiddleware: a signed-in user's
    # saved language overrides the one chosen from the request.
    "accounts.middleware.user_language_middleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]
if not DEBUG:
    # Production serves collectstatic's files: after SecurityMiddleware (HTTPS
    # redirect, headers), before the rest, which a static file never needs.
    # Development serves them from the app folders (runserver, test servers).
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "lobby.context_processors.nav_counts",
            ],
        },
    },
]

# The embedded default. Take the write lock at BEGIN: a deferred transaction
# that later needs to write fails at once with "database is locked"; an
# immediate one waits up to `timeout` seconds for it. WAL: readers never wait
# for the writer, nor the writer for them. NORMAL is safe with WAL (a power
# cut may lose the last commits, never corrupt the file).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}

if env("DATABASE_URL"):
    DATABASES = {"default": database_from_url(env("DATABASE_URL"))}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": SQLITE_OPTIONS,
            # A file, not :memory:, so that a live server forked by the
            # browser tests sees the same test database. Two test runs at once in
            # one checkout each need their own (SQLITE_TEST_NAME).
            "TEST": {"NAME": env("SQLITE_TEST_NAME", str(BASE_DIR / "test-db.sqlite3"))},
        }
    }
# Keep each thread's connection between requests and socket messages (both
# databases): opening one per message costs more than most of what it runs.
# Production keeps them a minute (requests run in lasting threads: config/http.py).
DATABASES["default"]["CONN_MAX_AGE"] = envint("DB_CONN_MAX_AGE", 0 if DEBUG else 60)
# A kept PostgreSQL connection is checked (SELECT 1) before its first use in a request or a
# socket's message: after the server restarts, none fails on a connection that died.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = DATABASES["default"]["ENGINE"].endswith("postgresql")
# The lasting threads that run HTTP requests under Daphne (config/http.py); a request
# finding them all busy gets a thread of its own, up to HTTP_MOST_THREADS requests
# running at once in a process (each thread holds a database connection); the rest wait.
HTTP_THREADS = max(envint("HTTP_THREADS", 4), 1)
HTTP_MOST_THREADS = max(envint("HTTP_MOST_THREADS", 16), HTTP_THREADS)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

if env("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis's pub/sub layer: one PUBLISH a group send, and each process
            # reads what its sockets' groups are sent (docs/performance.md: the move
            # 9 to 11% cheaper than with its core layer). Its failures are found by a
            # heartbeat (games/live/sockets.py, watch_layer).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # channels-redis hands the extra keys to redis-py's
                # ConnectionPool.from_url. redis-py 8 defaults to a 5 s socket
                # timeout, which kills the layer's idle blocking reads.
                # health_check_interval: a pooled connection idle for a second is pinged
                # before use, and made anew if Redis restarted meanwhile (else its first
                # command fails: "Connection lost").
                "hosts": [
                    {
                        "address": env("REDIS_URL"),
                        "socket_timeout": None,
                        "health_check_interval": 1,
                    }
                ],
            },
        }
    }
else:
    # Channels' in-memory layer, lean per socket (config/layers.py).
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.layers.LeanChannelLayer"}}

# The worker (timeouts, bot moves, emails) broadcasts its moves through the
# channel layer. The in-memory layer reaches only the sockets of the process
# that sends, so without Redis the worker runs inside the web server process
# (games/play/worker.py); with Redis it is a process of its own (manage.py worker,
# started by manage.py serve).
WORKER_IN_SERVER = envbool("WORKER_IN_SERVER", not env("REDIS_URL"))

# Vacation of correspondence players: whole days a calendar year, each vacation counted
# in the year it starts (games/play/vacation.py).
VACATION_DAYS_PER_YEAR = envint("VACATION_DAYS_PER_YEAR", 30)

# The login throttle counts failures here, so every server process must share
# it: Redis when there is one.
if env("REDIS_URL"):
    CACHES = {
        "default": {
            # Django's RedisCache, with one client per process (config/caches.py).
            "BACKEND": "config.caches.RedisCache",
            # Another database number than the channel layer's, so that
            # clearing the cache never drops socket messages.
            "LOCATION": env("REDIS_CACHE_URL") or redis_database(env("REDIS_URL"), 1),
            # Unlike the channel layer's blocking reads, a cache call must
            # never hang: give up after 2 s.
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
            "KEY_PREFIX": "fullset",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sockets (games/live/sockets.py): how many one user, and one client address, may
# hold at once (0: no bound). Behind a proxy the address is the client's only
# with `serve --proxy-headers`; without it everyone shares the proxy's.
SOCKETS_PER_USER = envint("SOCKETS_PER_USER", 12)
SOCKETS_PER_ADDRESS = envint("SOCKETS_PER_ADDRESS", 100)
# How many moves one user may make in a second through one server process, posted and
# sent over their game sockets together (games/views.py `over_move_bound`; 0: no bound).
# More are refused before they are read: a posted one with 429, a socket's dropped.
MOVES_PER_SECOND = envint("MOVES_PER_SECOND", 10)
# How many finished games' records one user may download in a minute (games/views.py
# `export`; 0: no bound); more are answered 429.
EXPORTS_PER_MINUTE = envint("EXPORTS_PER_MINUTE", 10)
SEATINGS_PER_MINUTE = envint("SEATINGS_PER_MINUTE", 12)
# An open live table closes after this long without a player sitting down (0: never).
OPEN_LIVE_TABLE_MINUTES = envint("OPEN_LIVE_TABLE_MINUTES", 30)
# Every socket checks itself this often (games/live/sockets.py).
GAME_SOCKET_CHECK_SECONDS = 20
# A lobby socket draws a burst of changes at most once per this many seconds.
LOBBY_RENDER_SECONDS = float(env("LOBBY_RENDER_SECONDS", "1"))
# The open tables list: tables per page, and at most this many (the newest) of
# one host (0: no bound), so that one account cannot crowd out the others.
LOBBY_PAGE_TABLES = envint("LOBBY_PAGE_TABLES", 20)
LOBBY_TABLES_PER_HOST = envint("LOBBY_TABLES_PER_HOST", 3)

# Fair shares (games/play/limits.py): what one account may hold at once or send in
# a while, so that it cannot crowd the others out. Staff are exempt; 0: no bound.
OPEN_TABLES_PER_USER = envint("OPEN_TABLES_PER_USER", 5)  # hosted, not started
COMPUTER_GAMES_PER_USER = envint("COMPUTER_GAMES_PER_USER", 3)  # in play, with computer players
# Tables with people it sits at, open or in play, of each pace (games/play/limits.py).
LIVE_GAMES_PER_USER = envint("LIVE_GAMES_PER_USER", 5)
CORRESPONDENCE_GAMES_PER_USER = envint("CORRESPONDENCE_GAMES_PER_USER", 50)
INVITATIONS_PER_HOUR = envint("INVITATIONS_PER_HOUR", 20)
INVITATIONS_PER_INVITEE_PER_DAY = envint("INVITATIONS_PER_INVITEE_PER_DAY", 5)

# Post-game analysis (games/history/analysis.py, run by the worker): CPU seconds per judged decision
# and per game at most, seconds of it per worker round (the round's other jobs wait for it),
# how long a game stays queued on its own once it ended, and analyses one player may ask
# for in a day (0: no bound).
ANALYSIS_SECONDS_PER_DECISION = float(env("ANALYSIS_SECONDS_PER_DECISION", "0.3"))
ANALYSIS_SECONDS_PER_GAME = float(env("ANALYSIS_SECONDS_PER_GAME", "120"))
ANALYSIS_SECONDS_PER_ROUND = float(env("ANALYSIS_SECONDS_PER_ROUND", "1"))
ANALYSIS_AUTO_HOURS = envint("ANALYSIS_AUTO_HOURS", 24)
ANALYSIS_REQUESTS_PER_DAY = envint("ANALYSIS_REQUESTS_PER_DAY", 10)

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("zh-hans", _("Simplified Chinese")),
]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
if not DEBUG:
    # Hashed, compressed copies made by collectstatic; WhiteNoise serves them
    # with far-future cache headers. Development keeps the plain files, so it
    # needs no collectstatic.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {
            "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage",
        },
    }
    # WhiteNoise hands Django a synchronous file iterator, which Django under
    # ASGI reads in a thread, saying so once per process. The files are small
    # (the largest, htmx, is 50 kB): nothing to act on. Development still warns,
    # for any other streaming response.
    warnings.filterwarnings(
        "ignore", "StreamingHttpResponse must consume synchronous iterators", Warning
    )

# Security. Header and cookie settings that cost nothing in development are
# always on; the HTTPS ones only in production (DEBUG off).
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# Django's database sessions, read with one SQL statement written once (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"
SESSION_COOKIE_SAMESITE = "Lax"
# The language chosen in the settings (accounts.views): no script reads it.
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
# htmx sends the token from the page (hx-headers on <body>), never from the
# cookie, so no script needs to read it.
CSRF_COOKIE_HTTPONLY = True
# Content-Security-Policy: scripts, styles and connections (the sockets too) from this
# site only; no inline script or style anywhere (htmx's own indicator style is off, see
# base.html, and lives in site.css), no eval (no hx-on, no js: values), no framing.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
if not DEBUG:
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    if envbool("SECURE_PROXY_SSL_HEADER", False):
        # Only behind a proxy that sets (never passes on) X-Forwarded-Proto.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Every cookie: the messages' cookie follows SESSION_COOKIE_SECURE.
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", True)

DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Full Set <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Where the site is reached from outside, for the links in emails (no trailing slash).
SITE_URL = env("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Django 6.1 configures mail through MAILERS (the EMAIL_* settings are
# deprecated); the EMAIL_* environment variables keep their familiar names.
if env("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": env("EMAIL_HOST"),
                "port": envint("EMAIL_PORT", 587),
                "username": env("EMAIL_HOST_USER"),
                "password": env("EMAIL_HOST_PASSWORD"),
                "use_tls": envbool("EMAIL_USE_TLS", True),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
