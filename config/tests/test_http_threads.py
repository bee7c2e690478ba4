"""HTTP under Daphne: each request runs in one of a few lasting threads (config/http.py).

A lasting thread keeps its database connection between requests; a request that
finds every lane busy gets a thread of its own, as Django would give it.
"""

import asyncio
import os
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.core.signals import request_started
from django.db import connections

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


async def test_it_runs_the_request_signals_and_the_view_in_one_hop_to_its_lane(monkeypatch):
    """request_started, the view and request_finished (the response's closing): one hop."""
    from django.core.signals import request_finished

    from config import http

    hops, signals_seen = [], []

    def counted(function, **kwargs):
        hops.append(getattr(function, "__name__", function))
        return sync_to_async(function, **kwargs)

    def started(**kwargs):
        signals_seen.append(("started", threading.current_thread().name))

    def finished(**kwargs):
        signals_seen.append(("finished", threading.current_thread().name))

    monkeypatch.setattr(http, "sync_to_async", counted)
    request_started.connect(started)
    request_finished.connect(finished)
    try:
        assert await get(PooledASGIHandler()) == 200
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)

    assert hops == ["respond"]
    [(first, lane), (last, same_lane)] = signals_seen
    assert (first, last) == ("started", "finished")
    assert lane == same_lane and lane.startswith("http-")


async def test_it_sends_a_streaming_response_before_closing_it(monkeypatch):
    from django.core.signals import request_finished
    from django.http import StreamingHttpResponse

    handler = PooledASGIHandler()
    events = []

    def parts():
        yield b"first "
        events.append("drawn")
        yield b"second"

    def finished(**kwargs):
        events.append("finished")

    monkeypatch.setattr(handler, "get_response", lambda request: StreamingHttpResponse(parts()))
    request_finished.connect(finished)
    try:
        communicator = HttpCommunicator(handler, "GET", "/", headers=[(b"host", b"localhost")])
        await communicator.send_input({"type": "http.request", "body": b""})
        assert (await communicator.receive_output(10))["status"] == 200
        body = b""
        while True:  # Django ends a stream with an empty message (no "body")
            message = await communicator.receive_output(10)
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await communicator.wait(10)
    finally:
        request_finished.disconnect(finished)

    assert body == b"first second"
    assert events == ["drawn", "finished"]


def test_daphne_leaves_a_posted_forms_body_to_django(monkeypatch):
    """Twisted does not parse a POST's form (Daphne never reads it; Django parses it again)."""
    from unittest.mock import MagicMock

    from daphne.http_protocol import WebRequest

    import config.asgi  # noqa: F401  every Daphne process loads it, and with it the switch

    body = b"version=12&kind=lay&card=40&colour=red"
    request = WebRequest(MagicMock())
    monkeypatch.setattr(request, "process", lambda: None)  # what Daphne hands to the app
    request.requestHeaders.setRawHeaders(b"content-type", [b"application/x-www-form-urlencoded"])
    request.gotLength(len(body))
    request.handleContentChunk(body)

    request.requestReceived(b"POST", b"/games/abc/move/", b"HTTP/1.1")

    assert request.args == {}
    request.content.seek(0)
    assert request.content.read() == body


async def test_a_drawn_response_is_sent_without_listening_for_the_client_going(monkeypatch):
    handler = PooledASGIHandler()
    listened = []

    async def listen(receive):
        listened.append(True)
        await receive()

    monkeypatch.setattr(handler, "listen_for_disconnect", listen)

    assert await get(handler) == 200
    assert listened == []


