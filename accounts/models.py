from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see. The username is used when empty."),
    )
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        help_text=_("Preferred language code, e.g. 'zh-hans'. Empty means the browser's."),
    )
