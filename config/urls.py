from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("lobby.urls")),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("admin/", admin.site.urls),
]
