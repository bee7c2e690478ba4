"""The worker's process has no event loop: it broadcasts from one of its own (games/models/broadcasts.py)."""

import pytest
import redis
from django.conf import settings

from games.models import broadcasts

pytestmark = pytest.mark.redis


def _connections_received():
    address = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"]
    server = redis.Redis.from_url(address)
    try:
        return server.info("stats")["total_connections_received"]
    finally:
        server.close()


def test_the_worker_s_broadcasts_share_one_redis_connection(monkeypatch):
    monkeypatch.setattr(broadcasts, "_wants_own_loop", False)
    monkeypatch.setattr(broadcasts, "_own_loop_of", (None, None))
    broadcasts.broadcast_from_own_loop()
    before = _connections_received()

    for n in range(20):
        broadcasts.group_send(f"nobody-{n}", {"type": "game.updated", "version": n})

    # A loop made anew for each (async_to_sync) opened 20. Room for a parallel
    # worker's few.
    assert _connections_received() - before <= 8
