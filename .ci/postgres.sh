#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + pgvector + pg_trgm for the Postgres store tests.
#
#   .ci/postgres.sh install          install PostgreSQL 15 (Debian) and build pgvector (idempotent)
#   eval "$(.ci/postgres.sh up)"     install, start a cluster on 127.0.0.1:<free port>, print exports
#                                    (PANYA_TEST_PG, PANYA_PG_DATA)
#   .ci/postgres.sh down [DATADIR]   stop that cluster and delete it (default: $PANYA_PG_DATA)
#
# Everything but the exports goes to stderr, so `eval "$(… up)"` stays clean.
set -euo pipefail

PG_MAJOR=15
PG_BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
PG_SHARE="/usr/share/postgresql/$PG_MAJOR"

log() { printf '[postgres] %s\n' "$*" >&2; }

as_root() {
  if [[ $EUID -eq 0 ]]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    log "need root for: $*"; return 1
  fi
}

# Run a server command as the `postgres` user when we are root (initdb refuses root).
as_pg() {
  if [[ $EUID -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

apt_updated=0
apt_install() {
  if [[ $apt_updated -eq 0 ]]; then as_root apt-get update -qq >&2; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@" >&2
}

install_postgres() {
  if [[ ! -x "$PG_BIN/postgres" || ! -f "$PG_SHARE/extension/pg_trgm.control" ]]; then
    log "installing PostgreSQL $PG_MAJOR"
    apt_install "postgresql-$PG_MAJOR" postgresql-contrib
  fi
  if [[ -f "$PG_SHARE/extension/vector.control" ]]; then return 0; fi

  # pgvector is not packaged for bookworm; Debian trixie's source package builds against 15 as is.
  log "building pgvector from Debian's source package"
  apt_install "postgresql-server-dev-$PG_MAJOR" make gcc libc6-dev ca-certificates
  local src_list=/etc/apt/sources.list.d/panya-trixie-src.sources
  if [[ ! -f $src_list ]]; then
    as_root tee "$src_list" >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt_updated=0
  fi
  if [[ $apt_updated -eq 0 ]]; then as_root apt-get update -qq >&2; apt_updated=1; fi
  local work
  work="$(mktemp -d)"
  chmod 755 "$work" # apt fetches sources as its unprivileged _apt user
  (
    cd "$work"
    apt-get source --download-only -qq pgvector >&2
    tar -xf pgvector_*.orig.tar.*
    cd "$(find . -mindepth 1 -maxdepth 1 -type d | head -n1)"
    # No JIT bitcode: saves a clang dependency, the extension works the same.
    make -s with_llvm=no PG_CONFIG="$PG_BIN/pg_config" >&2
    as_root make -s with_llvm=no PG_CONFIG="$PG_BIN/pg_config" install >&2
  )
  rm -rf "$work"
  log "pgvector $(sed -n "s/^default_version = '\(.*\)'/\1/p" "$PG_SHARE/extension/vector.control") installed"
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

up() {
  install_postgres
  local data
  data="$(mktemp -d -t panya-pg.XXXXXX)"
  # Half-started clusters are removed rather than left running.
  if ! start_cluster "$data"; then
    down "$data"
    return 1
  fi
}

# Runs inside `if`, where errexit is off: every step checks its own status.
start_cluster() {
  local data="$1" port password db=panya_test
  password="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  printf '%s\n' "$password" >"$data/.pwfile"
  if [[ $EUID -eq 0 ]]; then chown -R postgres:postgres "$data"; fi
  chmod 700 "$data"
  as_pg "$PG_BIN/initdb" -D "$data/db" -U postgres --pwfile="$data/.pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null || return 1
  rm -f "$data/.pwfile"
  # The port can be taken between probing and binding; retry a few times.
  local attempt
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    if as_pg "$PG_BIN/pg_ctl" -D "$data/db" -l "$data/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories='$data' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null; then
      break
    fi
    if [[ $attempt -eq 5 ]]; then
      cat "$data/server.log" >&2
      return 1
    fi
  done
  as_pg "$PG_BIN/psql" -h "$data" -p "$port" -U postgres -qAt -c "CREATE DATABASE $db" postgres >/dev/null || return 1
  # Extensions need a superuser; create them once so the tests run with any role.
  as_pg "$PG_BIN/psql" -h "$data" -p "$port" -U postgres -qAt \
    -c "CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm" "$db" >/dev/null || return 1
  log "PostgreSQL $PG_MAJOR on 127.0.0.1:$port, data in $data"
  printf 'export PANYA_TEST_PG=%q\n' "postgres://postgres:$password@127.0.0.1:$port/$db"
  printf 'export PANYA_PG_DATA=%q\n' "$data"
}

down() {
  local data="${1:-${PANYA_PG_DATA:-}}"
  if [[ -z $data || ! -d $data ]]; then return 0; fi
  if [[ -f "$data/db/postmaster.pid" ]]; then
    as_pg "$PG_BIN/pg_ctl" -D "$data/db" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$data"
  log "stopped and removed $data"
}

case "${1:-}" in
  install) install_postgres ;;
  up) up ;;
  down) down "${2:-}" ;;
  *) echo "usage: $0 install | up | down [DATADIR]" >&2; exit 2 ;;
esac
