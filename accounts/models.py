from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import names
from accounts.users import UserManager
from config.links import link


class PayRule(models.TextChoices):
    """How a debt is paid without asking (games/rules/standing.py names the same rules)."""

    ASK = "ask", _("Always ask me")
    LEAST_OVERPAY = "least", _("Smallest overpay, money before properties (the timeout default)")
    MONEY_FIRST = (
        "money",
        _("Money first; never break a complete set if another way exists; then smallest overpay"),
    )


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see. The username is used when empty."),
        validators=[names.validate_display_name],
    )
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        help_text=_("Preferred language code, e.g. 'zh-hans'. Empty means the browser's."),
    )
    # Whether the owner of `email` followed the link sent to it (accounts/email/confirm.py): the
    # emails about games go only to a confirmed address.
    email_confirmed = models.BooleanField(default=False, editable=False)
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
    # Being told that a game waits for me while its page is hidden (static/js/alerts.js).
    turn_sound = models.BooleanField(
        _("sound on my turn"),
        default=False,
        help_text=_("Play a short sound when a game starts waiting for me and its page is hidden."),
    )
    turn_browser_notification = models.BooleanField(
        _("browser notification on my turn"),
        default=False,
        help_text=_(
            "Show a browser notification when a game starts waiting for me and its page is "
            "hidden. Your browser asks for permission once."
        ),
    )
    # The first-game hint strip on the table, until the player dismisses it.
    show_table_hints = models.BooleanField(_("table hints"), default=True)
    # Property colours told apart by more than hue (static/css/table.css, body.palette-cb).
    colour_blind_palette = models.BooleanField(
        _("colour-blind palette"),
        default=False,
        help_text=_(
            "Draw the property colours in a palette told apart without red and green, "
            "with patterns on the colour bands."
        ),
    )

    # Standing answers (games/rules/standing.py): answers given at once without asking.
    accept_without_jsn = models.BooleanField(
        _("accept at once when I hold no Just Say No"),
        default=False,
        help_text=_(
            "An action aimed at you is accepted at once when you hold no Just Say No (nor a "
            "Rent Transfer to answer a rent). The other players can then tell from the speed "
            "of your answer that you hold none."
        ),
    )
    pay_rule = models.CharField(
        _("pay for me"),
        max_length=8,
        choices=PayRule,
        default=PayRule.ASK,
        help_text=_(
            "When you owe money, pay at once with cards chosen by this rule, even when you "
            "hold a Just Say No. The others see only the payment."
        ),
    )
    jsn_deal_breaker = models.BooleanField(
        _("always Just Say No to a Deal Breaker"),
        default=False,
        help_text=_(
            "Answer a Deal Breaker aimed at you with a Just Say No at once, while you hold one. "
            "Once the other players have seen it, a Deal Breaker you do not answer at once "
            "tells them that you hold none."
        ),
    )

    # Table chat (games/chat/messages.py): off in every game; a game's own switch is games.ChatMute.
    chat_off = models.BooleanField(
        _("chat off"),
        default=False,
        help_text=_("Hide the table chat in all my games. Each game also has its own switch."),
    )

    # A computer player's level ("random", "basic" or "strong", games/rules/bots.py); empty
    # for a person. Bot accounts are made by games.play.bots and cannot log in.
    bot_level = models.CharField(_("computer level"), max_length=10, blank=True, editable=False)

    objects = UserManager()  # the signed-in user read with a statement compiled once

    class Meta(AbstractUser.Meta):
        # The database decides between two sign-ups at once (the forms' checks
        # run before either is saved): "Alice" and "alice" are one name, and an
        # email address belongs to one account.
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="unique_username_any_case",
                violation_error_message=_("A user with that username already exists."),
            ),
            models.UniqueConstraint(
                Lower("email"),
                condition=~Q(email=""),
                name="unique_email_any_case",
                violation_error_message=_("Another account already uses this email address."),
            ),
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~Q(display_name=""),
                name="unique_display_name_any_case",
                violation_error_message=_("Another player already goes by this name."),
            ),
        ]

    @classmethod
    def from_db(cls, db, field_names, values, **kwargs):
        user = super().from_db(db, field_names, values, **kwargs)
        # What clean() compares with: only a changed name is checked again.
        user._saved_names = {
            name: getattr(user, name)
            for name in ("username", "display_name")
            if name in user.__dict__
        }
        return user

    def clean(self):
        super().clean()
        self.display_name = names.normalize_display_name(self.display_name)
        errors = {}
        others = User.objects.exclude(pk=self.pk)
        mixed = _(
            "A name cannot mix Latin letters with Cyrillic or Greek ones: "
            "it could pass for another player's."
        )
        lookalike = _(
            "This name looks like another player's: its Cyrillic or Greek letters pass for "
            "Latin ones."
        )
        site_name = _("This name would pass for the site's own: choose another.")
        if self._name_changed("username"):
            # "аӏісе" in Cyrillic letters alone reads as "alice" (names.lookalike_skeleton).
            read_as = names.lookalike_skeleton(self.username)
            if not self.bot_level and names.is_reserved_username(read_as):
                errors["username"] = _("Names starting with “bot” are kept for computer players.")
            elif not self.bot_level and names.is_reserved_display_name(read_as):
                # Shown by it without a display name: "Strong_bot_1" reads as a computer's.
                errors["username"] = _("This name is kept for computer players.")
            elif names.is_site_name(read_as):
                errors["username"] = site_name
            elif names.mixes_lookalike_scripts(self.username):
                errors["username"] = mixed
            elif others.filter(display_name__iexact=self.username).exists():
                errors["username"] = _("Another player already goes by this name.")
            elif read_as != self.username and _goes_by(others, read_as):
                errors["username"] = lookalike
        if self.display_name and self._name_changed("display_name"):
            read_as = names.lookalike_skeleton(self.display_name)
            if not self.bot_level and names.is_reserved_display_name(read_as):
                errors["display_name"] = _("This name is kept for computer players.")
            elif names.is_site_name(read_as):
                errors["display_name"] = site_name
            elif names.mixes_lookalike_scripts(self.display_name):
                errors["display_name"] = mixed
            elif _goes_by(others, self.display_name):
                errors["display_name"] = _("Another player already goes by this name.")
            elif read_as != self.display_name and _goes_by(others, read_as):
                errors["display_name"] = lookalike
        if errors:
            raise ValidationError(errors)

    def _name_changed(self, field):
        saved = getattr(self, "_saved_names", {})
        return field not in saved or saved[field] != getattr(self, field)

    def get_absolute_url(self):
        return link("accounts:profile", self.username)

    @property
    def is_bot(self):
        return bool(self.bot_level)

    @property
    def name(self):
        """Return the name other players see."""
        return names.shown_name(self.username, self.display_name, self.bot_level)


