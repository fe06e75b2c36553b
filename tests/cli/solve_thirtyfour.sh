#!/usr/bin/env bash
# CLI checks of `hoyle solve thirtyfour`: the known counts of magic squares
# (order 3: 8 and 1 up to symmetry; order 4: 7040 and 880), --list folded and
# unfolded, completions of a position, JSON, and bad input (exit 2, one line).
# usage: solve_thirtyfour.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$hoyle" solve thirtyfour --json >"$dir/out" || fail "count: exit $?"
grep -q '"solutions":7040,"folded":880,"replayed":true' "$dir/out" || fail "counts: $(cat "$dir/out")"
"$hoyle" solve 'thirtyfour(size=3)' --list --unfolded >"$dir/out" || fail "order 3: exit $?"
[ "$(grep -c '^[0-9 ]*$' "$dir/out")" = 8 ] || fail "order 3: not 8 squares listed"
grep -q '^2 7 6 9 5 1 4 3 8$' "$dir/out" || fail "order 3: the Lo Shu is not listed"
grep -q '8 magic squares (lines of 15), 1 up to rotation' "$dir/out" || fail "order 3 counts"
"$hoyle" solve thirtyfour --list >"$dir/out" || fail "list: exit $?"
[ "$(grep -c '^[0-9 ]*$' "$dir/out")" = 880 ] || fail "--list: not 880 squares"
[ "$(sort -u "$dir/out" | grep -c '^[0-9 ]*$')" = 880 ] || fail "--list: repeats"
"$hoyle" solve thirtyfour --position '1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0' --list --unfolded >"$dir/out" ||
  fail "position: exit $?"
[ "$(grep -c '^1 ' "$dir/out")" = "$(grep -c '^[0-9 ]*$' "$dir/out")" ] || fail "position: a square without block 1 on cell 1"
grep -q ': 416 magic squares' "$dir/out" || fail "position: $(tail -3 "$dir/out")"

for bad in "--position 1,2" "--unfolded" "--nope"; do
  # shellcheck disable=SC2086
  "$hoyle" solve thirtyfour $bad >"$dir/out" 2>"$dir/err"; rc=$?
  [ "$rc" = 2 ] || fail "'$bad': exit $rc, expected 2"
  [ "$(wc -l <"$dir/err")" = 1 ] || fail "'$bad': not a one-line error: $(cat "$dir/err")"
done
"$hoyle" solve 'thirtyfour(size=5)' >"$dir/out" 2>"$dir/err"
[ $? = 2 ] || fail "size=5 accepted"
echo "solve_thirtyfour: ok"
