"""The lobby: the home page, the open tables, creating a table and its waiting room.

Also a player's own pages across all their games: the games waiting for
them ("your turn") and their notifications.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import Count, F, Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _, gettext_lazy as _lazy
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.blocks import kept_apart, kept_from_table
from accounts.models import Vacation
from accounts.ratelimit import FAIL_OPEN, Limiter, Rate
from config import statements
from games.history.lists import PLAYER_NAMES, TABLE_FIELDS, seated, seats_with_games
from games.models import (
    Game,
    Invitation,
    Notification,
    Seat,
    SeatingError,
    broadcast_lobby,
    broadcast_seating,
    broadcast_users,
)
from games.play import bots, limits, vacation as vacations
from lobby.forms import ComputerGameForm, InviteForm, TableForm, default_table_fields

# Session key: codes of the tables whose share link the user has opened.
SHARED_TABLES = "lobby_shared_tables"
SHARED_TABLES_KEPT = 50
FINISHED_SHOWN = 10
NOTIFICATIONS_SHOWN = 50
IN_PROGRESS_SHOWN = 10
# A larger page number reads as this one: the list's OFFSET stays small.
MAX_PAGE = 1000
# Quick game tries this many fitting tables, longest waiting first, should the first fill meanwhile.
QUICK_GAME_TRIES = 5


def home(request):
    return render(request, "lobby/home.html", home_context(request))


def home_context(request, computer_form=None):
    context = {}
    mine = None
    in_progress = games_in_progress(request.user)
    if request.user.is_authenticated:
        # The players of the games in progress are read with those of the user's tables.
        context.update(my_tables(request.user, others=in_progress))
        context["live_my_tables"] = True  # the header's socket draws them again (UserConsumer)
        context["computer_form"] = computer_form or ComputerGameForm()
        # The open tables the user sits at are their waiting rooms: no query to find them.
        mine = {game.pk for game in context["waiting_room"]}
    listed, more = open_tables(request.user, mine=mine)
    context["open_tables"] = listed
    context["more_tables"] = more
    if not request.user.is_authenticated:
        with_players(in_progress)
    for game in in_progress:
        game.awaited = [player for player in game.players if player.deadline is not None]
    context["in_progress"] = in_progress
    return context


@login_required
def play_computer(request):
    """Create a live table, seat the user and computer players of the chosen level, and open it.

    The table is full once the bots sit down, so it starts at once (Game.join).
    """
    if request.method != "POST":
        return redirect("lobby:home")
    form = ComputerGameForm(request.POST)
    if not form.is_valid():
        return render(request, "lobby/home.html", home_context(request, form))
    try:
        game = create_table(request.user, form.table_fields(), bot_level=form.cleaned_data["level"])
    except limits.LimitReached as e:
        form.add_error(None, str(e))
        return render(request, "lobby/home.html", home_context(request, form))
    return redirect(game)


@login_required
def quick_game(request):
    """Join the fitting open table that has waited longest; without one, open a new table."""
    if request.method != "POST":
        return redirect("lobby:home")
    if seating_too_fast(request.user):
        messages.error(request, TOO_FAST)
        return redirect("lobby:home")
    for game in quick_game_tables(request.user)[:QUICK_GAME_TRIES]:
        if kept_apart(request.user, game):
            continue
        try:
            with transaction.atomic():
                limits.lock_account(request.user)
                limits.check_seats(request.user, game.pace)
                game.join(request.user)
        except limits.LimitReached as e:
            messages.error(request, str(e))
            return redirect("lobby:home")
        except SeatingError:
            continue  # it filled, started or closed since the query: the next one
        return _show(request, game)
    waiting = (
        Game.objects.listed()
        .filter(host=request.user, pace=Game.Pace.LIVE)
        .order_by("created_at", "pk")
        .first()
    )
    if waiting is not None:  # a second click must not open a second empty table
        messages.info(request, _("No other table is waiting for players: yours is still open."))
        return redirect("lobby:table", waiting.code)
    try:
        game = create_table(request.user, default_table_fields())
    except limits.LimitReached as e:
        messages.error(request, str(e))
        return redirect("lobby:home")
    messages.info(
        request,
        _(
            "No table was waiting for players, so here is a new one. Others can join it now, "
            "or you can fill it with computer players."
        ),
    )
    return redirect("lobby:table", game.code)


def tables(request):
    """List the open tables, a page at a time (?page=2...); only the first page is kept live."""
    page = page_number(request.GET.get("page"))
    listed, more = open_tables(request.user, page)
    context = {"open_tables": listed, "more_tables": more, "page": page}
    return render(request, "lobby/tables.html", context)


def page_number(text):
    """Return the page asked for, 1 for anything that is not a page number."""
    try:
        page = int(text or 1)
    except ValueError:
        return 1
    return min(max(page, 1), MAX_PAGE)


@login_required
def create(request):
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            level = data["bot_level"] if data["with_bots"] else None
            try:
                game = create_table(request.user, form.table_fields(), bot_level=level)
            except limits.LimitReached as e:
                form.add_error(None, str(e))
                return render(request, "lobby/create.html", {"form": form})
            if game.status == Game.Status.OPEN:
                return redirect("lobby:table", game.code)
            return redirect(game)
    else:
        form = TableForm()
    return render(request, "lobby/create.html", {"form": form})


def table(request, code):
    """Show the waiting room of a table; once the game has begun, send the visitor to it."""
    game = _get_table(request, code)
    if game.status in (Game.Status.ACTIVE, Game.Status.FINISHED):
        if request.htmx:
            return HttpResponseClientRedirect(game.get_absolute_url())
        return redirect(game)
    context = room_context(request, game)
    if context["is_host"]:
        context.update(invite_context(game, InviteForm(game=game)))
    if request.user.is_authenticated:
        mark_read(request.user, request.user.notifications.filter(game=game))
    return render(request, "lobby/table.html", context)


# The views below change a table: POST only. A GET (such as the "next" page
# after logging in) shows the waiting room instead.


# Sitting down and leaving, per user: each one redraws every seated player's header.
SEATINGS = Limiter("Seatings", when_down=FAIL_OPEN)
TOO_FAST = _lazy("You are sitting down and leaving too fast. Wait a minute, then try again.")


def seating_too_fast(user):
    """Count a seat taken or left by `user`; return whether it is over SEATINGS_PER_MINUTE."""
    bound = settings.SEATINGS_PER_MINUTE
    return bool(bound) and not SEATINGS.take(f"seatings:{user.pk}", Rate(bound, 60))


@login_required
def join(request, code):
    game = _get_table(request, code)
    if request.method != "POST":
        return redirect("lobby:table", code)
    if seating_too_fast(request.user):
        return _refuse(request, game, str(TOO_FAST))
    if kept_from_table(request.user, game):
        # Someone at the table has blocked this user, who is not told so (accounts/blocks.py).
        return _refuse(request, game, _("You can't join this table."))
    try:
        with transaction.atomic():
            if not game.seats.filter(user=request.user).exists():
                limits.lock_account(request.user)
                limits.check_seats(request.user, game.pace)
            game.join(request.user)
    except SeatingError as e:
        return _refuse(request, game, str(e))
    return _show(request, game)


@login_required
def leave(request, code):
    game = _get_table(request, code)
    if request.method != "POST":
        return redirect("lobby:table", code)
    if seating_too_fast(request.user):
        return _refuse(request, game, str(TOO_FAST))
    try:
        game.leave(request.user)
    except SeatingError as e:
        return _refuse(request, game, str(e))
    if request.htmx:
        return _show(request, game)
    messages.success(request, _("You have left the table."))
    return redirect("lobby:home")


@login_required
def remove(request, code):
    """The host takes a player's seat away, at a table that has not started.

    A player who sat down and walked away, or one who blocked many others (a
    table where someone blocked you is one you cannot join), must not hold the
    host's table. They may sit down again unless the host blocks them, which
    also takes their seat (accounts.views.block_user).
    """
    game = _get_table_for_host(request, code)
    if request.method != "POST":
        return redirect("lobby:table", code)
    player = request.POST.get("player", "")
    seat = None
    if player.isascii() and player.isdigit():  # "²".isdigit(), but int() refuses it
        seat = game.seats.filter(user_id=int(player)).select_related("user").first()
    if seat is None:
        return _refuse(request, game, _("That player is no longer at this table."))
    try:
        game.leave(seat.user)
    except SeatingError as e:
        return _refuse(request, game, str(e))
    if not request.htmx:
        messages.success(
            request,
            _(
                "%(name)s no longer sits at your table. To keep them from sitting down again, "
                "block them on their profile."
            )
            % {"name": seat.user.name},
        )
    return _show(request, game)


@login_required
def start(request, code):
    game = _get_table_for_host(request, code)
    if request.method != "POST":
        return redirect("lobby:table", code)
    if game.status != Game.Status.OPEN:
        return _refuse(request, game, _closed_message(game))
    if game.seats.count() < 2:
        return _refuse(request, game, _("A game needs at least 2 players."))
    try:
        game.start()
    except ValueError:
        # Someone left, or the table filled and started, since the check above.
        game.refresh_from_db()
        return _refuse(request, game, _("The table changed before it could start: try again."))
    return _show(request, game)


@login_required
def fill_with_bots(request, code):
    """Seat computer players of the chosen level at every free seat (the host only)."""
    game = _get_table_for_host(request, code)
    if request.method != "POST":
        return redirect("lobby:table", code)
    if game.status != Game.Status.OPEN:
        return _refuse(request, game, _closed_message(game))
    level = request.POST.get("level", "")
    if level not in bots.LEVELS:
        return _refuse(request, game, _("Choose a computer level."))
    try:
        with transaction.atomic():
            # The bots fill the table, so it starts: a game against the computer.
            limits.lock_account(request.user)
            limits.check_computer_games(request.user)
            bots.fill_with_bots(game, level)
    except SeatingError as e:
        return _refuse(request, game, str(e))
    return _show(request, game)


@login_required
def cancel(request, code):
    game = _get_table_for_host(request, code)
    if request.method != "POST":
        return redirect("lobby:table", code)
    try:
        game.cancel()
    except SeatingError as e:
        return _refuse(request, game, str(e))
    messages.success(request, _("The table is cancelled."))
    return _show(request, game)


@login_required
def invite(request, code):
    game = _get_table_for_host(request, code)
    if request.method != "POST":
        return redirect("lobby:table", code)
    if game.status != Game.Status.OPEN:
        return _refuse(request, game, _closed_message(game))
    if game.rematch_of_game() is not None:
        # Its players were asked already, on the game that ended (Game.ask_rematch).
        return _refuse(
            request, game, _("Only the players of the previous game can join its rematch.")
        )
    form = InviteForm(request.POST, game=game)
    if form.is_valid():
        invitee = form.invitee
        try:
            with transaction.atomic():
                limits.lock_account(request.user)
                # Inviting twice does not notify twice, nor count twice.
                if not Invitation.objects.filter(game=game, user=invitee).exists():
                    limits.check_invitation(request.user, invitee)
                _invitation, created = Invitation.objects.get_or_create(
                    game=game, user=invitee, defaults={"invited_by": request.user}
                )
                if created and not form.unheard:
                    Notification.objects.create(
                        user=invitee, game=game, kind=Notification.Kind.INVITED, actor=request.user
                    )
                    transaction.on_commit(lambda: broadcast_users({invitee.pk}))
        except limits.LimitReached as e:
            form.add_error("username", str(e))
            return _invite_refused(request, game, form)
        note = _("%(name)s is invited: the invitation is on their home page.") % {
            "name": form.invitee.name
        }
        if request.htmx:
            context = invite_context(game, InviteForm(game=game), note=note)
            return render(request, "lobby/table.html#invite", context)
        messages.success(request, note)
        return redirect("lobby:table", code)
    return _invite_refused(request, game, form)


def _invite_refused(request, game, form):
    if request.htmx:
        return render(request, "lobby/table.html#invite", invite_context(game, form))
    context = room_context(request, game) | invite_context(game, form)
    return render(request, "lobby/table.html", context)


@login_required
@require_POST
def decline(request, code):
    """Say no to an invitation: it leaves the invitee's home page, and the host cannot send it again.

    The host's waiting room lists the invitation as declined. Answering the same
    for a table that does not exist tells nobody which tables do.
    """
    now = timezone.now()
    user = request.user
    with transaction.atomic():
        declined = Invitation.objects.filter(game__code=code, user=user, declined_at=None)
        if declined.update(declined_at=now):
            # Gone, not read: it would link to a table no longer open to them.
            Notification.objects.filter(
                user=user, game__code=code, kind=Notification.Kind.INVITED
            ).delete()
            # The host's waiting room lists it as declined (lobby.consumers).
            transaction.on_commit(lambda: broadcast_seating({user.pk}))
    messages.info(request, _("The invitation is declined."))
    return redirect("lobby:home")


@login_required
def share(request, code, token):
    """Give whoever opens a table's share link the right to see and join it."""
    game = get_object_or_404(Game, code=code)
    if not constant_time_compare(token, game.share_token):
        raise Http404
    shared = request.session.get(SHARED_TABLES, [])
    if code not in shared:
        request.session[SHARED_TABLES] = [*shared, code][-SHARED_TABLES_KEPT:]
    if game.status == Game.Status.OPEN and game.seat_of(request.user) is None:
        messages.info(request, _("You have been invited to this table: take a seat with Join."))
    return redirect("lobby:table", code)


