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
give it, so a slow request never holds up the others for long.
"""

import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler


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
        self._pid = os.getpid()

    def load_middleware(self, is_async=False):
        # The synchronous chain, as under WSGI: the request runs in one thread from end to end.
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle HTTP connections, not {scope['type']}.")
        if self._pid != os.getpid():
            # A forked process (a test server, a pre-forking server) has none of the
            # parent's threads: its lanes would take requests that nobody runs.
            self._new_lanes()
        lane = self._free.pop() if self._free else None
        try:
            # Without a lane: a new thread for this request alone (Django's own way).
            async with ThreadSensitiveContext(executor=lane):
                await self.handle(scope, receive, send)
        finally:
            if lane is not None:
                self._free.append(lane)
