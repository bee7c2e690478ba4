"""Who has a table open (games/chat/presence.py), kept in the shared cache."""

import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from games.chat import presence

pytestmark = pytest.mark.one_database


class Lost:
    """The cache of a Redis that went away: every call fails as redis-py's do."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise RedisConnectionError("Redis went away")

        return fail


def test_a_lost_redis_is_one_line_a_read_not_a_traceback(monkeypatch, caplog):
    # While Redis is away every page and socket check reads presence: an outage of a
    # minute logged a traceback of 76 lines a second per process.
    monkeypatch.setattr(presence, "cache", Lost())

    with caplog.at_level(logging.WARNING, logger=presence.log.name):
        assert presence.present("abc", [1, 2]) == set()
        assert presence.arrive("abc", 1, "token") == (None, False)

    assert [bool(record.exc_info) for record in caplog.records] == [False, False]
    assert "Presence not read: the cache failed:" in caplog.text
    assert "ConnectionError" in caplog.records[0].getMessage()


def test_any_other_failure_keeps_its_traceback(monkeypatch, caplog):
    class Broken:
        def get_many(self, keys):
            raise TypeError("a bug")

    monkeypatch.setattr(presence, "cache", Broken())

    with caplog.at_level(logging.WARNING, logger=presence.log.name):
        presence.present("abc", [1])

    [record] = caplog.records
    assert record.exc_info[0] is TypeError