@login_required
def your_turn(request):
    """List the games waiting for the user, the games waiting for others, and the last ones."""
    context = turn_lists(request.user)
    context["vacation"] = vacations.allowance(request.user)
    context["vacation_next"] = request.path
    return render(request, "lobby/your_turn.html", context)


@login_required
def notifications(request):
    """Show the user's notifications, newest first; showing them marks them read."""
    shown = list(
        request.user.notifications.select_related("actor", "game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created_at", "-pk")[:NOTIFICATIONS_SHOWN]
    )
    # The list keeps the read_at it was loaded with: what was unread is drawn
    # as unread this once, while the header's count is already down.
    unread = [note.pk for note in shown if note.read_at is None]
    if unread:
        mark_read(request.user, request.user.notifications.filter(pk__in=unread))
    return render(request, "lobby/notifications.html", {"notifications": shown})


@login_required
def read_notifications(request):
    """Mark all the user's notifications read (POST only)."""
    if request.method == "POST":
        mark_read(request.user, request.user.notifications.all())
    return redirect("lobby:notifications")


# --- helpers shared with the lobby socket ----------------------------------------------------


def create_table(host, fields, bot_level=None):
    """Create a table with `fields`, its host in seat 0; with `bot_level`, bots take the others.

    Bots fill the table, so it starts (Game.join). All or nothing: a failure
    leaves no table behind. Raise limits.LimitReached when the host already
    holds its share of open tables and seats (or, with bots, of games against them).
    """
    with transaction.atomic():
        limits.lock_account(host)
        if bot_level is None:
            limits.check_open_tables(host)
            limits.check_seats(host, fields.get("pace", Game.Pace.LIVE))
        else:
            limits.check_computer_games(host)
        game = Game.objects.create(host=host, **fields)
        game.seats.create(user=host, position=0)
        transaction.on_commit(broadcast_lobby)
        if bot_level is not None:
            bots.fill_with_bots(game, bot_level)
    game.refresh_from_db()
    return game


