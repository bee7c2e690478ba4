"""WebSocket origin checks: a page on another site cannot open the sockets of a signed-in user."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

PATHS = ["/ws/games/{code}/", "/ws/lobby/", "/ws/lobby/{code}/", "/ws/me/"]


def session_cookie(user):
    client = Client()
    client.force_login(user)
    return (
        b"cookie",
        f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode(),
    )


async def connect(path, game, user, origin, host=None):
    headers = [await sync_to_async(session_cookie)(user)]
    if origin is not None:
        headers.append((b"origin", origin))
    if host is not None:
        headers.append((b"host", host))
    communicator = WebsocketCommunicator(application, path.format(code=game.code), headers)
    connected, _code = await communicator.connect()
    await communicator.disconnect()
    return connected


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    "origin", [b"http://evil.example", b"http://localhost.evil.example", b"null", None]
)
async def test_it_refuses_a_socket_from_another_origin(path, origin, alice, table_game):
    assert not await connect(path, table_game, alice, origin)


@pytest.mark.parametrize("path", PATHS)
async def test_it_accepts_a_socket_from_the_site_itself(path, alice, table_game):
    assert await connect(path, table_game, alice, b"http://localhost")


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    "origin, host, opens",
    [
        (b"http://localhost:8000", b"localhost:8000", True),
        (b"https://localhost", b"localhost", True),
        # A page of the same host on another port: cookies are not kept apart by port.
        (b"http://localhost:9999", b"localhost:8000", False),
        (b"http://localhost", b"localhost:8000", False),
    ],
)
async def test_it_refuses_a_socket_from_another_port_of_the_host(
    path, origin, host, opens, alice, table_game
):
    assert await connect(path, table_game, alice, origin, host) == opens


async def test_it_accepts_a_trusted_origin_as_djangos_csrf_check_does(settings, alice, table_game):
    settings.CSRF_TRUSTED_ORIGINS = ["http://localhost:9999"]
    assert await connect("/ws/me/", table_game, alice, b"http://localhost:9999", b"localhost:8000")


@pytest.mark.parametrize(
    "origin, trusted",
    [
        ("https://app.example.com", True),
        ("https://example.com", True),
        ("http://app.example.com", False),  # another scheme
        ("https://app.example.com.evil.test", False),
        ("https://play.test", True),
        ("https://play.test:8443", False),
    ],
)
def test_it_trusts_the_origins_djangos_csrf_check_trusts(settings, origin, trusted):
    from config.socket_auth import trusted as is_trusted

    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.com", "https://play.test"]
    assert is_trusted(origin) == trusted
