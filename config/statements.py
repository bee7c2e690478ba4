"""List queries compiled once per process: the ORM writes the SQL, once.

Building a queryset and compiling it costs 0.4 to 0.7 ms of CPU each time,
several times what SQLite takes to run it; a page of lists runs five or
more. `values(key, build, *args)` runs the values_list queryset
`build(*args)` with its SQL compiled on first use only: the first call
builds it with stand-in arguments, finds where they went among the SQL's
parameters, and keeps the SQL, those places and the columns' converters;
later calls only put the arguments in their places. `models(key, build,
*args)` does the same for a queryset of model instances (no select_related
or prefetch: their rows are built by RawQuerySet, the columns left out
deferred as with only()). The arguments are integers (primary keys), lists
of them (for `IN`: a list's length, rounded up to a power of two, is part of
the statement, `id IN (%s, %s)`, and a shorter list repeats its last id, so
that a list as long as a user makes it, their blocked players, compiles a
few statements and not one per length),
strings (compared as they are: no LIKE) and aware datetimes (adapted as a
DateTimeField's); whatever else `build` puts in the query is fixed at the
first call, so it must depend on nothing but its arguments and `key`.

Writes likewise: `save_fields(instance, names)` and `insert(instance)` write
a row as the ORM's save does (each field preparing its value), with the
UPDATE or INSERT written once per model, fields and database vendor. The
site has no save signals: these send none.
"""

from datetime import UTC, datetime, timedelta

from django.db import connections, router
from django.db.models.query import FlatValuesListIterable, ModelIterable

_statements = {}  # by (key, kind, the arguments' types and lists' lengths)

STAND_IN = -2_000_000_000  # no key is this low (yet within 32 bits); stand-in n is STAND_IN - n
STAND_IN_TIME = datetime(1901, 1, 1, tzinfo=UTC)  # and n microseconds: no game ended then


def values(key, build, *ids):
    """Return the rows (tuples, or values with flat=True) of the values_list queryset `build(*ids)`."""
    statement, params = _statement(key, build, ids, values=True)
    alias, sql, converters, flat = (
        statement["alias"],
        statement["sql"],
        statement["converters"],
        statement["flat"],
    )
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


def models(key, build, *ids):
    """Return the model instances of the queryset `build(*ids)` (no select_related, no prefetch)."""
    statement, params = _statement(key, build, ids, values=False)
    model = statement["model"]
    return list(model._default_manager.raw(statement["sql"], params).using(statement["alias"]))


def _columns(model, names):
    """Return the concrete fields of `model` named in `names`, and its key, in the model's order."""
    return [f for f in model._meta.concrete_fields if f.primary_key or f.name in names]


def joined(name, build, args, model, fields, related):
    """Return the `model` rows of the queryset `build(*args)` with their `related` rows.

    As `select_related(*related).only(*fields, ...)` builds them (the columns
    left out deferred), from one row of values each read by a statement
    compiled once (config.statements). `related`: {forward relation (from
    `model`, or from one named before it: "game__winner"): (its model, the
    names of its fields read)}.
    """
    columns, parts, relations = _plan(name, model, fields, related)
    rows = values(name, lambda *a: build(*a).values_list(*columns), *args)
    alias = router.db_for_read(model)
    found = []
    for row in rows:
        start, objects = 0, []
        for part_model, width, key, names in parts:
            part = row[start : start + width]
            # No related row (a null key): None, as select_related gives it.
            objects.append(None if part[key] is None else part_model.from_db(alias, names, part))
            start += width
        for (path, last), value in zip(relations, objects[1:]):
            target = objects[0]
            for step in path:  # "game__winner": the winner of the game
                target = getattr(target, step)
            if target is not None:
                setattr(target, last, value)
        found.append(objects[0])
    return found


_plans = {}


def _plan(name, model, fields, related):
    """Return how `joined` reads rows of `name`, worked out once: the columns, and each model's.

    (Worked out at every call, it compared each field of a model with the names asked
    for one by one, about 25 fields for a game, at every read of a move.)
    """
    shape = (name, model, tuple(fields), *((r, m, tuple(n)) for r, (m, n) in related.items()))
    plan = _plans.get(shape)
    if plan is None:
        found = [("", model, _columns(model, fields))]
        found += [
            (f"{relation}__", m, _columns(m, names)) for relation, (m, names) in related.items()
        ]
        columns = [prefix + f.name for prefix, _, part in found for f in part]
        parts = [
            (
                m,
                len(part),
                next(i for i, f in enumerate(part) if f.primary_key),
                [f.attname for f in part],
            )
            for _, m, part in found
        ]
        relations = [(path, last) for *path, last in (r.split("__") for r in related)]
        plan = _plans[shape] = (columns, parts, relations)
    return plan


def _padded(ids):
    """A list `ids` as long as the next power of two, its last id repeated (the same `IN`)."""
    if not ids:
        return ids
    return ids + ids[-1:] * ((1 << (len(ids) - 1).bit_length()) - len(ids))


