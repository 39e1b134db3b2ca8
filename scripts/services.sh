#!/usr/bin/env bash
# Start (installing from Debian's packages if needed) the PostgreSQL and Redis that the
# server's tests use: on free loopback ports, with their data in a new folder of their own,
# so two checkouts can test at once.
#
#   env=$(scripts/services.sh start)     # prints the environment the tests read
#   env $env scripts/services.sh stop    # stops both and removes their folder
#
# The tests read KASTKOPP_TEST_POSTGRES and KASTKOPP_TEST_REDIS; `make test` sets them and
# stops the services when the tests end, however they end. KASTKOPP_PG_PORT,
# KASTKOPP_REDIS_PORT and KASTKOPP_SERVICES_DIR choose the ports and the folder instead.
set -euo pipefail

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

PG_PORT=${KASTKOPP_PG_PORT:-}
REDIS_PORT=${KASTKOPP_REDIS_PORT:-}
BASE=${KASTKOPP_SERVICES_DIR:-}
RUN_AS=()

pg_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/pg_ctl" ]; then echo "$dir"; return; fi
    done
}

install_missing() {
    local wanted=()
    [ -n "$(pg_bin)" ] || wanted+=(postgresql)
    command -v redis-server >/dev/null || wanted+=(redis-server)
    [ ${#wanted[@]} -eq 0 ] && return
    if [ "$(id -u)" -ne 0 ]; then
        echo "services.sh: please install ${wanted[*]} (apt-get install ${wanted[*]})" >&2
        exit 1
    fi
    echo "services.sh: installing ${wanted[*]}" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}" >&2
}

start_postgres() {
    local bin
    bin=$(pg_bin)
    mkdir -p "$BASE"
    if [ "$(id -u)" -eq 0 ]; then
        # PostgreSQL refuses to run as root: run it as the 'postgres' user.
        id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
        RUN_AS=(runuser -u postgres --)
        chmod 755 "$BASE"
    fi
    if [ ! -s "$PG_DATA/PG_VERSION" ]; then
        rm -rf "$PG_DATA"
        mkdir -p "$PG_DATA"
        [ ${#RUN_AS[@]} -eq 0 ] || chown postgres "$PG_DATA"
        "${RUN_AS[@]}" "$bin/initdb" -D "$PG_DATA" -U kastkopp --auth=trust -E UTF8 \
            >"$BASE/initdb.log" 2>&1
    fi
    if ! "${RUN_AS[@]}" "$bin/pg_ctl" -D "$PG_DATA" status >/dev/null 2>&1; then
        "${RUN_AS[@]}" "$bin/pg_ctl" -D "$PG_DATA" -l "$PG_DATA/postgres.log" -w -t 60 \
            -o "-p $PG_PORT -k $PG_DATA -c listen_addresses=127.0.0.1 -c fsync=off" \
            start >&2
    fi
    "${RUN_AS[@]}" "$bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U kastkopp -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname='kastkopp'" | grep -q 1 ||
        "${RUN_AS[@]}" "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U kastkopp kastkopp
}

start_redis() {
    if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
        redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
            --daemonize yes --logfile "$BASE/redis.log" >&2
        for _ in $(seq 50); do
            redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
            sleep 0.1
        done
    fi
}

where() {  # what 'stop' needs to find the services again
    echo "KASTKOPP_PG_PORT=$PG_PORT"
    echo "KASTKOPP_REDIS_PORT=$REDIS_PORT"
    echo "KASTKOPP_SERVICES_DIR=$BASE"
}

case "${1:-start}" in
    start)
        [ -n "$PG_PORT" ] || PG_PORT=$(free_port)
        [ -n "$REDIS_PORT" ] || REDIS_PORT=$(free_port)
        [ -n "$BASE" ] || BASE=$(mktemp -d "${TMPDIR:-/tmp}/kastkopp-services.XXXXXX")
        PG_DATA=$BASE/pg
        if [ "${CI:-}" = "true" ]; then
            install_missing
            start_postgres
            start_redis
        else
            # On a developer's machine a missing service only makes its tests skip.
            (install_missing) || echo "services.sh: PostgreSQL/Redis tests will skip" >&2
            (start_postgres) >&2 || { echo "services.sh: PostgreSQL did not start" >&2
                                      where; exit 0; }
            (start_redis) >&2 || { echo "services.sh: Redis did not start" >&2; where; exit 0; }
        fi
        echo "KASTKOPP_TEST_POSTGRES=postgresql+psycopg://kastkopp@127.0.0.1:$PG_PORT/kastkopp"
        echo "KASTKOPP_TEST_REDIS=redis://127.0.0.1:$REDIS_PORT/0"
        where
        ;;
    stop)
        if [ -z "$BASE" ] || [ -z "$PG_PORT" ] || [ -z "$REDIS_PORT" ]; then
            echo "services.sh stop: run it in the environment 'start' printed" >&2
            exit 2
        fi
        PG_DATA=$BASE/pg
        bin=$(pg_bin)
        [ "$(id -u)" -ne 0 ] || RUN_AS=(runuser -u postgres --)
        if [ -n "$bin" ] && [ -d "$PG_DATA" ]; then
            "${RUN_AS[@]}" "$bin/pg_ctl" -D "$PG_DATA" -m fast stop >&2 || true
        fi
        redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
        case "$BASE" in  # only a folder start made
            */kastkopp-services.*) rm -rf "$BASE" ;;
        esac
        ;;
    *)
        echo "usage: scripts/services.sh start|stop" >&2
        exit 2
        ;;
esac
