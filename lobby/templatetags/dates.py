"""`{{ when|date_text:"DATETIME_FORMAT" }}`: the `date` filter, remembered (config/dates.py).

For the dates a page draws in every row of a list: the same moments come
back on every request, and formatting one costs about 60 µs.
"""

from django import template

from config.dates import date_text as remembered

register = template.Library()


@register.filter
def date_text(when, format="DATE_FORMAT"):
    """Return `when` as `{{ when|date:format }}` draws it ("" for no date)."""
    if not when:
        return ""
    return remembered(when, format)
