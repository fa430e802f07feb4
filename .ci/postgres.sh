# Starts a throwaway PostgreSQL cluster on loopback for the tests (sourced by .ci/run):
# initdb into a temporary folder as the `postgres` user, pg_ctl start on a free port with
# listen_addresses=127.0.0.1, a database `ddkpi_test`, and DDKPI_TEST_POSTGRES_URL exported.
# `stop_postgres` stops it and removes the folder.

start_postgres() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$bin" ] || ! id postgres >/dev/null 2>&1; then
        echo "postgres: no server installed; the PostgreSQL tests will say they were skipped"
        return 0
    fi
    PG_DIR=$(mktemp -d /tmp/ddkpi-pg.XXXXXX)
    chown postgres "$PG_DIR"
    PG_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
    local as_postgres="runuser -u postgres --"
    $as_postgres "$bin/initdb" -D "$PG_DIR/data" -U postgres -A trust --no-sync >/dev/null
    $as_postgres "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off" start >/dev/null
    $as_postgres "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres ddkpi_test
    export DDKPI_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$PG_PORT/ddkpi_test"
    PG_BIN=$bin
    echo "postgres: started on 127.0.0.1:$PG_PORT"
}

stop_postgres() {
    if [ -n "${PG_DIR:-}" ]; then
        runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
        rm -rf "$PG_DIR"
    fi
}
