# Game admin comes with the Game model. Chat reports are read here (games/chat/messages.py).
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.chat.messages import Report


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "game", "author", "message_text", "reporter"]
    list_select_related = ["message__game", "message__user", "reporter"]
    search_fields = ["message__text", "message__game__code", "message__user__username"]
    readonly_fields = ["message", "reporter", "created_at", "game", "author", "message_text"]
    ordering = ["-created_at"]

    def has_add_permission(self, request):
        return False  # made by players, from the chat (games/chat/messages.py)

    @admin.display(description=_("game"), ordering="message__game__code")
    def game(self, report):
        return report.message.game.code

    @admin.display(description=_("author"))
    def author(self, report):
        return report.message.user.get_username()

    @admin.display(description=_("message"))
    def message_text(self, report):
        return report.message.shown_text()
