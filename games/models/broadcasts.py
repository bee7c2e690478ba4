"""Who is told after a commit: the channel-layer groups and the sends to them.

A game's sockets are in `group_name(code)`, a user's (their pages' headers)
in `user_group(id)`, the lobby's in LOBBY_GROUP. Messages carry ids and
versions only, never cards: each socket draws its own user's view. The model
calls these after its commits (games/models/game.py); nothing here reads a row.
"""

import asyncio
import logging
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from redis.exceptions import (
    ConnectionError as RedisConnectionError,
    TimeoutError as RedisTimeoutError,
)

log = logging.getLogger(__name__)

# What a channel layer (or the cache) raises when it has lost its server (Redis away):
# logged in one line each, an outage's many alike need no traceback.
LAYER_ERRORS = (OSError, asyncio.TimeoutError, RedisConnectionError, RedisTimeoutError)

LOBBY_GROUP = "lobby"

# The longest a call of the channel layer may take from a socket's thread or a broadcast: a
# Redis that hangs (stopped, or a network that drops packets) would otherwise hold it for as
# long, and every socket of the process shares that thread. A call given up counts as one
# that failed (asyncio.TimeoutError is one of LAYER_ERRORS); the sockets catch up by their
# checks (games/live/sockets.py).
LAYER_CALL_SECONDS = 1.0


async def within_bound(call, *args):
    """Await `call(*args)`, a channel-layer call, for LAYER_CALL_SECONDS at most."""
    return await asyncio.wait_for(call(*args), LAYER_CALL_SECONDS)


def group_name(code):
    """Return the channel-layer group of one game's sockets."""
    return f"game-{code}"


def user_group(user_id):
    """Return the channel-layer group of one user's sockets (the navigation badge)."""
    return f"user-{user_id}"


def group_send(group, message):
    """Send `message` to a channel-layer group; if the layer fails, log it and carry on."""
    send_to_groups([(group, message)])


def send_to_groups(messages):
    """Send each (group, message) of `messages`; where the layer fails, log it and carry on.

    A broadcast comes after the commit: a layer that is down (Redis
    restarting) must not turn a move already made into an error page. Game
    sockets catch up by themselves (games/live/consumers.py, socket_check).
    The embedded layer delivers from its event loop, nothing waits
    (config/layers.py); another (Redis) gets all of them in one hop from this
    thread to the event loop, sent side by side: each hop cost about as much as
    a send (docs/performance.md, "Measured in production").
    """
    try:
        layer = get_channel_layer()
        # Asked of the class: the pub/sub layer looks for an event loop on any attribute.
        soon = getattr(type(layer), "group_send_soon", None)
        if soon is not None:
            messages = [(g, m) for g, m in messages if not soon(layer, g, m)]
        if messages:
            loop = _own_loop()
            if loop is None:
                async_to_sync(_send_side_by_side)(layer, messages)
            else:
                sending = asyncio.run_coroutine_threadsafe(
                    _send_side_by_side(layer, messages), loop
                )
                try:
                    sending.result(OWN_LOOP_WAITS)
                except TimeoutError:
                    sending.cancel()  # not left to pile up on the loop
                    raise
    except Exception:
        log.exception("Broadcasting to %s failed", ", ".join(group for group, _m in messages))


# A process with no event loop of its own (the worker, `manage.py worker`) broadcasts
# from one lasting loop in a thread of its own: async_to_sync made a new loop for every
# broadcast, and Redis's pub/sub layer a Redis connection for every loop, 4 ms each.
OWN_LOOP_WAITS = 10  # seconds a broadcast may take before it is given up (and logged)
_wants_own_loop = False
_own_loop_of = (None, None)  # (the process id, its broadcasting loop)
_own_loop_lock = threading.Lock()


def broadcast_from_own_loop():
    """Have this process broadcast from a lasting event loop (call it where none runs)."""
    global _wants_own_loop
    _wants_own_loop = True


def _own_loop():
    """Return the process's broadcasting loop if it wants one (started at the first call)."""
    global _own_loop_of
    if not _wants_own_loop:
        return None
    with _own_loop_lock:
        pid, loop = _own_loop_of
        if pid != os.getpid():  # none yet, or a forked process's parent's
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="broadcasts", daemon=True).start()
            _own_loop_of = (os.getpid(), loop)
        return loop


async def _send_side_by_side(layer, messages):
    sent = [within_bound(layer.group_send, group, message) for group, message in messages]
    results = await asyncio.gather(*sent, return_exceptions=True)
    for (group, _message), result in zip(messages, results):
        if isinstance(result, Exception):
            lost = isinstance(result, LAYER_ERRORS)
            log.error(
                "Broadcasting to %s failed: %r", group, result, exc_info=None if lost else result
            )


def user_updates(user_ids):
    """The messages telling `user_ids` that their turns or notifications changed."""
    return [(user_group(user_id), {"type": "user.updated"}) for user_id in user_ids]


def broadcast_users(user_ids):
    """Tell each user's sockets that their turns or notifications changed."""
    send_to_groups(user_updates(user_ids))


def broadcast_lobby():
    group_send(LOBBY_GROUP, {"type": "lobby.updated"})


def broadcast_seating(user_ids):
    """A table's seats changed: the lobby, and the pages of the players seated there."""
    send_to_groups([(LOBBY_GROUP, {"type": "lobby.updated"}), *user_updates(user_ids)])
