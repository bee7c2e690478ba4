"""Sockets that check themselves now and then, and that a user or an address may hold only so many of.

Self-checks. Group memberships live in the channel layer, and the
broadcasts made while Redis is down are lost (see games/live/consumers.py).
So a self-checking socket receives a
"socket.check" message every GAME_SOCKET_CHECK_SECONDS (a setting for every
such socket, 20 by default; the first wait is jittered so that sockets
opened together do not check together; a client that keeps talking does
not put it off), and its `socket_check` handler joins its group again and
catches up.

Bounds. Every socket holds a slot of its user (SOCKETS_PER_USER, 12 by
default) and of its client's address (SOCKETS_PER_ADDRESS, 100; 0 lifts
either bound). Slots live in the cache, which every server process shares
(Redis in production), as keys that expire: a process that dies without a
goodbye frees its sockets' slots within slot_seconds(), and each check of a
living socket renews them. A player's socket at a game in play where they
sit (GameConsumer.plays_here) that finds its address's slots full takes one
of a second set of the address's slots, kept for such sockets: someone
sharing the address (a school, a carrier's NAT) with accounts enough to
fill the first set must not keep a player off their own game, and a game in
play is not had for the asking (the fair shares, games/play/limits.py).
A socket over a bound is refused at its
handshake, which the page's socket (htmx ws extension) sees as an abnormal
closure and answers by trying again after a random wait (at most 4 s for
its first 15 tries, then growing: static/js/sockets.js); the page works
without its socket.

Sessions. A socket knows its user from the session it opened with, and a
session can end while the socket stays open: a logout, a password change
that ends the other sessions (someone who stole the cookie), an expiry. At
each check the socket reads its session and user again (as a request
would, the password hash included) and closes with SESSION_ENDED if they are
no longer its user's: a page's socket stops showing a hand and taking moves
within one check of its session's end, and its reconnect is refused.

The channel layer failing (Redis restarted). channels-redis's pub/sub layer
reads Redis in one task of each process, which logs an error and tries
again: no socket's read ever fails, and a socket joining its group again
succeeds without asking Redis (the layer remembers what it subscribed to,
and subscribes again once Redis is back). So each process with sockets on
such a layer has a heartbeat (`watch_layer`): every LAYER_RETRY_SECONDS it
sends a message to a channel of its own and reads it back. When a beat
fails, every socket of the process is told ({"type": "socket.layer_down"}:
the table says that live updates are paused) and checks itself every
LAYER_RETRY_SECONDS instead of every period; the first check after a beat
has come back ends the pause ({"type": "socket.layer_up"}: the table catches
up with the moves it missed). So sockets hear of moves again within a few
seconds of Redis being back, not at their next periodic check. (A socket's
own read or check failing, as another layer's would, is told the same way.)
The log says it once a process: the heartbeat's line when the layer fails
and when it answers again; the reader's own traceback of a lost Redis, once
a second, is left out (`ReaderOutage`).

Timers. `after(delay, message)` has the socket dispatch `message` to itself
later, from its own event loop: what the lobby needs to draw a burst of
changes once (lobby/consumers.py).
"""

import asyncio
import logging
import math
import random
import secrets
from functools import partial
from importlib import import_module

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import auth
from django.core.cache import cache
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest

from accounts.throttle import address_key
from config.layers import LeanChannelLayer
from config.mailbox import FLOODED, Mailbox
from games.models.broadcasts import LAYER_ERRORS, within_bound

log = logging.getLogger(__name__)

# A socket over a bound is refused with this code; Daphne answers the handshake 403.
# (Accepted and closed with 1013, "try again later", it crashed: Autobahn lets a
# server close with 1000 and 3000-4999 only.)
SOCKETS_FULL = 4429
SESSION_ENDED = 4401  # an application's code: the socket's session is over
SOCKET_FLOODED = 4408  # its client sent faster than it is read (config/mailbox.py)
# While the channel layer fails: how often a socket tries it again (its check, its read);
# and how often a process's heartbeat tries the layer (watch_layer).
LAYER_RETRY_SECONDS = 1.0
# A channel nobody reads: the heartbeat's first send, before it makes its own channel.
PROBE = "layer.probe"


def check_period():
    return getattr(settings, "GAME_SOCKET_CHECK_SECONDS", 20)


def slot_seconds():
    """How long a slot lives without being renewed: three checks, and some slack."""
    # Whole seconds: Redis counts expiries in them.
    return math.ceil(3 * check_period() + 10)


