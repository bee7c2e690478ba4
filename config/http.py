"""Django's HTTP handler under Daphne, run in a few long-lived threads.

Django's ASGIHandler runs each request in a thread of its own (a new
ThreadSensitiveContext per request), so a request cannot keep its database
connection (DB_CONN_MAX_AGE does nothing for HTTP), and its middleware chain,
built for async, hops between the event loop and that thread several times
(every sync-only middleware, such as WhiteNoise's, and every MiddlewareMixin's
process_request and process_response). Here the whole request (middleware and
view, as under WSGI) runs in one hop, in one of HTTP_THREADS lasting threads
("lanes"), each keeping its connection; when every lane is busy (a request
waiting on a lock, a burst) the request gets a new thread, as Django would
give it, so a slow request never holds up the others for long, and that
thread's connection is closed when the request ends.

At most HTTP_MOST_THREADS requests of a process run at once, lanes included;
the others wait on the event loop for one to end. Without that bound, and
with the new threads' connections left to the garbage collector, 400
anonymous requests for the home page at once took all 100 of PostgreSQL's
connections, and 302 of them (with the worker's next round and every other
process's requests) were refused; with them, the 400 were served on 17.
"""

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.db import connections
from django.http import FileResponse
from django.urls import set_script_prefix


class PooledASGIHandler(ASGIHandler):
    def __init__(self):
        super().__init__()
        self._new_lanes()

    def _new_lanes(self):
        # Taken and given back on the event loop's thread only: no lock needed.
        self._free = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"http-{n}")
            for n in range(settings.HTTP_THREADS)
        ]
        self._running = None  # the requests running at once, bounded (made on the loop's first)
        self._loop = None
        self._pid = os.getpid()

    def load_middleware(self, is_async=False):
        # The synchronous chain, as under WSGI: the request runs in one thread from end to end.
        super().load_middleware(is_async=False)

    async def handle(self, scope, receive, send):
        """Serve one request as Django's ASGIHandler.handle (6.1) does, in one hop to the lane.

        Django's runs the request_started receivers, the view, and the response's
        closing (request_finished) each in a hop of its own from the event loop
        to the request's thread, about 0.15 ms of CPU each. Here the lane runs
        the three at once (respond), and sends a response whose content is
        already drawn after closing it; a streaming response (a static file) is
        closed once sent, as Django does.

        Django's also listens for the client's going away while the view runs (a
        task of its own for every request), to cancel the waiting for the view,
        which runs on to its end all the same: here only a stream is stopped by it.
        """
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        with closing(body_file):
            set_script_prefix(get_script_prefix(scope))
            request, error_response = self.create_request(scope, body_file)
            if request is None:
                await signals.request_started.asend(sender=self.__class__, scope=scope)
                await self.send_response(error_response, send)
                await sync_to_async(error_response.close)()
                return

            response = await sync_to_async(self.respond, thread_sensitive=True)(request, scope)
            if not response.streaming:
                # Drawn and closed in the lane: sent in one piece. A client that has gone
                # meanwhile is not written to (Daphne drops the reply).
                await self.send_response(response, send)
                return

            class StreamSent(Exception):
                pass

            # A stream (a static file) stops when its client goes, as Django's does.
            try:
                try:
                    async with asyncio.TaskGroup() as tg:
                        tg.create_task(self.listen_for_disconnect(receive))
                        await self.send_response(response, send)
                        raise StreamSent
                except* (StreamSent, RequestAborted):
                    pass
            except BaseExceptionGroup as exception_group:
                if len(exception_group.exceptions) == 1:
                    raise exception_group.exceptions[0] from None
                raise
            finally:
                await sync_to_async(response.close)()

    def respond(self, request, scope):
        """Return the response to `request`, closed unless it streams (run in the lane)."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        response = self.get_response(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if not response.streaming:
            response.close()  # its content is drawn; request_finished in this thread
        return response

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle HTTP connections, not {scope['type']}.")
        if self._pid != os.getpid():
            # A forked process (a test server, a pre-forking server) has none of the
            # parent's threads: its lanes would take requests that nobody runs.
            self._new_lanes()
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a server has one loop; the tests, one each
            self._running = asyncio.Semaphore(
                max(settings.HTTP_MOST_THREADS, settings.HTTP_THREADS)
            )
            self._loop = loop
        running = self._running
        await running.acquire()
        if self._free:
            lane, lasting = self._free.pop(), True
        else:
            # A thread for this request alone, as Django gives every request.
            lane, lasting = ThreadPoolExecutor(1, thread_name_prefix="one-request"), False
        ended = False
        try:
            async with ThreadSensitiveContext(executor=lane):
                await self.handle(scope, receive, send)
            ended = True
        finally:
            if lasting and ended:
                self._free.append(lane)
                running.release()
            else:
                # Given back once the thread is done with the request: one that Daphne
                # cancelled (its client gone) runs on there to its end. A request's own
                # thread closes its connection first; left to the garbage collector, a
                # burst's connections outlived their threads by seconds.
                last = _nothing if lasting else connections.close_all
                lane.submit(last).add_done_callback(
                    lambda _done: loop.call_soon_threadsafe(self._give_back, running, lane, lasting)
                )

    def _give_back(self, running, lane, lasting):
        if lasting:
            self._free.append(lane)
        else:
            lane.shutdown(wait=False)
        running.release()


def _nothing():
    pass


def leave_bodies_unparsed():
    """Have every Daphne server of this process leave a request's body for Django to read.

    Twisted, under Daphne, parses the body of every form POST into
    `request.args` (a multipart body through the email package) on the event
    loop, before Daphne hands the body over as it came. Daphne never reads
    those arguments, and Django parses the body again: Twisted's own switch
    (parsePOSTFormSubmission) turns the work off. It was about 4% of a
    move's POST, and a large multipart body would hold up every socket of
    the process while it was parsed.
    """
    from daphne.http_protocol import WebRequest

    if getattr(WebRequest.__init__, "leaves_bodies_unparsed", False):
        return
    init = WebRequest.__init__

    def __init__(self, *args, **kwargs):
        kwargs["parsePOSTFormSubmission"] = False
        init(self, *args, **kwargs)

    __init__.leaves_bodies_unparsed = True
    WebRequest.__init__ = __init__
