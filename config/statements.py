"""List queries compiled once per process: the ORM writes the SQL, once.

Building a queryset and compiling it costs 0.2 to 0.4 ms of CPU each time,
several times what SQLite takes to run it; a page of lists runs five or
more. `values(key, build, *ids)` runs the values_list queryset `build(*ids)`
with its SQL compiled on first use only: the first call builds it with
stand-in ids, finds where they went among the SQL's parameters, and keeps
the SQL, those places and the columns' converters; later calls only put the
ids in their places. The ids are integers (primary keys) or lists of them
(a list's length is part of the statement: `id IN (%s, %s)`).
"""

from django.db import connections
from django.db.models.query import FlatValuesListIterable

_statements = {}  # by (key, lengths of the list arguments)

STAND_IN = -2_000_000_000  # no key is this low (yet within 32 bits); stand-in n is STAND_IN - n


def values(key, build, *ids):
    """Return the rows (tuples, or values with flat=True) of the values_list queryset `build(*ids)`."""
    shape = (key, *(len(i) if isinstance(i, list) else None for i in ids))
    statement = _statements.get(shape)
    if statement is None:
        statement = _statements[shape] = _compile(build, ids)
    alias, sql, places, converters, flat = statement
    arguments = [i if isinstance(i, list) else [i] for i in ids]
    params = [arguments[a][e] if a is not None else fixed for a, e, fixed in places]
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if converters:
        rows = [list(row) for row in rows]
        for row in rows:
            for index, (functions, expression) in converters:
                for convert in functions:
                    row[index] = convert(row[index], expression, connection)
    if flat:
        return [row[0] for row in rows]
    return [tuple(row) for row in rows]


def _compile(build, ids):
    stand_ins, n = [], 0
    for i in ids:
        if isinstance(i, list):
            stand_ins.append([STAND_IN - n - k for k in range(len(i))])
            n += len(i)
        else:
            stand_ins.append(STAND_IN - n)
            n += 1
    queryset = build(*stand_ins)
    query = queryset.query
    if query.annotation_select or query.extra_select or not query.values_select:
        raise ValueError(f"{queryset!r}: only a values_list of plain columns is compiled once")
    compiler = query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    where = {}
    for a, i in enumerate(stand_ins):
        for e, value in enumerate(i if isinstance(i, list) else [i]):
            where[value] = (a, e)
    places = [(*where[p], None) if p in where else (None, None, p) for p in params]
    if len({(a, e) for a, e, _ in places if a is not None}) != n:
        raise ValueError(f"{queryset!r}: not every id is a parameter of its SQL")
    columns = [column for column, _, _ in compiler.select]
    converters = list(compiler.get_converters(columns).items())
    flat = queryset._iterable_class is FlatValuesListIterable
    return queryset.db, sql, places, converters, flat