def _goes_by(users, name):
    """Whether one of `users` goes by `name`, as a username or a display name, in any case."""
    return users.filter(Q(username__iexact=name) | Q(display_name__iexact=name)).exists()


class Edition(models.TextChoices):
    """The two games rated apart: the classic deck and the enhanced edition (docs/rules.md 8)."""

    CLASSIC = "classic", _("Classic")
    ENHANCED = "enhanced", _("Enhanced")


class Rating(models.Model):
    """A player's OpenSkill (Plackett-Luce) rating in one edition."""

    # Uncertainty above which a rating is provisional: about 10 two-player games from the start.
    PROVISIONAL_SIGMA = 7.0
    # Rated games in the edition before a rating counts as settled, however certain.
    SETTLED_AFTER_GAMES = 10

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings")
    edition = models.CharField(max_length=10, choices=Edition)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)  # mu - 3 sigma: what is shown and ranked
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "edition"], name="one_rating_per_edition")
        ]
        # The leaderboard: an edition's ratings best first, read down the index.
        indexes = [models.Index(fields=["edition", "ordinal"], name="rating_leaderboard")]

    def __str__(self):
        return f"{self.user_id}:{self.edition}:{self.ordinal:.1f}"

    @property
    def provisional(self):
        """Whether the rating is not settled yet: still uncertain, or from too few rated games.

        The leaderboard ranks the settled ones (accounts.profile.leaderboard).
        """
        return self.sigma > self.PROVISIONAL_SIGMA or self.games < self.SETTLED_AFTER_GAMES


