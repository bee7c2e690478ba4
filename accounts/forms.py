from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm as DjangoPasswordChangeForm,
    PasswordResetForm as DjangoPasswordResetForm,
    SetPasswordForm as DjangoSetPasswordForm,
    UserCreationForm,
)
from django.utils import translation
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

    def explain_integrity_error(self):
        """Say which name or address another sign-up took between the checks and the save."""
        username = self.cleaned_data.get("username", "")
        if User.objects.filter(username__iexact=username).exists():
            self.add_error("username", self.instance.unique_error_message(User, ["username"]))
        elif User.objects.filter(display_name__iexact=username).exists():
            self.add_error("username", _("Another player already goes by this name."))
        email = self.cleaned_data.get("email", "")
        try:
            if email:
                _check_email_is_free(email)
        except forms.ValidationError as error:
            self.add_error("email", error)
        if not self.errors:
            self.add_error(None, _("Your account could not be created. Please try again."))


class SettingsForm(forms.ModelForm):
    language = forms.ChoiceField(label=_("Language"), choices=_language_choices, required=False)

    class Meta:
        model = User
        # The email address has a page of its own (EmailChangeForm): it takes the password.
        fields = [
            "display_name",
            "language",
            "email_notifications",
            "email_digest",
            "turn_sound",
            "turn_browser_notification",
            "show_table_hints",
            "colour_blind_palette",
            "accept_without_jsn",
            "pay_rule",
            "jsn_deal_breaker",
            "chat_off",
        ]
        labels = {
            "show_table_hints": _("Show first-game hints on the table"),
            "colour_blind_palette": _("Colour-blind palette for the property colours"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["display_name"].widget.attrs["autocomplete"] = "nickname"
        # A form posted without it (an older page) keeps asking, the safe choice.
        self.fields["pay_rule"].required = False

    def clean_pay_rule(self):
        return self.cleaned_data["pay_rule"] or PayRule.ASK


class CurrentPasswordMixin:
    """Check the account's current password, a few wrong tries at most."""

    wrong_password_message = _(
        "Your current password was entered incorrectly. Please enter it again."
    )

    def _check_current_password(self, user, password):
        # A session taken over must not become a way to guess the password.
        if throttle.password_checks_locked(user):
            raise forms.ValidationError(
                _("Too many wrong passwords. Please try again in %(minutes)d minutes."),
                code="throttled",
                params={"minutes": throttle.WINDOW // 60},
            )
        if not user.check_password(password):
            throttle.record_wrong_password(user)
            raise forms.ValidationError(self.wrong_password_message, code="password_incorrect")
        return password


class EmailChangeForm(CurrentPasswordMixin, forms.ModelForm):
    """A new email address, given with the current password (reset links go to it)."""

    current_password = forms.CharField(
        label=_("Current password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    class Meta:
        model = User
        fields = ["email"]
        labels = {"email": _("New email address")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.previous_email = self.instance.email
        self.fields["email"].required = True
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.initial["email"] = ""

    def clean_current_password(self):
        return self._check_current_password(self.instance, self.cleaned_data["current_password"])

    def clean_email(self):
        email = self.cleaned_data["email"]
        if email.casefold() == self.previous_email.casefold():
            raise forms.ValidationError(_("This is already your email address."), code="same_email")
        _check_email_is_free(email, user=self.instance)
        return email


class CloseAccountForm(CurrentPasswordMixin, forms.Form):
    """Close the account (games.play.closing): the current password, and a box ticked."""

    current_password = forms.CharField(
        label=_("Current password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    understood = forms.BooleanField(
        label=_("I understand: my games in play are resigned, and I can no longer log in."),
        error_messages={"required": _("Tick the box to close your account.")},
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_current_password(self):
        return self._check_current_password(self.user, self.cleaned_data["current_password"])


class PasswordResetForm(DjangoPasswordResetForm):
    """Django's password reset, its email in the account's language as every email of the site."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        # accounts.email.write does the same for the site's own emails.
        with translation.override(context["user"].language or translation.get_language()):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


class PasswordOnlySaved:
    """Save the password alone, not the whole user row read when the request began.

    Django's forms save every column: a settings page saved meanwhile, or the
    worker's claim of a daily digest, would be written back as they were.
    """

    def set_password_and_save(self, user, password_field_name="password1", commit=True):
        user.set_password(self.cleaned_data[password_field_name])
        if commit:
            user.save(update_fields=["password"])
        return user


class SetPasswordForm(PasswordOnlySaved, DjangoSetPasswordForm):
    """Django's new password from a reset link, saved alone."""


class PasswordChangeForm(PasswordOnlySaved, CurrentPasswordMixin, DjangoPasswordChangeForm):
    """Django's password change, its current password throttled like the email change's."""

    @property
    def wrong_password_message(self):
        return self.error_messages["password_incorrect"]

    def clean_old_password(self):
        return self._check_current_password(self.user, self.cleaned_data["old_password"])


class ThrottledLoginMixin:
    """Refuse logins while the username or the address is locked by too many failures.

    A browser that logged in as the username before is trusted instead
    (accounts/throttle.py, its login cookie): its own failures are counted.
    """

    def clean(self):
        username = self.cleaned_data.get("username")
        # Behind a proxy, the address its entry of X-Forwarded-For gives
        # (config/proxy.py): a proxy is not one address for all, and a client
        # cannot choose the address it is counted as.
        address = self.request.META.get("REMOTE_ADDR") if self.request else None
        device = None
        if self.request:
            cookie = self.request.get_signed_cookie(
                throttle.DEVICE_COOKIE,
                default=None,
                salt=throttle.DEVICE_SALT,
                max_age=throttle.DEVICE_AGE,
            )
            given = throttle.device_of(cookie)
            # Given to the account this username names exactly: its id, not a name's hash.
            if given and User.objects.filter(pk=given[0], username=username).exists():
                device = throttle.trusted_device(given[1], username)
        # Checked before the password, and alike for every username: a locked
        # account and a missing one look the same.
        if throttle.is_locked(username, address, device):
            raise forms.ValidationError(
                _("Too many failed attempts to log in. Please try again in %(minutes)d minutes."),
                code="throttled",
                params={"minutes": throttle.WINDOW // 60},
            )
        try:
            super().clean()
        except forms.ValidationError as error:
            if error.code == "invalid_login":
                throttle.record_failure(username, address, device)
            raise
        if self.user_cache is not None:
            throttle.reset(username, address, device)
        return self.cleaned_data


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's login, throttled alike: it must not be a way around the limit."""


class VacationForm(forms.Form):
    """How many whole days of vacation to take, starting now (games/play/vacation.py)."""

    days = forms.IntegerField(
        label=_("Days of vacation, starting now"),
        min_value=1,
        error_messages={
            "required": _("Enter a number of days."),
            "invalid": _("Enter a whole number of days."),
            "min_value": _("A vacation lasts at least one day."),
        },
    )
