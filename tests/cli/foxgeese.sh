#!/usr/bin/env bash
# CLI test of Fox and Geese through `hoyle`: the seed's worked moves with
# `show`, perft, bad input (exit 2, one line), and whole games played by
# mcts and alphabeta on both sides (`play`, `match`).
set -u
H="$1"
. "$(dirname "$0")/lib.sh"

out=$("$H" show foxgeese --moves "11-18;17-16;6-11") || fail "show with the seed's moves"
echo "$out" | grep -q "position: ggg/gg./ggggggg/ggf.ggg/......./.../... f 0" ||
  fail "11-18, 17-16, 6-11: wrong position: $out"
out=$("$H" show foxgeese --moves "15-16") || fail "show 15-16"
echo "$out" | grep -q "^moves: 17x15$" || fail "after 15-16 the fox must take (17x15): $out"
"$H" perft foxgeese 5 | grep -q "perft(5) = 5008" || fail "perft(5)"

for bad in "ggg/ggg/ggggggg/gg.f.gg/......./.../... x 0" "ggg/ggg/ggggggg/gg...gg/......./.../... g 0" \
           "ggg/ggg/ggggggg/gg.f.gg/......./..." ; do
  err=$("$H" show foxgeese --position "$bad" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || fail "bad position '$bad' should exit 2 (got $rc)"
  [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "bad position '$bad': not one line: $err"
done
err=$("$H" show foxgeese --moves "18-11" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "a goose moving up: exit $rc, '$err'"

for pair in "mcts(sims=200) alphabeta(depth=3,quiescence=true)" \
            "alphabeta(depth=3,quiescence=true) mcts(sims=200,eval=heuristic)"; do
  set -- $pair
  out=$("$H" play foxgeese --p1 "$1" --p2 "$2" --quiet --seed 2 2>&1) || fail "play $pair"
  echo "$out" | grep -qE "^result after [0-9]+ actions: player 1 [+-][01] player 2 [+-][01]" ||
    fail "play $pair: no result line: $(echo "$out" | tail -2)"
done
json=$("$H" match foxgeese "alphabeta(depth=2)" "mcts(sims=100)" --games 2 --json 2>/dev/null) ||
  fail "match"
echo "$json" | grep -q '"games":2' || fail "match games count: $json"
echo "foxgeese: ok"
