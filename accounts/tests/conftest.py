import pytest

from accounts.models import User

PASSWORD = "purple-rent-deal-42"


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    # The real hasher is slow on purpose; these tests log in dozens of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db):
    # Players of some standing: their addresses confirmed (accounts/email/confirm.py).
    return User.objects.create_user(
        "alice", "alice@example.com", PASSWORD, display_name="Alice Liddell", email_confirmed=True
    )


@pytest.fixture
def bob(db):
    return User.objects.create_user("bob", "bob@example.com", PASSWORD, email_confirmed=True)


@pytest.fixture
def charlie(db):
    return User.objects.create_user(
        "charlie", "charlie@example.com", PASSWORD, email_confirmed=True
    )


@pytest.fixture(autouse=True)
def shared_throttle_cache():
    """Start every test with the throttle on the shared cache and an empty local fallback."""
    from accounts import throttle

    throttle.counts.forget()


@pytest.fixture(autouse=True)
def no_language_left_active():
    # LocaleMiddleware activates a request's language in the test's thread and
    # leaves it there: a Chinese request must not make later tests Chinese.
    yield
    from django.utils import translation

    translation.deactivate()
