"""The worker's process has no event loop: it broadcasts from one of its own (games/models/broadcasts.py)."""

import pytest
import redis.asyncio.connection

from games.models import broadcasts

pytestmark = pytest.mark.redis


def test_the_worker_s_broadcasts_share_one_redis_connection(monkeypatch):
    monkeypatch.setattr(broadcasts, "_wants_own_loop", False)
    monkeypatch.setattr(broadcasts, "_own_loop_of", (None, None))
    broadcasts.broadcast_from_own_loop()
    made = []  # the Redis connections this process opens (the server's count is shared)
    real = redis.asyncio.connection.AbstractConnection.connect

    async def connect(self):
        if self._reader is None:
            made.append(self)
        return await real(self)

    monkeypatch.setattr(redis.asyncio.connection.AbstractConnection, "connect", connect)

    for n in range(20):
        broadcasts.group_send(f"nobody-{n}", {"type": "game.updated", "version": n})

    # A loop made anew for each (async_to_sync) opened one each: 20.
    assert len(made) <= 2