class RatingChange(models.Model):
    """One game's effect on one player's rating: the rating history."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    edition = models.CharField(max_length=10, choices=Edition)
    before = models.FloatField()  # ordinals
    after = models.FloatField()
    delta = models.FloatField(db_index=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["user", "edition", "created_at"], name="rating_history"),
            # The profile's best and worst game: one step down the index, not a sort.
            models.Index(fields=["user", "delta"], name="rating_best_worst"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_rating_change_per_game")
        ]

    def __str__(self):
        return f"{self.user_id}:{self.game_id}:{self.delta:+.1f}"


class HeadToHead(models.Model):
    """Two players' record in the games they finished together, seen from `user`'s side.

    Counted once per game with its result (accounts.stats.record_result), so
    that a profile shows a visitor's record against its player without counting
    their games together.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)  # by `user`
    lost = models.PositiveIntegerField(default=0)  # won by `opponent`

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "opponent"], name="one_record_per_pair")
        ]

    def __str__(self):
        return f"{self.user_id} v {self.opponent_id}: {self.won}-{self.lost} of {self.games}"


class GameTogether(models.Model):
    """A game `user` and `opponent` finished together, seen from `user`'s side (both ways).

    Written with the result (accounts.stats.record_result), so that the games
    of two players together are read newest first down one index, a page at a
    time, instead of walking either player's whole history to find them.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    ended_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["user", "opponent", "ended_at", "game"], name="together_history")
        ]

    def __str__(self):
        return f"{self.user_id} v {self.opponent_id}: {self.game_id}"


class PlayerStats(models.Model):
    """A player's totals, updated once when each of their games ends (never recounted)."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="stats")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    # Games ended while marked absent for timeouts (not resigned: accounts.stats.record_result).
    abandoned = models.PositiveIntegerField(default=0)
    current_streak = models.PositiveIntegerField(default=0)  # wins in a row, up to now
    longest_streak = models.PositiveIntegerField(default=0)
    turns_to_win = models.PositiveIntegerField(default=0)  # summed over the games won
    # {"2": [played, won], ...} by number of players, and {"classic": [played, won], ...}
    by_players = models.JSONField(default=dict)
    by_edition = models.JSONField(default=dict)
    actions = models.JSONField(default=dict)  # action cards played, by kind id
    rent_collected = models.PositiveIntegerField(default=0)  # M, over all games

    def __str__(self):
        return f"{self.user_id}: {self.wins}/{self.games}"


class VacationQuerySet(models.QuerySet):
    def current(self, now=None):
        """Return the vacations under way at `now`."""
        now = now or timezone.now()
        return self.filter(starts_at__lte=now, ends_at__gt=now)

    def ends_of(self, user_ids):
        """Return {user id: end} of these vacations of the users `user_ids`."""
        return dict(self.filter(user_id__in=user_ids).values_list("user_id", "ends_at"))


class Vacation(models.Model):
    """Whole days off correspondence games: their clocks stop and they wait (games/play/vacation.py).

    A vacation starts when it is declared; ended early, its `ends_at` becomes
    that moment and `days` the whole days begun.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField()
    days = models.PositiveSmallIntegerField()
    # The calendar year the days count against: the one the vacation starts in.
    year = models.PositiveSmallIntegerField()

    objects = VacationQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="vacation_user_end")]

    def __str__(self):
        return f"{self.user_id}: {self.starts_at:%Y-%m-%d} +{self.days}"


class BotStrength(models.Model):
    """A measured figure of one computer level against another (games/play/ladder.py, the arena).

    Stored as measured, with its date: the profile of a bot shows its level's
    latest figures, so that a player can see how strong each level is.
    """

    class Source(models.TextChoices):
        LADDER = "ladder", _("rated ladder games")
        ARENA = "arena", _("arena")

    level = models.CharField(max_length=10, db_index=True)  # games/rules/bots.py LEVELS
    opponent = models.CharField(max_length=10)
    players = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField(default=1)  # the seats of `level` in each game
    edition = models.CharField(max_length=10, choices=Edition, default=Edition.CLASSIC)
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    draws = models.PositiveIntegerField(default=0)
    ci_low = models.FloatField()  # 95% Wilson interval of the win rate
    ci_high = models.FloatField()
    mean_decision_ms = models.FloatField()
    max_decision_ms = models.FloatField()
    budget = models.PositiveIntegerField(null=True, blank=True)  # the strong level's, if set
    source = models.CharField(max_length=8, choices=Source)
    seconds = models.FloatField(default=0.0)  # wall time of the whole run
    measured_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-measured_at", "-id"]

    def __str__(self):
        return f"{self.level} v {self.opponent}: {self.wins}/{self.games}"

    @property
    def win_rate(self):
        return 100 * self.wins / self.games if self.games else 0.0

    @property
    def fair_share(self):
        return 100 * self.seats / self.players


from accounts.blocks import Block  # noqa: E402, F401  (a model of this app in its own module)
