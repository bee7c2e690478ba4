from django.contrib import admin
from django.urls import include, path

from games.howto import how_to_play

urlpatterns = [
    path("", include("lobby.urls")),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("how-to-play/", how_to_play, name="how_to_play"),
    path("admin/", admin.site.urls),
]
