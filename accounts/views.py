from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import blocks, email, names, throttle
from accounts.email import confirm
from accounts.forms import (
    CloseAccountForm,
    EmailChangeForm,
    LoginForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    SettingsForm,
    SignupForm,
    VacationForm,
)
from accounts.models import Edition, Rating, User
from accounts.profile import (
    LEADERBOARD_MIN_GAMES,
    LEADERBOARD_SIZE,
    bot_strength,
    games_together,
    head_to_head,
    leaderboard as leaderboard_of,
    profile_stats,
    recent_games,
    user_named,
)
from accounts.ratelimit import FALLBACK, Limiter, Rate
from accounts.stats import PAIR_GAMES_PER_DAY
from config.dates import date_text
from config.links import link
from games.history.keyset import Listed, requested_page
from games.history.lists import Row
from games.models import Game, SeatingError
from games.play import bots, closing, vacation as vacations

VERSUS_PER_PAGE = 50


def _next_url(request):
    """Return the safe "next" URL of the request, or the home page."""
    next_url = request.POST.get("next", request.GET.get("next", ""))
    # A path of this site only: redirect() takes a word without "/" for a URL's name.
    if next_url.startswith("/") and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return resolve_url(settings.LOGIN_REDIRECT_URL)


def signup(request):
    if request.user.is_authenticated:
        return redirect(_next_url(request))

    status = 200
    address = request.META.get("REMOTE_ADDR")
    if request.method == "POST" and throttle.taken_emails_told_up(address=address):
        # The form is not even read: any answer about its email address could tell
        # whether an account has it.
        messages.error(
            request,
            _(
                "Too many sign-up attempts from your network in the last hour. Please try again later."
            ),
        )
        form = SignupForm(initial={"username": request.POST.get("username", "")})
        status = 429
    elif request.method == "POST":
        form = SignupForm(request.POST)
        if form.has_error("email", "duplicate_email"):
            throttle.tell_taken_email(address=address)
        if form.is_valid() and not throttle.allow_signup(address):
            form.add_error(
                None,
                _(
                    "Too many accounts were made from your network in the last hour. "
                    "Please try again later."
                ),
            )
            status = 429
        elif form.is_valid():
            try:
                # The unique constraints decide between two sign-ups at once.
                with transaction.atomic():
                    user = form.save(commit=False)
                    # The language the page was read in, for the emails too (docs/languages.md).
                    user.language = translation.get_language()
                    user.save()
            except IntegrityError:
                form.explain_integrity_error()
            else:
                login(request, user)
                confirm.send_link(user)
                return _trust_this_browser(redirect(_next_url(request)), user)
    else:
        form = SignupForm()

    next_url = request.POST.get("next", request.GET.get("next", ""))
    context = {"form": form, "next": next_url}
    return render(request, "accounts/signup.html", context, status=status)


