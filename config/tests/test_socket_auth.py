"""A socket knows its user from the session cookie, as a page does (config/socket_auth.py)."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.live.sockets import SESSION_ENDED
from lobby.tests.test_consumer import ORIGIN, logged_in, socket_headers

pytestmark = pytest.mark.django_db(transaction=True)


async def opens(headers):
    """Return whether the user's own socket (ws/me/, users only) is opened for a user with
    `headers`; a guest's is accepted and closed at once as a session that ended."""
    socket = WebsocketCommunicator(application, "/ws/me/", headers)
    connected, _code = await socket.connect()
    assert connected
    first = await socket.receive_output(timeout=5)
    await socket.disconnect()
    if first["type"] == "websocket.close":
        assert first["code"] == SESSION_ENDED
        return False
    return "nav-badges" in first["text"]  # the badges: the socket knows its user


async def test_it_knows_a_signed_in_user_by_their_session_cookie(alice):
    client = await sync_to_async(logged_in)(alice)
    assert await opens(await sync_to_async(socket_headers)(client))


async def test_it_takes_a_socket_without_a_session_or_with_a_made_up_one_for_a_guest():
    assert not await opens([ORIGIN])
    assert not await opens([ORIGIN, (b"cookie", b"sessionid=made-up-key; other=1")])


async def test_it_refuses_a_session_that_a_password_change_ended(alice):
    client = await sync_to_async(logged_in)(alice)
    headers = await sync_to_async(socket_headers)(client)

    def change_password():
        alice.set_password("another-long-secret-42")
        alice.save()

    await sync_to_async(change_password)()
    assert not await opens(headers)
