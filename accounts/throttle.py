"""Login throttling: too many failed logins lock a username, or an address, for a while.

Failures are counted in the cache (Redis in production, so every server
process sees the same counts). A lock refuses every attempt, even with the
right password, and works the same for usernames that do not exist, so it
tells nothing about which accounts there are.
"""

import hashlib
import time

from django.core.cache import cache

FAILURES_PER_USERNAME = 5
FAILURES_PER_ADDRESS = 20
# Failures are counted over this window, and a lock lasts as long.
WINDOW = 15 * 60  # seconds


def _keys(kind, value):
    # Hashed: a username may hold characters a cache key must not.
    digest = hashlib.sha256(value.encode()).hexdigest()
    return f"login-failures:{kind}:{digest}", f"login-locked:{kind}:{digest}"


def _subjects(username, address):
    # Usernames are compared case-insensitively here: "Alice" and "alice"
    # must not get five tries each.
    yield "username", (username or "").casefold(), FAILURES_PER_USERNAME
    if address:
        yield "address", address, FAILURES_PER_ADDRESS


def is_locked(username, address):
    """Return whether attempts for this username or from this address are refused now."""
    now = time.time()
    for kind, value, _limit in _subjects(username, address):
        _count_key, lock_key = _keys(kind, value)
        # The lock stores its end, not only a cache timeout, so that it ends
        # on time whatever the cache's own clock.
        until = cache.get(lock_key)
        if until is not None and until > now:
            return True
    return False


def record_failure(username, address):
    """Count a failed login; lock the username or the address once it reaches its limit."""
    now = time.time()
    for kind, value, limit in _subjects(username, address):
        count_key, lock_key = _keys(kind, value)
        # add() starts the window with the first failure; incr() keeps its expiry.
        if cache.add(count_key, 1, timeout=WINDOW):
            count = 1
        else:
            try:
                count = cache.incr(count_key)
            except ValueError:  # expired between add() and incr()
                cache.set(count_key, 1, timeout=WINDOW)
                count = 1
        if count >= limit:
            cache.set(lock_key, now + WINDOW, timeout=WINDOW)
            cache.delete(count_key)


def reset(username):
    """Forget the failures of a username after a successful login."""
    count_key, _lock_key = _keys("username", (username or "").casefold())
    cache.delete(count_key)
