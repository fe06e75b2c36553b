#!/usr/bin/env bash
# CLI checks of `hoyle tablebase`, `hoyle solve GAME --tables`, the oracle
# agent and `hoyle accuracy`: exit codes, one-line errors, a small chess
# and checkers build, --info, values and best moves, a replayed line, the
# oracle's refusal outside its material, accuracy's three outputs, and a
# build killed with SIGKILL then resumed to the identical file.
# usage: tablebase.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"


tb=$dir/tb
expect 0 "help" -- "$hoyle" tablebase --help
expect 2 "no out" -- "$hoyle" tablebase chess KQvK
expect 2 "bad class" -- "$hoyle" tablebase chess KQK --out "$tb"
has err "want KxvKy" "bad class"
expect 2 "pawns" -- "$hoyle" tablebase chess KPvK --out "$tb"
has err "pawns are not supported" "pawns"
expect 2 "no index" -- "$hoyle" tablebase gobang x --out "$tb"
[ ! -e "$tb" ] || { echo "FAIL: bad input made $tb"; fails=$((fails+1)); }
expect 0 "KQvK" -- "$hoyle" tablebase chess KQvK --out "$tb" --quiet
has out "KQvK .* 19 *10" "KQvK longest win"
expect 0 "info json" -- "$hoyle" tablebase --info "$tb" --json
has out '"class":"KQvK".*"longest_win_plies":19' "info json"
expect 2 "info missing" -- "$hoyle" tablebase --info "$dir/none"

expect 0 "solve" -- "$hoyle" solve chess --tables "$tb" --position "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
has out "win in 17 plies" "solve value"
has out "best: a1b2 b1b6 b1f1 b1g6" "solve best moves"
expect 0 "solve json" -- "$hoyle" solve chess --tables "$tb" --position "8/8/8/4k3/8/8/8/KQ6 w - - 0 1" --json
has out '"value":"win","plies":17' "solve json"
expect 2 "outside the tables" -- "$hoyle" solve chess --tables "$tb" --position "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
has err "KRvK.tb" "outside the tables"
expect 2 "start position" -- "$hoyle" solve chess --tables "$tb"
expect 0 "replay" -- "$hoyle" solve chess --tables "$tb" --position "8/8/8/4k3/8/8/8/KQ6 w - - 0 1" --moves "Qb6;Ke5-e4;Qa5"
has out "1  Qb6 .* best" "replay best"
expect 2 "replay illegal" -- "$hoyle" solve chess --tables "$tb" --position "8/8/8/4k3/8/8/8/KQ6 w - - 0 1" --moves "Qb6;Kh1"

expect 2 "oracle needs tb" -- "$hoyle" match chess oracle random --games 1
expect 0 "oracle forfeits outside" -- "$hoyle" match chess "oracle(tb=$tb)" random --games 1
has err "forfeit: oracle.*not indexed" "oracle refusal"

expect 0 "accuracy" -- "$hoyle" accuracy chess --agent "oracle(tb=$tb)" --agent random --tables "$tb" --positions 30
has out "oracle(tb=.*100.0% \[" "accuracy oracle"
expect 0 "accuracy json" -- "$hoyle" accuracy chess --agent "oracle(tb=$tb)" --tables "$tb" --positions 20 --json
has out '"kept":1.0000' "accuracy json"
expect 0 "accuracy csv" -- "$hoyle" accuracy chess --agent random --tables "$tb" --positions 20 --csv
has out "^agent,positions,kept" "accuracy csv"
expect 2 "accuracy no agent" -- "$hoyle" accuracy chess --tables "$tb"
expect 2 "accuracy missing class" -- "$hoyle" accuracy chess --agent random --tables "$tb" --class KRvK

expect 0 "checkers" -- "$hoyle" tablebase checkers KMvK --out "$dir/ck" --quiet
has out "KvK " "checkers sub-classes"
expect 0 "checkers solve" -- "$hoyle" solve checkers --tables "$dir/ck" --position "B:WK30:BK1,2"
has out "win in" "checkers solve"

# kill -9 during the ply levels, then resume: the same bytes as an uninterrupted build
"$hoyle" tablebase chess KBBvK --out "$dir/a" --checkpoint 0.001 >/dev/null 2>"$dir/kill.log" &
pid=$!
for _ in $(seq 1 600); do
  [ -e "$dir/a/KBBvK.tb.part" ] && break
  sleep 0.1
done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
if [ -e "$dir/a/KBBvK.tb" ]; then
  echo "note: the build finished before the kill"
else
  [ -e "$dir/a/KBBvK.tb.part" ] || { echo "FAIL: no resume file"; fails=$((fails+1)); }
fi
expect 0 "resume" -- "$hoyle" tablebase chess KBBvK --out "$dir/a"
has err "resuming after ply level" "resume note"
expect 0 "uninterrupted" -- "$hoyle" tablebase chess KBBvK --out "$dir/b" --threads 1 --quiet
cmp -s "$dir/a/KBBvK.tb" "$dir/b/KBBvK.tb" || { echo "FAIL: resumed table differs"; fails=$((fails+1)); }

finish
