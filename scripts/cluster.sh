#!/usr/bin/env bash
# A site in miniature on this machine: PostgreSQL and Redis (scripts/services.sh), the
# migrations run once, two `kastkopp serve` processes and nginx in front of them
# (deploy/nginx/kastkopp.conf.in), all on free loopback ports, all in a new folder of
# their own. nginx is installed from Debian's packages when it is missing (as root; else
# the script says what to install) and runs unprivileged, never as the system's service.
#
#   env=$(scripts/cluster.sh start)      # prints the environment the others need
#   env $env scripts/cluster.sh kill 1   # kill -9 the first server process
#   env $env scripts/cluster.sh serve 1  # start it again (returns once it is ready)
#   env $env scripts/cluster.sh term 2   # SIGTERM: it drains and stops; waits for it
#   env $env scripts/cluster.sh stop     # stops everything and removes the folder
#
# Players reach the site at KASTKOPP_CLUSTER_URL. KASTKOPP_CLUSTER_SERVERS (default 2) is
# the number of server processes, KASTKOPP_PYTHON the interpreter that runs kastkopp
# (default: the checkout's .venv, else python3), KASTKOPP_GUEST_LIMIT the guests one
# address may make (e.g. 6000/minute for a load test: every test client is 127.0.0.1).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

nginx_bin() {
    command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true
}

install_nginx() {
    [ -n "$(nginx_bin)" ] && return
    if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
        echo "cluster.sh: please install nginx (apt-get install nginx-light)" >&2
        exit 1
    fi
    "$ROOT/scripts/install-nginx.sh" >&2
}

python_bin() {
    if [ -n "${KASTKOPP_PYTHON:-}" ]; then echo "$KASTKOPP_PYTHON"
    elif [ -x "$ROOT/.venv/bin/python" ]; then echo "$ROOT/.venv/bin/python"
    else echo python3; fi
}

load() {  # what start wrote down, for every other command
    if [ -z "${KASTKOPP_CLUSTER_DIR:-}" ] || [ ! -f "$KASTKOPP_CLUSTER_DIR/cluster.env" ]; then
        echo "cluster.sh: run it in the environment 'start' printed" >&2
        exit 2
    fi
    # shellcheck disable=SC1091
    . "$KASTKOPP_CLUSTER_DIR/cluster.env"
    IFS=, read -ra PORTS <<<"$SERVER_PORTS"
}

wait_ready() {  # until the URL answers 200, or the process has died, or 60 s
    "$PYTHON" - "$1" "$2" <<'PY'
import os, sys, time, urllib.request
url, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            if response.status == 200:
                sys.exit(0)
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit(f"cluster.sh: the process for {url} has died")
    time.sleep(0.1)
sys.exit(f"cluster.sh: {url} did not answer within 60 s")
PY
}

serve() {  # start server process N (1, 2, ...) and wait until it is ready
    local n=$1 port=${PORTS[$(($1 - 1))]} extra=()
    [ -z "${KASTKOPP_GUEST_LIMIT:-}" ] || extra+=(--guest-limit "$KASTKOPP_GUEST_LIMIT")
    setsid "$PYTHON" -m kastkopp serve --host 127.0.0.1 --port "$port" --db "$DB" \
        --redis "$REDIS" --no-warm-up "${extra[@]}" \
        >>"$BASE/server$n.log" 2>&1 </dev/null &
    echo $! >"$BASE/server$n.pid"
    wait_ready "http://127.0.0.1:$port/readyz" "$!"
}

