app_name = "games"

urlpatterns = []
