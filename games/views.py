"""The live game table: the page a player plays on, and the move endpoint its forms post to.

Then the pages of finished games: reviews, records and lists.
"""

import re
from functools import partial
from time import monotonic
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.blocks import kept_from_table
from accounts.profile import games_together, user_named
from accounts.ratelimit import FALLBACK, Limiter, Rate, SlidingWindows
from games import rules
from games.chat.panel import chat_context, review_chat
from games.forms import StandingAnswersForm
from games.history import analysis as analyses, review as reviews
from games.history.keyset import KeysetPage, Listed, requested_page
from games.history.lists import finished_rows
from games.models import Game, Notification, Seat, SeatingError, StaleBoard, broadcast_users
from games.play import limits
from games.play.bots import fill_with_bots
from games.table.board import FRAGMENTS, board_for, flash_fragment, player_name, table_context
from games.table.cardnames import translate_english_name
from games.table.compiled import game_by_code, has_unread, own_seat, seat_at
from games.table.game_over import computer_level
from games.table.log import log_page, move_page
from games.table.memo import Memo

# Moves made by each user through this process, posted or sent over a game socket
# (MOVES_PER_SECOND): one window a user, however the moves come.
USER_MOVES = SlidingWindows()
# Records downloaded by each user (EXPORTS_PER_MINUTE), counted by every process together: a
# record is as long as its game, which wild switches can make as long as its players like.
# While the shared cache fails, each process counts on its own (the bound holds per process).
EXPORTS = Limiter("Exports", when_down=FALLBACK)

# Every response that shows a hand or a prompt carries never_cache (Cache-Control:
# no-store): on a shared computer the back button must not show a player's cards.


class BadMove(ValueError):
    """The posted fields do not make a move at all (not merely an illegal one)."""


@never_cache
@login_required
def table(request, code):
    game = game_by_code(code)
    if game is None:
        raise Http404
    if game.status == Game.Status.OPEN:
        return redirect(waiting_room_url(game))
    if not may_watch(request.user, game):
        raise Http404  # as the waiting room of a private table does: no sign it exists
    context = table_context(game, request.user)
    context["drawn"] = page_fragments(request, game)
    seat = own_seat(game, request.user.pk)  # as it is now: its standing answers
    context["chat"] = chat_context(game, request.user, context["seat"])
    if seat is not None:
        _seen(game, request.user, seat)
        if game.status == Game.Status.ACTIVE:
            context["standing_form"] = standing_form_html(seat, request.user)
            context["standing_url"] = reverse("games:standing_answers", args=[code])
    return render(request, "games/table.html", context)


OOB_SWAP = ' hx-swap-oob="true"'
POST_FORM = re.compile(r'<form\b[^>]*\bmethod="post"[^>]*>')


def page_fragments(request, game):
    """Return {name: html} of the table's fragments for the page, as the sockets drew them.

    The move's answer and the sockets draw a user's fragments once per version
    (board_for); the page takes the same drawing instead of drawing them again:
    each fragment in place (not an out-of-band swap), and its forms given the
    CSRF field that a page posted without JavaScript needs (the fragments are
    drawn without a request: htmx sends the token in a header).
    """
    html = board_for(game, request.user)
    starts = sorted((html.index(f'<section id="{name}"'), name) for name in FRAGMENTS)
    field = f'<input type="hidden" name="csrfmiddlewaretoken" value="{get_token(request)}">'
    drawn = {}
    for (start, name), (end, _next) in zip(starts, [*starts[1:], (len(html), None)], strict=True):
        part = html[start:end].replace(OOB_SWAP, "", 1)
        drawn[name] = mark_safe(POST_FORM.sub(lambda m: m.group(0) + field, part))
    return drawn


# The standing answers' form as drawn, by what it shows: drawing a form costs more than a table.
_standing_forms = Memo(256)


def standing_form_html(seat, user):
    """Return the table's form of `seat`'s standing answers, drawn once per choices and language."""
    key = (seat.accept_without_jsn, seat.pay_rule, seat.jsn_deal_breaker)
    key += (user.accept_without_jsn, user.pay_rule, user.jsn_deal_breaker, get_language())
    return _standing_forms.get(key, lambda: str(StandingAnswersForm.for_seat(seat, user)))


