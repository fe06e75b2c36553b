#!/usr/bin/env bash
# CLI test of backgammon through `hoyle`: position text with gnubg IDs and
# dice, perft, bad input (exit 2, one line), a seeded match with dice, and
# the gnubg agent's errors (the live gnubg checks are tests/test_bg_gnubg.c).
set -u
H="$1"
. "$(dirname "$0")/lib.sh"

out=$("$H" show backgammon --position "4HPwATDgc/ABMA:X:31:t1") || fail "show"
echo "$out" | grep -q "X to play 31" || fail "dice not shown: $out"
echo "$out" | grep -q "8/5 6/5" || fail "the 31 point-making play is not listed"
echo "$out" | grep -q "(16 moves)" || fail "31 from the start has 16 plays (gnubg)"
"$H" perft backgammon 4 | grep -q "perft(4) = 178306" || fail "perft(4)"

for bad in "4HPwATDgc/ABMA:X:71:t1" "4HPwATDgc/ABM:X:31:t1" "4HPwATDgc/ABMA:Z:31:t1" \
           "4HPwATDgc/ABMA:X:31:8/4:t1" "4HPwATDgc/ABMA"; do
  err=$("$H" show backgammon --position "$bad" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] || fail "bad position '$bad' should exit 2 (got $rc)"
  [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "bad position '$bad': not one line: $err"
done

json=$("$H" match backgammon "expectimax(depth=1)" random --games 4 --seed 3 --json 2>/dev/null) ||
  fail "match"
echo "$json" | grep -q '"games":4' || fail "games count: $json"
again=$("$H" match backgammon "expectimax(depth=1)" random --games 4 --seed 3 --json 2>/dev/null)
[ "$(echo "$json" | sed 's/"seconds":[0-9.]*//')" = "$(echo "$again" | sed 's/"seconds":[0-9.]*//')" ] ||
  fail "seeded dice: not repeatable"

"$H" match checkers gnubg random >/dev/null 2>&1; [ $? -eq 2 ] || fail "gnubg on checkers should exit 2"
err=$(HOYLE_GNUBG=/nonexistent/gnubg "$H" match backgammon gnubg random 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] || fail "a missing gnubg program should fail"
echo "$err" | grep -q "gnubg" || fail "missing gnubg: unclear error: $err"
# play: after each roll the board is shown with the dice, before anyone moves
out=$("$H" play backgammon --p1 random --p2 random --seed 1 2>&1) || fail "play"
echo "$out" | grep -A20 "^chance: X" | grep -q "to play [1-6][1-6]" || fail "board not shown after the roll"
"$H" match --help | grep -q "^gnubg — " || fail "match --help does not list the gnubg agent"
"$H" play --help | grep -q "^expectimax — " || fail "play --help does not list the expectimax agent"
echo "backgammon: ok"