async def test_a_client_gone_during_the_view_leaves_the_request_to_end_once(monkeypatch):
    from django.core.signals import request_finished
    from django.http import HttpResponse

    handler = PooledASGIHandler()
    in_view, gone = threading.Event(), threading.Event()
    finished = []

    def view(request):
        in_view.set()
        gone.wait(10)  # the client goes while the view runs
        return HttpResponse("drawn")

    def note(**kwargs):
        finished.append(True)

    monkeypatch.setattr(handler, "get_response", view)
    request_finished.connect(note)
    try:
        communicator = HttpCommunicator(handler, "POST", "/", headers=[(b"host", b"localhost")])
        await communicator.send_input({"type": "http.request", "body": b""})
        await asyncio.to_thread(in_view.wait, 10)
        await communicator.send_input({"type": "http.disconnect"})
        gone.set()
        await communicator.wait(10)  # the application ends, raising nothing
    finally:
        gone.set()
        request_finished.disconnect(note)

    assert finished == [True]


async def test_at_most_http_most_threads_requests_run_at_once(settings):
    # Each running request holds a thread and a database connection: a burst of
    # requests must wait its turn, not take every connection the database has.
    settings.HTTP_THREADS, settings.HTTP_MOST_THREADS = 1, 2
    handler = PooledASGIHandler()
    running = []
    most = 0
    release = threading.Event()

    def hold(**kwargs):
        nonlocal most
        running.append(1)
        most = max(most, len(running))
        release.wait(10)
        running.pop()

    request_started.connect(hold)
    try:
        burst = [asyncio.ensure_future(get(handler)) for _ in range(5)]
        await asyncio.sleep(0.5)  # time for every request to start, were it let
        assert len(running) == 2
        release.set()
        assert await asyncio.gather(*burst) == [200] * 5
    finally:
        release.set()
        request_started.disconnect(hold)
    assert most == 2


async def test_a_request_s_own_thread_closes_its_database_connection(settings, monkeypatch):
    settings.HTTP_THREADS = 1
    # Production keeps connections (DB_CONN_MAX_AGE): the end of a request leaves them open.
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 60)
    handler = PooledASGIHandler()
    busy = threading.Event()
    release = threading.Event()
    opened = []

    def hold_or_connect(**kwargs):
        if not busy.is_set():
            busy.set()
            release.wait(10)  # the first request holds the only lane
        else:
            connection = connections["default"]
            connection.ensure_connection()
            opened.append(connection)

    request_started.connect(hold_or_connect)
    try:
        first = asyncio.ensure_future(get(handler))
        await asyncio.to_thread(busy.wait, 10)
        assert await get(handler) == 200  # in a thread of its own
        release.set()
        assert await first == 200
    finally:
        release.set()
        request_started.disconnect(hold_or_connect)
    [connection] = opened
    for _ in range(50):  # closed in its thread once the request is over there
        if connection.connection is None:
            break
        await asyncio.sleep(0.02)
    assert connection.connection is None, "closed with its thread, not left to the collector"


async def test_a_request_cancelled_by_daphne_keeps_its_place_until_its_view_ends(settings):
    # Daphne cancels a request whose client has gone, and again every second; its
    # view runs on in its thread, holding a database connection: its place too.
    settings.HTTP_THREADS, settings.HTTP_MOST_THREADS = 1, 2
    handler = PooledASGIHandler()
    started = []
    release = threading.Event()

    def hold(**kwargs):
        started.append(threading.current_thread().name)
        release.wait(10)

    def request():
        return HttpCommunicator(handler, "GET", "/how-to-play/", headers=[(b"host", b"localhost")])

    request_started.connect(hold)
    asking = []
    try:
        in_the_lane, in_a_thread = request(), request()
        for each in (in_the_lane, in_a_thread):
            asking.append(asyncio.ensure_future(each.get_response(10)))
            await asyncio.sleep(0.3)
        assert len(started) == 2
        for _ in range(2):
            in_a_thread.future.cancel()  # its view runs on in its own thread
            await asyncio.sleep(0.1)
        third = asyncio.ensure_future(get(handler))
        await asyncio.sleep(0.3)

        assert len(started) == 2 and not third.done(), "two views still run: no place for a third"
        release.set()
        assert await third == 200
    finally:
        release.set()
        request_started.disconnect(hold)
        for each in asking:
            each.cancel()
