# Game admin comes with the Game model. Chat reports are read and acted on here
# (games/chat/messages.py; docs/chat.md, "Reports").
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from games.chat.messages import ChatMessage, Report
from games.play.closing import close_account

# Messages shown around a reported one, before and after it, in its room.
AROUND = 5


class RemovedListFilter(admin.SimpleListFilter):
    title = _("message removed")
    parameter_name = "removed"

    def lookups(self, request, model_admin):
        return [("no", _("No")), ("yes", _("Yes"))]

    def queryset(self, request, queryset):
        if self.value() in ("no", "yes"):
            return queryset.filter(message__removed_at__isnull=self.value() == "no")
        return queryset


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "game", "author", "message_text", "reporter", "removed"]
    list_select_related = ["message__game", "message__user", "reporter"]
    list_filter = [RemovedListFilter]
    search_fields = ["message__text", "message__game__code", "message__user__username"]
    readonly_fields = [
        "message",
        "reporter",
        "created_at",
        "game",
        "author",
        "message_text",
        "conversation",
    ]
    ordering = ["-created_at"]
    actions = ["remove_messages", "close_authors"]

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

    @admin.display(description=_("removed"), boolean=True)
    def removed(self, report):
        return report.message.removed_at is not None

    @admin.display(description=_("conversation"))
    def conversation(self, report):
        """The messages around the reported one in its room, as its readers saw them."""
        message = report.message
        room = ChatMessage.objects.filter(game_id=message.game_id, room=message.room)
        room = room.select_related("user")
        before = list(room.filter(pk__lt=message.pk).order_by("-pk")[:AROUND])[::-1]
        after = list(room.filter(pk__gt=message.pk).order_by("pk")[:AROUND])
        lines = [
            (
                "\u25b6 " if each.pk == message.pk else "",  # the reported one
                each.created_at.strftime("%Y-%m-%d %H:%M"),
                each.user.get_username(),
                each.shown_text(),
                _(" (removed)") if each.removed_at else "",
            )
            for each in [*before, message, *after]
        ]
        rows = format_html_join("", '<li class="{}">{} <b>{}</b>: {}{}</li>', lines)
        return format_html("<ol>{}</ol>", rows)

    # Acting takes the right to change reports; closing an account, to change users too.
    @admin.action(
        description=_("Remove the reported messages (nobody sees them again)"),
        permissions=["change"],
    )
    def remove_messages(self, request, queryset):
        chosen = ChatMessage.objects.filter(reports__in=queryset, removed_at=None)
        chosen.update(removed_at=timezone.now())

    @admin.action(
        description=_("Close the authors' accounts (resign their games)"), permissions=["close"]
    )
    def close_authors(self, request, queryset):
        authors = (
            get_user_model()
            .objects.filter(chat_messages__reports__in=queryset, is_active=True)
            .distinct()
        )
        for author in authors:
            close_account(author)

    def has_close_permission(self, request):
        return self.has_change_permission(request) and request.user.has_perm("accounts.change_user")
