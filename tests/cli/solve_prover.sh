#!/usr/bin/env bash
# CLI checks of `hoyle solve GAME --prover dfpn|pns` (solve/dfpn.h): a
# checkers ending proven won with its winning move, a Go-Bang draw, JSON,
# the budget's "unknown", and one-line errors with exit 2 for a bad prover,
# a game with chance and a bad position. usage: solve_prover.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
fails=0
pass=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# expect CODE DESCRIPTION -- COMMAND...: exit CODE; on exit 2 a one-line error.
expect() {
  local code=$1 what=$2; shift 3
  local rc
  "$@" >"$dir/out" 2>"$dir/err"; rc=$?
  if [ "$rc" != "$code" ]; then
    echo "FAIL: $what: exit $rc, expected $code ($*)"; cat "$dir/err"; fails=$((fails+1)); return
  fi
  if [ "$code" = 2 ] && [ "$(wc -l <"$dir/err")" != 1 ]; then
    echo "FAIL: $what: expected a one-line error, got:"; cat "$dir/err"; fails=$((fails+1)); return
  fi
  pass=$((pass+1))
}
has() { grep -q -- "$2" "$dir/$1" || { echo "FAIL: $3: no '$2' in $1"; cat "$dir/$1"; fails=$((fails+1)); }; }

expect 0 "help" -- "$hoyle" solve checkers --prover dfpn --help
expect 0 "checkers win" -- "$hoyle" solve checkers --prover dfpn --position "W:WK1,18:B14,K32"
has out "win for the side to move" "checkers win"
has out "winning move: 18x9" "checkers win"
expect 0 "checkers json" -- "$hoyle" solve checkers --prover dfpn --position "B:WK1:BK10,K15" --json
has out '"value":"win"' "checkers json"
has out '"winning_move":"15-18"' "checkers json"
expect 0 "gobang draw" -- "$hoyle" solve "gobang(board=5,men=0)" --prover dfpn \
  --position "xooxx/oo.../x...x/...oo/..oxx w 6 5 0" --json
has out '"value":"draw"' "gobang draw"
expect 0 "budget" -- "$hoyle" solve "gobang(board=5,men=0)" --prover pns --nodes 10 --json
has out '"value":"unknown"' "budget"
expect 2 "bad prover" -- "$hoyle" solve checkers --prover foo
has err "dfpn or pns" "bad prover"
expect 2 "chance" -- "$hoyle" solve backgammon --prover dfpn
has err "two players and no chance" "chance"
expect 2 "bad position" -- "$hoyle" solve checkers --prover dfpn --position "W:Wx:B1"

echo "solve_prover: $pass passed, $fails failed"
[ "$fails" = 0 ]
