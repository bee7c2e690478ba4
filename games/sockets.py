"""Sockets that check themselves now and then, so that a lost broadcast cannot leave them behind.

Group memberships live in the channel layer. A Redis restart forgets them,
and the broadcasts made while it is down are lost; a consumer whose turn at
its process's blocking read comes after Redis is back never sees an error
(see games/consumers.py). So a self-checking socket receives a "socket.check"
message whenever its client has been quiet for GAME_SOCKET_CHECK_SECONDS
(a setting for every such socket, 20 by default; the first wait is jittered
so that sockets opened together do not check together), and its
`socket_check` handler joins its group again and catches up.
"""

import asyncio
import random

from django.conf import settings


class SelfChecking:
    """Mix into a Channels consumer: a "socket.check" message after every quiet period."""

    async def __call__(self, scope, receive, send):
        period = getattr(settings, "GAME_SOCKET_CHECK_SECONDS", 20)
        wait = random.uniform(period / 2, period)

        async def receive_or_check():
            nonlocal wait
            try:
                # Cancelling the server's receive loses nothing: it is a queue's get.
                return await asyncio.wait_for(receive(), wait)
            except TimeoutError:
                return {"type": "socket.check"}
            finally:
                wait = period

        await super().__call__(scope, receive_or_check, send)
