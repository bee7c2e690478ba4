from django.urls import path

from lobby import views

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/", views.tables, name="tables"),
    path("tables/new/", views.create, name="create"),
    path("play/computer/", views.play_computer, name="play_computer"),
    path("play/quick/", views.quick_game, name="quick_game"),
    path("turn/", views.your_turn, name="your_turn"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.read_notifications, name="read_notifications"),
    path("t/<slug:code>/", views.table, name="table"),
    path("t/<slug:code>/join/", views.join, name="join"),
    path("t/<slug:code>/join/<str:token>/", views.share, name="share"),
    path("t/<slug:code>/leave/", views.leave, name="leave"),
    path("t/<slug:code>/remove/", views.remove, name="remove"),
    path("t/<slug:code>/start/", views.start, name="start"),
    path("t/<slug:code>/cancel/", views.cancel, name="cancel"),
    path("t/<slug:code>/bots/", views.fill_with_bots, name="fill_with_bots"),
    path("t/<slug:code>/invite/", views.invite, name="invite"),
    path("t/<slug:code>/decline/", views.decline, name="decline"),
]
