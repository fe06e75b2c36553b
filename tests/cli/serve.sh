#!/usr/bin/env bash
# `hoyle serve` as a program: --help, bad options (exit 2, one line), a folder that is not
# one, the warning for a --bind that is not loopback; then a server on a free port answers
# /api/version and the page, and SIGINT stops it with exit 0. The routes themselves are
# tests/test_serve.c's. usage: serve.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"
pid=
at_exit '[ -n "$pid" ] && kill "$pid" 2>/dev/null'

"$hoyle" serve --help >"$dir/help" 2>&1
check "serve --help" 'grep -q "^usage: hoyle serve" "$dir/help" && grep -q -- "--max-think-ms" "$dir/help"'
"$hoyle" serve --port 70000 >/dev/null 2>"$dir/err"; rc=$?
check "serve --port 70000 exits 2 with one line" '[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ]'
"$hoyle" serve --data "$dir/none" --port 0 >/dev/null 2>"$dir/err"; rc=$?
check "serve --data missing exits 2" '[ $rc = 2 ] && grep -q "is not a folder" "$dir/err"'

mkdir -p "$dir/web" "$dir/data"
echo '<!doctype html><title>served</title>' >"$dir/web/index.html"
# the port: 0 = any free one; the server prints the one it took
"$hoyle" serve --port 0 --data "$dir/data" --web "$dir/web" 2>"$dir/log" &
pid=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/log")
  [ -n "$port" ] && break
  sleep 0.1
done
check "serve prints its address" '[ -n "$port" ]'
get() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$1"; }
check "GET /api/version" 'get "http://127.0.0.1:$port/api/version" | grep -q "\"version\""'
check "GET / serves --web" 'get "http://127.0.0.1:$port/" | grep -q "<title>served</title>"'
kill -INT "$pid"
wait "$pid"; rc=$?
pid=
check "SIGINT stops the server with exit 0" '[ $rc = 0 ] && grep -q "stopping (SIGINT)" "$dir/log"'

# --bind to all interfaces warns on stderr (started, then stopped at once)
"$hoyle" serve --port 0 --bind 0.0.0.0 --data "$dir/data" --web "$dir/web" 2>"$dir/log" &
pid=$!
for _ in $(seq 1 100); do grep -q "http://" "$dir/log" && break; sleep 0.1; done
kill -TERM "$pid"; wait "$pid"; pid=
check "--bind 0.0.0.0 warns" 'grep -q "warning: --bind 0.0.0.0 is not loopback" "$dir/log"'

finish
