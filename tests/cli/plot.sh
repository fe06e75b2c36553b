#!/usr/bin/env bash
# CLI test of `hoyle plot` (eval/run_plot.h) and the plot writer's axes for short
# runs (eval/svg_plot.h): a run's eval.csv becomes eval.svg with one legend entry per
# opponent; one or two generations give whole-number generation ticks, never a
# negative one, and an Elo axis in whole numbers; bad input is a one-line error, exit 2.
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
head='generation,seconds,opponent,games,score,elo_diff,elo_diff_low,elo_diff_high,sprt,llr'
ticks() { # the text of the tick labels of panel $2 (1 or 2) in SVG $1 ("middle": x, "end": y)
  python3 - "$1" "$2" "$3" <<'PY'
import re, sys
svg, panel, anchor = open(sys.argv[1]).read(), int(sys.argv[2]), sys.argv[3]
half = svg.split("Elo difference")[panel - 1]
print(" ".join(re.findall(r'<text x="[0-9.]+" y="[0-9.]+" text-anchor="%s">([^<]*)</text>' % anchor, half)))
PY
}
mkdir -p "$dir/run"
# one evaluation, at generation 0, its interval a single value
printf '%s\n0,0.0,baseline,2,0.5,12,12,12,-,0\n' "$head" >"$dir/run/eval.csv"
"$H" plot "$dir/run" >"$dir/out" 2>&1 || fail "plot: $(cat "$dir/out")"
grep -q "wrote $dir/run/eval.svg" "$dir/out" || fail "no 'wrote' line"
x=$(ticks "$dir/run/eval.svg" 1 middle)
echo "$x" | grep -q -- "-" && fail "a negative generation tick: $x"
echo "$x" | grep -q "\." && fail "a fractional generation tick: $x"
y=$(ticks "$dir/run/eval.svg" 2 end)
echo "$y" | grep -q "\." && fail "a fractional Elo tick: $y"
[ "$(echo "$y" | wc -w)" -ge 3 ] || fail "too few Elo ticks: $y"
# two generations, two opponents: whole generation ticks, both in the legend
printf '%s\n1,30,baseline,20,0.6,70.4,-80.1,230.2,-,0.1\n1,30,net0,20,0.5,0,-150,150,-,0\n2,60,baseline,20,0.7,147,-10,320,-,0.2\n' \
  "$head" >"$dir/two.csv"
"$H" plot "$dir/two.csv" >/dev/null || fail "plot two.csv"
[ -f "$dir/two.svg" ] || fail "two.svg not written beside two.csv"
x=$(ticks "$dir/two.svg" 1 middle)
echo "$x" | grep -q "\." && fail "fractional generation ticks: $x"
grep -q ">net0</text>" "$dir/two.svg" && grep -q ">baseline</text>" "$dir/two.svg" || fail "legend"
# a real run's log, with -inf bounds at a score of 0
"$H" plot "$root/docs/training_checkers_eval.csv" --out "$dir/ck.svg" >/dev/null || fail "checkers run"
grep -q "<polyline" "$dir/ck.svg" || fail "no line drawn"
# bad input
"$H" plot "$dir/nosuch" >/dev/null 2>"$dir/err"; [ $? -eq 2 ] || fail "missing file should exit 2"
grep -q "nosuch" "$dir/err" || fail "missing: $(cat "$dir/err")"
printf 'a,b\n1,2\n' >"$dir/bad.csv"
"$H" plot "$dir/bad.csv" >/dev/null 2>"$dir/err"; [ $? -eq 2 ] || fail "not an eval.csv should exit 2"
grep -q "no column 'generation'" "$dir/err" || fail "column: $(cat "$dir/err")"
printf '%s\n1,30,baseline,20,zero,70,-80,230,-,0.1\n' "$head" >"$dir/bad.csv"
"$H" plot "$dir/bad.csv" >/dev/null 2>"$dir/err"; [ $? -eq 2 ] || fail "bad number should exit 2"
grep -q "bad.csv':2: score 'zero' is not a number" "$dir/err" || fail "number: $(cat "$dir/err")"
[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "one-line error"
printf '%s\n' "$head" >"$dir/empty.csv"
"$H" plot "$dir/empty.csv" >/dev/null 2>&1; [ $? -eq 2 ] || fail "no rows should exit 2"
echo "plot: ok"
