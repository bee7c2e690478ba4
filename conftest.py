"""Fixtures shared by every app's tests: a live ASGI server and a headless browser."""

import os
import zlib
from functools import partial
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parent / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


def pytest_configure(config):
    """Have Hypothesis print how to replay a failure; give each parallel worker (pytest-xdist)
    Redis databases of its own.

    The workers have a test database each (pytest-django names them), but share
    the Redis server: one worker's cache.clear() would empty the other's
    throttles and slots, and its user-N group would reach the other's sockets.
    Nothing has connected to Redis yet: the cache and the layer read these.
    """
    from hypothesis import settings as hypothesis_settings

    # A falsifying example's blob: @reproduce_failure(...) replays it exactly.
    hypothesis_settings.register_profile("fullset", print_blob=True)
    hypothesis_settings.load_profile("fullset")

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL")
    if not (worker.startswith("gw") and url):
        return
    from django.conf import settings

    from config.settings import redis_database

    number = int(worker[2:])
    layer, cache = redis_database(url, 2 + 2 * number), redis_database(url, 3 + 2 * number)
    # The servers the tests start inherit them (games.tests.running_site.server_env).
    os.environ["REDIS_URL"], os.environ["REDIS_CACHE_URL"] = layer, cache
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"] = layer
    settings.CACHES["default"]["LOCATION"] = cache


def pytest_collection_modifyitems(config, items):
    """Mark the tests that drive Chromium: scripts/run-tests.sh runs them on SQLite only."""
    for item in items:
        if item.path.name.startswith("test_browser_"):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("one_database") and item.get_closest_marker("every_database"):
            raise pytest.UsageError(f"{item.nodeid}: one_database and every_database both")


def deal_seed(nodeid):
    """Return the seed of `nodeid`'s deals: FULLSET_TEST_SEED, else one fixed per test."""
    given = os.environ.get("FULLSET_TEST_SEED")
    return int(given) if given else zlib.crc32(nodeid.encode())


@pytest.fixture(autouse=True)
def reproducible_deals(request, monkeypatch):
    """Deal every game a test makes from a generator seeded by the test (see deal_seed).

    Without it each run dealt new cards, and a failure seen once could not be
    dealt again. A failed test's report names its seed.
    """
    import random

    from games.models import game as models

    seed = deal_seed(request.node.nodeid)
    request.node.deal_seed = seed
    monkeypatch.setattr(models, "SEEDS", random.Random(seed))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    seed = getattr(item, "deal_seed", None)
    if report.failed and seed is not None:
        report.sections.append(
            ("deals", f"games dealt from seed {seed}: FULLSET_TEST_SEED={seed} deals them again")
        )
    return report


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, ending the test database's other sessions before it is dropped.

    Threads of this process that ran a socket's or a request's work (asgiref's
    executor, config/http.py's lanes) keep their connections, as production does,
    and PostgreSQL refuses to drop a database still in use ("is being accessed
    by other users"): the run ended with that warning and the database left behind.
    """
    yield
    from django.db import connection

    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture(autouse=True)
def _close_socket_thread_connections():
    """After each test, close the connections of asgiref's thread, where sockets do their database work.

    Channels' database_sync_to_async runs in that one thread for every async test, and
    it keeps its connection between messages as production does. Left open after a
    test with the database, it made the next async test without one fail on its first
    message (its close_old_connections asks the kept connection, and the database is
    blocked there): test_socket_inbox.py after test_socket_moves.py failed so.
    """
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)


@pytest.fixture(autouse=True)
def as_fast_as_a_test_likes(settings, monkeypatch):
    """Tests make moves faster than any player, and read each socket's frames in order.

    The bound on moves posted and sent over sockets (MOVES_PER_SECOND: a user's,
    in a process, across all the tests of a worker) is off, and a socket draws the presence list at once (PRESENCE_SECONDS),
    not a second after the last: its frame would otherwise come at a time of its own,
    among a move's. The tests of each turn them on (games/tests/test_move.py,
    test_socket_moves.py, test_chat_socket.py).
    """
    from games.chat import socket as chat_socket

    settings.MOVES_PER_SECOND = 0
    monkeypatch.setattr(chat_socket, "PRESENCE_SECONDS", 0)


@pytest.fixture(autouse=True)
def empty_cache():
    """Start every test with empty caches: the login throttle's counts, the sockets' slots,
    the moves posted or sent a second, the lobby's list (a process reuses it for up to a second)."""
    from channels.layers import channel_layers
    from django.core.cache import cache

    from games.views import USER_MOVES
    from lobby.consumers import HUB, LISTING

    cache.clear()
    USER_MOVES.windows.clear()
    LISTING.forget()
    # Each async test has an event loop of its own; the lobby hub's task lives on the loop
    # of the test that started it, and the Redis layer's locks on the loop that first took
    # them. A fresh layer and hub per test, as a fresh process would have.
    channel_layers.backends.clear()
    HUB.sockets.clear()
    HUB.task = None


@pytest.fixture
def without_broadcasts(monkeypatch):
    """Make games with the broadcasts switched off; return the context manager that does it.

    Browser tests build their games in the test's thread, where Playwright's
    event loop rules out async_to_sync, before any page listens.
    """
    from contextlib import contextmanager

    from games.models import broadcasts

    @contextmanager
    def quiet():
        with monkeypatch.context() as patch:
            patch.setattr(broadcasts, "send_to_groups", lambda messages: None)
            yield

    return quiet


def _fresh_connections():
    """Run in the forked server: open its own database connections (never the parent's).

    The inherited connections are dropped, not closed: closing one would send
    PostgreSQL a goodbye on the socket the parent still uses and end the
    parent's session. (psycopg never closes a connection made by another
    process when it is garbage collected.)
    """
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.connection = None
    # asgiref's executor for thread-sensitive code (where sync consumers run)
    # keeps the parent's worker thread, which a fork does not copy: work sent
    # to it would wait forever.
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync

    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)


