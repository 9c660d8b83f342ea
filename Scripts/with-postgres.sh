#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL 15 server, or serves one until standard input closes.
#
#   Scripts/with-postgres.sh COMMAND [ARGUMENTS...]   start a server, run COMMAND with
#                                                     OBJECTGRAPH_POSTGRES_URL set, stop the server
#   Scripts/with-postgres.sh --serve                  start a server, print its URL on one line,
#                                                     stop it when standard input closes (the
#                                                     PostgreSQL tests use this when the variable
#                                                     is not set)
#
# The server's data folder and its Unix socket live in a new temporary folder (no TCP port is
# opened), owned by an unprivileged user when run as root (PostgreSQL refuses to run as root);
# the server is stopped and the folder removed on exit, even after a failure.
set -euo pipefail

bin=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
if [[ ! -x "$bin/initdb" ]]; then
    echo "with-postgres: no PostgreSQL 15 server in $bin (Debian: apt-get install postgresql-15)" >&2
    exit 2
fi

# /tmp, not $TMPDIR: the server user must reach the folder, and a socket path must stay short.
dir=$(mktemp -d /tmp/objectgraph-pg.XXXXXX)
chmod 755 "$dir"
as_user=()
if [[ $(id -u) -eq 0 ]]; then
    user=postgres
    id "$user" > /dev/null 2>&1 || user=nobody
    chown "$user" "$dir"
    as_user=(runuser -u "$user" --)
fi

stop() {
    "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM HUP

"${as_user[@]}" "$bin/initdb" -D "$dir/data" -A trust -U objectgraph --no-sync -E UTF8 --locale=C > "$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
# No TCP listener; fsync off: the data is thrown away.
"${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-k $dir -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start > /dev/null || { cat "$dir/server.log" >&2; exit 1; }
"${as_user[@]}" "$bin/createdb" -h "$dir" -U objectgraph objectgraph

url="postgresql:///objectgraph?host=$dir&user=objectgraph"
if [[ "${1:-}" == "--serve" ]]; then
    echo "$url"
    cat > /dev/null || true
    exit 0
fi
if [[ $# -eq 0 ]]; then
    echo "usage: Scripts/with-postgres.sh COMMAND [ARGUMENTS...] | --serve" >&2
    exit 2
fi
export OBJECTGRAPH_POSTGRES_URL="$url"
status=0
"$@" || status=$?
exit "$status"
