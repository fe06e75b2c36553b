#!/usr/bin/env bash
# CLI test of `hoyle analyze`: usage errors, table and JSON output.
set -u
H="$1"
. "$(dirname "$0")/lib.sh"

"$H" analyze --help >/dev/null || fail "--help"
"$H" analyze >/dev/null 2>&1; [ $? -eq 2 ] || fail "no game should exit 2"
"$H" analyze checkers --agent human >/dev/null 2>&1; [ $? -eq 2 ] || fail "human should exit 2"
"$H" analyze checkers --position 'garbage' >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad position should exit 2"

out=$("$H" analyze checkers --agent 'mcts(sims=500)') || fail "mcts analyze"
echo "$out" | grep -q "best move:" || fail "best move"
echo "$out" | grep -q "visits" || fail "visits table"
json=$("$H" analyze checkers --agent 'alphabeta(depth=4)' --json) || fail "alphabeta analyze"
echo "$json" | grep -q '"depth":4' || fail "depth: $json"
echo "$json" | grep -q '"pv":\["' || fail "pv: $json"
if command -v python3 >/dev/null; then
  echo "$json" | python3 -c 'import json,sys; json.load(sys.stdin)' || fail "json parse"
  "$H" analyze gobang --agent 'mcts(sims=300)' --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["sims"]==300' || fail "gobang json"
fi
# A chance node (backgammon before the roll) is refused with a position to copy,
# and the hint's position is one analyze accepts.
err=$("$H" analyze backgammon 2>&1 >/dev/null); [ $? -eq 2 ] || fail "chance node should exit 2"
[ "$(echo "$err" | wc -l)" = 1 ] || fail "chance node: one line: $err"
hint=$(echo "$err" | sed -n "s/.*--position '\([^']*\)'.*/\1/p")
[ -n "$hint" ] || fail "chance node: no --position example: $err"
"$H" analyze backgammon --position "$hint" --agent expectimax >/dev/null || fail "hint position '$hint'"
# The best move is the whole move: a backgammon play of both dice, a checkers
# jump chain, not the first step of it.
best=$("$H" analyze backgammon --position '4HPwATDgc/ABMA:X:31:t1' --agent expectimax | sed -n 's/^best move: \(.*\)   value.*/\1/p')
[ "$best" = "8/5 6/5" ] || fail "backgammon 31: best move '$best', want the whole play '8/5 6/5'"
best=$("$H" analyze checkers --position 'B:W18,24,27,28,10:B12,16,20,K22,K25,K29' --agent 'alphabeta(depth=2)' | sed -n 's/^best move: \([^ ]*\) .*/\1/p')
case "$best" in *x*x*) ;; *) fail "checkers: best move '$best' should be the whole jump chain" ;; esac
# greedy(whole=true): every first step with the value of its best whole play, best first;
# the JSON's moves carry the same Q values and the best equals the value
out=$("$H" analyze backgammon --position '4HPwATDgc/ABMA:X:31:t1' --agent 'greedy(whole=true)') || fail "greedy analyze"
echo "$out" | grep -A1 '^move  *Q$' | tail -1 | grep -q '^8/5  *+0\.3196$' || fail "greedy: Q table: $out"
if command -v python3 >/dev/null; then
  "$H" analyze backgammon --position '4HPwATDgc/ABMA:X:31:t1' --agent 'greedy(whole=true)' --json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); q=[m["q"] for m in d["moves"]]; assert len(q)==4 and max(q)==d["value"] and d["sims"]==336, d' ||
    fail "greedy json"
fi
# MCTS: the value beside the best move is that move's Q in the table (issue 36,
# item 9), not the root's mean over every move searched
if command -v python3 >/dev/null; then
  "$H" analyze gobang --agent 'mcts(sims=400)' --json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); q={m["move"]: m["q"] for m in d["moves"]}; assert abs(q[d["best"]] - d["value"]) < 1e-4, d' ||
    fail "mcts: value is not the best move's Q"
fi
# MCTS node cap (issue 35): a capped search says so once on stderr, in the table and in
# the JSON; one that fits says nothing; nodes= and memory_mb= together are refused
err=$dir/err
out=$("$H" analyze 'gobang(board=5,men=0)' --agent 'mcts(sims=3000,nodes=100)' 2>"$err") || fail "capped mcts"
[ "$(grep -c 'the tree reached its cap of 100 nodes' "$err")" -eq 1 ] || fail "cap line: $(cat "$err")"
echo "$out" | grep -q "node cap reached: 100 nodes" || fail "cap in the table: $out"
json=$("$H" analyze 'gobang(board=5,men=0)' --agent 'mcts(sims=3000,nodes=100)' --json 2>/dev/null)
echo "$json" | grep -q '"node_cap":100,"node_cap_reached":true' || fail "cap in json: $json"
"$H" analyze 'gobang(board=5,men=0)' --agent 'mcts(sims=300)' --json 2>"$err" | grep -q '"node_cap_reached":false' ||
  fail "an uncapped search reports a cap"
[ -s "$err" ] && fail "an uncapped search wrote to stderr: $(cat "$err")"
"$H" analyze checkers --agent 'mcts(nodes=100,memory_mb=1)' >/dev/null 2>"$err"; [ $? -eq 2 ] || fail "nodes+memory_mb should exit 2"
grep -q "set nodes or memory_mb, not both" "$err" || fail "nodes+memory_mb message: $(cat "$err")"
# memory_mb's bound is the tree's cap (2^30 nodes' worth, mcts/mcts.h): 49152 is one line, exit 2
"$H" analyze checkers --agent 'mcts(memory_mb=49152)' >/dev/null 2>"$err"; [ $? -eq 2 ] || fail "memory_mb=49152 should exit 2"
[ "$(wc -l <"$err")" -eq 1 ] && grep -q "memory_mb: 49152 is out of range \[0, 49151\]" "$err" ||
  fail "memory_mb=49152 message: $(cat "$err")"
rm -f "$err"
echo "analyze: ok"