def may_watch(user, game):
    """Whether `user` may watch `game`'s table (its page and its socket).

    Everyone may once it has ended (docs/rules.md section 10); before, a private
    game only its host, its players and the users invited to it who did not
    decline.
    """
    if not game.private or game.status == Game.Status.FINISHED:
        return True
    return (
        user.pk == game.host_id
        or game.seats.filter(user=user).exists()
        or game.invitations.filter(user=user, declined_at=None).exists()
    )


def _seen(game, user, seat):
    """Note that `user` opened their game: no reminder email, and its notifications are read.

    A seat already seen since the game began to wait for it, and notifications already
    read, cost a read instead of a write.
    """
    now = timezone.now()
    waiting = seat.awaited_since
    if seat.seen_at is None or (waiting is not None and seat.seen_at < waiting):
        game.seats.filter(user=user).update(seen_at=now)
    unread = Notification.objects.filter(user=user, game=game, read_at=None)
    if has_unread(user.pk, game.pk) and unread.update(read_at=now):
        broadcast_users({user.id})


def over_move_bound(user_id):
    """Count a move of `user_id` (posted or sent over a socket); return whether it is over
    MOVES_PER_SECOND in this process, and so refused before it is read."""
    bound = settings.MOVES_PER_SECOND
    return bool(bound) and not USER_MOVES.take(user_id, Rate(bound, 1), monotonic())


def _too_many(sentence, seconds):
    """A refusal over a bound (429), the sentence as plain text, to try again in `seconds`."""
    refused = HttpResponse(sentence, status=429, content_type="text/plain; charset=utf-8")
    refused["Retry-After"] = str(seconds)
    return refused


@never_cache
@login_required
@require_POST
def move(request, code):
    game, seat = _get_game_for_player(request, code)
    if over_move_bound(request.user.pk):
        # Refused before the move is read, played or drawn (the session, the user, the
        # game and the seat are read by then). A page shows the sentence in its flash;
        # a form posted without JavaScript goes back to the table, which says it.
        sentence = _("Too many moves at once: wait a moment, then try again.")
        if not request.htmx:
            messages.error(request, sentence)
            return redirect(game)
        return _too_many(sentence, 1)
    try:
        chosen, version = parse_move(request.POST)
    except BadMove as e:
        return HttpResponseBadRequest(str(e), content_type="text/plain; charset=utf-8")
    try:
        game.play(seat, chosen, version=version)
    except StaleBoard:
        messages.warning(
            request, _("The board has changed since you saw it; here is the current one.")
        )
    except rules.IllegalMove as e:
        messages.error(request, illegal_move_message(e))
    return _board_or_redirect(request, game)


@never_cache
@login_required
@require_POST
def come_back(request, code):
    """Take back the seat of a player marked absent: the game waits for them again.

    An absent seat is not counted in the player's share of tables (limits.seated_games):
    taking it back takes a seat of that share again, as joining a table does.
    """
    game, _seat = _get_game_for_player(request, code)
    try:
        with transaction.atomic():
            check_share = None
            if not game.seats.exclude(user__bot_level="").exists():
                # The account first, then the game (as joining a table): the seat's
                # absence is read under the game's lock, where a timeout cannot change it.
                limits.lock_account(request.user)
                check_share = partial(limits.check_seats, request.user, game.pace)
            game.come_back(request.user, check_share=check_share)
    except SeatingError as e:
        messages.error(request, str(e))
    return _board_or_redirect(request, game)


@never_cache
@login_required
@require_POST
def standing_answers(request, code):
    """Set the asking player's standing answers for this game; one that applies now is made."""
    game, _seat = _get_game_for_player(request, code)
    form = StandingAnswersForm(request.POST, user=request.user)
    if not form.is_valid():
        messages.error(request, _("Choose one of the offered answers."))
        return redirect(game)
    try:
        game.set_standing_answers(request.user, **form.seat_fields())
    except SeatingError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, _("Your standing answers for this game are saved."))
    return redirect(game)


@never_cache
@login_required
def resign(request, code):
    """Resign the game (POST) after a confirmation (GET: the page that asks for it).

    Ruling (resign): a loss; the seat plays on by the default moves, and the
    game ends when one player is left who has not resigned or gone absent.
    """
    game, seat = _get_game_for_player(request, code)
    if request.method != "POST":
        refusal = _resign_refusal(game, seat)
        if refusal:
            messages.error(request, refusal)
            return redirect(game)
        context = {"code": code, "resign_url": request.path, "table_url": game.get_absolute_url()}
        return render(request, "games/resign.html", context)
    try:
        game.play(seat, rules.Move.resign())
    except rules.IllegalMove as e:
        messages.error(request, illegal_move_message(e))
    return _board_or_redirect(request, game)


