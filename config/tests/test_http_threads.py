"""HTTP under Daphne: each request runs in one of a few lasting threads (config/http.py).

A lasting thread keeps its database connection between requests; a request that
finds every lane busy gets a thread of its own, as Django would give it.
"""

import asyncio
import os
import threading

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_started

from config.http import PooledASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def threads_seen():
    """Record the name of the thread each request starts in."""
    seen = []

    def note(**kwargs):
        seen.append(threading.current_thread().name)

    request_started.connect(note)
    yield seen
    request_started.disconnect(note)


async def get(handler, path="/how-to-play/"):
    communicator = HttpCommunicator(handler, "GET", path, headers=[(b"host", b"localhost")])
    response = await communicator.get_response(10)
    await communicator.wait(10)  # the request is over: its lane is free again
    return response["status"]


async def test_it_runs_requests_one_after_another_in_one_lasting_thread(threads_seen):
    handler = PooledASGIHandler()

    statuses = [await get(handler) for _ in range(3)]

    assert statuses == [200, 200, 200]
    assert len(set(threads_seen)) == 1 and threads_seen[0].startswith("http-")


async def test_it_gives_a_request_its_own_thread_when_every_lane_is_busy(settings, threads_seen):
    settings.HTTP_THREADS = 1
    handler = PooledASGIHandler()
    busy = threading.Event()
    release = threading.Event()

    def hold(**kwargs):
        if not busy.is_set():
            busy.set()
            release.wait(10)  # the first request holds the only lane

    request_started.connect(hold)
    try:
        first = asyncio.ensure_future(get(handler))
        await asyncio.to_thread(busy.wait, 10)
        second = await get(handler)  # served while the first still holds the lane
        release.set()
        assert await first == 200 and second == 200
    finally:
        release.set()
        request_started.disconnect(hold)
    assert threads_seen[0].startswith("http-")
    assert not threads_seen[1].startswith("http-")


def test_it_answers_in_a_forked_process_after_the_parent_used_its_lanes():
    """A process forked after a request (as the browser tests' servers are) still answers."""
    handler = PooledASGIHandler()
    assert asyncio.run(get(handler)) == 200  # the parent's lane now has its thread
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            status = asyncio.run(asyncio.wait_for(get(handler), 10))
            os.write(write, str(status).encode())
        finally:
            os._exit(0)
    os.close(write)
    _pid, _code = os.waitpid(child, 0)
    with os.fdopen(read) as answer:
        assert answer.read() == "200"
