"""Rate limits: the one place where "how many times recently" is counted.

Who counts here:

- accounts/throttle.py: failed logins, wrong current passwords, password
  reset requests, sign-ups and email-address changes, per account, username
  or address
  (`Limiter.hit`, fixed windows; the throttle's locks are built on these
  counts);
- games/chat/messages.py: chat messages per user (`Limiter.take`, a sliding
  window, failing open);
- games/views.py: moves per user, posted or sent over the user's game sockets
  (`over_move_bound`, also asked by games/live/moves.py: one `SlidingWindows`
  window a user in the process's memory; a flood spread over N processes gets
  N times the bound, still a bound), and finished games' records downloaded
  per user (`Limiter.take`, falling back);
- accounts/email/confirm.py: confirmation links sent again per user
  (`Limiter.take`, falling back to the process's memory);
- lobby/views.py: seats taken or left per user (`seating_too_fast`,
  `Limiter.take`, failing open): each redraws every seated player's header;

Two ways of counting:

Fixed window, `Limiter.hit(key, seconds)`: the first hit at `key` starts a
window of `seconds` and each hit adds one to its count, which the cache
forgets when the window ends. `add` then `incr` are each atomic in Redis, so
that hits at once from many processes are all counted: what a throttle
against guessing needs.

Sliding window, `Rate(count, seconds)`: at most `count` hits in any
`seconds`. The times of the last hits are kept; a hit is refused while
`count` of them are less than `seconds` old, and a refused hit is not
recorded (a flood does not put off the next allowed hit). In a cache the
times are read and written back, not atomically: two hits at the very same
moment may both pass. The bound is for floods, not for one hit more.

Where the counts live: a `Limiter`'s in the shared cache (Redis in
production, so that every server process sees the same counts); a
`SlidingWindows`' in the process's memory.
Keys that hold what a user typed (a username, an email address) are hashed
(`hashed_key`): a cache key must not hold just any character.

When the shared cache fails, a Limiter does what it was made for:
- `when_down=FALLBACK` (the throttles): it counts in a cache of this process
  (`LocMemCache`), which still slows a guesser down, and logs a warning; it
  leaves the shared cache alone for RETRY_AFTER seconds (a cache that times
  out would slow every request), then tries it again.
- `when_down=FAIL_OPEN` (the chat): nothing is counted and every hit passes:
  a failing cache must not stop the chat.

Not counted here, on purpose:
- games/play/limits.py, the fair shares (open tables, games against the
  computer, invitations per hour and per invitee per day), counts rows in the
  database: the rows are the truth (a table is open, an invitation was sent
  at its `created_at`), counted exactly, under the account's row lock, and
  not forgotten when the cache restarts. A second count in the cache could
  only disagree with them. A reader's reports a day
  (games/chat/messages.py `report`) are counted so too.
- games/live/sockets.py, socket slots (SOCKETS_PER_USER, SOCKETS_PER_ADDRESS),
  bounds how many sockets are open at once, not how many were opened
  recently: a slot is taken, renewed while its socket lives and given back.
"""

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from typing import NamedTuple

from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache

FALLBACK = "fallback"
FAIL_OPEN = "fail open"
# After the shared cache failed, how long a FALLBACK limiter counts in its process only.
RETRY_AFTER = 10.0  # seconds


class Rate(NamedTuple):
    """At most `count` hits in any `seconds`."""

    count: int
    seconds: float


def hashed_key(prefix, kind, *parts):
    """Return the cache key of `parts` (what a user typed, maybe): `prefix:kind:<sha256>`."""
    digest = hashlib.sha256("\x00".join(parts).encode()).hexdigest()
    return f"{prefix}:{kind}:{digest}"


def _admit(times, now, rate):
    """Return `times` still in the window with `now` added, or None if `now` is over `rate`."""
    recent = [t for t in times if now - t < rate.seconds]
    if len(recent) >= rate.count:
        return None
    return (recent + [now])[-rate.count :]


