"""The database session store, reading a session with a statement compiled once.

Every request of a signed-in user reads its session: through the ORM, building
and compiling that query cost 0.2 ms of CPU, five times the query itself. It is
read through the project's one compile-once mechanism (config/statements.py);
everything else (saving, expiry, cycling keys) is Django's database store.

Expired sessions are deleted once an hour by the worker (clear_expired_hourly),
as Django's `clearsessions` command would: every sign-in without a sign-out
left a row for good.
"""

import time

from django.contrib.sessions.backends import db
from django.utils import timezone

from config import statements


class SessionStore(db.SessionStore):
    def load(self):
        data = None
        if self.session_key is not None:
            found = statements.values(
                "session by key", _unexpired, self.session_key, timezone.now()
            )
            data = found[0] if found else None
        if data is None:  # none, or expired: as Django's store, a new session from here
            self._session_key = None
            return {}
        return self.decode(data)


def _unexpired(key, now):
    sessions = SessionStore.get_model_class().objects
    return sessions.filter(session_key=key, expire_date__gt=now).values_list(
        "session_data", flat=True
    )


CLEARED_EVERY = 3600  # seconds
_cleared_at = float("-inf")


def clear_expired_hourly(now=None):
    """Delete the expired sessions if an hour has passed since this process last did.

    One of the worker's jobs, which take the time they run at (`now`: unused here).
    """
    global _cleared_at
    if time.monotonic() - _cleared_at < CLEARED_EVERY:
        return 0
    _cleared_at = time.monotonic()
    # Django's SessionStore.clear_expired, counting what it deletes.
    expired = SessionStore.get_model_class().objects.filter(expire_date__lt=timezone.now())
    return expired.delete()[0]