def quick_game_tables(user):
    """Return the tables Quick game may seat `user` at, the one waiting longest first.

    Open, public, live (a quick game is played now), with a free seat, and
    not one `user` already sits at.
    """
    return (
        Game.objects.listed()
        .filter(pace=Game.Pace.LIVE)
        .exclude(seats__user=user)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("seat_count"))
        .order_by("created_at", "pk")
    )


def games_in_progress(user):
    """Return the public games in play anyone may watch, the latest move first (1 query).

    The games of `user` are left out: the home page lists them among theirs.
    Each game carries its `round`, read without the snapshot; the caller gives
    them their players (with_players), who tell the players it waits for (a
    seat has a deadline exactly while the game waits for it).
    """
    if user.is_authenticated:
        games = statements.models("games in progress, not mine", _in_progress, user.pk)
    else:
        games = statements.models("games in progress", _in_progress)
    for game in games:
        # As the table page counts rounds (GameState.round), from the stored turn number.
        game.round = (game.turn_number - 1) // game.seat_count + 1 if game.turn_number else 0
    return games


def _in_progress(user_id=None):
    games = Game.objects.filter(status=Game.Status.ACTIVE, private=False).only(*TABLE_FIELDS)
    if user_id is not None:
        games = games.exclude(seats__user_id=user_id)
    return games.order_by(F("last_move_at").desc(nulls_last=True), "-pk")[:IN_PROGRESS_SHOWN]