def _resign_refusal(game, seat):
    """Return why `seat` cannot resign `game` now, or "" if it can."""
    if game.status != Game.Status.ACTIVE:
        return _("This game is not in play.")
    if seat in game.state().resigned:
        return _("You have already resigned.")
    return ""


@never_cache
@login_required
@require_POST
def rematch(request, code):
    """Ask for a rematch of a finished game, or accept the one asked for; follow it when it starts."""
    game, _seat = _get_game_for_player(
        request, code, _("Only the players of this game can ask for its rematch.")
    )
    try:
        with transaction.atomic():
            table = game.rematch
            if table is None or table.status == Game.Status.CANCELLED:
                # Asking first opens a table: with the computer players it starts at once.
                limits.lock_account(request.user)
                if game.seats.exclude(user__bot_level="").exists():
                    limits.check_computer_games(request.user)
                else:
                    limits.check_open_tables(request.user)
                    limits.check_seats(request.user, game.pace)
            elif (
                table.status == Game.Status.OPEN
                and not table.seats.filter(user=request.user).exists()
            ):
                # Accepting takes a seat, as joining a table does: the same share, the same
                # blocks (someone seated there who blocked this player keeps them away).
                if kept_from_table(request.user, table):
                    raise SeatingError(_("You can't join this table."))
                limits.lock_account(request.user)
                limits.check_seats(request.user, table.pace)
            table = game.ask_rematch(request.user)
    except SeatingError as e:
        messages.error(request, str(e))
        return _board_or_redirect(request, game)
    if table.status == Game.Status.ACTIVE:
        return _go_to(request, table)
    return _board_or_redirect(request, game)


@never_cache
@login_required
@require_POST
def new_computer_game(request, code):
    """Start a live game against one computer player, of this game's computer level or basic."""
    game, _seat = _get_game_for_player(
        request, code, _("Only the players of this game can start a game from it.")
    )
    if game.status != Game.Status.FINISHED:
        messages.error(request, _("A new game can be started from here once this game is over."))
        return _board_or_redirect(request, game)
    level = computer_level(game.seats.select_related("user"))
    try:
        with transaction.atomic():
            limits.lock_account(request.user)
            limits.check_computer_games(request.user)
            table = Game.objects.create(
                host=request.user,
                seat_count=2,
                options=rules.new_table_options(game.options),
                pace=Game.Pace.LIVE,
                private=True,
            )
            table.join(request.user)
            fill_with_bots(table, level)  # the table is full: it starts
    except limits.LimitReached as e:
        messages.error(request, str(e))
        return _board_or_redirect(request, game)
    table.refresh_from_db()
    return _go_to(request, table)


def _go_to(request, game):
    """Send the browser to `game`'s table (htmx follows HX-Redirect with a full page load)."""
    if request.htmx:
        return HttpResponseClientRedirect(game.get_absolute_url())
    return redirect(game)


def _board_or_redirect(request, game):
    if request.htmx:
        # The "view restart": redraw the board as it is now, whatever happened. After a move
        # the game holds what Game.play saved (and the mover's socket is sent the same
        # fragments); otherwise its state was never read (_get_game_for_player): read it all.
        if game.get_deferred_fields():
            game = Game.objects.get(pk=game.pk)
        html = board_for(game, request.user)
        return HttpResponse(html + "\n" + flash_fragment(messages.get_messages(request)))
    return redirect(game)


def _get_game_for_player(request, code, refusal=None):
    """Return (game, seat) for a seated player; 404 for no such game, 403 for anyone else.

    One query finds the seat and its game; the game's large columns (the engine
    state, the summary) are read only if used: a move reads the state under its lock.
    """
    found = find_seat(code, request.user)
    if found is None:
        get_object_or_404(Game.objects.only("pk"), code=code)
        raise PermissionDenied(refusal or _("Only the players at this table can make moves."))
    return found.game, found.position


def find_seat(code, user):
    """Return `user`'s Seat at table `code` with its game (its large columns left), or None."""
    return seat_at(code, user.pk)


