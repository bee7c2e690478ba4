"""Filters and tags for the clocks of correspondence and live games."""

from django import template
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.timesince import timesince

from games.memo import Memo, moment

register = template.Library()

# A countdown's words ("4 hours, 3 minutes left") age without the deadline changing: drawn
# once per deadline, language and half-minute (games.memo.moment), as the tables showing it are.
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

    The player's own status and each view of their table show the same countdown.
    """
    key = (deadline, translation.get_language(), moment())
    return _countdowns.get(
        key,
        lambda: render_to_string("games/table.html#countdown", {"clock": {"deadline": deadline}}),
    )