def page_size():
    return getattr(settings, "LOBBY_PAGE_TABLES", 20)


def listed_tables(page=1):
    """Return one page of the open public tables, newest first, and whether another page follows.

    Only the newest LOBBY_TABLES_PER_HOST tables of each host are listed: one
    account opening a hundred tables cannot push everyone else's out.
    """
    size = page_size()
    per_host = getattr(settings, "LOBBY_TABLES_PER_HOST", 3)
    start = (page - 1) * size
    params = [Game.Status.OPEN, False, per_host, per_host, size + 1, start]
    games = list(Game.objects.raw(listed_sql(connection), params))
    for game in games:
        host = [game.host_id, game.host_username, game.host_display_name, game.host_bot_level]
        game.host = get_user_model().from_db(game._state.db, ["id", *LISTED_HOST], host)
    return games[:size], len(games) > size


LISTED_HOST = ("username", "display_name", "bot_level")
_listed_sql = {}  # by database vendor


def listed_sql(connection):
    """Return the SQL of listed_tables, written once per process.

    Params: the open status, False (public), the tables per host twice (0: no
    bound), the rows to read and the rows to skip. The ORM's query (a window
    ranking each host's tables, a count of seats, the host's name) cost three
    times as much to build and compile as to run.
    """
    sql = _listed_sql.get(connection.vendor)
    if sql is not None:
        return sql
    q = connection.ops.quote_name
    game, seat, user = (q(m._meta.db_table) for m in (Game, Seat, get_user_model()))
    columns = ["id", *(Game._meta.get_field(name).column for name in TABLE_FIELDS)]
    inner = ", ".join(f"g.{q(c)}" for c in columns)
    outer = ", ".join(f"t.{q(c)}" for c in columns)
    host = ", ".join(f"u.{q(c)} AS {q('host_' + c)}" for c in LISTED_HOST)
    created, pk, host_id = q("created_at"), q("id"), q("host_id")
    sql = _listed_sql[connection.vendor] = (
        f"SELECT {outer}, t.{q('taken')}, {host} FROM ("
        f"SELECT {inner}, (SELECT COUNT(*) FROM {seat} s WHERE s.{q('game_id')} = g.{pk})"
        f" AS {q('taken')}, ROW_NUMBER() OVER (PARTITION BY g.{host_id}"
        f" ORDER BY g.{created} DESC, g.{pk} DESC) AS {q('nth_of_host')}"
        f" FROM {game} g WHERE g.{q('status')} = %s AND g.{q('private')} = %s"
        f") t INNER JOIN {user} u ON u.{pk} = t.{host_id}"
        f" WHERE (%s = 0 OR t.{q('nth_of_host')} <= %s)"
        f" ORDER BY t.{created} DESC, t.{pk} DESC LIMIT %s OFFSET %s"
    )
    return sql


