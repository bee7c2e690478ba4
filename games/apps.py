from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # They listen for what a move or a game's end announces (games/models/signals.py).
        from games.history import review  # noqa: F401
        from games.table import board  # noqa: F401
