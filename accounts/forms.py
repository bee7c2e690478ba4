from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import get_language_info, gettext_lazy as _

from accounts.models import User


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
        fields = ["display_name", "email", "language", "email_notifications", "email_digest"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["display_name"].widget.attrs["autocomplete"] = "nickname"

    def clean_email(self):
        email = self.cleaned_data["email"]
        _check_email_is_free(email, user=self.instance)
        return email
