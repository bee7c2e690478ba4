"""A game socket checks itself now and then: a broadcast it missed cannot leave it behind."""

import re

import pytest
from asgiref.sync import sync_to_async

from games.tests.test_consumer import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


def version_of(html):
    return int(re.search(r'data-version="(\d+)"', html).group(1))


@pytest.fixture
def quick_checks(settings):
    settings.GAME_SOCKET_CHECK_SECONDS = 0.2


async def test_it_catches_up_with_a_move_whose_broadcast_was_lost(
    table_game, alice, quick_checks, without_broadcasts
):
    socket, connected = await connect(table_game, alice)
    try:
        assert connected
        assert version_of(await receive(socket)) == 1
        current = (await sync_to_async(table_game.state)()).current
        with without_broadcasts():  # as if Redis were down when the move was made
            await sync_to_async(table_game.play)(current, {"kind": "end"}, version=1)

        html = await receive(socket)
    finally:
        await socket.disconnect()

    assert version_of(html) > 1 and 'id="hand"' in html


async def test_it_sends_nothing_when_its_board_is_current(table_game, alice, quick_checks):
    socket, connected = await connect(table_game, alice)
    try:
        assert connected
        await receive(socket)

        assert await socket.receive_nothing(timeout=0.8)
    finally:
        await socket.disconnect()
