from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse
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
    email_notifications = models.BooleanField(
        _("email notifications"),
        default=True,
        help_text=_("Email me about my games, for example when it is my turn."),
    )
    email_digest = models.BooleanField(
        _("daily digest"),
        default=False,
        help_text=_("Email me once a day a list of the games waiting for me."),
    )
    digest_sent_at = models.DateTimeField(null=True, blank=True, editable=False)

    def get_absolute_url(self):
        return reverse("accounts:profile", args=[self.username])

    @property
    def name(self):
        """Return the name other players see."""
        return self.display_name or self.username
