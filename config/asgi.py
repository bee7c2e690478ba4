"""ASGI entry point: Django for HTTP, Channels for WebSockets."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Set up Django before importing anything that touches models (as get_asgi_application does).
django.setup(set_prefix=False)

from config.http import PooledASGIHandler, leave_bodies_unparsed  # noqa: E402

django_asgi_app = PooledASGIHandler()
leave_bodies_unparsed()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.apps import apps as django_apps  # noqa: E402
from django.urls import path  # noqa: E402

from config import mailbox  # noqa: E402
from config.proxy import TrustedProxyMiddleware  # noqa: E402
from config.socket_auth import SameOriginValidator, SocketAuthMiddleware  # noqa: E402
from games.live.consumers import GameConsumer  # noqa: E402
from games.play.worker import run_inside_server  # noqa: E402
from lobby.consumers import LobbyConsumer, UserConsumer  # noqa: E402

# Socket routes (the game consumer) are added here as the apps grow them.
websocket_urlpatterns = [
    path("ws/games/<slug:code>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/lobby/<slug:code>/", LobbyConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]
if django_apps.is_installed("games.tools"):
    from games.tools.echo import EchoConsumer

    # The load test's baseline (manage.py loadtest): a bare round trip. Never in production
    # unless asked for (settings.TOOLS).
    websocket_urlpatterns.append(path("ws/echo/", EchoConsumer.as_asgi()))

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(SocketAuthMiddleware(URLRouter(websocket_urlpatterns))),
    }
)
# Each connection's messages wait in a Mailbox, not an asyncio.Queue (3 KB less a socket).
mailbox.install()

# Outermost: the throttles and socket limits count the client the trusted proxy saw.
application = TrustedProxyMiddleware(application)

# This is the module a Daphne server loads before it runs: without Redis, the
# worker's rounds run in this process (settings.WORKER_IN_SERVER), once its
# reactor runs.
run_inside_server()
