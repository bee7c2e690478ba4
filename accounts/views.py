from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import LoginForm, SettingsForm, SignupForm
from accounts.models import Edition, Rating, User
from accounts.profile import (
    LEADERBOARD_MIN_GAMES,
    LEADERBOARD_SIZE,
    head_to_head,
    leaderboard as leaderboard_of,
    profile_stats,
    recent_games,
)
from games import bots
from games.models import Game


def _next_url(request):
    """Return the safe "next" URL of the request, or the home page."""
    next_url = request.POST.get("next", request.GET.get("next", ""))
    if url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return resolve_url(settings.LOGIN_REDIRECT_URL)


def signup(request):
    if request.user.is_authenticated:
        return redirect(_next_url(request))

    if request.method == "POST":
        form = SignupForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user)
            return redirect(_next_url(request))
    else:
        form = SignupForm()

    next_url = request.POST.get("next", request.GET.get("next", ""))
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


class LoginView(auth_views.LoginView):
    """Django's login, throttled (accounts/throttle.py); a refused attempt answers 429."""

    form_class = LoginForm
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response


def profile(request, username):
    user = get_object_or_404(User, username=username, is_active=True)
    ctx = {
        "profile_user": user,
        "is_own_profile": request.user == user,
        "recent_games": recent_games(user),
        "bot_level": bots.level_name(user.bot_level) if user.is_bot else "",
        "min_games": LEADERBOARD_MIN_GAMES,
        **profile_stats(user),
    }
    if request.user.is_authenticated and request.user != user:
        ctx["versus"], _games = head_to_head(request.user, user)
    return render(request, "accounts/profile.html", ctx)


def versus(request, username, other):
    """Show the record of two players against each other, with their games together."""
    user = get_object_or_404(User, username=username, is_active=True)
    opponent = get_object_or_404(User, username=other, is_active=True)
    record, together = head_to_head(user, opponent)
    page = Paginator(
        together.select_related("winner").order_by("-ended_at").distinct(), 50
    ).get_page(request.GET.get("page"))
    return render(
        request,
        "accounts/versus.html",
        {"profile_user": user, "opponent": opponent, "record": record, "page": page},
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
    """Let changed standing answers answer what the user's games wait for now."""
    for game in Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user):
        game.apply_standing_answers()


@login_required
def settings_page(request):
    if request.method == "POST":
        # A separate instance: an invalid form must not leave its values on
        # request.user, which the page header shows.
        form = SettingsForm(request.POST, instance=User.objects.get(pk=request.user.pk))
        if form.is_valid():
            user = form.save()
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

    return render(request, "accounts/settings.html", {"form": form})


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
