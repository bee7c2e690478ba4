# Throwaway PostgreSQL and Redis servers on free loopback ports, for the tests and the
# benchmarks' production set-up. Source this file, then call `start_services`: it exports
# DATABASE_URL (database "fullset") and REDIS_URL (database 0), and stops both servers and
# removes their files when the calling shell exits (an EXIT trap, which keeps its status).
# Needs $PYTHON (the project's interpreter), PostgreSQL's binaries and redis-server.

_services_free_port() {
    "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

_services_as_postgres() {
    # initdb refuses to run as root.
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

_services_stop() {
    # The calling script's status stands: the trap's last command would otherwise decide it.
    local status=$?
    if [ -f "$_services_tmp/pg/postmaster.pid" ]; then
        _services_as_postgres "$_services_pg_bin/pg_ctl" -D "$_services_tmp/pg" -m immediate stop \
            >/dev/null 2>&1 || true
    fi
    if [ -f "$_services_tmp/redis.pid" ]; then
        local redis_pid
        redis_pid=$(cat "$_services_tmp/redis.pid")
        kill "$redis_pid" 2>/dev/null || true
        # Redis writes its log as it stops: wait, or rm races it ("Directory not empty").
        for _ in $(seq 50); do
            kill -0 "$redis_pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    rm -rf "$_services_tmp" || { sleep 1; rm -rf "$_services_tmp"; } \
        || echo "warning: could not remove $_services_tmp" >&2
    exit "$status"
}

start_services() {
    _services_pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    _services_tmp=$(mktemp -d /tmp/fullset-services.XXXXXX)
    trap _services_stop EXIT
    local pg_port redis_port
    pg_port=$(_services_free_port)
    redis_port=$(_services_free_port)
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$_services_tmp"
    fi
    _services_as_postgres "$_services_pg_bin/initdb" -D "$_services_tmp/pg" --auth=trust \
        --username=postgres --encoding=UTF8 --locale=C >"$_services_tmp/initdb.log" 2>&1 \
        || { cat "$_services_tmp/initdb.log" >&2; return 1; }
    # No durability: a crash loses nothing anyone keeps.
    _services_as_postgres "$_services_pg_bin/pg_ctl" -D "$_services_tmp/pg" -w \
        -l "$_services_tmp/pg.log" \
        -o "-h 127.0.0.1 -p $pg_port -k $_services_tmp -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null \
        || { cat "$_services_tmp/pg.log" >&2; return 1; }
    _services_as_postgres "$_services_pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres fullset
    redis-server --bind 127.0.0.1 --port "$redis_port" --daemonize yes \
        --pidfile "$_services_tmp/redis.pid" --dir "$_services_tmp" \
        --logfile "$_services_tmp/redis.log" --save '' --appendonly no
    for _ in $(seq 50); do
        redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
    export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/fullset"
    export REDIS_URL="redis://127.0.0.1:$redis_port/0"
}
