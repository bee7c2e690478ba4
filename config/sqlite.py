"""SQLite's statements written in its own style once per statement, not at every run.

Django writes SQL with %s placeholders; its SQLite backend turns them into
SQLite's ? with a regular expression every time a statement runs (1 to 2% of
a move's POST, a dozen statements). The site runs the same few hundred
statements again and again: each is turned once, and remembered.
"""

from django.db.backends.sqlite3.base import SQLiteCursorWrapper

MOST = 4096  # statements remembered; one more is turned as before, and not kept

_turned = {}


def install():
    """Have every SQLite cursor of this process remember the statements it turned."""
    convert = SQLiteCursorWrapper.convert_query
    if getattr(convert, "remembers", False):
        return

    def convert_query(self, query, *, param_names=None):
        if param_names is not None:  # named parameters: as Django does
            return convert(self, query, param_names=param_names)
        turned = _turned.get(query)
        if turned is None:
            turned = convert(self, query)
            if len(_turned) < MOST:
                _turned[query] = turned
        return turned

    convert_query.remembers = True
    SQLiteCursorWrapper.convert_query = convert_query
