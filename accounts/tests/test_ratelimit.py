"""The one rate limiter (accounts/ratelimit.py): its windows' edges, its fallback while the
shared cache fails, and failing open."""

import logging
import uuid

import pytest
import time_machine
from django.core.cache.backends.locmem import LocMemCache
from django.utils import timezone

from accounts import ratelimit
from accounts.ratelimit import FAIL_OPEN, FALLBACK, Limiter, Rate, SlidingWindow, hashed_key


class Broken:
    """A cache whose every call raises, and which counts the calls made to it."""

    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            self.calls += 1
            raise ConnectionError("cache away")

        return fail


def limiter(when_down):
    made = Limiter(f"test-{uuid.uuid4()}", when_down=when_down)
    made.shared = LocMemCache(f"test-shared-{uuid.uuid4()}", {})
    return made


# --- sliding windows ----------------------------------------------------------------------------


def test_a_sliding_window_lets_count_hits_in_and_refuses_the_next():
    window = SlidingWindow(Rate(3, 1))

    assert [window.take(t) for t in (10.0, 10.5, 10.9, 10.99)] == [True, True, True, False]


def test_a_hit_leaves_the_window_exactly_seconds_later():
    window = SlidingWindow(Rate(2, 1))
    window.take(10.0)
    window.take(10.5)

    assert window.take(10.999) is False
    assert window.take(11.0) is True  # 10.0 is a whole second old: out of the window
    assert window.take(11.4) is False  # 10.5 and 11.0 are still in it


def test_a_refused_hit_does_not_put_off_the_next():
    window = SlidingWindow(Rate(2, 1))
    window.take(10.0)
    window.take(10.1)
    for t in (10.2, 10.4, 10.6, 10.8, 10.9):
        assert window.take(t) is False

    assert window.take(11.0) is True


def test_a_sliding_window_in_the_cache_is_shared_by_every_limiter_of_the_cache():
    first = limiter(FAIL_OPEN)
    second = Limiter("another-process", when_down=FAIL_OPEN)
    second.shared = first.shared
    rate = Rate(2, 10)

    assert first.take("k", rate, now=100.0) is True
    assert second.take("k", rate, now=101.0) is True
    assert first.take("k", rate, now=105.0) is False
    assert second.take("k", rate, now=109.999) is False
    assert first.take("k", rate, now=110.0) is True
    assert first.take("other", rate, now=110.0) is True


# --- fixed windows ------------------------------------------------------------------------------


def test_a_fixed_window_counts_every_hit_until_it_ends():
    counts = limiter(FALLBACK)
    with time_machine.travel(timezone.datetime(2026, 11, 2, 9, 0, tzinfo=timezone.UTC)) as t:
        assert [counts.hit("k", 60) for _ in range(3)] == [1, 2, 3]
        t.shift(59)
        assert counts.hit("k", 60) == 4  # the window started with the first hit
        t.shift(1)
        assert counts.hit("k", 60) == 1


class ExpiringWithinIncr(LocMemCache):
    """A cache whose key expires between incr()'s two commands, as Redis's can.

    Django's RedisCache.incr asks EXISTS, then INCR: a key expiring between the two
    is made anew by INCR, at 1 and with no expiry.
    """

    def incr(self, key, delta=1, version=None):
        self.set(key, delta, timeout=None, version=version)
        return delta


def test_a_count_made_anew_within_incr_still_ends_with_its_window():
    counts = limiter(FALLBACK)
    counts.shared = ExpiringWithinIncr(f"test-shared-{uuid.uuid4()}", {})
    with time_machine.travel(timezone.datetime(2026, 11, 2, 9, 0, tzinfo=timezone.UTC)) as t:
        assert counts.hit("k", 60) == 1
        assert counts.hit("k", 60) == 1  # expired within incr(): a new window
        t.shift(61)

        assert counts.shared.get("k") is None


# --- the shared cache failing -------------------------------------------------------------------


def test_while_the_shared_cache_fails_a_fallback_limiter_counts_in_its_process(caplog):
    counts = limiter(FALLBACK)
    counts.shared = broken = Broken()

    with caplog.at_level(logging.WARNING):
        found = [counts.hit("k", 60) for _ in range(3)]

    assert found == [1, 2, 3]
    assert counts.call("get", "k") == 3
    assert broken.calls == 1  # left alone for RETRY_AFTER seconds once it failed
    assert caplog.text.count("the cache failed") == 1


def test_a_fallback_limiter_tries_the_shared_cache_again_after_a_while(monkeypatch):
    counts = limiter(FALLBACK)
    working = counts.shared
    counts.shared = Broken()
    counts.hit("k", 60)
    counts.shared = working
    assert counts.hit("k", 60) == 2  # still the process's count

    monkeypatch.setattr(ratelimit, "RETRY_AFTER", 0.0)
    counts.shared_down_until = 0.0

    assert counts.hit("k", 60) == 1
    assert working.get("k") == 1


def test_a_fallback_limiter_refuses_floods_while_the_shared_cache_fails():
    counts = limiter(FALLBACK)
    counts.shared = Broken()
    rate = Rate(2, 10)

    assert [counts.take("k", rate, now=100.0 + n) for n in range(3)] == [True, True, False]


def test_a_fail_open_limiter_lets_everything_through_while_the_shared_cache_fails():
    counts = limiter(FAIL_OPEN)
    counts.shared = broken = Broken()
    rate = Rate(1, 10)

    assert [counts.take("k", rate, now=100.0) for _ in range(5)] == [True] * 5
    assert counts.hit("k", 60) == 0
    assert broken.calls == 6  # tried every time: nothing is counted elsewhere


def test_a_fail_open_limiter_still_limits_while_its_cache_works():
    counts = limiter(FAIL_OPEN)
    rate = Rate(1, 10)

    assert [counts.take("k", rate, now=100.0) for _ in range(2)] == [True, False]


# --- keys ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["alice", "Al ice\n\x00:*", "ü" * 300])
def test_a_hashed_key_holds_nothing_a_user_typed(typed):
    key = hashed_key("throttle", "login-pair", typed, "192.0.2.1")

    assert key.startswith("throttle:login-pair:")
    assert len(key) == len("throttle:login-pair:") + 64
    assert typed not in key and "192.0.2.1" not in key
    assert key != hashed_key("throttle", "login-pair", typed + "x", "192.0.2.1")


def test_sliding_windows_per_key_keep_only_the_keys_last_used():
    windows = ratelimit.SlidingWindows(most=2)
    once = Rate(1, 60)

    assert windows.take("a", once, 0.0) and not windows.take("a", once, 1.0)
    assert windows.take("b", once, 1.0) and windows.take("c", once, 1.0)

    assert list(windows.windows) == ["b", "c"]  # "a", used least lately, is forgotten
    assert windows.take("a", once, 2.0)