def socket_address(scope):
    """Return the client's address as the bounds count it: behind proxies, the trusted entry
    (config/proxy.py); an IPv6 address as its /64 network, which one client usually holds
    whole (as the login throttle counts it, accounts/throttle.py)."""
    client = scope.get("client")
    return address_key(client[0]) if client else None


def owners(scope, seated=False):
    """Return [(cache key prefix, bound)] of what this socket counts against.

    Its user's, and its address's: those of the seated players' sockets if `seated`.
    """
    found = []
    user = scope.get("user")
    per_user = getattr(settings, "SOCKETS_PER_USER", 12)
    if per_user and user is not None and user.is_authenticated:
        found.append((f"sockets:user:{user.pk}", per_user))
    address = socket_address(scope)
    per_address = getattr(settings, "SOCKETS_PER_ADDRESS", 100)
    if per_address and address:
        kind = "seated" if seated else "address"
        found.append((f"sockets:{kind}:{address}", per_address))
    return found


def traceback_wanted(error):
    """Whether a failure's log line carries its traceback: not for a lost Redis (LAYER_ERRORS)."""
    return not isinstance(error, LAYER_ERRORS)


def claim_slots(scope, token, seated=False):
    """Take a free slot of each owner of the socket for `token`; return their keys, None if full.

    `seated`: see `owners`.

    A slot is a cache key taken with `add`, which only one taker wins, in
    every process. A cache that fails (Redis down) bounds nothing: the
    socket is let in and the failure logged.
    """
    taken = []
    try:
        for prefix, bound in owners(scope, seated):
            keys = [f"{prefix}:{n}" for n in range(bound)]
            held = cache.get_many(keys)
            key = next(
                (k for k in keys if k not in held and cache.add(k, token, slot_seconds())), None
            )
            if key is None:
                release_slots(taken, token)
                return None
            taken.append(key)
    except Exception as error:
        log.warning(
            "Socket slots not counted: the cache failed: %r",
            error,
            exc_info=traceback_wanted(error),
        )
    return taken


def renew_slots(keys, token):
    """Keep the socket's slots alive (or take them again if they expired meanwhile)."""
    try:
        for key in keys:
            if cache.get(key) == token:
                cache.touch(key, slot_seconds())
            else:
                cache.add(key, token, slot_seconds())
    except Exception as error:
        log.warning(
            "Socket slots not renewed: the cache failed: %r",
            error,
            exc_info=traceback_wanted(error),
        )


def release_slots(keys, token):
    try:
        for key in keys:
            if cache.get(key) == token:
                cache.delete(key)
    except Exception as error:
        log.warning(
            "Socket slots not released: the cache failed: %r",
            error,
            exc_info=traceback_wanted(error),
        )


CHECK = object()  # in a socket's inbox: time for its check
LAYER_FAILED = object()  # in a socket's inbox: the channel layer failed (Redis away)
# The inboxes of this process's sockets: all are told when the layer fails in one of them.
_inboxes = set()
# Each event loop with sockets on a layer read from Redis: [its heartbeat task, its sockets].
_watchers = {}
_down = set()  # the event loops whose heartbeat last failed
_leaving = set()  # closed sockets' leaving of the channel layer, until it is done


async def feed(source, inbox):
    """Put what `source()` gives into `inbox`, one message after another, for ever.

    A layer that fails (Redis away) is tried again LAYER_RETRY_SECONDS later, and
    every socket of the process is told (see the module docstring): a feed that
    stopped at the first error would leave its socket deaf to every broadcast.
    """
    while True:
        try:
            message = await source()
        except LAYER_ERRORS as error:
            log.warning("A socket's channel layer failed; trying it again: %r", error)
            for each in list(_inboxes):
                each.put_nowait(LAYER_FAILED)
            await asyncio.sleep(LAYER_RETRY_SECONDS)
            continue
        inbox.put_nowait(message)


class ReaderOutage(logging.Filter):
    """Leave out channels-redis's pub/sub reader's traceback of a lost Redis.

    Its reading task logs "Unexpected exception in receive task" with a
    traceback every second while Redis is away, in every process with
    sockets; the heartbeat of the process says it once when the layer fails
    and once when it answers again (watch_layer). Any other exception of the
    reader is logged as channels-redis logs it.
    """

    def filter(self, record):
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, LAYER_ERRORS)


logging.getLogger("channels_redis.pubsub").addFilter(ReaderOutage())


