"""The load test's baseline socket (ws/echo/): it echoes, for logged-in users only."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://localhost")


def logged_in_headers():
    user = get_user_model().objects.create_user("alice", "alice@example.com", None)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [ORIGIN, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]


async def test_it_sends_back_what_it_receives():
    headers = await sync_to_async(logged_in_headers)()
    socket = WebsocketCommunicator(application, "/ws/echo/", headers)
    try:
        connected, _code = await socket.connect()
        assert connected
        await socket.send_to(text_data="17 1700000000.5")
        assert await socket.receive_from(timeout=5) == "17 1700000000.5"
    finally:
        await socket.disconnect()


async def test_it_refuses_anonymous_visitors():
    socket = WebsocketCommunicator(application, "/ws/echo/", [ORIGIN])
    try:
        connected, _code = await socket.connect()
    finally:
        await socket.disconnect()

    assert not connected
