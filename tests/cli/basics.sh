#!/usr/bin/env bash
# CLI checks of the foundation subcommands: help, exit codes, one-line
# errors, JSON output. usage: basics.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"

expect 0 "top-level help" -- "$hoyle" --help
expect 2 "no command" -- "$hoyle"
expect 2 "unknown command" -- "$hoyle" frobnicate
for cmd in games show perft random bench play match analyze; do
  expect 0 "$cmd --help" -- "$hoyle" "$cmd" --help
done
expect 0 "games" -- "$hoyle" games
expect 0 "games --json" -- "$hoyle" games --json
echo "$(cat "$dir/out")" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert any(g["name"]=="checkers" for g in d["games"])' \
  || { echo "FAIL: games --json is not the expected JSON"; fails=$((fails+1)); }

expect 2 "unknown game" -- "$hoyle" show nosuchgame
case "$(cat "$dir/err")" in *"unknown game 'nosuchgame'"*) ;; *) miss "message: $(cat "$dir/err")";; esac
expect 2 "unknown parameter" -- "$hoyle" show "gobang(size=3)"
case "$(cat "$dir/err")" in *size*) ;; *) miss "message lacks the key: $(cat "$dir/err")";; esac
expect 2 "out-of-range parameter" -- "$hoyle" show "gobang(board=99)"
expect 2 "malformed spec" -- "$hoyle" show "gobang(board=8"
expect 2 "bad position" -- "$hoyle" show checkers --position "W:W99:B1"
expect 2 "illegal move" -- "$hoyle" show checkers --moves "11-17"
expect 0 "show with moves" -- "$hoyle" show checkers --moves "11-15;22-18"
expect 0 "show gobang" -- "$hoyle" show gobang

expect 2 "perft without depth" -- "$hoyle" perft checkers
expect 2 "perft bad depth" -- "$hoyle" perft checkers -3
expect 2 "perft bad depth text" -- "$hoyle" perft checkers 3x
expect 2 "perft unknown option" -- "$hoyle" perft checkers 3 --fast
expect 0 "perft json" -- "$hoyle" perft checkers 4 --json
echo "$(cat "$dir/out")" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["nodes"]==1469, d' \
  || { echo "FAIL: perft checkers 4 != 1469"; fails=$((fails+1)); }
expect 0 "perft divide" -- "$hoyle" perft checkers 3 --divide
[ "$(echo "$(cat "$dir/out")" | grep -c ': ')" = 7 ] || { echo "FAIL: divide should list 7 moves"; fails=$((fails+1)); }
echo "$(cat "$dir/out")" | grep -q "perft(3) = 302" || { echo "FAIL: divide total"; fails=$((fails+1)); }
expect 0 "perft generic" -- "$hoyle" perft checkers 5 --generic --json
echo "$(cat "$dir/out")" | grep -q '"nodes":7361' || { echo "FAIL: generic perft 5"; fails=$((fails+1)); }

expect 2 "random no game" -- "$hoyle" random
expect 2 "random bad count" -- "$hoyle" random checkers --games abc
expect 2 "random zero games" -- "$hoyle" random checkers --games 0
expect 0 "random json" -- "$hoyle" random checkers --games 200 --seed 3 --json
a=$(cat "$dir/out")
expect 0 "random again" -- "$hoyle" random checkers --games 200 --seed 3 --json
b=$(cat "$dir/out")
strip() { python3 -c 'import json,sys; d=json.load(sys.stdin); [d.pop(k) for k in ("seconds","games_per_second")]; print(json.dumps(d,sort_keys=True))'; }
[ "$(echo "$a" | strip)" = "$(echo "$b" | strip)" ] || { echo "FAIL: same seed, different random results"; fails=$((fails+1)); }

expect 2 "bench bad arg" -- "$hoyle" bench --fast
expect 0 "bench json (one game)" -- "$hoyle" bench --games "gobang(board=5,men=0)" --json
echo "$(cat "$dir/out")" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["nodes"]>0 and len(d["items"])==1' \
  || { echo "FAIL: bench json"; fails=$((fails+1)); }

echo "$(cat "$dir/out")" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["items"][0]["mcts_bytes_per_sim"]>0' \
  || { echo "FAIL: bench json bytes per sim"; fails=$((fails+1)); }
# bench --mcts: thread counts side by side (issue 34), bytes per simulation (issue 35)
expect 2 "bench --mcts bad threads" -- "$hoyle" bench --mcts 100 --threads 1,x
expect 2 "bench --mcts with --solvers" -- "$hoyle" bench --mcts 100 --solvers
expect 0 "bench --mcts json" -- "$hoyle" bench --mcts 300 --games "gobang(board=5,men=0)" --threads 1,2 --json
echo "$(cat "$dir/out")" | python3 -c 'import json,sys; d=json.load(sys.stdin); r=d["mcts"]; assert [x["threads"] for x in r]==[1,2] and all(x["bytes_per_sim"]>0 for x in r) and r[0]["speedup"]==1' \
  || { echo "FAIL: bench --mcts json"; fails=$((fails+1)); }
# bench --mcts --parallel: root parallelism's rows after tree mode's (issue 34)
expect 2 "bench --mcts bad parallel" -- "$hoyle" bench --mcts 100 --parallel leaf
expect 0 "bench --mcts parallel json" -- "$hoyle" bench --mcts 300 --games "gobang(board=5,men=0)" --threads 2 --parallel tree,root --json
echo "$(cat "$dir/out")" | python3 -c 'import json,sys; r=json.load(sys.stdin)["mcts"]; assert [(x["parallel"],x["threads"]) for x in r]==[("tree",2),("root",2)] and r[1]["speedup"]>0' \
  || { echo "FAIL: bench --mcts parallel json"; fails=$((fails+1)); }

finish
