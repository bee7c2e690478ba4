#!/usr/bin/env bash
# Run the test suite twice, each run on every core (pytest-xdist: a test
# database and, with Redis, Redis databases per worker; conftest.py):
#   1. SQLite and the in-memory channel layer (the defaults): everything but
#      the tests marked `redis` (several server processes sharing PostgreSQL
#      and Redis), which cannot work there;
#   2. throwaway PostgreSQL and Redis servers on free loopback ports:
#      everything except the rules engine's own tests, which touch neither,
#      and the browser tests (marked `browser`), whose pages are the same on
#      either database, but those marked `every_database`, and the tests marked
#      `one_database` (what they check cannot depend on the database: the
#      source read as text, engine states drawn as pages); the `redis` tests
#      included. Without extra arguments,
#      this run fails if it finds no `redis` test at all.
# Each run ends with its 25 slowest tests. Extra arguments go to both pytest
# runs. Exits non-zero if either run fails.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=.venv/bin/python

free_port() {
    "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Tests are handed out one by one, a worker that runs dry taking from the other's share
# (worksteal): the slowest tests, split in parts, end side by side.
PARALLEL=(-n "${TEST_WORKERS:-auto}" --dist worksteal --durations=25)

echo "=== Run 1/2: SQLite + in-memory channel layer"
sqlite_status=0
env -u DATABASE_URL -u REDIS_URL -u REDIS_CACHE_URL "$PYTHON" -m pytest "${PARALLEL[@]}" \
    -m "not redis" "$@" || sqlite_status=$?

echo "=== Run 2/2: PostgreSQL + Redis"
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
tmp=$(mktemp -d /tmp/fullset-test.XXXXXX)
pg_data="$tmp/pg"
pg_port=$(free_port)
redis_port=$(free_port)

as_postgres() {
    # initdb refuses to run as root.
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

cleanup() {
    # The runs' status stands: the trap's last command would otherwise decide it.
    local status=$?
    if [ -f "$pg_data/postmaster.pid" ]; then
        as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -m immediate stop >/dev/null 2>&1 || true
    fi
    if [ -f "$tmp/redis.pid" ]; then
        local redis_pid
        redis_pid=$(cat "$tmp/redis.pid")
        kill "$redis_pid" 2>/dev/null || true
        # Redis writes its log as it stops: wait, or rm races it ("Directory not empty").
        for _ in $(seq 50); do
            kill -0 "$redis_pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    rm -rf "$tmp" || { sleep 1; rm -rf "$tmp"; } || echo "warning: could not remove $tmp" >&2
    exit "$status"
}
trap cleanup EXIT

if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$tmp"
fi
as_postgres "$pg_bin/initdb" -D "$pg_data" --auth=trust --username=postgres \
    --encoding=UTF8 --locale=C >"$tmp/initdb.log" 2>&1 \
    || { cat "$tmp/initdb.log" >&2; exit 1; }
as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -w -l "$tmp/pg.log" \
    -o "-h 127.0.0.1 -p $pg_port -k $tmp -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null \
    || { cat "$tmp/pg.log" >&2; exit 1; }

redis-server --bind 127.0.0.1 --port "$redis_port" --daemonize yes \
    --pidfile "$tmp/redis.pid" --dir "$tmp" --logfile "$tmp/redis.log" \
    --save '' --appendonly no
for _ in $(seq 50); do
    redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && break
    sleep 0.1
done

postgres_status=0
export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/fullset"
export REDIS_URL="redis://127.0.0.1:$redis_port/0"
if [ $# -eq 0 ]; then
    # A marker typo or a moved module must not quietly drop the cross-process tests.
    redis_tests=$("$PYTHON" -m pytest -q -p no:xdist --collect-only -m redis --ignore=games/rules/tests \
        | grep -c '::' || true)
    if [ "$redis_tests" -eq 0 ]; then
        echo "error: no test marked redis was collected" >&2
        postgres_status=1
    fi
fi
"$PYTHON" -m pytest "${PARALLEL[@]}" -m "(not browser or every_database) and not one_database" \
    --ignore=games/rules/tests "$@" \
    || postgres_status=$?

echo "=== SQLite run: exit $sqlite_status; PostgreSQL + Redis run: exit $postgres_status"
if [ "$sqlite_status" -ne 0 ] || [ "$postgres_status" -ne 0 ]; then
    exit 1
fi
