"""A Redis that hangs holds one cache call, not every call of the process (config/caches.py)."""

import socket
import time

import pytest
import redis

from config import caches
from config.caches import RedisCache


@pytest.fixture
def black_hole():
    """A port that takes connections and never answers: a stopped Redis, a dropped network."""
    with socket.socket() as hole:
        hole.bind(("127.0.0.1", 0))
        hole.listen(64)  # never accepted: the kernel completes the connections, nobody reads
        yield hole.getsockname()[1]


def timed(call):
    started = time.monotonic()
    with pytest.raises(redis.RedisError):
        call()
    return time.monotonic() - started


def test_after_redis_did_not_answer_the_cache_fails_at_once_for_a_moment(black_hole, monkeypatch):
    monkeypatch.setattr(caches, "_away_until", 0.0, raising=False)  # put back after
    monkeypatch.setattr(caches, "AWAY_SECONDS", 0.5, raising=False)
    options = {"socket_timeout": 0.3, "socket_connect_timeout": 0.3}
    cache = RedisCache(f"redis://127.0.0.1:{black_hole}/0", {"OPTIONS": options})

    first = timed(lambda: cache.get("a"))
    then = [timed(lambda: cache.set("b", 1)) for _ in range(10)]
    time.sleep(0.5)
    again = timed(lambda: cache.get("c"))

    assert first >= 0.25  # the call that found Redis silent waited its timeout
    assert max(then) < 0.05  # the next ones, for AWAY_SECONDS, do not wait
    assert again >= 0.25  # then Redis is asked again


@pytest.mark.parametrize(
    ("location", "kind"),
    [
        ("redis://127.0.0.1:6399/0", redis.Connection),
        ("unix:///tmp/no-such-redis.sock?db=0", redis.UnixDomainSocketConnection),
        ("rediss://127.0.0.1:6399/0", redis.SSLConnection),
    ],
)
def test_each_kind_of_address_keeps_its_own_connection(location, kind):
    # redis-py takes the class from the URL unless it is given one: given, one per scheme.
    cache = RedisCache(location, {"OPTIONS": {}})

    pool = cache._cache._get_connection_pool(write=True)

    assert issubclass(pool.connection_class, kind)
    assert issubclass(pool.connection_class, caches.GivesUpQuickly)
