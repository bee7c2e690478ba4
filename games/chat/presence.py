"""Who has a game's table open now: one cache key per open socket of a player.

A player is here while one of their sockets on the game holds a key
`presence:<code>:<user>:<n>` (n below SLOTS). The keys live in the cache
that every server process shares, and they expire: a process that dies
without a goodbye lets its sockets' keys lapse within sockets.slot_seconds(),
and each self-check of a living socket renews its key (games/live/sockets.py).
Only arrivals and departures are announced (a player's first socket
opening, their last closing), never anything about a move.
"""

import logging

from django.core.cache import cache

from games.live.sockets import release_slots, renew_slots, slot_seconds, traceback_wanted

log = logging.getLogger(__name__)

SLOTS = 12


def _keys(code, user_id):
    return [f"presence:{code}:{user_id}:{n}" for n in range(SLOTS)]


def arrive(code, user_id, token):
    """Take a presence key for one socket.

    Return (the key, whether the user has just arrived: no other socket of
    theirs held one); the key is None if none is free or the cache fails.
    """
    try:
        keys = _keys(code, user_id)
        held = cache.get_many(keys)
        key = next((k for k in keys if k not in held and cache.add(k, token, slot_seconds())), None)
    except Exception as error:
        # A lost Redis in one line, as the socket slots' (an outage logs one a second).
        log.warning(
            "Presence not counted: the cache failed: %r", error, exc_info=traceback_wanted(error)
        )
        return None, False
    return key, key is not None and not held


def renew(key, token):
    renew_slots([key], token)


def leave(code, user_id, key, token):
    """Give back one socket's key; return whether the user is gone (no other socket holds one).

    Checked after the key is given back: of two sockets closing at once, at
    least one sees the other's key gone.
    """
    release_slots([key], token)
    return user_id not in present(code, [user_id])


def present(code, user_ids):
    """Return the ids among `user_ids` that have `code`'s table open now."""
    keys = {key: user_id for user_id in user_ids for key in _keys(code, user_id)}
    try:
        held = cache.get_many(list(keys))
    except Exception as error:
        log.warning(
            "Presence not read: the cache failed: %r", error, exc_info=traceback_wanted(error)
        )
        return set()
    return {keys[key] for key in held}
