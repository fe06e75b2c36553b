#!/usr/bin/env bash
# `hoyle selfplay --output` keeps what is already on disk: an existing file (a
# tournament record, an earlier shard) is refused unless --force, and a bad
# output path (no such folder, a folder) is refused before any game is played,
# with exit 2 and one line; --force replaces a file; a new path is created.
# Usage: selfplay_output.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
. "$(dirname "$0")/lib.sh"
game="gobang(board=5,men=0)"
# a tournament record to protect
cat >"$dir/t.yaml" <<YAML
name: t
games: ["$game"]
agents: [random, greedy]
output: $dir/t.h5
YAML
"$hoyle" tournament "$dir/t.yaml" --quiet >/dev/null
[ -f "$dir/t.h5" ] || fail "no tournament record"
sum=$(cksum <"$dir/t.h5")
# expect_refused ARGS...: exit 2, one line on stderr, nothing on stdout (no game played)
expect_refused() {
  local rc=0
  "$hoyle" selfplay "$game" "games=2,sims=8" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
  [ "$rc" -eq 2 ] || fail "$* exited $rc, not 2"
  [ "$(wc -l <"$dir/err")" -eq 1 ] || fail "$*: not one line: $(cat "$dir/err")"
  [ ! -s "$dir/out" ] || fail "$*: played games before refusing"
}
expect_refused --output "$dir/t.h5"
grep -q "exists" "$dir/err" || fail "no 'exists' in: $(cat "$dir/err")"
[ "$(cksum <"$dir/t.h5")" = "$sum" ] || fail "the tournament record was changed"
"$hoyle" elo "$dir/t.h5" >/dev/null || fail "the tournament record no longer reads"
expect_refused --output "$dir/no/such/folder/s.h5"
grep -q "no folder" "$dir/err" || fail "no 'no folder' in: $(cat "$dir/err")"
expect_refused --output "$dir"
grep -q "folder" "$dir/err" || fail "no 'folder' in: $(cat "$dir/err")"
expect_refused --force
# a new file is created; writing it again needs --force, which replaces it
"$hoyle" selfplay "$game" "games=2,sims=8" --output "$dir/s.h5" >/dev/null 2>&1
[ -s "$dir/s.h5" ] || fail "no shard written"
expect_refused --output "$dir/s.h5"
"$hoyle" selfplay "$game" "games=2,sims=8" --output "$dir/t.h5" --force >/dev/null 2>&1
[ "$(cksum <"$dir/t.h5")" != "$sum" ] || fail "--force did not replace the file"
ls "$dir" | grep -q '\.tmp$' && fail "a temporary file was left"
echo "selfplay_output.sh: OK"
