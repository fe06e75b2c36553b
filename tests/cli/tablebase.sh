#!/usr/bin/env bash
# CLI checks of `hoyle tablebase`, `hoyle solve GAME --tables`, the oracle
# agent and `hoyle accuracy`: exit codes, one-line errors, a small chess
# and checkers build, --info (a long game spec printed whole), --graph (the
# same table as un-moves), values and best moves, a replayed line, the
# oracle's refusal outside its material, accuracy's three outputs, --all
# (every 3-man class, K+P v K among them), K+P v K's distance-to-conversion
# table (--metric dtc: its figures, a value and line to the promotion, a
# missing .dtc named, a DTC file refused as DTM), Devil among the Tailors solved
# with --line (the line replayed: every move best), and a
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
expect 2 "all: 6 men" -- "$hoyle" tablebase chess --all 6 --out "$tb"
has err "3 to 5" "all: 6 men"
expect 2 "all and a class" -- "$hoyle" tablebase chess KQvK --all 3 --out "$tb"
expect 2 "all: checkers" -- "$hoyle" tablebase checkers --all 3 --out "$tb"
has err "not supported" "all: checkers"
expect 2 "no index" -- "$hoyle" tablebase gobang x --out "$tb"
[ ! -e "$tb" ] || { echo "FAIL: bad input made $tb"; fails=$((fails+1)); }
expect 0 "KQvK" -- "$hoyle" tablebase chess KQvK --out "$tb" --quiet
has out "KQvK .* 19 *10" "KQvK longest win"
expect 0 "info json" -- "$hoyle" tablebase --info "$tb" --json
has out '"class":"KQvK".*"longest_win_plies":19' "info json"
expect 0 "long game spec" -- "$hoyle" tablebase "chess(insufficient=play)" KQvK --out "$dir/play" --quiet
has out "^KQvK  *chess(insufficient=play[^ ]*) " "info: the whole game spec, not its first 8 characters"
expect 0 "graph" -- "$hoyle" tablebase chess KQvK --out "$dir/graph" --graph --quiet
check "--graph: the same table as un-moves" "cmp -s '$tb/KQvK.tb' '$dir/graph/KQvK.tb'"
expect 2 "info missing" -- "$hoyle" tablebase --info "$dir/none"
expect 0 "all 3 men" -- "$hoyle" tablebase chess --all 3 --out "$dir/all" --quiet
has out "KPvK .* 55 *28" "all: K+P v K, mate in 28"
has out "KRvK .* 31 *16" "all: K+R v K"

# distance to conversion: K+P v K's promotions convert (its DTM table and those it reads are there)
expect 2 "bad metric" -- "$hoyle" tablebase chess KPvK --metric dtz --out "$dir/all"
has err "want dtm .* or dtc" "bad metric"
expect 0 "dtc" -- "$hoyle" tablebase chess KPvK --metric dtc --out "$dir/all" --quiet
has out "^KPvK .* 37 *19  dtc$" "dtc: K+P v K, 19 moves to conversion"
has out "^KPvK .* 55 *28  dtm$" "dtc: the DTM table beside it"
expect 0 "dtc info json" -- "$hoyle" tablebase --info "$dir/all" --json
has out '"class":"KPvK","game":"[^"]*","metric":"dtc"' "dtc info json"
expect 0 "dtc solve" -- "$hoyle" solve chess --tables "$dir/all" --metric dtc --position "8/8/8/8/8/k7/4P3/4K3 w - - 0 1" --line
has out "win in 25 plies to conversion" "dtc solve value"
has out "best: e1d2 e1f2$" "dtc solve best moves"
has out "^line: e1d2;.*;e7e8q$" "dtc line: stops at the promotion"
expect 2 "dtc solve without a dtc table" -- "$hoyle" solve chess --tables "$dir/all" --metric dtc --position "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
has err "KQvK.dtc" "dtc solve without a dtc table"
cp "$dir/all/KPvK.dtc" "$dir/all/KPvK.tb"
expect 2 "dtc file as dtm" -- "$hoyle" solve chess --tables "$dir/all" --position "8/8/8/8/8/k7/4P3/4K3 w - - 0 1"
has err "KPvK.tb: holds the distance to conversion (DTC), not the distance to the end (DTM)" "dtc file as dtm"

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

# tb= in search: a bad folder is a one-line usage error; with the tables a won K+Q v K is won
expect 2 "alphabeta bad tb" -- "$hoyle" play chess --p1 "alphabeta(tb=$dir/none)" --p2 random
has err "tb=$dir/none" "alphabeta bad tb"
expect 2 "mcts bad tb" -- "$hoyle" play chess --p1 "mcts(tb=$dir/none)" --p2 random
expect 2 "tb folder of another game" -- "$hoyle" play checkers --p1 "alphabeta(tb=$tb)" --p2 random
expect 0 "accuracy with tb" -- "$hoyle" accuracy chess --agent "alphabeta(depth=1,tb=$tb)" \
  --agent "mcts(sims=16,tb=$tb)" --tables "$tb" --positions 30 --csv
has out "^\"alphabeta(depth=1,tb=.*)\",30,1.0000,.*,1.0000,0.0000," "alphabeta tb: every value kept, every move best"
has out "^\"mcts(sims=16,tb=.*)\",30,1.0000,.*,0.0000,0.0000,0.1135" "mcts tb keeps every value"

# with the tables MCTS ends a won K+Q v K (its proven wins ranked by the tables' distance)
expect 0 "mcts tb mates" -- "$hoyle" play chess --position "8/8/8/4k3/8/8/8/4K2Q w - - 0 1" \
  --p1 "mcts(sims=50,tb=$tb)" --p2 random --quiet
has out "player 1 +1" "mcts tb mates"

# Devil among the Tailors: its own classes (the colours kept); solved from the start, with a line
expect 2 "devil bad class" -- "$hoyle" tablebase "checkers(variant=devil)" KKvM --out "$dir/devil"
has err "want the devil" "devil bad class"
expect 0 "devil" -- "$hoyle" tablebase "checkers(variant=devil)" MMMMvK --out "$dir/devil" --quiet
has out "^KvMMMM .* 43 *22" "devil class"
expect 0 "devil solved" -- "$hoyle" solve "checkers(variant=devil)" --tables "$dir/devil" --line
has out "loss in 44 plies for the side to move" "devil: the tailors win"
has out "^line: 1-5;29-25;5-1;.*;8-12;11-8$" "devil: a perfect line to the end"
line=$(sed -n 's/^line: //p' "$dir/out")
expect 0 "devil line replayed" -- "$hoyle" solve "checkers(variant=devil)" --tables "$dir/devil" --moves "$line"
has out "44 moves, 0 losing value" "devil line: every move keeps the value"
check "devil line: every move best" '! grep -q " keeps$" "$dir/out"'

# Fox and Geese: classes by the number of geese
expect 2 "foxgeese six geese" -- "$hoyle" tablebase foxgeese G6 --out "$dir/fg"
has err "fox_wins_at" "foxgeese six geese"
expect 0 "foxgeese" -- "$hoyle" tablebase "foxgeese(fox_wins_at=0)" 2 --out "$dir/fg" --quiet
has out "^G1 .*25 *13" "foxgeese G1 longest win"
has out "^G2 " "foxgeese G2"

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