def open_tables(user, page=1, mine=None):
    """Return a page of `listed_tables`, each marked with whether `user` sits there; and `more`.

    `mine`: the ids of the open tables `user` sits at, when the caller knows them.
    """
    games, more = listed_tables(page)
    if mine is None:
        mine = set()
        if user.is_authenticated:
            seats = Seat.objects.filter(user=user, game__in=games)
            mine = set(seats.values_list("game_id", flat=True))
    for game in games:
        game.is_mine = game.pk in mine
    return games, more


def my_tables(user, others=()):
    """Return the tables of `user` for the home page, the ones waiting for them first.

    `others`: more games whose seats to read with those of the user's tables.
    """
    # Each select_related costs building and reading every column of a user: only what is shown.
    # Nor the engine state and the summary: a list never shows them.
    your_move, waiting_room, in_play = [], [], []
    # Both lists start from the user's seats in the seat_history index (user, ended_at, game):
    # the unfinished ones, and the newest finished ones, however many games they finished.
    current = statements.models("my tables", _current_tables, user.pk)
    # The last finished games with their winners' names, and the invitations with their
    # tables and who sent them: statements compiled once (config.statements.joined).
    game = {"game": (Game, TABLE_FIELDS)}
    last_seats = statements.joined(
        "home finished seats",
        _finished_seats,
        (user.pk,),
        Seat,
        ("game", "ended_at"),
        {**game, "game__winner": (get_user_model(), PLAYER_NAMES)},
    )
    finished = [seat.game for seat in last_seats]
    invitations = statements.joined(
        "invitations",
        _invitations,
        (user.pk,),
        Invitation,
        ("game", "invited_by"),
        {**game, "invited_by": (get_user_model(), PLAYER_NAMES)},
    )
    # Every listed game's players in one query; an invitation's tell its seats taken.
    invited = [invitation.game for invitation in invitations]
    with_players([*current, *finished, *invited, *others])
    for invitation in invitations:
        invitation.taken = len(invitation.game.players)
    # No invitation to a table the user has sat down at since.
    invitations = [
        invitation
        for invitation in invitations
        if all(player.pk != user.pk for player in invitation.game.players)
    ]
    for game in current:
        if game.status == Game.Status.OPEN:
            waiting_room.append(game)
        elif _awaits(game, user):
            your_move.append(game)
        else:
            in_play.append(game)
    return {
        "your_move": your_move,
        "waiting_room": waiting_room,
        "in_play": in_play,
        "finished": finished,
        "invitations": invitations,
    }


