"""A card's face, drawn once per card, place and language in a server process.

A table shows dozens of cards, each drawn by the `card` partial of
games/table.html; the same card looks the same at every version and for
every player. Its face is remembered (games/table/memo.py) by everything the
partial reads: the card (id, kind, value, the colour it stands for), where it
is drawn (`where`: the tooltip's id), whether it sits in a control, whether it
lies in a set (whose progress is put in as it is used), and the language.
"""

from django import template
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from games.table.memo import Memo

register = template.Library()

_faces = Memo(4096)


@register.simple_tag(takes_context=True)
def card_face(context, c, **place):
    """Render games/table.html#card for card `c`; `where` and `in_control` as in that partial."""
    where = place.get("where", context.get("where")) or ""
    in_control = bool(place.get("in_control", context.get("in_control")))
    # A card in a set is named with the set's progress for screen readers ("in a set of 2
    # of 3"): drawn with PROGRESS in its place, put in as the face is used, so that a card
    # is drawn once whatever its set holds.
    in_set = place.get("in_set")
    key = (c["id"], c["kind"], c["value"], c["as_colour"], where, in_control, bool(in_set))
    key += (translation.get_language(),)
    html = _faces.get(
        key,
        lambda: render_to_string(
            "games/table.html#card",
            {"c": c, "where": where, "in_control": in_control, "in_set": in_set and PROGRESS},
        ),
    )
    if not in_set:
        return html
    count, size = PROGRESS["count"], PROGRESS["size"]
    return mark_safe(html.replace(count, str(in_set["count"])).replace(size, str(in_set["size"])))


# No card's words hold these (escaped text holds no "<").
PROGRESS = {"count": mark_safe("<@count@>"), "size": mark_safe("<@size@>")}