class SlidingWindow:
    """A sliding window counted in this object's memory (one socket's, say)."""

    def __init__(self, rate):
        self.rate = rate
        self.times = []

    def take(self, now):
        """Count a hit at `now` (a monotonic clock's); return False, not counting it, if over."""
        admitted = _admit(self.times, now, self.rate)
        if admitted is None:
            return False
        self.times = admitted
        return True


class Limiter:
    """Counts kept in the shared cache, under keys of the caller's; see the module's docstring."""

    def __init__(self, name, *, when_down, logger=None):
        assert when_down in (FALLBACK, FAIL_OPEN)
        self.name = name
        self.when_down = when_down
        self.log = logger or logging.getLogger(__name__)
        self.shared = cache
        self.local = LocMemCache(f"ratelimit-{name}", {})
        self.shared_down_until = 0.0

    def forget(self):
        """Empty the process's counts and try the shared cache at the next call (for tests)."""
        self.local.clear()
        self.shared_down_until = 0.0

    def call(self, method, *args, **kwargs):
        """Call the cache's `method`: the shared cache's, or while it fails as `when_down` says.

        A FAIL_OPEN limiter raises the shared cache's error; a FALLBACK one
        answers from the process's cache instead.
        """
        if self.when_down == FAIL_OPEN:
            return getattr(self.shared, method)(*args, **kwargs)
        if time.monotonic() >= self.shared_down_until:
            try:
                return getattr(self.shared, method)(*args, **kwargs)
            except ValueError:  # incr() of a missing key: an answer, not a failure
                raise
            except Exception as error:
                self.shared_down_until = time.monotonic() + RETRY_AFTER
                self.log.warning(
                    "%s: the cache failed (%r); counting in this process for %d s.",
                    self.name,
                    error,
                    RETRY_AFTER,
                )
        return getattr(self.local, method)(*args, **kwargs)

    def hit(self, key, seconds):
        """Add one to the count at `key` (fixed window of `seconds`); return the count.

        A FAIL_OPEN limiter whose cache fails counts nothing and returns 0.
        """
        try:
            # add() starts the window with the first hit; incr() keeps its expiry.
            if self.call("add", key, 1, timeout=seconds):
                return 1
            try:
                count = self.call("incr", key)
            except ValueError:  # expired between add() and incr()
                self.call("set", key, 1, timeout=seconds)
                return 1
            if count == 1:
                # Expired within incr(): Redis's INCR made the key anew, with no
                # expiry (Django's incr asks EXISTS, then INCR). Without one the
                # count would never end, and a password reset for that address
                # would be refused for good.
                self.call("touch", key, seconds)
            return count
        except Exception:
            if self.when_down == FAIL_OPEN:
                return 0
            raise

    def take(self, key, rate, now=None):
        """Count a hit at `key` in a sliding window; return False, not counting it, if over `rate`.

        `now` is a wall clock's time (time.time()): the times are shared by processes.
        """
        now = time.time() if now is None else now
        try:
            admitted = _admit(self.call("get", key) or [], now, rate)
        except Exception:
            if self.when_down == FAIL_OPEN:
                return True
            raise
        if admitted is None:
            return False
        try:
            self.call("set", key, admitted, timeout=rate.seconds)
        except Exception:
            if self.when_down != FAIL_OPEN:
                raise
        return True


class SlidingWindows:
    """A SlidingWindow per key in this process's memory, for the `most` keys last used."""

    def __init__(self, most=10_000):
        self.most = most
        self.windows = OrderedDict()
        self.lock = threading.Lock()  # the HTTP threads share it

    def take(self, key, rate, now):
        """Count a hit of `key` at `now` (a monotonic clock's); return False, not counting it, if over."""
        with self.lock:
            window = self.windows.pop(key, None) or SlidingWindow(rate)
            self.windows[key] = window
            if len(self.windows) > self.most:
                self.windows.popitem(last=False)
            return window.take(now)
