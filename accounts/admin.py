from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminLoginForm
from accounts.models import User
from games.play.closing import close_account

admin.site.login_form = AdminLoginForm


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = [
        *BaseUserAdmin.fieldsets,
        (
            _("Player"),
            {"fields": ["display_name", "language", "email_notifications", "email_confirmed"]},
        ),
    ]
    readonly_fields = ["email_confirmed"]
    list_display = ["username", "display_name", "email", "email_confirmed", "is_active", "is_staff"]
    actions = ["close_accounts"]

    def save_model(self, request, obj, form, change):
        # A new address is confirmed anew by its owner (accounts/email/confirm.py).
        if "email" in form.changed_data:
            obj.email_confirmed = False
        super().save_model(request, obj, form, change)
        if change and "is_active" in form.changed_data and not obj.is_active:
            # "Active" unticked: the account is closed, as its owner would close it.
            close_account(obj)

    @admin.action(
        description=_("Close the chosen accounts (resign their games)"), permissions=["change"]
    )
    def close_accounts(self, request, queryset):
        for user in queryset.filter(is_active=True):
            close_account(user)
