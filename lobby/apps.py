from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    name = "lobby"
    verbose_name = _("Lobby")
