"""Two server processes share games through PostgreSQL and Redis.

A move posted to one process reaches the sockets held by another, as it
must when several Daphne processes serve the site behind one port.
"""

import asyncio

import aiohttp
import pytest
from django.urls import reverse

from games import rules
from games.tools.load import Player, login_cookies, move_fields, posted_version

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_it_sends_a_move_posted_to_one_server_to_the_sockets_of_another(
    table_game, alice, bob, start_server
):
    server_a, server_b = start_server(), start_server()
    state = table_game.state()
    seat = rules.awaiting(state)[0][0]
    move = rules.default_move(state, seat)
    users = {s.position: s.user for s in table_game.seats.select_related("user")}
    cookies = {position: login_cookies(user) for position, user in users.items()}
    path = f"/ws/games/{table_game.code}/"
    move_url = reverse("games:move", args=[table_game.code])

    async def scenario():
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
            # Every player watches on server A; the awaited one posts to server B.
            watchers = [Player(http, server_a.url, cookies[p], path) for p in sorted(users)]
            mover = Player(http, server_b.url, cookies[seat], path)
            try:
                await asyncio.gather(*(w.open() for w in watchers))
                before = watchers[0].version
                status, body = await mover.post(move_url, move_fields(move, before))
                after = posted_version(body)
                arrived = await asyncio.gather(*(w.reach(after, timeout=5) for w in watchers))
            finally:
                for player in watchers:
                    await player.close()
            return before, status, after, arrived

    before, status, after, arrived = asyncio.run(scenario())

    table_game.refresh_from_db()
    assert status == 200
    assert before == 1 and after == table_game.version > before
    assert len(arrived) == len(users)