def parse_move(data):
    """Return (rules.Move, version) from posted fields; raise BadMove if they make no move."""
    try:
        version = int(data["version"])
    except (KeyError, ValueError) as e:
        raise BadMove(_("The move does not say which board it was made from.")) from e
    fields = {"kind": data.get("kind", "")}
    try:
        for name in ("card", "share"):
            if data.get(name, "") != "":
                fields[name] = int(data[name])
        for name in ("targets", "cards"):
            values = data.getlist(name)
            if values:
                fields[name] = [int(v) for v in values]
    except ValueError as e:
        raise BadMove(_("Cards, players and shares are given by number.")) from e
    if data.get("colour"):
        fields["colour"] = data["colour"]
    try:
        return rules.Move.from_json(fields), version
    except rules.IllegalMove as e:
        raise BadMove(illegal_move_message(e)) from e


def illegal_move_message(error):
    """Return the message of a rules.IllegalMove in the active language."""
    template = _(str(error.template))
    params = {
        key: translate_english_name(value) if isinstance(value, str) else value
        for key, value in error.params.items()
    }
    if not params:
        return template
    try:
        return template % params
    except (KeyError, TypeError, ValueError):
        return str(error)


def waiting_room_url(game):
    """Return the lobby's page of a table not yet started."""
    try:
        return reverse("lobby:table", args=[game.code])
    except NoReverseMatch:
        return f"/t/{game.code}/"


# --- the review of finished games ------------------------------------------------------------
# Reviews, records and logs of finished games are open to every logged-in user, as
# finished games' tables are; a game in progress is reviewed by nobody (docs/rules.md 10).

GAMES_PER_PAGE = 20


def _get_finished_game(request, code):
    """Return finished game `code`; 404 for no such game, 403 saying why for any other state."""
    game = get_object_or_404(Game, code=code)
    if game.status == Game.Status.ACTIVE:
        raise PermissionDenied(
            _("This game is still being played: its review opens when the game ends.")
        )
    if game.status != Game.Status.FINISHED:
        raise PermissionDenied(_("This game was never played: there is nothing to review."))
    return game


@never_cache
@login_required
def review(request, code):
    """Any position of a finished game (?move=N, 0 the deal), every hand or as one seat saw it (?as=)."""
    game = _get_finished_game(request, code)
    seat = reviews.parse_seat(request.GET.get("as"), game.seat_count)
    # htmx asks for the position fragment alone, except to restore a page missing from its history.
    fragment = request.htmx and not request.htmx.history_restore_request
    try:
        total = reviews.ensure_summary(game)["moves"]
        n = reviews.parse_position(request.GET.get("move"), total)
        # A step to a position off the move list's page the page shows brings that page too.
        shown = request.headers.get("Review-Move-Page")
        other_page = fragment and shown not in (None, str(move_page(n, total)[0]))
        context = reviews.review_context(game, n, seat, not fragment, move_list=other_page)
    except reviews.Unreplayable as e:
        raise PermissionDenied(_("The record of this game cannot be replayed.")) from e
    context["chat"] = review_chat(game, request.user, n)
    if not fragment:
        return render(request, "games/review.html", context)
    response = render(request, "games/review.html#position", context)
    context["oob"] = True
    # The links to the other views of the game lead to this position, as the address does.
    for part in ("perspectives", "move-list", "decisions") if other_page else ("perspectives",):
        response.write(render_to_string(f"games/review.html#{part}", context, request))
    return response


@never_cache
@login_required
def analysis(request, code):
    """Ask for the analysis of a finished game (POST); its progress (GET, polled by htmx)."""
    game = _get_finished_game(request, code)
    review_page = reverse("games:review", args=[code])
    if request.method == "POST":
        try:
            asked = analyses.request_analysis(game, request.user)
        except analyses.AnalysisRefused as e:
            messages.error(request, str(e))
        else:
            if asked.status == analyses.Analysis.Status.DONE:
                messages.info(request, _("This game is analysed already: see below."))
            else:
                messages.success(request, _("The analysis of this game is on its way."))
        return redirect(review_page)
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    if not request.htmx:
        return redirect(review_page)
    found = analyses.Analysis.objects.filter(game=game).first()
    status = reviews.analysis_status(game, found)
    if status["state"] == analyses.Analysis.Status.DONE:
        # Its chart and marks are all over the page: load it again.
        return HttpResponse(headers={"HX-Refresh": "true"})
    return render(request, "games/review.html#analysis", {"analysis": status})


