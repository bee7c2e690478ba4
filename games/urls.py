from django.urls import path

from games import views
from games.chat import views as chat_views

app_name = "games"

urlpatterns = [
    path("finished/", views.finished_games, name="finished"),
    path("recent/", views.recent_games, name="recent"),
    path("<slug:code>/", views.table, name="table"),
    path("<slug:code>/move/", views.move, name="move"),
    path("<slug:code>/back/", views.come_back, name="come_back"),
    path("<slug:code>/resign/", views.resign, name="resign"),
    path("<slug:code>/answers/", views.standing_answers, name="standing_answers"),
    path("<slug:code>/rematch/", views.rematch, name="rematch"),
    path("<slug:code>/computer/", views.new_computer_game, name="computer"),
    path("<slug:code>/log/", views.game_log, name="log"),
    path("<slug:code>/review/", views.review, name="review"),
    path("<slug:code>/analysis/", views.analysis, name="analysis"),
    path("<slug:code>/export.json", views.export, name="export"),
    path("<slug:code>/chat/", chat_views.post_message, name="chat_post"),
    path("<slug:code>/chat/switch/", chat_views.switch_chat, name="chat_switch"),
    path(
        "<slug:code>/chat/<int:message_id>/report/", chat_views.report_message, name="chat_report"
    ),
]
