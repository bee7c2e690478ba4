import pytest
from django.contrib.auth import get_user_model

from games.models import Game

PASSWORD = "purple-rent-deal-42"


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user(
        "alice", "alice@example.com", PASSWORD, display_name="Alice Liddell"
    )


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", "bob@example.com", PASSWORD)


@pytest.fixture
def charlie(db):
    return get_user_model().objects.create_user("charlie", "charlie@example.com", PASSWORD)


def open_table(host, *players, **fields):
    """Create an open table hosted (and seat 0 taken) by `host`, then seat `players`."""
    fields.setdefault("seat_count", 3)
    game = Game.objects.create(host=host, **fields)
    for position, user in enumerate([host, *players]):
        game.seats.create(user=user, position=position)
    return game


@pytest.fixture
def table(alice):
    """Alice's open public table of 3 seats; she sits in seat 0."""
    return open_table(alice)


@pytest.fixture
def private_table(alice):
    return open_table(alice, private=True)