@never_cache
@login_required
def export(request, code):
    """The record of a finished game as JSON: enough for rules.replay to rebuild it."""
    game = _get_finished_game(request, code)
    bound = settings.EXPORTS_PER_MINUTE
    if bound and not EXPORTS.take(f"exports:{request.user.pk}", Rate(bound, 60)):
        return _too_many(_("Too many downloads in a minute: wait a moment, then try again."), 60)
    response = JsonResponse(reviews.export(game), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="fullset-{game.code}.json"'
    return response


@never_cache
@login_required
def game_log(request, code):
    """Every move of a game in words, with its time: its players' while it is played."""
    game = get_object_or_404(Game, code=code)
    if game.status != Game.Status.FINISHED and game.seat_of(request.user) is None:
        raise PermissionDenied(
            _("Only the players at this table can read its whole log while it is played.")
        )
    seats = list(game.seats.select_related("user"))
    names = [player_name(seat.user) for seat in seats]
    deck = game.state().deck if game.snapshot else ()
    # A page of the log at a time (?move=N: the page holding move N; the latest by default).
    total = game.moves.count()
    first, last = move_page(reviews.parse_position(request.GET.get("move"), total), total)

    def state_before():
        """The state before the page, from a finished game's checkpoints (None: none kept)."""
        try:
            reviews.ensure_summary(game)
            return reviews.state_after(game, first - 1)
        except reviews.Unreplayable:
            return None

    url = reverse("games:log", args=[code])
    context = {
        "code": code,
        "lines": log_page(
            game,
            names,
            deck,
            first,
            last - first + 1,
            state_before if game.status == Game.Status.FINISHED else None,
        ),
        "first": first,
        "last": last,
        "total": total,
        "earlier_url": f"{url}?move={first - 1}" if first > 1 else None,
        "later_url": f"{url}?move={last + 1}" if last < total else None,
        "table_url": game.get_absolute_url(),
        "review_url": reverse("games:review", args=[code])
        if game.status == Game.Status.FINISHED
        else None,
    }
    return render(request, "games/log.html", context)


@login_required
def finished_games(request):
    """A player's finished games, newest first (?player=, default me), with one opponent (?opponent=)."""
    username = request.GET.get("player") or request.user.get_username()
    opponent = request.GET.get("opponent", "").strip()
    if "\x00" in username + opponent:
        # No username holds a NUL, and PostgreSQL refuses one in a query (a 500, not a 404).
        raise Http404
    # A closed account's list is a 404, as its profile is (accounts.profile.user_named).
    player = user_named(request, username, is_active=True)
    # The player's seats in finished games, newest first, from the seat_history index; with
    # one opponent, their games together from together_history (GameTogether), both a page
    # at a time (neither walks the player's whole history).
    other = None
    if opponent:
        other = get_user_model().objects.filter(username=opponent, is_active=True).first()
    if other is not None and other != player:
        listed = Listed("games together", _games_together, (player.pk, other.pk), *FINISHED_KEYS)
    else:
        listed = Listed("finished games", _finished_seats, (player.pk,), *FINISHED_KEYS)
    if opponent and other is None:
        page = KeysetPage([])
    else:
        page = requested_page(request, listed, GAMES_PER_PAGE, lambda row: row[1])
    rows = finished_rows(page.object_list, player.pk)
    query = {"player": player.get_username()}
    if opponent:
        query["opponent"] = opponent
    context = {
        "player": player,
        "player_name": player_name(player),
        "opponent": opponent,
        "rows": rows,
        "page": page,
        "query": urlencode(query),
    }
    return render(request, "games/finished.html", context)


# The fields a player's finished games are read newest first by, and named by.
FINISHED_KEYS = ("ended_at", "game_id", "game__code")
LISTED = ("game_id", "game__code", "game__ended_at", "game__turn_number", "game__winner_id")


def _finished_seats(player_id):
    return Seat.objects.filter(user_id=player_id, ended_at__isnull=False).values_list(*LISTED)


def _games_together(player_id, other_id):
    return games_together(player_id, other_id).values_list(*LISTED)


def _recent_games():
    games = Game.objects.filter(status=Game.Status.FINISHED)
    return games.values_list("pk", "code", "ended_at", "turn_number", "winner_id")


@login_required
def recent_games(request):
    """Every player's finished games, newest first, each with its review."""
    listed = Listed("recent games", _recent_games, (), "ended_at", "pk", "code")
    page = requested_page(request, listed, GAMES_PER_PAGE, lambda row: row[1])
    page.object_list = finished_rows(page.object_list)
    return render(request, "games/recent.html", {"page": page})
