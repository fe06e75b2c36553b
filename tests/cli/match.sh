#!/usr/bin/env bash
# CLI test of `hoyle match`: usage errors, JSON output, seeded repeat.
set -u
H="$1"
. "$(dirname "$0")/lib.sh"

"$H" match --help >/dev/null || fail "--help"
"$H" match checkers random >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing B should exit 2"
"$H" match checkers random 'nope(x=1)' >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad agent should exit 2"
"$H" match checkers random random --games x >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --games should exit 2"

json=$("$H" match checkers 'mcts(sims=100)' random --games 4 --seed 7 --json 2>/dev/null) || fail "match"
echo "$json" | grep -q '"games":4' || fail "games count: $json"
echo "$json" | grep -q '"wins":' || fail "wins"
echo "$json" | grep -q '"score_low":' || fail "interval"
echo "$json" | grep -q '"elo":' || fail "elo"
if command -v python3 >/dev/null; then
  echo "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["wins"]+d["draws"]+d["losses"]==4' || fail "json parse"
fi
again=$("$H" match checkers 'mcts(sims=100)' random --games 4 --seed 7 --json 2>/dev/null)
[ "$(echo "$json" | sed 's/"seconds":[0-9.]*//')" = "$(echo "$again" | sed 's/"seconds":[0-9.]*//')" ] || fail "not repeatable"
"$H" match gobang greedy random --games 2 >/dev/null 2>&1 || fail "gobang table output"
# two agents whose moves do not depend on their seeds, no dice: 2 distinct games, not 6
det=$("$H" match gobang 'alphabeta(depth=1)' 'mcts(sims=20,eval=heuristic)' --games 6 --json 2>"${TMPDIR:-/tmp}/match_err.$$") ||
  fail "deterministic match"
echo "$det" | grep -q '"games":2' || fail "deterministic agents: 6 games counted: $det"
grep -q "2 distinct games" "${TMPDIR:-/tmp}/match_err.$$" || fail "no note on the distinct games"
rm -f "${TMPDIR:-/tmp}/match_err.$$"
seeded=$("$H" match gobang 'alphabeta(depth=1)' 'mcts(sims=20)' --games 4 --json 2>/dev/null) || fail "seeded match"
echo "$seeded" | grep -q '"games":4' || fail "a seeded agent's games cut: $seeded"
# the table names the agents as typed; --json gives the full specs (issue 36, item 3)
out=$("$H" match checkers 'mcts(sims=20)' random --games 2 2>/dev/null) || fail "typed names"
echo "$out" | grep -qx "  A: mcts(sims=20)" || fail "A not named as typed: $out"
echo "$json" | grep -q '"a":"mcts(sims=100,time_ms=0,' || fail "json without the full spec: $json"
echo "match: ok"
