"""The live game table: the page a player plays on, and the move endpoint its forms post to."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import rules
from games.board import render_fragments, table_context
from games.cardnames import translate_english_name
from games.models import Game, Notification, SeatingError, StaleBoard, broadcast_users


class BadMove(ValueError):
    """The posted fields do not make a move at all (not merely an illegal one)."""


@login_required
def table(request, code):
    game = get_object_or_404(Game, code=code)
    if game.status == Game.Status.OPEN:
        return redirect(waiting_room_url(game))
    if game.seat_of(request.user) is not None:
        _seen(game, request.user)
    return render(request, "games/table.html", table_context(game, request.user))


def _seen(game, user):
    """Note that `user` opened their game: no reminder email, and its notifications are read."""
    now = timezone.now()
    game.seats.filter(user=user).update(seen_at=now)
    unread = Notification.objects.filter(user=user, game=game, read_at=None)
    if unread.update(read_at=now):
        broadcast_users({user.id})


@login_required
@require_POST
def move(request, code):
    game, seat = _get_game_for_player(request, code)
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


@login_required
@require_POST
def come_back(request, code):
    """Take back the seat of a player marked absent: the game waits for them again."""
    game, _seat = _get_game_for_player(request, code)
    try:
        game.come_back(request.user)
    except SeatingError as e:
        messages.error(request, str(e))
    return _board_or_redirect(request, game)


def _board_or_redirect(request, game):
    if request.htmx:
        # The "view restart": redraw the board as it is now, whatever happened.
        game = Game.objects.get(pk=game.pk)
        context = table_context(game, request.user)
        html = render_fragments(context, messages.get_messages(request), request=request)
        return HttpResponse(html)
    return redirect(game)


def _get_game_for_player(request, code):
    """Return (game, seat) for a seated player; 404 for no such game, 403 for anyone else."""
    game = get_object_or_404(Game, code=code)
    seat = game.seat_of(request.user)
    if seat is None:
        raise PermissionDenied(_("Only the players at this table can make moves."))
    return game, seat


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
