#!/usr/bin/env bash
# CLI test of `--record OUT` (apps/cli_record.h) in match, play, sprt and selfplay: the
# format follows the extension (.h5: the tournaments' HDF5 game records; else
# PGN/PDN); `hoyle elo` rates a recorded match; the games read back from the
# .h5 file (hoyle report --pdn, through the record reader) have the same moves
# as the PDN the same match wrote; bad names are one-line usage errors.
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

A='mcts(sims=30)' B='alphabeta(depth=2)'
"$H" match checkers "$A" "$B" --games 4 --seed 5 --record "$dir/m.h5" >/dev/null 2>&1 || fail "match --record .h5"
"$H" match checkers "$A" "$B" --games 4 --seed 5 --record "$dir/m.pdn" >/dev/null 2>&1 || fail "match --record .pdn"
grep -q '^\[Event "hoyle match"\]' "$dir/m.pdn" || fail "PDN event tag"
[ "$(grep -c '^\[Event' "$dir/m.pdn")" -eq 4 ] || fail "PDN: not 4 games"
json=$("$H" elo "$dir/m.h5" --json) || fail "hoyle elo on a recorded match"
echo "$json" | grep -q '"games":4' || fail "elo: not 4 games: $json"
echo "$json" | grep -q '"name": "alphabeta(depth=2)"' || fail "elo: agent B not named as typed: $json"
echo "$json" | grep -q '"name": "mcts(sims=30)"' || fail "elo: agent A not named as typed"
"$H" report "$dir/m.h5" --pdn "$dir/back.pdn" >/dev/null 2>&1 || fail "report --pdn of the match"
diff <(grep -v '^\[' "$dir/m.pdn") <(grep -v '^\[' "$dir/back.pdn") >/dev/null ||
  fail "moves read back from m.h5 differ from the match's PDN"
# the same record from a tournament's reader: seat specs and results as stored
"$H" report "$dir/m.h5" --json | grep -q '"games":4' || fail "report --json"

# a record file is never replaced; an unwritable or nameless file is refused before play
"$H" match checkers random random --games 1 --record "$dir/m.h5" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || fail "existing .h5 should exit 2"
grep -q "m.h5: the file exists" "$dir/err" || fail "existing .h5 message: $(cat "$dir/err")"
[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "one-line error"
"$H" match checkers random random --games 1 --record "$dir/no/such.pdn" >/dev/null 2>&1
[ $? -eq 2 ] || fail "unwritable record should exit 2"
"$H" match gobang random random --games 1 --record "$dir/g.pgn" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || fail "a game without a text format should exit 2"
grep -q "use a .h5 name" "$dir/err" || fail "no hint to .h5: $(cat "$dir/err")"
"$H" match gobang greedy random --games 2 --record "$dir/g.h5" >/dev/null 2>&1 || fail "gobang .h5"
"$H" elo "$dir/g.h5" >/dev/null || fail "elo on gobang .h5"
# one spec in both seats is one agent playing itself: not rated, and the error says why
"$H" match gobang random random --games 2 --record "$dir/self.h5" >/dev/null 2>&1 || fail "self match .h5"
"$H" elo "$dir/self.h5" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || fail "elo of a self match should exit 2"
grep -q "2 games, none between two different agents" "$dir/err" || fail "self match message: $(cat "$dir/err")"

# play: a human game through stdin, resigned, stored as HDF5 and as PDN
printf '11-15\nresign\n' | "$H" play checkers --p2 random --record "$dir/p.h5" >/dev/null || fail "play --record .h5"
"$H" report "$dir/p.h5" --pdn "$dir/p_back.pdn" >/dev/null 2>&1 || fail "report of a played game"
grep -q "1. 11-15" "$dir/p_back.pdn" || fail "played move not stored: $(cat "$dir/p_back.pdn")"
grep -q "resign" "$dir/p_back.pdn" || fail "resignation not stored"
printf '11-15\nresign\n' | "$H" play checkers --p2 random --record "$dir/p.pdn" >/dev/null || fail "play --record .pdn"
diff <(grep -v '^\[' "$dir/p.pdn") <(grep -v '^\[' "$dir/p_back.pdn") >/dev/null || fail "play: .h5 and .pdn moves differ"
pos='B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15'
"$H" play checkers --p1 random --p2 random --position "$pos" --record "$dir/pos.h5" >/dev/null 2>"$dir/err"
[ $? -eq 2 ] || fail "play --position with .h5 should exit 2"
grep -q "PGN/PDN" "$dir/err" || fail "--position .h5 message: $(cat "$dir/err")"
[ -e "$dir/pos.h5" ] && fail "a refused record left a file"
"$H" play checkers --p1 random --p2 random --position "$pos" --record "$dir/pos.pdn" >/dev/null ||
  fail "play --position --record .pdn"
grep -q '^\[FEN "B:W21' "$dir/pos.pdn" || fail "the PDN of a game from --position has no FEN tag"

# sprt: every game of the test, both colours of each pair
"$H" sprt gobang 'alphabeta(depth=2)' random --max-pairs 3 --record "$dir/s.h5" >/dev/null 2>&1 || fail "sprt --record"
"$H" elo "$dir/s.h5" --json | grep -q '"games":6' || fail "sprt: not 6 games stored"
# selfplay: its games, the same moves through the .h5 reader as in the PDN
"$H" selfplay checkers 'games=3,sims=16' --record "$dir/sp.h5" >/dev/null 2>&1 || fail "selfplay --record .h5"
"$H" selfplay checkers 'games=3,sims=16' --record "$dir/sp.pdn" >/dev/null 2>&1 || fail "selfplay --record .pdn"
"$H" report "$dir/sp.h5" --pdn "$dir/sp_back.pdn" >/dev/null 2>&1 || fail "report of self-play games"
[ "$(grep -c '^\[Event' "$dir/sp_back.pdn")" -eq 3 ] || fail "selfplay: not 3 games stored"
diff <(grep -v '^\[' "$dir/sp.pdn") <(grep -v '^\[' "$dir/sp_back.pdn") >/dev/null ||
  fail "selfplay: .h5 and .pdn moves differ"
"$H" selfplay --model-dir "$dir" --record "$dir/x.h5" >/dev/null 2>&1; [ $? -eq 2 ] ||
  fail "--record with --model-dir should exit 2"
echo "record: ok"
