"""Table settings in words, for the lobby lists and the waiting room."""

from django import template
from django.utils.translation import gettext as _, ngettext

from games.models import Game

register = template.Library()


@register.filter
def pace(game):
    """Return e.g. "Live, 60 s per decision" or "Correspondence, 3 days per move"."""
    if game.pace == Game.Pace.CORRESPONDENCE:
        text = ngettext(
            "Correspondence, %(days)s day per move",
            "Correspondence, %(days)s days per move",
            game.pace_days,
        ) % {"days": game.pace_days}
        if game.reserve_days:
            reserve = ngettext("%(days)s day", "%(days)s days", game.reserve_days) % {
                "days": game.reserve_days
            }
            text = _("%(pace)s, reserve %(reserve)s") % {"pace": text, "reserve": reserve}
        return text
    return _("Live, %(seconds)s s per decision") % {"seconds": game.pace_seconds}


@register.filter
def options_in_words(game):
    """Return the table options of docs/rules.md section 9 as a short phrase."""
    options = game.options or {}
    words = [_("Enhanced edition") if options.get("enhanced") else _("Standard rules")]
    if options.get("built_sets"):
        words.append(_("built sets"))
    if options.get("wild_moves_cost_a_play"):
        words.append(_("wild moves cost a play"))
    # Translators: separates the table options in a list such as "Enhanced edition, built sets".
    return _(", ").join(words)


@register.filter
def names(users):
    """Return the names of `users` as one phrase, e.g. "bob, charlie"."""
    return _(", ").join(user.name for user in users)
