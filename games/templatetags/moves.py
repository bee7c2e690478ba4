"""A move's form, drawn once per move and language in a server process.

A player's turn redraws the menus of their hand at every move, and a card
whose menu changed (a new target for a Sly Deal, one more colour for a rent)
still offers mostly the moves it offered before. Each form is remembered
(games/table/memo.py) with games.table.board.ASKED_MARK and URL_MARK in place of the
version it posts (its player's entry of Game.asked_versions) and the table it posts to, put in as it is used: a form is
drawn once for every game.
"""

from django import template
from django.template.loader import render_to_string
from django.utils import translation

from games.table.memo import Memo

register = template.Library()

_forms = Memo(4096)


@register.simple_tag(takes_context=True)
def move_form(context, control):
    """Render games/table.html#move_form for `control` (a games.table.labels control)."""
    from games.table.board import (  # games.table.board uses this tag
        ASKED_MARK,
        URL_MARK,
        with_asked,
    )

    key = (control["kind"], control["label"], tuple(control["fields"]))
    key += (translation.get_language(),)
    html = _forms.get(
        key,
        lambda: render_to_string(
            "games/table.html#move_form",
            {"control": control, "asked": ASKED_MARK, "move_url": URL_MARK},
        ),
    )
    asked = context["asked"]
    if asked is ASKED_MARK:  # in a piece drawn with the marks, put in as it is used
        return html
    return with_asked(html, asked, context["move_url"])
