#!/usr/bin/env bash
# CLI test of Go-Bang for four in two partnerships (`gobang(players=4)`):
# `show` names the seat to move and reads the partnership position format,
# bad input exits 2 with one line, `play` and `match` seat one agent per
# partnership, and a tournament rates the partnerships (Elo table, `hoyle
# elo`, `hoyle report` on its HDF5 file).
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
G='gobang(players=4)'

out=$("$H" show "$G" --moves "d4;e5;c3") || fail "show with moves"
echo "$out" | grep -q "^B2 (O) to place" || fail "after three placings B2 is to place: $out"
echo "$out" | grep -q "in hand: x 5, o 5, X 5, O 6" || fail "hands by seat: $out"
echo "$out" | grep -q "position: ......../......../......../....o.../...x..../..X...../......../........ b2 10 11 0" ||
  fail "position after d4 e5 c3: $out"
pos="o.o.o.oX/...OXO../ox....oO/.....X.O/xXxX..../.....x.x/.O....../x.X.O... w2 0 0 2"
out=$("$H" show "$G" --position "$pos" --moves "f5 e4") || fail "show a win by W2"
echo "$out" | grep -q "White wins with five" || fail "W2's f5 e4 makes White's five: $out"

# bad input: exit 2, one line
for bad in "gobang(players=3)" "gobang(players=4,men=7)" "gobang(players=4,odds=true)"; do
  err=$("$H" show "$bad" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "'$bad': exit $rc, '$err'"
done
err=$("$H" show "$G" --position "$pos" --moves "f3 e4" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || fail "W2 moving W1's man should exit 2 (got $rc)"
echo "$err" | grep -q "W1's, not W2's" || fail "the message should name the owner: $err"
err=$("$H" show "$G" --position "${pos% w2 0 0 2} w1 0 0 2" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "W2's turn" || fail "a seat out of turn: exit $rc, '$err'"

out=$("$H" play "$G" --p1 "alphabeta(depth=1)" --p2 random --seed 3 2>&1) || fail "play"
echo "$out" | grep -q "^player 2 (random) at seat 4 plays " || fail "play names the seat: $(echo "$out" | head -30)"
echo "$out" | grep -q "^player 1 (alphabeta(depth=1)) at seat 3 plays " || fail "play names W2's seat"
echo "$out" | grep -qE "^result after [0-9]+ actions: player 1 [+-][01] player 2 [+-][01]" ||
  fail "play: no result line: $(echo "$out" | tail -2)"

json=$("$H" match "$G" "alphabeta(depth=2)" random --games 4 --json --record "$dir/m.h5" 2>/dev/null) ||
  fail "match"
echo "$json" | grep -q '"games":4' || fail "match games count: $json"
echo "$json" | grep -q '"wins":4' || fail "alphabeta(depth=2) should beat random 4-0 as a partnership: $json"
"$H" report "$dir/m.h5" >"$dir/m_report.txt" 2>&1 || fail "report on the match records: $(cat "$dir/m_report.txt")"

cat >"$dir/t.yaml" <<EOT
name: partners
games: ["$G"]
agents: [random, greedy, "alphabeta(depth=2)"]
schedule: round-robin
openings_per_pairing: 0
games_per_opening: 2
max_moves: 120
workers: 1
seed: 5
output: $dir/t.h5
anchor: random
EOT
"$H" tournament "$dir/t.yaml" --quiet >"$dir/t.txt" 2>"$dir/t.err" || fail "tournament: $(cat "$dir/t.err")"
grep -q "Rank Name" "$dir/t.txt" || fail "no Elo table: $(cat "$dir/t.txt")"
grep -q "alphabeta(depth=2" "$dir/t.txt" || fail "alphabeta is not rated: $(cat "$dir/t.txt")"
"$H" elo "$dir/t.h5" --json >"$dir/elo.json" || fail "hoyle elo"
grep -q '"records":' "$dir/elo.json" || fail "elo json: $(cat "$dir/elo.json")"
"$H" report "$dir/t.h5" >"$dir/report.txt" 2>/dev/null || fail "hoyle report"
grep -q "Cross table" "$dir/report.txt" || fail "report has no cross table"
echo "partners: ok"
