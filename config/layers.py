"""The channel layer of the embedded set-up: Channels' in-memory layer, made lean per socket.

Channels' InMemoryChannelLayer keeps an asyncio.Queue for every channel a
consumer receives on (about 3 KB each: one per open socket), starts a task for
every channel of a group_send, and on every receive and group_send scans every
channel and every group for what expired: a cost that grows with the open
sockets. This layer has the same semantics with less:

- A message sent to a channel whose consumer is waiting goes straight to it
  (one Future per waiting receive); only messages nobody waits for yet are
  kept, in a deque that exists while it holds some.
- Capacity per channel as before (ChannelFull; group_send skips a full channel).
- Messages expire after `expiry` seconds unread, and a channel with an expired
  message leaves every group; group memberships expire after `group_expiry`.
  Both are cleaned at most once per CLEAN_SECONDS instead of at every call,
  and expired messages are never delivered.

Production runs channels-redis (config/settings.py); this layer serves one
process only, like the one it replaces.
"""

import asyncio
import time
from collections import deque
from copy import deepcopy

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

CLEAN_SECONDS = 1.0
SEVERAL_LOOPS = object()


class LeanChannelLayer(InMemoryChannelLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.channels = {}  # channel -> deque of (expires at, message) nobody received yet
        self.waiting = {}  # channel -> [Future] of the receives waiting on it
        self.inboxes = {}  # channel -> the Mailbox its socket reads everything from (attach)
        self.loop = None  # the event loop of the attached sockets (group_send_soon)
        self.cleaned_at = 0.0

    async def send(self, channel, message):
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self.deliver(channel, message)

    def attach(self, channel, inbox):
        """Deliver `channel`'s messages straight into `inbox` (a socket's Mailbox) from now on.

        A socket that reads its client, its timers and its channel from one
        inbox needs no receive waiting on the channel (games/live/sockets.py).
        """
        self.inboxes[channel] = inbox
        loop = asyncio.get_running_loop()
        known = self.loop
        if known is None or (known is not SEVERAL_LOOPS and not known.is_running()):
            self.loop = loop
        elif known is not loop:
            self.loop = SEVERAL_LOOPS  # (tests) a thread cannot tell which loop a group is on

    def detach(self, channel, inbox):
        if self.inboxes.get(channel) is inbox:
            del self.inboxes[channel]

    def deliver(self, channel, message):
        inbox = self.inboxes.get(channel)
        if inbox is not None:
            if inbox.qsize() >= self.get_capacity(channel):
                raise ChannelFull(channel)
            inbox.put_nowait(deepcopy(message))
            return
        for future in self.waiting.get(channel, ()):
            if not future.done():
                future.set_result(deepcopy(message))
                return
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = deque()
        if len(queue) >= self.get_capacity(channel):
            raise ChannelFull(channel)
        queue.append((time.time() + self.expiry, deepcopy(message)))

    async def receive(self, channel):
        self.require_valid_channel_name(channel)
        self.clean_now_and_then()
        queue = self.channels.get(channel)
        while queue:
            expires, message = queue.popleft()
            if not queue:
                del self.channels[channel]
            if expires >= time.time():
                return message
            self._remove_from_groups(channel)  # as Channels does with an expired message
        future = asyncio.get_running_loop().create_future()
        waiting = self.waiting.setdefault(channel, [])
        waiting.append(future)
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                # Handed over as this receive was cancelled: the next one gets it.
                expires = time.time() + self.expiry
                self.channels.setdefault(channel, deque()).appendleft((expires, future.result()))
            raise
        finally:
            waiting.remove(future)
            if not waiting and self.waiting.get(channel) is waiting:
                del self.waiting[channel]

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self.deliver_to_group(group, message)

    def deliver_to_group(self, group, message):
        self.clean_now_and_then()
        for channel in list(self.groups.get(group, ())):
            try:
                self.deliver(channel, message)
            except ChannelFull:
                pass

    def group_send_soon(self, group, message):
        """Have the attached sockets' loop deliver `message` to `group`, from any thread.

        The thread goes on at once: `async_to_sync(group_send)` would have it
        wait for the loop's answer, a hop back that costs more than the
        delivery. Return False, having sent nothing, when no loop of attached
        sockets is running (or several are): the caller then sends as usual.

        A group no socket is in is done with at once, sending nothing (in a
        process that no socket has joined, there is no loop to hop to). A
        socket that joins later misses nothing: it joins its group before it
        reads what it first shows, and this is called after the commit.
        """
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        if not self.groups.get(group):
            return True
        loop = self.loop
        if loop is None or loop is SEVERAL_LOOPS or not loop.is_running():
            return False
        loop.call_soon_threadsafe(self.deliver_to_group, group, message)
        return True

    def clean_now_and_then(self):
        now = time.time()
        if now - self.cleaned_at >= CLEAN_SECONDS:
            self.cleaned_at = now
            self._clean_expired()

    def _clean_expired(self):
        now = time.time()
        for channel, queue in list(self.channels.items()):
            if queue and queue[0][0] < now:
                while queue and queue[0][0] < now:
                    queue.popleft()
                self._remove_from_groups(channel)
                if not queue:
                    del self.channels[channel]
        timeout = int(now) - self.group_expiry
        for channels in self.groups.values():
            for name, joined in list(channels.items()):
                if joined and joined < timeout:
                    del channels[name]

    async def flush(self):
        self.channels = {}
        self.groups = {}  # the receives waiting go on waiting, for what is sent from now on
