import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from games.models import Game, Seat

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


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", "alice@example.com", PASSWORD)


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", "bob@example.com", PASSWORD)


@pytest.fixture
def charlie(db):
    return get_user_model().objects.create_user("charlie", "charlie@example.com", PASSWORD)


@pytest.fixture
def table_game(alice, bob):
    """A started game: alice in seat 0, bob in seat 1."""
    game = Game.objects.create(host=alice, seat_count=2)
    Seat.objects.create(game=game, user=alice, position=0)
    Seat.objects.create(game=game, user=bob, position=1)
    return game.start()
