from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _, ngettext

from accounts.blocks import has_blocked
from games.models import Game
from games.play import bots

LIVE_SECONDS = [30, 60, 120]
CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 14]
RESERVE_DAYS = [0, 1, 3, 7]
STANDARD_RULES = {"enhanced": False, "built_sets": False, "wild_moves_cost_a_play": False}


class TableForm(forms.Form):
    seat_count = forms.IntegerField(
        label=_("Seats"),
        min_value=2,
        max_value=10,
        initial=4,
        help_text=_("From 2 to 10 players. The game starts by itself when every seat is taken."),
    )
    enhanced = forms.BooleanField(
        label=_("Enhanced edition"),
        required=False,
        help_text=_("Play with the cards and rules of the enhanced edition."),
    )
    built_sets = forms.BooleanField(
        label=_("Built sets"),
        required=False,
        help_text=_("Each winning set needs a House. Only with the enhanced edition."),
    )
    wild_moves_cost_a_play = forms.BooleanField(
        label=_("Wild moves cost a play"),
        required=False,
        help_text=_("Rearranging a wild property counts as one of your 3 plays."),
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=Game.Pace,
        initial=Game.Pace.LIVE,
        widget=forms.RadioSelect,
    )
    pace_seconds = forms.TypedChoiceField(
        label=_("Live: time per decision"),
        coerce=int,
        initial=60,
    )
    pace_days = forms.TypedChoiceField(
        label=_("Correspondence: time per move"),
        coerce=int,
        initial=3,
    )
    reserve_days = forms.TypedChoiceField(
        label=_("Correspondence: reserve"),
        coerce=int,
        initial=3,
        help_text=_(
            "Extra time each player may spend over the whole game, used when a deadline passes."
        ),
    )
    private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_(
            "Not listed in the lobby: players join by invitation or with the table's link."
        ),
    )
    with_bots = forms.BooleanField(
        label=_("Fill the empty seats with computer players"),
        required=False,
        help_text=_(
            "The game starts at once, with you in one seat and the computer in the others."
        ),
    )
    bot_level = forms.ChoiceField(
        label=_("Computer level"),
        choices=bots.LEVEL_NAMES.items(),
        initial="basic",
    )

    # The fields of each pace; those of the pace not chosen are ignored (the
    # page hides them), so a leftover value there never blocks the form.
    PACE_FIELDS = {
        Game.Pace.LIVE: ["pace_seconds"],
        Game.Pace.CORRESPONDENCE: ["pace_days", "reserve_days"],
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Labels with numbers are built here, in the language of the request.
        self.fields["pace_seconds"].choices = [
            (s, _("%(seconds)s seconds") % {"seconds": s}) for s in LIVE_SECONDS
        ]
        self.fields["pace_days"].choices = [
            (d, ngettext("%(days)s day", "%(days)s days", d) % {"days": d})
            for d in CORRESPONDENCE_DAYS
        ]
        self.fields["reserve_days"].choices = [
            (d, ngettext("%(days)s day", "%(days)s days", d) % {"days": d} if d else _("None"))
            for d in RESERVE_DAYS
        ]

    def rule_fields(self):
        """Return the bound fields of the table options (docs/rules.md section 9)."""
        return [self[name] for name in ("enhanced", "built_sets", "wild_moves_cost_a_play")]

    def pace_fields(self):
        """Return the bound fields of each pace: (pace value, label, fields)."""
        return [
            (pace, label, [self[name] for name in self.PACE_FIELDS[pace]])
            for pace, label in Game.Pace.choices
        ]

    def clean(self):
        data = super().clean()
        if data.get("built_sets") and not data.get("enhanced"):
            self.add_error("built_sets", _("Built sets are only played with the enhanced edition."))
        ignored = [
            name
            for pace, names in self.PACE_FIELDS.items()
            if pace != data.get("pace")
            for name in names
        ]
        if not data.get("with_bots"):
            ignored.append("bot_level")
        for name in ignored:
            self._errors.pop(name, None)
            data[name] = self.fields[name].initial
        return data

    def table_fields(self):
        """Return the Game fields of a valid form."""
        data = self.cleaned_data
        return {
            "seat_count": data["seat_count"],
            "options": {
                "enhanced": data["enhanced"],
                "built_sets": data["built_sets"],
                "wild_moves_cost_a_play": data["wild_moves_cost_a_play"],
            },
            "pace": data["pace"],
            "pace_seconds": data["pace_seconds"],
            "pace_days": data["pace_days"],
            "reserve_days": data["reserve_days"],
            "private": data["private"],
        }


class ComputerGameForm(forms.Form):
    """Play the computer: a live table of the default pace, the other seats taken by bots."""

    level = forms.ChoiceField(
        label=_("Level"),
        choices=bots.LEVEL_NAMES.items(),
        initial="basic",
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose a computer level: Random, Basic or Strong."),
            "invalid_choice": _("Choose a computer level: Random, Basic or Strong."),
        },
    )
    seat_count = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, n) for n in range(2, 6)],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose from 2 to 5 players."),
            "invalid_choice": _("Choose from 2 to 5 players."),
        },
    )

    # A first game is read card by card: a minute may be short for it.
    pace_seconds = forms.TypedChoiceField(
        label=_("Time per decision"),
        coerce=int,
        initial=60,
        required=False,
        empty_value=60,  # a form posted without it (an old page): the default pace
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("Choose a time per decision.")},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Labels with numbers are built here, in the language of the request.
        self.fields["pace_seconds"].choices = [
            (s, _("%(seconds)s seconds") % {"seconds": s}) for s in LIVE_SECONDS
        ]

    def table_fields(self):
        """Return the Game fields of a valid form: the other fields keep their defaults."""
        return {
            "seat_count": self.cleaned_data["seat_count"],
            "options": dict(STANDARD_RULES),
            "pace_seconds": self.cleaned_data["pace_seconds"],
        }


def default_table_fields():
    """Return the Game fields of a table made with the creation form's initial values."""
    initial = {name: field.initial for name, field in TableForm.base_fields.items()}
    return {
        "seat_count": initial["seat_count"],
        "options": dict(STANDARD_RULES),
        "pace": initial["pace"],
        "pace_seconds": initial["pace_seconds"],
    }


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)

    def __init__(self, *args, game, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["username"].widget.attrs.update(
            autocomplete="off", autocapitalize="none", spellcheck="false"
        )

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        invitee = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
        if invitee is None:
            raise forms.ValidationError(
                _("There is no player called %(username)s."), params={"username": username}
            )
        if self.game.seats.filter(user=invitee).exists():
            raise forms.ValidationError(
                _("%(name)s already has a seat at this table."), params={"name": invitee.name}
            )
        if has_blocked(self.game.host, invitee):
            # They could not sit down (accounts.blocks.kept_from_table): tell the host, who
            # knows whom they blocked, instead of sending an invitation that cannot work.
            raise forms.ValidationError(
                _("You have blocked %(name)s: unblock them on their profile to invite them."),
                params={"name": invitee.name},
            )
        invitation = self.game.invitations.filter(user=invitee).first()
        if invitation is not None and invitation.declined_at is not None:
            raise forms.ValidationError(
                _("%(name)s declined your invitation to this table."),
                params={"name": invitee.name},
            )
        # A player who blocked the host is invited as anyone is, but never told: a refusal
        # would tell the host who has blocked them (accounts/blocks.py).
        self.unheard = has_blocked(invitee, self.game.host)
        self.invitee = invitee
        return username