@pytest.fixture
def live_asgi_server(transactional_db, django_db_blocker, settings):
    """Serve the whole ASGI application (HTTP and WebSockets) from a Daphne process.

    pytest-django's live_server is WSGI-only and cannot serve sockets. The
    server is forked after the test database exists, so it uses that
    database as it is (the settings already name it; Channels' own helper
    would prefix "test_" once more on PostgreSQL). It runs no worker: the
    tests make the worker's moves themselves, when they choose.
    """
    settings.WORKER_IN_SERVER = False  # the forked server reads it as it starts
    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    with django_db_blocker.unblock():
        server = DaphneProcess(
            "127.0.0.1",
            partial(make_application, static_wrapper=ASGIStaticFilesHandler),
            setup=_fresh_connections,
        )
        server.start()
        if not server.ready.wait(timeout=30):
            server.terminate()
            raise RuntimeError("The live ASGI server did not start.")
    yield f"http://127.0.0.1:{server.port.value}"
    server.terminate()
    server.join(10)


@pytest.fixture(scope="module")
def browser():
    """A headless Debian Chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls
    # the tests make meanwhile are still plain synchronous calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def screenshot_dir():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


SCREENSHOTS = os.environ.get("FULLSET_SCREENSHOTS") == "1"


def screenshot(target, **options):
    """Save a screenshot of `target` (a page or a locator) when FULLSET_SCREENSHOTS=1.

    They are for a person looking at the pages (docs/testing.md); no test
    reads them. Taken on every run, their encoding cost about a fifth of the
    browser tests' time (four modules: 109 s against 84 s without).
    """
    if SCREENSHOTS:
        target.screenshot(**options)


def open_page(
    browser,
    server,
    user,
    path,
    viewport=(1100, 900),
    touch=False,
    init_script=None,
    scale=1,
    prepare=None,
):
    """Open `path` in a new browser context logged in as `user`; return (page, page errors).

    `touch` gives the context a touch screen; `init_script` runs in the page before its own;
    `scale` is the device pixel ratio (2 with half the viewport: a 200% zoom); `prepare` is
    called with the page before it opens `path` (to route its requests or sockets).
    """
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    width, height = viewport
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, device_scale_factor=scale
    )
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": server}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # What the Content-Security-Policy refuses is reported on the console only.
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    if init_script:
        page.add_init_script(init_script)
    if prepare:
        prepare(page)
    page.goto(server + path)
    return page, errors


# Counts the messages a table's socket delivered, and among them the whole boards (a
# connect's first message holds every fragment, the hand's included: games/live/consumers.py).
COUNT_BOARDS = (
    "document.addEventListener('htmx:wsAfterMessage', (event) => { "
    "window.boardsReceived = (window.boardsReceived || 0) + 1; "
    "const text = String(event.detail.message || ''); "
    "if (text.includes('id=\"hand\"') && text.includes('id=\"board\"')) "
    "window.wholeBoards = (window.wholeBoards || 0) + 1; });"
)


def open_live_table(
    browser, server, user, game, viewport=(1100, 900), touch=False, scale=1, prepare=None
):
    """Open `game`'s table as `user` once its socket has sent the whole board; return (page, errors).

    The socket's first message redraws the board: a test pointing at a card
    before then may be pointing at a card about to be replaced. What comes
    after it (who is at the table) replaces no card.
    """
    page, errors = open_page(
        browser,
        server,
        user,
        f"/games/{game.code}/",
        viewport,
        touch,
        init_script=COUNT_BOARDS,
        scale=scale,
        prepare=prepare,
    )
    page.wait_for_function("() => window.wholeBoards > 0", timeout=30_000)
    return page, errors
