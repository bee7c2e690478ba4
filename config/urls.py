from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from games.table.howto import how_to_play

urlpatterns = [
    path("", include("lobby.urls")),
    path("accounts/", include("accounts.urls")),
    path("games/", include("games.urls")),
    path("how-to-play/", how_to_play, name="how_to_play"),
    # Django's set_language: the footer's language buttons for visitors (templates/base.html).
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # Pages link their icon (templates/base.html); browsers still ask for this
    # address on responses that are not pages (the admin, JSON). Lazy: the
    # hashed name exists only once the app is ready.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg")), name="favicon"),
]
