"""Links that lists draw in every row, reversed once per process.

`reverse` costs about 17 µs of CPU; a list of twenty games draws forty to
eighty links (the games, their players, their reviews). What a name and an
argument reverse to changes only with the URLconf or the script prefix, both
fixed while a process runs (the prefix is part of the key all the same).
"""

from functools import lru_cache

from django.urls import get_script_prefix, reverse


def link(name, arg):
    """Return reverse(name, args=[arg]), remembered."""
    return _link(get_script_prefix(), name, arg)


@lru_cache(maxsize=8192)
def _link(prefix, name, arg):
    return reverse(name, args=[arg])
