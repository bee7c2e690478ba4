"""Forms of the table that are not moves (moves are parsed by views.parse_move)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import PayRule

AS_SET = ""  # a choice that defers to the player's settings page
ON, OFF = "on", "off"
_SWITCH = {AS_SET: None, ON: True, OFF: False}


def _switch_choices(current):
    setting = _("on") if current else _("off")
    return [
        (AS_SET, _("As in my settings (%(setting)s)") % {"setting": setting}),
        (ON, _("On in this game")),
        (OFF, _("Off in this game")),
    ]


class StandingAnswersForm(forms.Form):
    """One game's standing answers of a player: each as in their settings, or its own."""

    accept_without_jsn = forms.ChoiceField(
        label=_("When I hold no Just Say No, accept at once"), required=False
    )
    pay_rule = forms.ChoiceField(label=_("Pay for me"), required=False)
    jsn_deal_breaker = forms.ChoiceField(
        label=_("Always Just Say No to a Deal Breaker"), required=False
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["accept_without_jsn"].choices = _switch_choices(user.accept_without_jsn)
        self.fields["jsn_deal_breaker"].choices = _switch_choices(user.jsn_deal_breaker)
        setting = PayRule(user.pay_rule).label
        self.fields["pay_rule"].choices = [
            (AS_SET, _("As in my settings (%(setting)s)") % {"setting": setting})
        ] + list(PayRule.choices)

    @classmethod
    def for_seat(cls, seat, user):
        """Return the form showing `seat`'s choices."""

        def switch(value):
            return AS_SET if value is None else (ON if value else OFF)

        initial = {
            "accept_without_jsn": switch(seat.accept_without_jsn),
            "pay_rule": seat.pay_rule,
            "jsn_deal_breaker": switch(seat.jsn_deal_breaker),
        }
        return cls(initial=initial, user=user)

    def seat_fields(self):
        """Return the Seat fields of the cleaned choices."""
        data = self.cleaned_data
        return {
            "accept_without_jsn": _SWITCH[data["accept_without_jsn"]],
            "pay_rule": data["pay_rule"],
            "jsn_deal_breaker": _SWITCH[data["jsn_deal_breaker"]],
        }
