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


_MISSING = object()


class Memo:
    def __init__(self, size):
        self.size = size
        self._entries = OrderedDict()
        # key -> [thread ident, threading.Event or None]: the thread computing the value, and
        # what the threads waiting for it wait on (made by the first of them: most values
        # are computed with nobody waiting).
        self._computing = {}
        self._lock = threading.Lock()

    def get(self, key, compute):
        """Return the value remembered for `key`, or compute(), remembered."""
        value = self._hit(key)
        if value is not _MISSING:
            return value
        me = threading.get_ident()
        done = None
        with self._lock:
            value = self._entries.get(key, _MISSING)
            if value is not _MISSING:
                return value
            computing = self._computing.get(key)
            if computing is None:
                computing = self._computing[key] = [me, None]
            elif computing[0] == me:
                computing = None  # asked again while computing it: no waiting for oneself
            else:
                done = self._waiter(key, computing)
        if done is not None:
            done.wait(WAIT_SECONDS)
            value = self._entries.get(key, _MISSING)
            if value is not _MISSING:
                return value
            return compute()  # the other thread failed (or is slow): compute it here
        if computing is None:
            return compute()
        try:
            value = compute()
            self._remember(key, value)
        finally:
            with self._lock:
                self._computing.pop(key, None)
            if computing[1] is not None:
                computing[1].set()
        return value

    def _hit(self, key):
        """Return the value remembered for `key`, now the latest used, or _MISSING.

        Without the lock: each of an OrderedDict's operations is one step for other threads.
        """
        value = self._entries.get(key, _MISSING)
        if value is not _MISSING:
            try:
                self._entries.move_to_end(key)
            except KeyError:  # dropped meanwhile: the value is still good
                pass
        return value

    def _waiter(self, key, computing):
        """Return the Event to wait on for the value another thread computes (under the lock)."""
        if _no_waiting.get():
            raise WouldWait(key)
        if computing[1] is None:
            computing[1] = threading.Event()
        return computing[1]

    def _remember(self, key, value):
        dropped = []  # freed once the lock is let go (a game's state is many objects)
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.size:
                dropped.append(self._entries.popitem(last=False))
        del dropped

    def find(self, key, wait=False):
        """Return the value remembered for `key`, or None (computing nothing).

        With `wait`, a value another thread is computing is waited for.
        """
        value = self._hit(key)
        if value is not _MISSING:
            return value
        if not wait:
            return None
        with self._lock:
            value = self._entries.get(key, _MISSING)
            if value is not _MISSING:
                return value
            computing = self._computing.get(key)
            if computing is None or computing[0] == threading.get_ident():
                return None
            done = self._waiter(key, computing)
        done.wait(WAIT_SECONDS)
        return self._entries.get(key)

    def put(self, key, value):
        """Remember `value` for `key`."""
        self._remember(key, value)
