#!/usr/bin/env bash
# CLI checks of `hoyle solve GAME --prover dfpn|pns` (solve/dfpn.h): a
# checkers ending proven won with its winning move, a Go-Bang draw, JSON,
# the budget's "unknown", and one-line errors with exit 2 for a bad prover,
# a game with chance and a bad position. usage: solve_prover.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"


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
has err "is not one of dfpn, pns" "bad prover"
expect 2 "chance" -- "$hoyle" solve backgammon --prover dfpn
has err "two players and no chance" "chance"
expect 2 "bad position" -- "$hoyle" solve checkers --prover dfpn --position "W:Wx:B1"

echo "solve_prover: $pass passed, $fails failed"
[ "$fails" = 0 ]
