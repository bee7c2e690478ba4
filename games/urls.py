from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("<slug:code>/", views.table, name="table"),
    path("<slug:code>/move/", views.move, name="move"),
    path("<slug:code>/back/", views.come_back, name="come_back"),
]
