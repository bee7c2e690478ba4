from django.contrib.auth import views as auth_views
from django.urls import path, register_converter, reverse_lazy
from django.urls.converters import StringConverter

from accounts import views


class UsernameConverter(StringConverter):
    """A path segment that can be a username: no NUL, which PostgreSQL refuses in a query."""

    regex = r"[^/\x00]+"


register_converter(UsernameConverter, "username")

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    # POST only (Django's LogoutView refuses GET), so a link cannot log anyone out.
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/change/",
        views.PasswordChangeView.as_view(success_url=reverse_lazy("accounts:password_change_done")),
        name="password_change",
    ),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path(
        "password/reset/",
        views.PasswordResetView.as_view(success_url=reverse_lazy("accounts:password_reset_done")),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_sent.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("accounts:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("settings/", views.settings_page, name="settings"),
    path("settings/email/", views.email_change, name="email_change"),
    path("settings/email/confirm/", views.send_confirmation, name="send_confirmation"),
    path("settings/close/", views.close_account, name="close_account"),
    path("settings/export/", views.export_data, name="export_data"),
    path("email/confirm/<str:token>/", views.confirm_email, name="confirm_email"),
    path("settings/hide-table-hints/", views.hide_table_hints, name="hide_table_hints"),
    path("vacation/", views.take_vacation, name="take_vacation"),
    path("vacation/end/", views.end_vacation, name="end_vacation"),
    path("u/<username:username>/", views.profile, name="profile"),
    path("u/<username:username>/block/", views.block_user, name="block"),
    path("u/<username:username>/vs/<username:other>/", views.versus, name="versus"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
