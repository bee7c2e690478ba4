"""Lists of finished games read a page at a time from an index, newest first (keyset pagination).

A page is named by the game it follows (`?before=<code>`, the "Older" link)
or precedes (`?after=<code>`, "Newer"), never by a number: no page counts the
rows of the whole list or skips over the ones before it (OFFSET), so the
oldest page of a long history costs what the first one does.
"""

from dataclasses import dataclass


@dataclass
class KeysetPage:
    """One page of a list, and the codes its neighbour pages are named by (None: no such page)."""

    object_list: list
    newer: str | None = None
    older: str | None = None


def requested_page(request, rows, size, end, key, position, code_of):
    """Return the KeysetPage of `rows` that `request` asks for (?before= or ?after=, or the first).

    `rows` is a queryset read newest first by the fields (`end`, `key`);
    `position(code)` returns the (end, key) of the row of game `code` in it, or
    None; `code_of(row)` is the game code of a row. A code that names no row
    of the list gives the first page.
    """
    found = {}
    for name in ("before", "after"):
        code = request.GET.get(name, "")
        # No code holds a NUL, and PostgreSQL refuses one in a query.
        if code and len(code) <= 32 and "\x00" not in code:
            found[name] = position(code)
    return keyset_page(rows, size, end, key, code_of, **found)


def keyset_page(rows, size, end, key, code_of, before=None, after=None):
    """Return one KeysetPage of `rows`, newest first by (`end`, `key`), next to a row's (end, key)."""
    if after is not None:
        newer_rows = rows.filter(**{f"{end}__gte": after[0]}).exclude(
            **{end: after[0], f"{key}__lte": after[1]}
        )
        found = list(newer_rows.order_by(end, key)[: size + 1])
        more_newer = len(found) > size
        found = found[:size][::-1]
        more_older = True  # the row the page precedes
    else:
        older_rows = rows
        if before is not None:
            older_rows = rows.filter(**{f"{end}__lte": before[0]}).exclude(
                **{end: before[0], f"{key}__gte": before[1]}
            )
        found = list(older_rows.order_by(f"-{end}", f"-{key}")[: size + 1])
        more_older = len(found) > size
        found = found[:size]
        more_newer = before is not None
    if not found:  # a page beyond either end (an old link): the first page
        return keyset_page(rows, size, end, key, code_of) if before or after else KeysetPage([])
    return KeysetPage(
        found,
        newer=code_of(found[0]) if more_newer else None,
        older=code_of(found[-1]) if more_older else None,
    )
