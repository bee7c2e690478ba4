"""Filters for the clocks of correspondence and live games."""

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

register = template.Library()


@register.filter
def duration(value):
    """Write a timedelta in words, e.g. "2 days, 3 hours" (translated)."""
    if value is None:
        return ""
    now = timezone.now()
    return timesince(now, now + value)
