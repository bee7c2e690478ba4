"""A lean queue for the messages Daphne hands each connection's application.

Daphne gives every connection an `asyncio.Queue` (`Server.create_application`)
and only ever calls its `put_nowait` and `get`. An empty asyncio.Queue holds
four deques (its items, getters, putters and an Event's waiters), about 3 KB
for every open socket, for as long as the socket lives. A Mailbox does the
same with two slots: a deque exists while messages wait unread, a list while
a `get` waits, and nothing else.

A socket's client may send faster than its application reads (each frame
waits for a hop to the process's one thread for synchronous code): a Mailbox
keeps at most MOST_FRAMES_WAITING of a client's frames, or MOST_BYTES_WAITING
of their text, waiting unread. Beyond that it drops what the client sends and
hands the application FLOODED, once, after the frames it kept
(games/live/sockets.py closes the socket). Without the bound one socket's
flood of small frames grew its process by 150 MB.

`install()` makes Daphne's servers give each connection a Mailbox. It is
called by config/asgi.py, which every Daphne process loads (runserver, serve,
the tests' live servers, the benchmarks). `create_application` below is
Daphne 4.2's with the queue replaced: recheck it when Daphne is upgraded.
"""

import asyncio
from collections import deque
from functools import partial

# A page sends a few frames a second, each read at once; a flood waits unread.
MOST_FRAMES_WAITING = 100
MOST_BYTES_WAITING = 1 << 20  # of the frames' text (or bytes)
FLOODED = object()  # handed to the application once its client sent past the bounds


def _frame_size(item):
    """Return the size of a client's frame, or None for anything else the mailbox holds."""
    if type(item) is dict and item.get("type") == "websocket.receive":
        return len(item.get("text") or item.get("bytes") or "")
    return None


class Mailbox:
    """A first-in first-out queue of one event loop: `put_nowait` and `get`.

    Unbounded but for a client's frames (see the module docstring).
    """

    __slots__ = ("items", "getters", "frames", "frame_bytes")

    def __init__(self):
        self.items = None  # a deque of what nobody received yet, while there is some
        self.getters = None  # a list of the futures of the gets waiting, while there are some
        self.frames = 0  # the client's frames waiting unread; -1 once flooded
        self.frame_bytes = 0

    def put_nowait(self, item):
        getters = self.getters
        while getters:
            future = getters.pop(0)
            if not future.done():
                future.set_result(item)
                return
        if self.items is None:
            self.items = deque()
        size = _frame_size(item)
        if size is not None:
            if self.frames < 0:
                return  # flooded: dropped
            self.frames += 1
            self.frame_bytes += size
            if self.frames > MOST_FRAMES_WAITING or self.frame_bytes > MOST_BYTES_WAITING:
                self.frames = -1
                item = FLOODED
        self.items.append(item)

    def qsize(self):
        """Return how many messages wait unread."""
        return len(self.items) if self.items else 0

    async def get(self):
        items = self.items
        if items:
            item = items.popleft()
            if not items:
                self.items = None
            if self.frames > 0:
                size = _frame_size(item)
                if size is not None:
                    self.frames -= 1
                    self.frame_bytes -= size
            return item
        future = asyncio.get_running_loop().create_future()
        if self.getters is None:
            self.getters = []
        self.getters.append(future)
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                # Handed over just as this get was cancelled: the next get receives it first.
                if self.items is None:
                    self.items = deque()
                item = future.result()
                self.items.appendleft(item)
                size = _frame_size(item)
                if size is not None and self.frames >= 0:  # counted as it waits again
                    self.frames += 1
                    self.frame_bytes += size
            raise
        finally:
            getters = self.getters
            if getters is not None:
                if future in getters:
                    getters.remove(future)
                if not getters:
                    self.getters = None


def create_application(self, protocol, scope):
    """Daphne's Server.create_application, giving the application a Mailbox to receive from."""
    assert "application_instance" not in self.connections[protocol]
    input_queue = Mailbox()
    scope.setdefault("asgi", {"version": "3.0"})
    application_instance = self.application(
        scope=scope,
        receive=input_queue.get,
        send=partial(self.handle_reply, protocol),
    )
    if protocol not in self.connections:
        return None
    self.connections[protocol]["application_instance"] = asyncio.ensure_future(
        application_instance,
        loop=asyncio.get_event_loop(),
    )
    return input_queue


def install():
    """Have every Daphne server of this process give its connections a Mailbox."""
    from daphne.server import Server

    Server.create_application = create_application
