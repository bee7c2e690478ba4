"""Queries of a move written once per process, then run again with other values.

A move reads its game's row and its seats with their users, and writes the
move, the game and a seat or two. Through the ORM, building and compiling
those statements cost several times what running them does (0.5 ms of CPU
for the game's row against 0.1; the seats and users of a table of four, 1.3
ms). A `Compiled` query is the ORM's own SQL, converters and instances, with
the building and compiling done once per database vendor; `save_fields` and
`insert` write a row as the ORM's save does, each statement written once.
The site has no save signals: these send none.
"""

import threading

from django.db import connections

# The values a query is built with once; its SQL takes any others in their places.
PLACEHOLDERS = (-7_654_321, -7_654_322, -7_654_323)


class Compiled:
    """A query built by `build(*values)`, compiled once per vendor, giving model instances.

    The query's parameters must be its values (in any order), nothing else: a
    condition on a constant is written in the query itself. Related models chosen
    with select_related come cached on each instance, as the ORM does.
    """

    def __init__(self, build):
        self.build = build
        self._compiled = {}  # vendor -> (sql, where each value goes, converters, maker)
        self._lock = threading.Lock()

    def __call__(self, *values, using="default"):
        connection = connections[using]
        compiled = self._compiled.get(connection.vendor)
        if compiled is None:
            compiled = self._compile(len(values), using, connection)
        sql, order, converters, make = compiled
        with connection.cursor() as cursor:
            cursor.execute(sql, [values[i] for i in order])
            rows = cursor.fetchall()
        found = []
        for row in rows:
            row = list(row)
            for position, (functions, expression) in converters:
                value = row[position]
                for function in functions:
                    value = function(value, expression, connection)
                row[position] = value
            found.append(make(using, row))
        return found

    def get(self, *values, using="default"):
        """Return the one instance found, or raise its model's DoesNotExist."""
        found = self(*values, using=using)
        if not found:
            raise self.build(*values).model.DoesNotExist("No such row.")
        return found[0]

    def first(self, *values, using="default"):
        """Return the first instance found, or None."""
        found = self(*values, using=using)
        return found[0] if found else None

    def _compile(self, count, using, connection):
        placeholders = [str(p) for p in PLACEHOLDERS[:count]]
        compiler = self.build(*PLACEHOLDERS[:count]).query.get_compiler(using)
        sql, params = compiler.as_sql()
        order = [placeholders.index(str(p)) if str(p) in placeholders else -1 for p in params]
        if sorted(order) != list(range(count)):
            raise ValueError(
                f"A compiled query takes its values as its parameters, not {params!r}."
            )
        columns = [column for column, _sql, _alias in compiler.select]
        converters = list(compiler.get_converters(columns).items())
        compiled = (sql, order, converters, _maker(compiler.klass_info, columns))
        with self._lock:
            self._compiled[connection.vendor] = compiled
        return compiled


def _maker(klass_info, columns):
    """Return make(using, row): the instance of `klass_info`'s model and its related ones."""
    model = klass_info["model"]
    positions = klass_info["select_fields"]
    names = [columns[i].target.attname for i in positions]
    key = positions[names.index(model._meta.pk.attname)]
    related = [
        (info["local_setter"], _maker(info, columns))
        for info in klass_info.get("related_klass_infos", ())
    ]

    def make(using, row):
        if row[key] is None:
            return None  # a nullable relation's missing row, as the ORM gives it
        instance = model.from_db(using, names, [row[i] for i in positions])
        for setter, make_related in related:
            setter(instance, make_related(using, row))
        return instance

    return make


def _locked_game(pk):
    from games.models import Game  # games.models uses this module

    return Game.objects.select_for_update().filter(pk=pk)


def _seats_with_users(game_id):
    from games.models import Seat

    return Seat.objects.filter(game_id=game_id).select_related("user")


def _seat_at(code, user_id):
    from games.models import Seat

    seats = Seat.objects.select_related("game").defer("game__snapshot", "game__summary")
    return seats.filter(game__code=code, user_id=user_id)[:1]


# A move's reads: its player's seat at the table (with the game, its large columns left);
# its game's row, locked (inside the move's transaction), and its seats.
seat_at = Compiled(_seat_at)
locked_game = Compiled(_locked_game)
seats_with_users = Compiled(_seats_with_users)


def table_seats(game):
    """Return `game`'s seats in order, each with its user and `game` cached, as game.seats gives."""
    seats = seats_with_users(game.pk)
    for seat in seats:
        type(seat).game.field.set_cached_value(seat, game)
    return seats


_writes = {}  # (kind, model, field names, vendor) -> (sql, fields)


def save_fields(instance, names, using="default"):
    """Save the fields `names` of `instance`, as instance.save(update_fields=names) does."""
    connection = connections[using]
    sql, fields = _statement("update", type(instance), tuple(names), connection)
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    params.append(instance.pk)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def insert(instance, using="default", **values):
    """Insert `instance` (a new row, its key made by the database), as instance.save() does.

    `values` are set on it first. Return it.
    """
    for name, value in values.items():
        setattr(instance, name, value)
    connection = connections[using]
    sql, fields = _statement("insert", type(instance), None, connection)
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False
    instance._state.db = using
    return instance


def _statement(kind, model, names, connection):
    key = (kind, model, names, connection.vendor)
    found = _writes.get(key)
    if found is not None:
        return found
    meta, q = model._meta, connection.ops.quote_name
    if kind == "update":
        fields = [meta.get_field(name) for name in names]
        assigned = ", ".join(f"{q(f.column)} = %s" for f in fields)
        sql = f"UPDATE {q(meta.db_table)} SET {assigned} WHERE {q(meta.pk.column)} = %s"
    else:
        if not connection.features.can_return_columns_from_insert:
            raise NotImplementedError(f"{connection.vendor} cannot return an inserted key.")
        fields = [f for f in meta.concrete_fields if f is not meta.pk]
        columns = ", ".join(q(f.column) for f in fields)
        returning, _params = connection.ops.returning_columns([meta.pk])
        sql = (
            f"INSERT INTO {q(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
        )
        sql += f" {returning}"
    if any(getattr(f, "get_placeholder_sql", None) for f in fields):
        raise ValueError("A field with a placeholder of its own needs the ORM's statements.")
    _writes[key] = found = (sql, fields)
    return found
