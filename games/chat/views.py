"""The chat's endpoints: write, report a message, switch the chat off or on for one game.

Each works as a plain POST and redirect back to the table, and answers an
htmx request with the piece of the panel it changed. New messages reach
every reader over the game's socket (games/chat/socket.py).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.chat import messages as chat
from games.chat.panel import chat_context
from games.models import Game
from games.views import may_watch


def _get_game_for_reader(request, code):
    """Return (game, seat) for a user who may watch `code`; 404 for anyone else, as the table."""
    game = get_object_or_404(Game, code=code)
    if not may_watch(request.user, game):
        raise Http404
    return game, chat.seat_of(game, request.user)


def _back_to_chat(game):
    return redirect(game.get_absolute_url() + "#chat")


@never_cache
@login_required
@require_POST
def post_message(request, code):
    game, seat = _get_game_for_reader(request, code)
    text = request.POST.get("text", "")
    error = None
    try:
        chat.post(
            game,
            request.user,
            seat,
            text=text,
            phrase=request.POST.get("phrase", ""),
            room=request.POST.get("room", ""),
        )
    except chat.ChatError as e:
        error = str(e)
    if request.htmx:
        # A refused message stays in the box (its cleaned text, cut to the limit) to be mended.
        draft = chat.clean_text(text)[: chat.MAX_LENGTH] if error else ""
        context = {"chat": chat_context(game, request.user, seat, error=error, draft=draft)}
        if context["chat"] is None:
            context["chat"] = {"code": code, "error": error}
        return render(request, "games/chat.html#form", context)
    if error:
        messages.error(request, error)
    return _back_to_chat(game)


@never_cache
@login_required
@require_POST
def report_message(request, code, message_id):
    game, seat = _get_game_for_reader(request, code)
    message = get_object_or_404(chat.ChatMessage, pk=message_id, game=game)
    if not chat.may_read(message, game, request.user, seat):
        raise Http404
    try:
        chat.report(message, request.user)
    except chat.ChatError as e:
        if request.htmx:
            return render(request, "games/chat.html#reported", {"error": str(e)})
        messages.error(request, str(e))
        return _back_to_chat(game)
    if request.htmx:
        return render(request, "games/chat.html#reported")
    messages.success(request, _("The message is reported: a moderator will read it."))
    return _back_to_chat(game)


@never_cache
@login_required
@require_POST
def switch_chat(request, code):
    """Switch the asking user's chat off (off=1) or on (off=0) in this game."""
    game, seat = _get_game_for_reader(request, code)
    chat.set_chat_off(game, request.user, request.POST.get("off") == "1")
    if request.htmx:
        context = {"chat": chat_context(game, request.user, seat)}
        if context["chat"] is None:
            return _back_to_chat(game)
        return render(request, "games/chat.html#panel", context)
    return _back_to_chat(game)
