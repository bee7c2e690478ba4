"""Filters for what a card game shows without colour: the colours' marks (issue 18)."""

from django import template

from games.table.cardnames import COLOUR_MARKS, colour_mark as mark_of

register = template.Library()


@register.filter
def colour_mark(colour):
    """Return the short code of a colour (engine id), e.g. "Rd"; empty for an unknown one."""
    return mark_of(colour) if colour in COLOUR_MARKS else ""
