#!/usr/bin/env bash
# CLI test of `hoyle analyze`: usage errors, table and JSON output.
set -u
H="$1"
fail() { echo "FAIL: $*"; exit 1; }

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
echo "analyze: ok"
