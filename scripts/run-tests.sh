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
. scripts/services.sh

# Python's default: compiled modules (and pytest's rewritten test modules) are cached in
# __pycache__ (ignored by git, removed by `make clean`). With PYTHONDONTWRITEBYTECODE set, as
# on some machines, every worker, server and command compiled every module it imported again:
# collecting the suite took 11.8 s instead of 4.6 s, in each of the five collections a run makes.
unset PYTHONDONTWRITEBYTECODE

# Tests are handed out one by one, a worker that runs dry taking from the other's share
# (worksteal): the slowest tests, split in parts, end side by side.
PARALLEL=(-n "${TEST_WORKERS:-auto}" --dist worksteal --durations=25)

echo "=== Run 1/2: SQLite + in-memory channel layer"
sqlite_status=0
env -u DATABASE_URL -u REDIS_URL -u REDIS_CACHE_URL "$PYTHON" -m pytest "${PARALLEL[@]}" \
    -m "not redis" "$@" || sqlite_status=$?

echo "=== Run 2/2: PostgreSQL + Redis"
start_services

postgres_status=0
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