async def watch_layer(layer):
    """Send a message to a channel of this process's own and read it back, for ever.

    A beat that fails (the send or the read fails, or takes longer than
    LAYER_RETRY_SECONDS) marks this event loop's layer as down and tells every
    socket (see the module docstring); the next that comes back marks it up.
    """
    loop = asyncio.get_running_loop()
    channel = reader = None
    try:
        while True:
            try:
                if channel is None:
                    # A send must get through first: the pub/sub layer keeps a queue for
                    # each new_channel that fails, and an outage lasts many beats.
                    probe = layer.send(PROBE, {"type": "layer.probe"})
                    await asyncio.wait_for(probe, LAYER_RETRY_SECONDS)
                    channel = await asyncio.wait_for(layer.new_channel(), LAYER_RETRY_SECONDS)
                if reader is None:
                    # Never cancelled while waiting: the pub/sub layer would forget the channel.
                    reader = asyncio.ensure_future(layer.receive(channel))
                beat = {"type": "layer.heartbeat"}
                await asyncio.wait_for(layer.send(channel, beat), LAYER_RETRY_SECONDS)
                await asyncio.wait({reader}, timeout=LAYER_RETRY_SECONDS)
                came_back = reader.done() and reader.exception() is None
                if reader.done():
                    reader = None
            except LAYER_ERRORS:
                came_back = False
            if came_back:
                if loop in _down:
                    log.warning("The channel layer answers its heartbeat again")
                _down.discard(loop)
            else:
                if loop not in _down:
                    log.warning("The channel layer failed its heartbeat; telling the sockets")
                _down.add(loop)
                for each in list(_inboxes):
                    each.put_nowait(LAYER_FAILED)
            await asyncio.sleep(LAYER_RETRY_SECONDS)
    finally:
        _down.discard(loop)
        if reader is not None:
            reader.cancel()


def send_frames(loop, send, waited, message):
    """Hand a frame from a consumer's thread to Daphne without waiting (anything else waits).

    Daphne's send hands a frame to Twisted at once (it never waits), so the
    thread has nothing to wait for; `async_to_sync` would cost the thread a
    hop back from the event loop. Frames and waited messages are put on the
    loop in one queue, in the order they were sent.
    """
    if message["type"] != "websocket.send":
        return waited(message)
    loop.call_soon_threadsafe(_start_sending, loop, send, message)
    return None


async def _send_on_loop(loop, send, message):
    """Send a frame from the event loop after those the consumer's thread handed over."""
    loop.call_soon(_start_sending, loop, send, message)


def _start_sending(loop, send, message):
    loop.create_task(send(message)).add_done_callback(_sent)


def _sent(task):
    if not task.cancelled() and task.exception() is not None:
        log.error("A frame could not be sent", exc_info=task.exception())