def _statement(key, build, ids, values):
    ids = [_padded(i) if isinstance(i, list) else i for i in ids]
    shape = (key, values, *(len(i) if isinstance(i, list) else type(i) for i in ids))
    statement = _statements.get(shape)
    if statement is None:
        statement = _statements[shape] = _compile(build, ids, values)
    arguments = [i if isinstance(i, list) else [i] for i in ids]
    ops = connections[statement["alias"]].ops
    params = []
    for a, e, fixed in statement["places"]:
        if a is None:
            params.append(fixed)
        elif fixed is datetime:
            params.append(ops.adapt_datetimefield_value(arguments[a][e]))
        else:
            params.append(arguments[a][e])
    return statement, params


def _stand_in(value, n):
    """Return the stand-in number `n` for an argument like `value`."""
    if isinstance(value, int) and not isinstance(value, bool):
        return STAND_IN - n
    if isinstance(value, str):
        return f"\x1fstand-in {n}\x1f"
    if isinstance(value, datetime) and value.tzinfo is not None:
        return STAND_IN_TIME + timedelta(microseconds=n)
    raise TypeError(f"{value!r}: a statement takes ids, strings, aware datetimes or lists of ids")


def _compile(build, ids, values):
    stand_ins, n = [], 0
    for i in ids:
        if isinstance(i, list):
            stand_ins.append([_stand_in(0, n + k) for k in range(len(i))])
            n += len(i)
        else:
            stand_ins.append(_stand_in(i, n))
            n += 1
    queryset = build(*stand_ins)
    query = queryset.query
    if query.annotation_select or query.extra_select:
        raise ValueError(f"{queryset.model.__name__} query: only plain columns are compiled once")
    if values and not query.values_select:
        raise ValueError(f"{queryset.model.__name__} query: values() takes a values_list")
    if not values and (
        queryset._iterable_class is not ModelIterable
        or query.select_related
        or queryset._prefetch_related_lookups
    ):
        raise ValueError(
            f"{queryset.model.__name__} query: models() takes models, without select_related or prefetch"
        )
    compiler = query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    ops = compiler.connection.ops
    where = {}  # each stand-in as it appears among the parameters: (argument, element, type)
    for a, i in enumerate(stand_ins):
        for e, value in enumerate(i if isinstance(i, list) else [i]):
            if isinstance(value, datetime):
                where[ops.adapt_datetimefield_value(value)] = (a, e, datetime)
            else:
                where[value] = (a, e, None)
    places = [where[p] if _hashable(p) and p in where else (None, None, p) for p in params]
    if len({(a, e) for a, e, _ in places if a is not None}) != n:
        raise ValueError(f"{queryset.model.__name__} query: not every argument is a parameter")
    columns = [column for column, _, _ in compiler.select]
    return {
        "alias": queryset.db,
        "sql": sql,
        "places": places,
        "converters": list(compiler.get_converters(columns).items()) if values else None,
        "flat": queryset._iterable_class is FlatValuesListIterable,
        "model": queryset.model,
    }


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


# --- Writes ---------------------------------------------------------------------------------

_writes = {}  # (kind, model, field names, vendor) -> (sql, fields)


def save_fields(instance, names, using="default"):
    """Save the fields `names` of `instance`, as instance.save(update_fields=names) does."""
    connection = connections[using]
    sql, fields = _write_statement("update", type(instance), tuple(names), connection)
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    params.append(instance.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def save_many(instances, names, using="default"):
    """Save the fields `names` of each of `instances` (one model's), in one executemany.

    As bulk_update(instances, names) does, without building its CASE statement anew.
    """
    instances = list(instances)
    if not instances:
        return
    connection = connections[using]
    sql, fields = _write_statement("update", type(instances[0]), tuple(names), connection)
    rows = [
        [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
        + [instance.pk]
        for instance in instances
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def insert(instance, using="default"):
    """Insert `instance` (a new row, its key made by the database), as instance.save() does.

    Return it, with its key.
    """
    connection = connections[using]
    meta = instance._meta
    sql, fields = _write_statement("insert", type(instance), None, connection)
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if connection.features.can_return_columns_from_insert:
            instance.pk = cursor.fetchone()[0]
        else:
            instance.pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    instance._state.adding = False
    instance._state.db = using
    return instance


def _write_statement(kind, model, names, connection):
    returning = connection.features.can_return_columns_from_insert
    key = (kind, model, names, connection.vendor, returning)
    found = _writes.get(key)
    if found is not None:
        return found
    meta, q = model._meta, connection.ops.quote_name
    if kind == "update":
        fields = [meta.get_field(name) for name in names]
        assigned = ", ".join(f"{q(f.column)} = %s" for f in fields)
        sql = f"UPDATE {q(meta.db_table)} SET {assigned} WHERE {q(meta.pk.column)} = %s"
    else:
        fields = [f for f in meta.concrete_fields if f is not meta.pk]
        columns = ", ".join(q(f.column) for f in fields)
        sql = (
            f"INSERT INTO {q(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
        )
        if returning:  # else insert() asks the database for the last key
            sql += " " + connection.ops.returning_columns([meta.pk])[0]
    if any(getattr(f, "get_placeholder_sql", None) for f in fields):
        raise ValueError("A field with a placeholder of its own needs the ORM's statements.")
    _writes[key] = found = (sql, fields)
    return found
