"""Lists of finished games read a page at a time from an index, newest first (keyset pagination).

A page is named by the game it follows (`?before=<code>`, the "Older" link)
or precedes (`?after=<code>`, "Newer"), never by a number: no page counts the
rows of the whole list or skips over the ones before it (OFFSET), so the
oldest page of a long history costs what the first one does. Each kind of
page is a statement compiled once per process (config.statements).
"""

from collections.abc import Callable
from dataclasses import dataclass

from config import statements


@dataclass
class KeysetPage:
    """One page of a list, and the codes its neighbour pages are named by (None: no such page)."""

    object_list: list
    newer: str | None = None
    older: str | None = None


@dataclass
class Listed:
    """A list: `build(*args)` is its values_list queryset, named `name` among the statements.

    Its rows are read newest first by the fields (`end`, `key`); `code` is
    the field of a row's game code (the pages' names).
    """

    name: str
    build: Callable
    args: tuple
    end: str
    key: str
    code: str


def requested_page(request, listed, size, code_of):
    """Return the KeysetPage of `listed` that `request` asks for (?before= or ?after=, or the first).

    `code_of(row)` is the game code of a row. A code that names no row of the
    list gives the first page.
    """
    found = {}
    for name in ("before", "after"):
        code = request.GET.get(name, "")
        # No code holds a NUL, and PostgreSQL refuses one in a query.
        if code and len(code) <= 32 and "\x00" not in code:
            found[name] = position(listed, code)
    return keyset_page(listed, size, code_of, **found)


def position(listed, code):
    """Return the (end, key) of the row of game `code` in `listed`, or None."""

    def build(*args):
        rows = listed.build(*args[:-1]).filter(**{listed.code: args[-1]})
        return rows.values_list(listed.end, listed.key)[:1]

    found = _run(listed, "position", build, code)
    return found[0] if found else None


def keyset_page(listed, size, code_of, before=None, after=None):
    """Return one KeysetPage of `listed`, newest first by (end, key), next to a row's (end, key)."""
    end, key = listed.end, listed.key
    if after is not None:

        def newer(*args):
            rows = listed.build(*args[:-2]).filter(**{f"{end}__gte": args[-2]})
            rows = rows.exclude(**{end: args[-2], f"{key}__lte": args[-1]})
            return rows.order_by(end, key)[: size + 1]

        found = _run(listed, ("after", size), newer, *after)
        more_newer = len(found) > size
        found = found[:size][::-1]
        more_older = True  # the row the page precedes
    else:
        if before is not None:

            def older(*args):
                rows = listed.build(*args[:-2]).filter(**{f"{end}__lte": args[-2]})
                rows = rows.exclude(**{end: args[-2], f"{key}__gte": args[-1]})
                return rows.order_by(f"-{end}", f"-{key}")[: size + 1]

            found = _run(listed, ("before", size), older, *before)
        else:

            def first(*args):
                return listed.build(*args).order_by(f"-{end}", f"-{key}")[: size + 1]

            found = _run(listed, ("first", size), first)
        more_older = len(found) > size
        found = found[:size]
        more_newer = before is not None
    if not found:  # a page beyond either end (an old link): the first page
        return keyset_page(listed, size, code_of) if before or after else KeysetPage([])
    return KeysetPage(
        found,
        newer=code_of(found[0]) if more_newer else None,
        older=code_of(found[-1]) if more_older else None,
    )


def _run(listed, kind, build, *more):
    return statements.values((listed.name, kind), build, *listed.args, *more)
