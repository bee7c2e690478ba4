from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminLoginForm
from accounts.models import User

admin.site.login_form = AdminLoginForm


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = [
        *BaseUserAdmin.fieldsets,
        (_("Player"), {"fields": ["display_name", "language", "email_notifications"]}),
    ]
    list_display = ["username", "display_name", "email", "is_staff"]