signal_server() {  # signal server N and wait for it to end (10 s at most, then kill -9)
    local n=$1 sig=$2 pid
    pid=$(cat "$BASE/server$n.pid" 2>/dev/null) || return 0
    kill "-$sig" "$pid" 2>/dev/null || return 0
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

nginx_config() {  # the template with this cluster's folder, port and processes
    mkdir -p "$BASE/nginx/temp"
    cp "$ROOT/deploy/nginx/proxied.conf" "$BASE/nginx/proxied.conf"
    awk -v prefix="$BASE/nginx" -v listen="127.0.0.1:$PROXY_PORT" \
        -v ports="$(IFS=,; echo "${PORTS[*]}")" '
        { gsub("@PREFIX@", prefix); gsub("@LISTEN@", listen) }
        /^[ \t]*server @SERVER@/ {
            n = split(ports, port, ",")
            for (i = 1; i <= n; i++) { line = $0; sub("@SERVER@", "127.0.0.1:" port[i], line); print line }
            next
        }
        { print }' "$ROOT/deploy/nginx/kastkopp.conf.in" >"$BASE/nginx/nginx.conf"
}

stop_all() {
    local n
    for n in $(seq "${#PORTS[@]}"); do signal_server "$n" TERM; done
    if [ -f "$BASE/nginx/nginx.pid" ]; then
        kill -QUIT "$(cat "$BASE/nginx/nginx.pid")" 2>/dev/null || true
    fi
    if [ -f "$BASE/services.env" ]; then
        # shellcheck disable=SC2046
        env $(cat "$BASE/services.env") "$ROOT/scripts/services.sh" stop || true
    fi
    case "$BASE" in  # only a folder start made
        */kastkopp-cluster.*) rm -rf "$BASE" ;;
    esac
}

start() {
    install_nginx
    BASE=$(mktemp -d "${TMPDIR:-/tmp}/kastkopp-cluster.XXXXXX")
    chmod 755 "$BASE"
    PORTS=()
    for _ in $(seq "${KASTKOPP_CLUSTER_SERVERS:-2}"); do PORTS+=("$(free_port)"); done
    PROXY_PORT=$(free_port)
    trap stop_all EXIT  # a start that fails half-way leaves nothing behind
    # services of its own, whatever services the caller's environment names
    env -u KASTKOPP_PG_PORT -u KASTKOPP_REDIS_PORT KASTKOPP_SERVICES_DIR="$BASE/services" \
        "$ROOT/scripts/services.sh" start | grep -v '^KASTKOPP_TEST_' >"$BASE/services.env" \
        || true
    # shellcheck disable=SC2046
    export $(cat "$BASE/services.env")
    DB="postgresql+psycopg://kastkopp@127.0.0.1:$KASTKOPP_PG_PORT/kastkopp"
    REDIS="redis://127.0.0.1:$KASTKOPP_REDIS_PORT/0"
    cat >"$BASE/cluster.env" <<ENV
BASE=$BASE
PYTHON=$PYTHON
DB=$DB
REDIS=$REDIS
PROXY_PORT=$PROXY_PORT
SERVER_PORTS=$(IFS=,; echo "${PORTS[*]}")
ENV
    # the migrations once, before any server (each would only find them done)
    "$PYTHON" -m kastkopp.store upgrade --db "$DB" >"$BASE/migrate.log" 2>&1 ||
        { cat "$BASE/migrate.log" >&2; exit 1; }
    local n
    for n in $(seq "${#PORTS[@]}"); do serve "$n"; done
    nginx_config
    "$(nginx_bin)" -p "$BASE/nginx" -c "$BASE/nginx/nginx.conf" -e "$BASE/nginx/error.log"
    wait_ready "http://127.0.0.1:$PROXY_PORT/healthz" "$(cat "$BASE/nginx/nginx.pid")"
    trap - EXIT
    echo "KASTKOPP_CLUSTER_DIR=$BASE"
    echo "KASTKOPP_CLUSTER_URL=http://127.0.0.1:$PROXY_PORT"
    echo "KASTKOPP_CLUSTER_PORTS=$(IFS=,; echo "${PORTS[*]}")"
    echo "KASTKOPP_CLUSTER_DB=$DB"
    echo "KASTKOPP_CLUSTER_REDIS=$REDIS"
}

PYTHON=$(python_bin)
case "${1:-}" in
    start) start ;;
    stop) load; stop_all ;;
    serve) load; serve "$2" ;;
    kill) load; signal_server "$2" KILL ;;
    term) load; signal_server "$2" TERM ;;
    *)
        echo "usage: scripts/cluster.sh start|stop|serve N|kill N|term N" >&2
        exit 2
        ;;
esac
