"""A small thread-safe LRU memo: what one server process computed lately, by key.

The sockets of a table all redraw the table after each move, each for its
own user; much of what they draw is the same for all of them at one version
of the game (the last moves in words, the other players' tables). Keys name
the game's version, so an entry never goes stale: a newer version is a new key.
"""

import threading
from collections import OrderedDict


class Memo:
    def __init__(self, size):
        self.size = size
        self._entries = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, compute):
        """Return the value remembered for `key`, or compute(), remembered."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = compute()
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def find(self, key):
        """Return the value remembered for `key`, or None (computing nothing)."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        return None

    def put(self, key, value):
        """Remember `value` for `key`."""
        self.get(key, lambda: value)
