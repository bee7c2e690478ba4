"""A card's face, drawn once per card, place and language in a server process.

A table shows dozens of cards, each drawn by the `card` partial of
games/table.html; the same card looks the same at every version and for
every player. Its face is remembered (games/memo.py) by everything the
partial reads: the card (id, kind, value, the colour it stands for), where it
is drawn (`where`: the tooltip's id) and whether it sits in a control, and
the language.
"""

from django import template
from django.template.loader import render_to_string
from django.utils import translation

from games.memo import Memo

register = template.Library()

_faces = Memo(4096)


@register.simple_tag(takes_context=True)
def card_face(context, c, **place):
    """Render games/table.html#card for card `c`; `where` and `in_control` as in that partial."""
    where = place.get("where", context.get("where")) or ""
    in_control = bool(place.get("in_control", context.get("in_control")))
    key = (c["id"], c["kind"], c["value"], c["as_colour"], where, in_control)
    key += (translation.get_language(),)
    return _faces.get(
        key,
        lambda: render_to_string(
            "games/table.html#card", {"c": c, "where": where, "in_control": in_control}
        ),
    )