def _trust_this_browser(response, user):
    # This browser is now trusted for this username (accounts/throttle.py, its
    # login cookie): the failures of others at its address no longer keep it out.
    response.set_signed_cookie(
        throttle.DEVICE_COOKIE,
        throttle.new_device(user),
        salt=throttle.DEVICE_SALT,
        max_age=throttle.DEVICE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


class LoginView(auth_views.LoginView):
    """Django's login, throttled (accounts/throttle.py); a refused attempt answers 429."""

    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form):
        return _trust_this_browser(super().form_valid(form), form.get_user())

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change: the current password, a few wrong tries at most (429)."""

    form_class = PasswordChangeForm
    template_name = "accounts/password_change.html"

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error("old_password", "throttled"):
            response.status_code = 429
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, a few emails an hour at most for one address and from one client.

    A refused request answers the same whether an account has the address or not.
    """

    form_class = PasswordResetForm
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/emails/password_reset.txt"
    subject_template_name = "accounts/emails/password_reset_subject.txt"

    def form_valid(self, form):
        address = self.request.META.get("REMOTE_ADDR")
        refusal = throttle.password_reset_refusal(form.cleaned_data["email"], address)
        if refusal == throttle.RESETS_TO_EMAIL:
            # Someone else may have asked for them: the links already sent
            # stay good (Django's tokens, PASSWORD_RESET_TIMEOUT) until one is used.
            days = settings.PASSWORD_RESET_TIMEOUT // (24 * 60 * 60)
            still_good = ngettext(
                "A link in an email we sent in the last day still works.",
                "A link in an email we sent in the last %(days)d days still works.",
                days,
            ) % {"days": days}
            refused = _("Too many password reset requests. Please try again in an hour.")
            form.add_error(None, f"{refused} {still_good}")
        elif refusal == throttle.RESETS_FROM_ADDRESS:
            form.add_error(
                None,
                _(
                    "Too many password reset requests from your network. "
                    "Please try again in an hour."
                ),
            )
        if refusal:
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's new password from a reset link; it lifts the account's login locks.

    Whoever holds the link owns the mailbox: the failures a guesser piled up
    on the username must not keep the owner out with their new password.
    """

    form_class = SetPasswordForm
    template_name = "accounts/password_reset_confirm.html"

    def form_valid(self, form):
        response = super().form_valid(form)
        throttle.lift_login_locks(form.user.get_username())
        # The link came to the account's address: its owner holds the mailbox.
        confirm.confirm_address(form.user)
        return response


def profile(request, username):
    user = user_named(request, username, is_active=True)
    ctx = {
        "profile_user": user,
        "is_own_profile": request.user == user,
        "recent_games": recent_games(user),
        "bot_level": bots.level_name(user.bot_level) if user.is_bot else "",
        "strength": [(row, bots.level_name(row.opponent)) for row in bot_strength(user.bot_level)]
        if user.is_bot
        else [],
        "min_games": LEADERBOARD_MIN_GAMES,
        **profile_stats(user),
    }
    if request.user.is_authenticated and request.user != user:
        ctx["versus"] = head_to_head(request.user, user)
        ctx["blocked"] = blocks.has_blocked(request.user, user)
    return render(request, "accounts/profile.html", ctx)


@login_required
@require_POST
def block_user(request, username):
    """Block (block=1) or unblock (block=0) a user: their chat hidden, kept from my tables."""
    user = get_object_or_404(User, username=username, is_active=True)
    if user == request.user:
        messages.error(request, _("You cannot block yourself."))
    elif request.POST.get("block") == "1":
        blocks.block(request.user, user)
        # Kept from my tables: from those where they sit already, too.
        for table in Game.objects.open().filter(host=request.user, seats__user=user):
            try:
                table.leave(user)
            except SeatingError:
                pass  # it started meanwhile: a game in play is not left
        messages.success(
            request,
            _("%(name)s is blocked: you will not see their chat, and they cannot join your tables.")
            % {"name": user.name},
        )
    else:
        blocks.unblock(request.user, user)
        messages.success(request, _("%(name)s is no longer blocked.") % {"name": user.name})
    return redirect("accounts:profile", username=user.username)


def versus(request, username, other):
    """Show the record of two players against each other, with their games together."""
    user = user_named(request, username, is_active=True)
    opponent = user_named(request, other, is_active=True)
    together = (user.pk, opponent.pk)
    listed = Listed("versus", _versus, together, "ended_at", "game_id", "game__code")
    page = requested_page(request, listed, VERSUS_PER_PAGE, lambda row: row[0])
    page.object_list = [
        Row(
            code=code,
            review_url=link("games:review", code),
            ended_text=date_text(ended_at, "DATE_FORMAT"),
            winner=names.shown_name(username, display_name, bot_level) if username else None,
        )
        for code, ended_at, username, display_name, bot_level in page.object_list
    ]
    context = {
        "profile_user": user,
        "opponent": opponent,
        "record": head_to_head(user, opponent),
        "page": page,
    }
    return render(request, "accounts/versus.html", context)


def _versus(user_id, other_id):
    return games_together(user_id, other_id).values_list(
        "game__code",
        "game__ended_at",
        "game__winner__username",
        "game__winner__display_name",
        "game__winner__bot_level",
    )


def leaderboard(request):
    edition = request.GET.get("edition", Edition.CLASSIC)
    if edition not in Edition.values:
        edition = Edition.CLASSIC
    return render(
        request,
        "accounts/leaderboard.html",
        {
            "edition": edition,
            "editions": Edition.choices,
            "ratings": leaderboard_of(edition),
            "provisional": _provisional(edition),
            "min_games": LEADERBOARD_MIN_GAMES,
            "pair_games": PAIR_GAMES_PER_DAY,
        },
    )


def _provisional(edition):
    """Return the rated players of `edition` not on the leaderboard proper yet, best first.

    They are the complement of accounts.profile.leaderboard: a rating still
    uncertain, or too few games.
    """
    return (
        Rating.objects.filter(edition=edition, user__is_active=True)
        .exclude(sigma__lte=Rating.PROVISIONAL_SIGMA, games__gte=LEADERBOARD_MIN_GAMES)
        .select_related("user")
        .order_by("-ordinal", "user__username")[:LEADERBOARD_SIZE]
    )


def _apply_standing_answers(user):
    """Let changed standing answers answer what the user's games wait for now.

    Not at a table where the user is absent or resigned: the defaults answer there,
    whatever the settings say, and a hostile user may have resigned many games.
    """
    for game in Game.objects.filter(
        status=Game.Status.ACTIVE, seats__user=user, seats__absent=False
    ):
        game.apply_standing_answers()


@login_required
def settings_page(request):
    if request.method == "POST":
        # A separate instance: an invalid form must not leave its values on
        # request.user, which the page header shows.
        form = SettingsForm(request.POST, instance=User.objects.get(pk=request.user.pk))
        user = None
        if form.is_valid():
            try:
                with transaction.atomic():
                    # Its own fields only: a whole row read before a password changed
                    # meanwhile would write the old password back (and keep a stolen
                    # session, whose hash it matches, while logging the owner out).
                    changed = form.save(commit=False)
                    changed.save(update_fields=SettingsForm.Meta.fields)
                user = changed
            except IntegrityError:  # another player took the display name meanwhile
                form.add_error("display_name", _("Another player already goes by this name."))
        if user is not None:
            _apply_standing_answers(user)
            if user.language:
                # Confirm in the language just chosen, not the one the form was in.
                translation.activate(user.language)
            messages.success(request, _("Your settings are saved."))
            response = redirect("accounts:settings")
            _remember_language(response, user.language)
            return response
    else:
        form = SettingsForm(instance=request.user)

    context = {"form": form, "vacation": vacations.allowance(request.user)}
    context["vacation_next"] = request.path
    return render(request, "accounts/settings.html", context)


@login_required
@require_POST
def take_vacation(request):
    """Start a vacation of the whole days asked for, now; come back to the page it was asked on."""
    form = VacationForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["days"][0])
        return _back_from_vacation_form(request)
    try:
        taken = vacations.take_vacation(request.user, form.cleaned_data["days"])
    except vacations.VacationError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            vacations.with_when(
                _("Your vacation has begun: your correspondence games wait for you until %(end)s."),
                taken.ends_at,
            ),
        )
    return _back_from_vacation_form(request)


@login_required
@require_POST
def end_vacation(request):
    """End the vacation under way; the whole days not begun are given back."""
    try:
        ended = vacations.end_vacation(request.user)
    except vacations.VacationError as e:
        messages.error(request, str(e))
    else:
        messages.success(
            request,
            ngettext(
                "Your vacation has ended: it counted %(days)d day. Your clocks run again.",
                "Your vacation has ended: it counted %(days)d days. Your clocks run again.",
                ended.days,
            )
            % {"days": ended.days},
        )
    return _back_from_vacation_form(request)


def _back_from_vacation_form(request):
    # The forms are on the settings page, the "Your turn" page and the table (htmx, which
    # must load the whole page again: its message and every clock changed).
    url = _next_url(request) if request.POST.get("next") else resolve_url("accounts:settings")
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
def email_change(request):
    """Change the account's email address: the current password, and a word to the old one.

    A few changes an hour, and a few answers that another account has the address typed
    (accounts/throttle.py): each change writes to two addresses, each answer tells who
    has an account.
    """
    status = 200
    if request.method == "POST" and throttle.taken_emails_told_up(user=request.user):
        # The form is not even read: any answer about its address could tell who has it.
        messages.error(
            request,
            _(
                "Too many addresses that other accounts use were tried in the last hour. "
                "Please try again later."
            ),
        )
        form = EmailChangeForm(instance=request.user)
        status = 429
    elif request.method == "POST":
        form = EmailChangeForm(request.POST, instance=User.objects.get(pk=request.user.pk))
        was_confirmed = form.instance.email_confirmed
        valid = form.is_valid()
        if form.has_error("email", "duplicate_email"):
            throttle.tell_taken_email(user=request.user)
        if valid and not throttle.allow_email_change(request.user):
            form.add_error(
                None,
                _(
                    "You changed your email address several times in the last hour. "
                    "Please try again later."
                ),
            )
            status = 429
        elif valid:
            try:
                with transaction.atomic():
                    # A new address is confirmed anew (accounts/email/confirm.py).
                    form.instance.email_confirmed = False
                    changed = form.save(commit=False)
                    # These two only: not a password or settings changed meanwhile.
                    changed.save(update_fields=["email", "email_confirmed"])
                user = changed
            except IntegrityError:  # another account took the address meanwhile
                form.add_error("email", _("Another account already uses this email address."))
            else:
                if form.previous_email and was_confirmed:
                    # Only to an address its owner confirmed: not to someone else's.
                    email.tell_of_change(user, form.previous_email)
                confirm.send_link(user)
                messages.success(
                    request,
                    _(
                        "Your email address is changed. Follow the link we sent to it to "
                        "confirm it: until then the site writes nothing to it about your games."
                    ),
                )
                return redirect("accounts:settings")
        if form.has_error("current_password", "throttled"):
            status = 429
    else:
        form = EmailChangeForm(instance=request.user)
    return render(request, "accounts/email_change.html", {"form": form}, status=status)


# A player's data downloaded (export_data), counted by every process together: each reads
# every game the player sat at. Within a bound, a player never meets it.
DATA_EXPORTS = Limiter("Data exports", when_down=FALLBACK)
DATA_EXPORTS_AN_HOUR = 10


@login_required
@require_GET
def export_data(request):
    """Everything the site keeps about the asking user, as a JSON file to download.

    Their account and settings, the games they sat at (no card: a game's moves are on its
    review once it has ended), ratings, chat messages, vacations and blocks. Other players
    appear by the name they are shown by.
    """
    user = request.user
    if not DATA_EXPORTS.take(f"data-exports:{user.pk}", Rate(DATA_EXPORTS_AN_HOUR, 3600)):
        messages.error(
            request, _("Your data was downloaded several times in the last hour: try again later.")
        )
        return redirect("accounts:settings")
    seats = user.seats.select_related("game").prefetch_related("game__seats__user")
    data = {
        "account": {
            "username": user.username,
            "display_name": user.display_name,
            "email": user.email,
            "email_confirmed": user.email_confirmed,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
        },
        "settings": {field: getattr(user, field) for field in SettingsForm.Meta.fields},
        "games": [
            {
                "code": seat.game.code,
                "pace": seat.game.pace,
                "status": seat.game.status,
                "started_at": seat.game.started_at,
                "ended_at": seat.game.ended_at,
                "players": [other.user.name for other in seat.game.seats.all()],
                "my_seat": seat.position,
                "my_result": seat.result,
            }
            for seat in seats.order_by("game_id")
        ],
        "ratings": list(user.ratings.values("edition", "mu", "sigma", "ordinal")),
        "rating_changes": list(
            user.rating_changes.order_by("created_at").values(
                "game__code", "edition", "before", "after", "created_at"
            )
        ),
        "chat_messages": list(
            user.chat_messages.order_by("created_at", "pk").values(
                "game__code", "room", "text", "phrase", "created_at"
            )
        ),
        "vacations": list(user.vacations.order_by("starts_at").values("starts_at", "ends_at")),
        "blocked": [block.blocked.name for block in user.blocks_made.select_related("blocked")],
    }
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    filename = f"fullset-{user.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def close_account(request):
    """Close the account, after its current password (games.play.closing): a page, then a form.

    Its open tables are cancelled and its games in play resigned; it is logged out.
    """
    user = request.user
    status = 200
    if request.method == "POST":
        form = CloseAccountForm(request.POST, user=user)
        if form.is_valid():
            closing.close_account(user)
            logout(request)
            messages.info(request, _("Your account is closed. Thank you for playing."))
            return redirect("lobby:home")
        if form.has_error("current_password", "throttled"):
            status = 429
    else:
        form = CloseAccountForm(user=user)
    context = {
        "form": form,
        # An absent seat's game already counts as lost (docs/rules.md section 11).
        "games_in_play": user.seats.filter(game__status=Game.Status.ACTIVE, absent=False).count(),
        "open_tables": user.seats.filter(game__status=Game.Status.OPEN).count(),
    }
    return render(request, "accounts/close.html", context, status=status)


@login_required
@require_POST
def send_confirmation(request):
    """Send the link that confirms the account's email address again (a few an hour)."""
    user = request.user
    if not user.email:
        messages.info(request, _("Your account has no email address."))
    elif user.email_confirmed:
        messages.info(request, _("Your email address is confirmed."))
    elif not confirm.may_send_again(user):
        messages.error(
            request, _("The link was sent several times in the last hour. Please try again later.")
        )
    else:
        confirm.send_link(user)
        messages.success(
            request, _("A new link is on its way to %(email)s.") % {"email": user.email}
        )
    return redirect("accounts:settings")


def confirm_email(request, token):
    """Confirm an email address from the link sent to it: a page, then a button (POST)."""
    user = confirm.user_for(token)
    if request.method == "POST" and user is not None:
        if confirm.confirm_address(user):
            messages.success(request, _("Your email address is confirmed."))
            return redirect("accounts:settings" if request.user == user else "lobby:home")
        user = None  # its address changed since the link was read
    status = 200 if user is not None else 400
    return render(request, "accounts/confirm_email.html", {"confirming": user}, status=status)


@login_required
@require_POST
def hide_table_hints(request):
    """Stop showing the first-game hints on the game tables, for this user only."""
    request.user.show_table_hints = False
    request.user.save(update_fields=["show_table_hints"])
    if request.htmx:
        # The hint strip asked with hx-target on itself: an empty answer removes it.
        return HttpResponse("")
    return redirect(_next_url(request))


def _remember_language(response, language):
    # The cookie keeps the choice after logging out; an empty choice hands the
    # decision back to the browser's Accept-Language.
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    else:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
