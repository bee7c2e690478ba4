"""Who has a game's table open now: one cache key per open socket of a player.

A player is here while one of their sockets on the game holds a key
`presence:<code>:<user>:<n>` (n below SLOTS). The keys live in the cache
that every server process shares, and they expire: a process that dies
without a goodbye lets its sockets' keys lapse within sockets.slot_seconds(),
and each self-check of a living socket renews its key (games/sockets.py).
Only arrivals and departures are announced, never anything about a move.
"""

import logging

from django.core.cache import cache

from games.sockets import release_slots, renew_slots, slot_seconds

log = logging.getLogger(__name__)

SLOTS = 12


def _keys(code, user_id):
    return [f"presence:{code}:{user_id}:{n}" for n in range(SLOTS)]


def arrive(code, user_id, token):
    """Take a presence key for one socket; return it (None if none is free or the cache fails)."""
    try:
        keys = _keys(code, user_id)
        held = cache.get_many(keys)
        return next(
            (k for k in keys if k not in held and cache.add(k, token, slot_seconds())), None
        )
    except Exception:
        log.warning("Presence not counted: the cache failed", exc_info=True)
        return None


def renew(key, token):
    renew_slots([key], token)


def leave(key, token):
    release_slots([key], token)


def present(code, user_ids):
    """Return the ids among `user_ids` that have `code`'s table open now."""
    keys = {key: user_id for user_id in user_ids for key in _keys(code, user_id)}
    try:
        held = cache.get_many(list(keys))
    except Exception:
        log.warning("Presence not read: the cache failed", exc_info=True)
        return set()
    return {keys[key] for key in held}
