import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from games.models import Game, Seat
from games.tests.running_site import Serve, Site

PASSWORD = "purple-rent-deal-42"

# The moment time-controlled tests start at (see `traveller`).
START = timezone.datetime(2026, 11, 2, 9, 0, tzinfo=timezone.UTC)


@pytest.fixture
def traveller():
    """Stop the clock at START; tests move it with traveller.shift(timedelta)."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_language_left_active():
    # LocaleMiddleware activates a request's language in the test's thread and
    # leaves it there: a Chinese request must not make later tests Chinese.
    yield
    translation.deactivate()


def make_player(name):
    # A player who confirmed their email address long ago (accounts/email/confirm.py), as the
    # players the emails are about have.
    email = f"{name}@example.com"
    return get_user_model().objects.create_user(name, email, PASSWORD, email_confirmed=True)


@pytest.fixture
def alice(db):
    return make_player("alice")


@pytest.fixture
def bob(db):
    return make_player("bob")


@pytest.fixture
def charlie(db):
    return make_player("charlie")


@pytest.fixture
def table_game(alice, bob):
    """A started game: alice in seat 0, bob in seat 1."""
    game = Game.objects.create(host=alice, seat_count=2)
    Seat.objects.create(game=game, user=alice, position=0)
    Seat.objects.create(game=game, user=bob, position=1)
    return game.start()


@pytest.fixture
def shared_env(transactional_db):
    """Return the environment of server processes sharing this test's database and Redis.

    For tests marked `redis` (scripts/run-tests.sh runs them with PostgreSQL
    and Redis). They fail, never skip, when run without: SQLite and the
    in-memory channel layer cannot be shared between processes.
    """
    import os

    from django.db import connection

    from games.tools.load import database_url

    url = database_url(connection.settings_dict)
    if url is None or not os.environ.get("REDIS_URL"):
        pytest.fail(
            "This test needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): run "
            "scripts/run-tests.sh, or leave it out with -m 'not redis'."
        )
    return {"DATABASE_URL": url, "REDIS_URL": os.environ["REDIS_URL"]}


@pytest.fixture
def start_server(shared_env, tmp_path):
    """Return a function starting a Daphne process on a free loopback port (games.tools.load.Server).

    Every server started is killed at the end of the test, before the
    database is emptied (at once: see Site.kill).
    """
    from games.tools.load import Server

    started = []

    def start(**env):
        server = Server(env=shared_env | env, log=tmp_path / f"server-{len(started)}.log")
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.kill()


@pytest.fixture
def sites(tmp_path):
    """Return a function starting a Site; every one is killed after the test, pass or fail."""
    started = []

    def start(command, env):
        site = Site(command, env, tmp_path / f"site-{len(started)}.log")
        started.append(site)
        return site

    yield start
    for site in started:
        site.kill()


@pytest.fixture
def serve(transactional_db, tmp_path):
    """Return a function starting `manage.py serve`; every one is stopped after the test."""
    started = []

    def start(processes, *args, **env):
        server = Serve(processes, tmp_path / f"serve-{len(started)}.log", *args, **env)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def started_game(alice, bob, without_broadcasts):
    """Return a started game (alice and bob), made without broadcasting."""
    with without_broadcasts():
        game = Game.objects.create(host=alice, seat_count=2)
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bob, position=1)
        return game.start()