def _invitations(user_id):
    invitations = Invitation.objects.filter(
        user_id=user_id, game__status=Game.Status.OPEN, declined_at=None
    )
    # Not those of a host the user has blocked (lobby.forms.InviteForm: never told).
    invitations = invitations.exclude(invited_by__blocks_received__blocker_id=user_id)
    return invitations.order_by("-created_at")


def _current_tables(user_id):
    games = Game.objects.only(*TABLE_FIELDS).filter(
        seats__user_id=user_id,
        seats__ended_at=None,
        status__in=[Game.Status.OPEN, Game.Status.ACTIVE],
    )
    return games.order_by(F("last_move_at").desc(nulls_last=True), "-created_at")


def with_players(games):
    """Give each of `games` its `players` in seat order (games.history.lists.Player: names as values)."""
    players = seated([game.pk for game in games])
    for game in games:
        game.players = players[game.pk]


def finished_seats(seats):
    """Return the last of `seats` (one user's) in finished games, newest first, from seat_history."""
    return seats.filter(ended_at__isnull=False).order_by("-ended_at", "-game_id")[:FINISHED_SHOWN]


def turn_lists(user):
    """Return the seats of `user` in games waiting for them, waiting for others, and finished.

    Each seat comes with its game and the game's seats (the opponents' names).
    """
    # A seat has a deadline exactly while its game waits for a decision from it.
    waiting_for_me, waiting_for_others = [], []
    for seat in seats_with_games("seats in play", _seats_in_play, user.pk):
        (waiting_for_me if seat.deadline else waiting_for_others).append(seat)
    finished = seats_with_games("finished seats", _finished_seats, user.pk)
    # Every listed game's players in one query.
    listed = [*waiting_for_me, *waiting_for_others, *finished]
    players = seated([seat.game_id for seat in listed])  # names as values, not Seat and User rows
    for seat in listed:
        seat.opponents = [player for player in players[seat.game_id] if player.pk != user.pk]
        seat.awaited = [player for player in seat.opponents if player.deadline is not None]
    now = timezone.now()
    # Opponents on vacation: their correspondence games wait for them (public, as on the table).
    playing = [*waiting_for_me, *waiting_for_others]
    for seat in playing:
        seat.on_vacation = []
    playing = [seat for seat in playing if seat.game.pace == Game.Pace.CORRESPONDENCE]
    opponents = {u.pk for s in playing for u in s.opponents}
    away = Vacation.objects.current(now).ends_of(opponents) if opponents else {}
    for seat in playing:
        seat.on_vacation = [(u, away[u.pk]) for u in seat.opponents if u.pk in away]
    waiting_for_me.sort(key=lambda seat: (seat.deadline, seat.game_id))
    waiting_for_others.sort(
        key=lambda seat: (
            seat.game.turn_deadline is None,
            seat.game.turn_deadline or now,
            seat.game_id,
        )
    )
    return {
        "waiting_for_me": waiting_for_me,
        "waiting_for_others": waiting_for_others,
        "finished": finished,
        "now": now,
    }


def _seats_in_play(user_id):
    return Seat.objects.filter(user_id=user_id, ended_at=None, game__status=Game.Status.ACTIVE)