class SelfChecking:
    """Mix into a synchronous Channels consumer: bounded, checked every period, with timers."""

    slots = ()
    accepted = False
    over_bound = False
    is_gone = False  # its application has ended (see gone)
    layer_down = False  # the channel layer failed, and no check has joined its group since

    async def __call__(self, scope, receive, send):
        """Channels' AsyncConsumer.__call__, with one inbox for everything the socket receives.

        Channels waits on the client's receive and on the channel layer's with a
        task each, made anew after every message, and asyncio.wait over both.
        Here the client's messages (Daphne's Mailbox for the connection, see
        config/mailbox.py), the channel layer's (the embedded layer delivers
        into the inbox; another layer is read by one task), the timers' and the
        checks' all wait in one Mailbox, read in order.
        """
        self.scope = scope
        loop = self.loop = asyncio.get_running_loop()
        inbox = getattr(receive, "__self__", None)
        served = isinstance(inbox, Mailbox)  # by Daphne (config/mailbox.py)
        sources = []
        if not served:  # not under Daphne (the tests' communicators)
            inbox = Mailbox()
            sources.append(receive)
        self.inbox = inbox
        layer = self.channel_layer = get_channel_layer(self.channel_layer_alias)
        attached = isinstance(layer, LeanChannelLayer)  # it delivers into the inbox itself
        if layer is not None:
            # Known to be away (this loop's heartbeat failed): not asked, for channels-redis's
            # pub/sub layer keeps a queue for every new channel whose subscription fails.
            away = not attached and loop in _down
            if not away:
                try:
                    self.channel_name = await within_bound(layer.new_channel)
                except LAYER_ERRORS:
                    away = True
            if away:
                # Refused (Daphne answers the handshake 403), as while the database is
                # away: the page tries again after its back-off.
                await send({"type": "websocket.close"})
                return
            if attached:
                layer.attach(self.channel_name, inbox)
            else:
                sources.append(partial(layer.receive, self.channel_name))
        self.base_send = async_to_sync(send) if self._sync else send
        if self._sync and served:  # see send_frames
            self.base_send = partial(send_frames, loop, send, self.base_send)
        self.send_on_loop = partial(_send_on_loop, loop, send) if served else send
        feeds = [asyncio.ensure_future(feed(source, inbox)) for source in sources]
        watcher = None
        if not attached:
            _inboxes.add(inbox)
            if layer is not None:
                watcher = _watchers.get(loop)
                if watcher is None:
                    watcher = _watchers[loop] = [loop.create_task(watch_layer(layer)), 0]
                watcher[1] += 1
        period = check_period()
        # The first wait is jittered, so that sockets opened together do not check together.
        check = loop.call_later(random.uniform(period / 2, period), inbox.put_nowait, CHECK)
        try:
            while True:
                message = await inbox.get()
                if message is LAYER_FAILED:
                    if not self.layer_down and self.accepted:
                        check.cancel()
                        check = loop.call_later(LAYER_RETRY_SECONDS, inbox.put_nowait, CHECK)
                        await self.pause()
                    continue
                if message is FLOODED:
                    log.warning("A socket's client sent faster than it is read; closing it")
                    await send({"type": "websocket.close", "code": SOCKET_FLOODED})
                    message = {"type": "websocket.disconnect", "code": SOCKET_FLOODED}
                elif message is CHECK:
                    wait = LAYER_RETRY_SECONDS if self.layer_down else period
                    check = loop.call_later(wait, inbox.put_nowait, CHECK)
                    if await database_sync_to_async(session_lasts)(scope):
                        message = {"type": "socket.check"}
                    else:
                        # Closed, and handled as the client's going: the consumer leaves its
                        # groups, its slots and its presence as for any socket that goes.
                        await send({"type": "websocket.close", "code": SESSION_ENDED})
                        message = {"type": "websocket.disconnect", "code": SESSION_ENDED}
                if message.get("type") == "socket.check":
                    try:
                        await self.dispatch(message)  # joins its group again
                    except (OperationalError, InterfaceError):
                        # The database restarting: the socket stays, and its next check
                        # catches up (a kept connection is checked before it is used).
                        log.warning("A socket's check found the database unavailable")
                        continue
                    except LAYER_ERRORS:
                        if not self.layer_down:  # Redis away, and this socket the first to see
                            check.cancel()
                            check = loop.call_later(LAYER_RETRY_SECONDS, inbox.put_nowait, CHECK)
                            await self.pause()
                        continue
                    if self.layer_down and loop not in _down:  # in its group, Redis back
                        self.layer_down = False
                        await self.dispatch({"type": "socket.layer_up"})
                    continue
                if not await self.handled_on_loop(message):
                    await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            _inboxes.discard(inbox)
            if watcher is not None:
                watcher[1] -= 1
                if watcher[1] == 0:  # the loop's last socket: its heartbeat stops
                    watcher[0].cancel()
                    _watchers.pop(loop, None)
            check.cancel()
            if attached:
                layer.detach(self.channel_name, inbox)
            for task in feeds:
                task.cancel()
            self.is_gone = True
            self.gone()
            # Shielded: Daphne kills an application whose goodbye takes over 10 s
            # (cancelling it again every second), and its disconnect may never have
            # run. A group kept a dead socket, and channels-redis its subscription.
            # Held in _leaving until done (a task nothing refers to may be collected).
            leaving = asyncio.ensure_future(self.leave_layer(feeds))
            _leaving.add(leaving)
            leaving.add_done_callback(_leaving.discard)
            await asyncio.shield(leaving)

    def gone(self):
        """Drop what this process keeps for the socket (on the event loop, once it is gone).

        Called whatever became of its disconnect; consumers extend it. The socket's
        thread may still be at work (Daphne kills a socket whose thread is held up):
        what it would add for the socket afterwards checks `is_gone`.
        """

    async def leave_layer(self, feeds):
        """Stop reading the channel layer and leave the socket's groups, if its disconnect did not.

        Its groups: `group`, as this project's consumers name theirs, and Channels' `groups`.
        """
        await asyncio.gather(*feeds, return_exceptions=True)
        if self.channel_layer is None:
            return
        groups = list(getattr(self, "groups", None) or ())
        if getattr(self, "group", None):
            groups.append(self.group)
        for group in groups:  # leaving a group twice does nothing
            try:
                async with asyncio.timeout(LAYER_RETRY_SECONDS * 5):
                    await self.channel_layer.group_discard(group, self.channel_name)
            except LAYER_ERRORS as error:  # a timeout among them
                log.warning("A closed socket could not leave its group: %r", error)

    async def pause(self):
        """Note that the layer failed, and tell the consumer (its page says so)."""
        self.layer_down = True
        await self.dispatch({"type": "socket.layer_down"})

    async def handled_on_loop(self, message):
        """Handle `message` on the event loop, without a thread; return whether it was.

        A consumer answers here what it can without the database, such as a
        broadcast whose drawing this process remembers (games/live/consumers.py):
        the hop to a thread and back costs more CPU than the drawing itself.
        Anything else is dispatched to the consumer's thread, as Channels does.
        """
        return False

    def plays_here(self):
        """Whether the socket's user plays at the game it shows (the address's second slots)."""
        return False

    def after(self, delay, message):
        """Dispatch `message` to this socket in `delay` seconds (call it on the event loop)."""
        self.loop.call_later(delay, self.inbox.put_nowait, message)

    def websocket_connect(self, message):
        self.token = secrets.token_hex(8)
        slots = claim_slots(self.scope, self.token)
        if slots is None and self.plays_here():
            slots = claim_slots(self.scope, self.token, seated=True)  # see the module's doc
        if slots is None:
            self.over_bound = True
            self.close(code=SOCKETS_FULL)
            return
        self.slots = slots
        super().websocket_connect(message)
        if not self.accepted:
            release_slots(self.slots, self.token)
            self.slots = ()

    def accept(self, subprotocol=None, headers=None):
        self.accepted = True
        super().accept(subprotocol, headers)

    def end_session(self):
        """Open the socket of a visitor who is not logged in, and close it with SESSION_ENDED.

        Only a logged-in user's pages open these sockets: one without a session is a
        page whose session ended (a logout in another tab, an expiry), perhaps while
        its socket was down. A socket refused before its accept looks to the page like
        an outage (1006), tried again for good; this close says to reload, and is
        not tried again.
        """
        self.accept()
        self.close(code=SESSION_ENDED)

    def websocket_disconnect(self, message):
        if self.over_bound:
            raise StopConsumer()
        release_slots(self.slots, self.token)
        self.slots = ()
        super().websocket_disconnect(message)

    def socket_check(self, event):
        """Renew the socket's slots; consumers extend this with their own catching up."""
        renew_slots(self.slots, self.token)

    def socket_layer_down(self, event):
        """The channel layer failed: consumers tell their pages (see the module docstring)."""

    def socket_layer_up(self, event):
        """The socket is in its group again after the layer failed: consumers catch up."""

    def layer_failed(self):
        """Call from the consumer's thread when a use of the layer failed (a group_add)."""
        self.loop.call_soon_threadsafe(self.inbox.put_nowait, LAYER_FAILED)

    def join_group(self, group):
        """Join `group` (again), from the consumer's thread; raise one of LAYER_ERRORS if the
        layer fails, or takes longer than its bound (broadcasts.LAYER_CALL_SECONDS).

        While this process's heartbeat finds the layer away it is not asked at all (LayerAway):
        a Redis that hangs would hold the thread every socket of the process shares for a
        second at each socket's check, and the process's sockets check every second then.
        """
        if self.loop in _down:
            raise LayerAway()
        async_to_sync(within_bound)(self.channel_layer.group_add, group, self.channel_name)

    def leave_group(self, group):
        """Leave `group`, from the consumer's thread; a layer that fails is tried again when the
        socket has gone (leave_layer)."""
        try:
            async_to_sync(within_bound)(self.channel_layer.group_discard, group, self.channel_name)
        except LAYER_ERRORS as error:
            log.warning("A socket could not leave its group: %r", error)


class LayerAway(ConnectionError):
    """The process's heartbeat finds the channel layer away: it is not asked (one of LAYER_ERRORS)."""


def session_lasts(scope):
    """Whether the session a socket opened with is still its user's (True for a guest's)."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return True
    try:
        request = HttpRequest()
        request.session = import_module(settings.SESSION_ENGINE).SessionStore(
            scope["session"].session_key
        )
        return auth.get_user(request).pk == user.pk
    except Exception:
        log.warning("A socket's session could not be read again", exc_info=True)
        return True  # the database away: the socket's other checks say so
