"""A small thread-safe LRU memo: what one server process computed lately, by key.

The sockets of a table all redraw the table after each move, each for its
own user; much of what they draw is the same for all of them at one version
of the game (the last moves in words, the other players' tables). Keys name
the game's version, so an entry never goes stale: a newer version is a new key.

A value being computed is computed once: another thread asking for it meanwhile
(the mover's socket while the move's answer draws the same board) waits for it.
"""

import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar

# What is drawn with a clock's words ("4 minutes left"), which age without a new version, is
# remembered with the half-minute it was drawn in (moment()): the page's script counts down.
FRESH_SECONDS = 30


def moment():
    """Return the half-minute now is in (see FRESH_SECONDS)."""
    return int(time.time() // FRESH_SECONDS)


class WouldWait(Exception):
    """A value another thread is computing was asked for where nothing may wait for it."""


_no_waiting = ContextVar("memo_no_waiting", default=False)


@contextmanager
def without_waiting():
    """Raise WouldWait instead of waiting for a value another thread computes (an event loop)."""
    token = _no_waiting.set(True)
    try:
        yield
    finally:
        _no_waiting.reset(token)


# How long a thread waits for another computing the same value before computing it itself.
WAIT_SECONDS = 5


class Memo:
    def __init__(self, size):
        self.size = size
        self._entries = OrderedDict()
        self._computing = {}  # key -> (thread ident, threading.Event)
        self._lock = threading.Lock()

    def get(self, key, compute):
        """Return the value remembered for `key`, or compute(), remembered."""
        me = threading.get_ident()
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
            owner, done = self._computing.get(key, (None, None))
            if done is None:
                done = threading.Event()
                self._computing[key] = (me, done)
        if owner is not None and owner != me:
            if _no_waiting.get():
                raise WouldWait(key)
            done.wait(WAIT_SECONDS)
            with self._lock:
                if key in self._entries:
                    self._entries.move_to_end(key)
                    return self._entries[key]
            return compute()  # the other thread failed (or is slow): compute it here
        if owner == me:
            return compute()  # asked again while computing it: no waiting for oneself
        try:
            value = compute()
            self._remember(key, value)
        finally:
            with self._lock:
                self._computing.pop(key, None)
            done.set()
        return value

    def _remember(self, key, value):
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def find(self, key, wait=False):
        """Return the value remembered for `key`, or None (computing nothing).

        With `wait`, a value another thread is computing is waited for.
        """
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
            owner, done = self._computing.get(key, (None, None))
        if not wait or done is None or owner == threading.get_ident():
            return None
        if _no_waiting.get():
            raise WouldWait(key)
        done.wait(WAIT_SECONDS)
        with self._lock:
            return self._entries.get(key)

    def put(self, key, value):
        """Remember `value` for `key`."""
        self._remember(key, value)
