from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import get_language_info, gettext_lazy as _

from accounts import throttle
from accounts.models import PayRule, User


def _language_choices():
    # Each language is named in itself, so that a player who cannot read the
    # current page can still find their own.
    return [("", _("Same as my browser"))] + [
        (code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES
    ]


def _check_email_is_free(email, user=None):
    others = User.objects.filter(email__iexact=email)
    if user is not None:
        others = others.exclude(pk=user.pk)
    if others.exists():
        raise forms.ValidationError(
            _("Another account already uses this email address."), code="duplicate_email"
        )


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ["username", "email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Password reset needs an address to write to.
        self.fields["email"].required = True
        self.fields["email"].help_text = _("Only used for password resets and notifications.")
        self.fields["email"].widget.attrs["autocomplete"] = "email"

    def clean_email(self):
        email = self.cleaned_data["email"]
        _check_email_is_free(email)
        return email


class SettingsForm(forms.ModelForm):
    language = forms.ChoiceField(label=_("Language"), choices=_language_choices, required=False)

    class Meta:
        model = User
        fields = [
            "display_name",
            "email",
            "language",
            "email_notifications",
            "email_digest",
            "turn_sound",
            "turn_browser_notification",
            "show_table_hints",
            "accept_without_jsn",
            "pay_rule",
            "jsn_deal_breaker",
        ]
        labels = {"show_table_hints": _("Show first-game hints on the table")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["display_name"].widget.attrs["autocomplete"] = "nickname"
        # A form posted without it (an older page) keeps asking, the safe choice.
        self.fields["pay_rule"].required = False

    def clean_pay_rule(self):
        return self.cleaned_data["pay_rule"] or PayRule.ASK

    def clean_email(self):
        email = self.cleaned_data["email"]
        _check_email_is_free(email, user=self.instance)
        return email


class ThrottledLoginMixin:
    """Refuse logins while the username or the address is locked by too many failures."""

    def clean(self):
        username = self.cleaned_data.get("username")
        # Daphne fills REMOTE_ADDR from X-Forwarded-For with --proxy-headers
        # (manage.py serve --proxy-headers), so a proxy is not one address for all.
        address = self.request.META.get("REMOTE_ADDR") if self.request else None
        # Checked before the password, and alike for every username: a locked
        # account and a missing one look the same.
        if throttle.is_locked(username, address):
            raise forms.ValidationError(
                _("Too many failed attempts to log in. Please try again in %(minutes)d minutes."),
                code="throttled",
                params={"minutes": throttle.WINDOW // 60},
            )
        try:
            super().clean()
        except forms.ValidationError as error:
            if error.code == "invalid_login":
                throttle.record_failure(username, address)
            raise
        if self.user_cache is not None:
            throttle.reset(username)
        return self.cleaned_data


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's login, throttled alike: it must not be a way around the limit."""