def _finished_seats(user_id):
    return finished_seats(Seat.objects.filter(user_id=user_id))


def mark_read(user, notifications):
    """Mark `notifications` of `user` read, and tell the user's sockets if any was unread."""
    if notifications.filter(read_at=None).update(read_at=timezone.now()):
        transaction.on_commit(lambda: broadcast_users({user.pk}))


def room_context(request, game):
    """Return what the waiting room shows `request.user` about `game`."""
    user = request.user
    seats = list(game.seats.select_related("user"))
    my_seat = next((seat for seat in seats if seat.user_id == user.pk), None)
    is_host = user.is_authenticated and user.pk == game.host_id
    is_open = game.status == Game.Status.OPEN
    context = {
        "game": game,
        "seats": seats,
        "free_seats": range(max(game.seat_count - len(seats), 0)),
        "is_host": is_host,
        "bot_levels": list(bots.LEVEL_NAMES.items()),
        "my_seat": my_seat,
        "can_join": is_open and my_seat is None and len(seats) < game.seat_count,
        "can_leave": is_open and my_seat is not None and not is_host,
        "can_start": is_open and is_host and len(seats) >= 2,
        "share_path": None,
        "idle_minutes": settings.OPEN_LIVE_TABLE_MINUTES,
        # Only the players of the previous game may sit at a rematch (Game.join): no
        # invitations, share link or computer players for anyone else.
        "is_rematch": (
            is_open and (is_host or my_seat is not None) and game.rematch_of_game() is not None
        ),
    }
    if is_open and (is_host or my_seat is not None) and not context["is_rematch"]:
        context["share_path"] = reverse("lobby:share", args=[game.code, game.share_token])
    return context


def invited(game):
    """The invitations to `game` the host sees listed: those of players not seated there."""
    not_seated = game.invitations.exclude(user__seats__game=game)
    return list(not_seated.select_related("user").order_by("pk"))


def invite_context(game, form, note=""):
    return {"game": game, "invite_form": form, "invite_note": note, "invited": invited(game)}


def may_see(request, game):
    """Whether the user may see, and so join, the table.

    Anyone may see a public table; a private one only its host, its players,
    the players invited to it (but for those who declined) and those who
    opened its share link.
    """
    if not game.private:
        return True
    user = request.user
    if not user.is_authenticated:
        return False
    return (
        user.pk == game.host_id
        or game.code in request.session.get(SHARED_TABLES, [])
        or game.seats.filter(user=user).exists()
        or game.invitations.filter(user=user, declined_at=None).exists()
    )


def _get_table(request, code):
    """Return the table `code`: 404 if there is none, or if it is private and not for this user."""
    game = get_object_or_404(Game.objects.select_related("host"), code=code)
    if not may_see(request, game):
        raise Http404
    return game


def _get_table_for_host(request, code):
    """Return the table `code` for its host; 403 for anyone else."""
    game = _get_table(request, code)
    if request.user.pk != game.host_id:
        raise PermissionDenied(_("Only the host can do this."))
    return game


def _awaits(game, user):
    """Whether the game in play waits for a decision of `user`.

    A seat has a deadline exactly while its game waits for a decision from it
    (Game._set_deadlines): the game's seats, read anyway for the players'
    names, tell it without parsing the engine state.
    """
    return any(player.pk == user.pk and player.deadline is not None for player in game.players)


def _closed_message(game):
    if game.status == Game.Status.CANCELLED:
        return _("This table was cancelled.")
    return _("This game has already started.")


def _show(request, game):
    """Answer a change: the waiting room, or the game once it has started, or home once closed."""
    game.refresh_from_db()
    if game.status == Game.Status.OPEN:
        if request.htmx:
            return render(request, "lobby/table.html#room", room_context(request, game))
        return redirect("lobby:table", game.code)
    if game.status == Game.Status.CANCELLED:
        url = reverse("lobby:home")
    else:
        url = game.get_absolute_url()
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _refuse(request, game, message):
    """Answer a change that could not be made, saying why."""
    if request.htmx:
        game.refresh_from_db()
        context = room_context(request, game) | {"error": message}
        return render(request, "lobby/table.html#room", context)
    messages.error(request, message)
    return redirect("lobby:table", game.code)
