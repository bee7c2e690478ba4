"""Filters and tags for the clocks of correspondence and live games."""

from django import template
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.timesince import timesince, timeuntil
from django.utils.timezone import template_localtime

from games.table.memo import Memo, moment

register = template.Library()

# A countdown's words ("4 hours, 3 minutes left") age without the deadline changing: drawn
# once per deadline, language and half-minute (games.table.memo.moment), as the tables showing it are.
_countdowns = Memo(1024)


@register.filter
def duration(value):
    """Write a timedelta in words, e.g. "2 days, 3 hours" (translated)."""
    if value is None:
        return ""
    now = timezone.now()
    return timesince(now, now + value)


@register.simple_tag
def countdown(deadline):
    """Render games/table.html#countdown for `deadline`: drawn once for every table showing it.

    The player's own status and each view of their table show the same countdown. Its
    words are put into a frame drawn once per language, with COUNTDOWN_MARKS in their place.
    """
    key = (deadline, translation.get_language(), moment())
    return _countdowns.get(key, lambda: _countdown(deadline))


def _countdown(deadline):
    frame = _countdowns.get(
        ("frame", translation.get_language()),
        lambda: render_to_string("games/table.html#countdown", COUNTDOWN_MARKS),
    )
    words = {
        "iso": deadline.isoformat(),
        "left": conditional_escape(timeuntil(deadline)),
        "until": conditional_escape(date_format(template_localtime(deadline), "DATETIME_FORMAT")),
    }
    for name, mark in COUNTDOWN_MARKS.items():
        frame = frame.replace(mark, words[name])
    return mark_safe(frame)


# No escaped text holds "<".
COUNTDOWN_MARKS = {name: mark_safe(f"<@{name}@>") for name in ("iso", "left", "until")}
