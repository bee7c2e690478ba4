"""Notifications in words, and where each one leads."""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import Game, Notification
from games.table.cardnames import kind_name
from lobby.templatetags.tables import names

register = template.Library()


@register.filter
def in_words(note):
    """Return a notification as a sentence for its user, e.g. "alice played Sly Deal on you"."""
    others = [seat.user for seat in note.game.seats.all() if seat.user_id != note.user_id]
    actor = note.actor.name if note.actor else _("Someone")
    if note.kind == Notification.Kind.YOUR_TURN:
        return _("It is your turn in the game with %(names)s") % {"names": names(others)}
    if note.kind == Notification.Kind.TARGETED:
        try:
            card = kind_name(note.data.get("card", ""))
        except KeyError:
            return _("%(name)s played a card on you") % {"name": actor}
        return _("%(name)s played %(card)s on you") % {"name": actor, "card": card}
    if note.kind == Notification.Kind.ENDED:
        return _("The game with %(names)s has ended") % {"names": names(others)}
    if note.kind == Notification.Kind.INVITED:
        return _("%(name)s invited you to a table") % {"name": actor}
    if note.kind == Notification.Kind.TIMED_OUT and note.data.get("absent"):
        return _(
            "Your time ran out again in the game with %(names)s: you are marked absent, and "
            "your seat is played by the default moves until you take it back at the table"
        ) % {"names": names(others)}
    if note.kind == Notification.Kind.TIMED_OUT:
        return _(
            "Your time ran out in the game with %(names)s: the default move was made for you"
        ) % {"names": names(others)}
    return note.get_kind_display()


@register.filter
def link(note):
    """Return where a notification leads: the waiting room of an open table, else the game."""
    if note.game.status == Game.Status.OPEN:
        return reverse("lobby:table", args=[note.game.code])
    return note.game.get_absolute_url()
