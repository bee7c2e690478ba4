"""Settings of the fault tests' server processes: sockets check themselves every second."""

from config.settings import *  # noqa: F403

GAME_SOCKET_CHECK_SECONDS = 1
