from django.urls import path

from lobby import views

app_name = "lobby"

urlpatterns = [
    path("", views.home, name="home"),
]
