#!/usr/bin/env bash
# `hoyle train` with algorithms td and tdleaf (train/td_loop.h) on small configs: a run
# killed with kill -9 part-way and resumed by the same command ends with nets identical byte
# for byte to the uninterrupted run's (two worker threads); train.csv has a row per generation;
# the net plays as the `td` agent (0-ply and plies=1) in a match; bad configs and bad model
# files exit 2 with one line; a warm start (train.init_from) makes the file net 0, and a bad
# one is refused. Needs no libtorch.
# Usage: train_td.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cfg=$here/../../configs/train/backgammon_td.yaml
. "$(dirname "$0")/lib.sh"
small=(--set train.games=300 --set td.sync_games=10 --set td.hidden=16 --set eval.every=2
       --set eval.games=4 --set eval.baseline=random --set train.minutes=0 --quiet)
# 1. the reference run, uninterrupted
"$hoyle" train "$cfg" --set output="$dir/a" --set train.generations=4 "${small[@]}" --json >"$dir/a.json"
grep -q '"generations":4' "$dir/a.json" || fail "no 4 generations: $(cat "$dir/a.json")"
[ "$(wc -l <"$dir/a/train.csv")" -eq 5 ] || fail "train.csv rows: $(cat "$dir/a/train.csv")"
grep -q "^4,.*,baseline," "$dir/a/eval.csv" || fail "no evaluation of net 4: $(cat "$dir/a/eval.csv")"
# 2. the same run killed once its first generation is done, then resumed
"$hoyle" train "$cfg" --set output="$dir/b" --set train.generations=4 "${small[@]}" &
pid=$!
for _ in $(seq 1 1000); do [ -f "$dir/b/state.txt" ] && break; sleep 0.01; done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
"$hoyle" train "$cfg" --set output="$dir/b" --set train.generations=4 "${small[@]}" --json >"$dir/b.json"
grep -q '"resumed":true' "$dir/b.json" || fail "not resumed: $(cat "$dir/b.json")"
for g in 1 2 3 4; do
  cmp -s "$dir/a/net-00000$g.td" "$dir/b/net-00000$g.td" || fail "net $g differs after kill -9 + resume"
done
cmp -s <(cut -d, -f1,3,4,6- "$dir/a/train.csv") <(cut -d, -f1,3,4,6- "$dir/b/train.csv") ||
  fail "train.csv differs after resume"
# 3. a resume that changes what the run is made of is refused; more generations are not
set +e
"$hoyle" train "$cfg" --set output="$dir/a" --set train.generations=4 "${small[@]}" \
  --set td.lambda=0.5 2>"$dir/err"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "td.lambda" "$dir/err" || fail "lambda change: rc $rc $(cat "$dir/err")"
"$hoyle" train "$cfg" --set output="$dir/a" --set train.generations=5 "${small[@]}"
[ -f "$dir/a/net-000005.td" ] || fail "no net 5 after raising train.generations"
# 4. the net as an agent
"$hoyle" match backgammon "td(model=$dir/a/net-000005.td)" random --games 4 --seed 1 --json \
  >"$dir/m.json"
grep -q '"games":4' "$dir/m.json" || fail "match: $(cat "$dir/m.json")"
"$hoyle" match backgammon "td(model=$dir/a/net-000005.td,plies=1,candidates=3)" \
  "td(model=$dir/a/net-000001.td)" --games 2 --seed 2 --json >"$dir/m1.json"
grep -q '"games":2' "$dir/m1.json" || fail "plies=1 match: $(cat "$dir/m1.json")"
# 5. bad input: one line, exit 2
bad() { # expected-words, command...
  local words=$1
  shift
  set +e
  "$@" >/dev/null 2>"$dir/err"
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "rc $rc for: $* ($(cat "$dir/err"))"
  [ "$(wc -l <"$dir/err")" -eq 1 ] || fail "not one line for: $*: $(cat "$dir/err")"
  grep -q -- "$words" "$dir/err" || fail "no '$words' for: $*: $(cat "$dir/err")"
}
bad "not one of az, td" "$hoyle" train "$cfg" --set algorithm=sarsa --set output="$dir/c"
bad "td.hidden" "$hoyle" train "$cfg" --set td.hidden=0 --set output="$dir/c"
bad "td.features" "$hoyle" train "$cfg" --set td.features=fancy --set output="$dir/c"
bad "hand-made" "$hoyle" train "$cfg" --set game=checkers --set td.features=expert \
  --set output="$dir/c" --set eval.baseline=random
bad "players" "$hoyle" train "$cfg" --set game=solitaire --set output="$dir/c"
bad "not for 'checkers" "$hoyle" match checkers "td(model=$dir/a/net-000005.td)" random --games 2
bad "no model" "$hoyle" match backgammon "td(model=nosuchmodel)" random --games 2
head -c 100 "$dir/a/net-000005.td" >"$dir/short.td"
bad "damaged" "$hoyle" match backgammon "td(model=$dir/short.td)" random --games 2
# 6. algorithm tdleaf (train/tdleaf.h): checkers weights, killed and resumed the same
leafcfg=$here/../../configs/train/checkers_tdleaf.yaml
leaf=(--set train.games=20 --set td.sync_games=5 --set tdleaf.depth=2 --set eval.every=2
      --set eval.games=4 --set train.minutes=0 --set train.generations=3 --quiet)
"$hoyle" train "$leafcfg" --set output="$dir/la" "${leaf[@]}"
grep -q "^2,.*,baseline," "$dir/la/eval.csv" || fail "tdleaf: no evaluation: $(cat "$dir/la/eval.csv")"
"$hoyle" train "$leafcfg" --set output="$dir/lb" "${leaf[@]}" &
pid=$!
for _ in $(seq 1 1000); do [ -f "$dir/lb/state.txt" ] && break; sleep 0.01; done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
"$hoyle" train "$leafcfg" --set output="$dir/lb" "${leaf[@]}"
for g in 1 2 3; do
  cmp -s "$dir/la/net-00000$g.eval" "$dir/lb/net-00000$g.eval" || fail "tdleaf: weights $g differ"
done
"$hoyle" match checkers "alphabeta(depth=2,eval=$dir/la/net-000003.eval)" random --games 2 --json \
  >"$dir/lm.json"
grep -q '"games":2' "$dir/lm.json" || fail "tdleaf match: $(cat "$dir/lm.json")"
bad "heuristic of weighted terms" "$hoyle" train "$leafcfg" --set "game=checkers(variant=losing)" \
  --set output="$dir/c"
bad "not for 'chess" "$hoyle" match chess "alphabeta(eval=$dir/la/net-000003.eval)" random --games 2
# 7. the warm start (train.init_from): net 0 is the file, for tdleaf weights and td nets alike;
# a file of another game or none at all is refused with the key's place and leaves no net 0
"$hoyle" train "$leafcfg" --set output="$dir/lw" "${leaf[@]}" --set train.generations=1 \
  --set train.init_from="$dir/la/net-000003.eval"
cmp -s "$dir/la/net-000003.eval" "$dir/lw/net-000000.eval" || fail "tdleaf warm start: net 0 differs"
grep -q "init_from" "$dir/lw/config.yaml" || fail "init_from not in the run's config"
[ -f "$dir/lw/net-000001.eval" ] || fail "tdleaf warm start: no net 1"
"$hoyle" train "$cfg" --set output="$dir/tw" --set train.generations=1 "${small[@]}" \
  --set train.init_from="$dir/a/net-000005.td"
cmp -s "$dir/a/net-000005.td" "$dir/tw/net-000000.td" || fail "td warm start: net 0 differs"
bad "train.init_from" "$hoyle" train "$leafcfg" --set output="$dir/lx" "${leaf[@]}" \
  --set train.init_from="$dir/nosuch.eval"
[ ! -f "$dir/lx/net-000000.eval" ] || fail "a refused warm start left net 0"
bad "train.init_from" "$hoyle" train "$leafcfg" --set output="$dir/ly" "${leaf[@]}" \
  --set train.init_from="$dir/a/net-000005.td"
bad "train.init_from" "$hoyle" train "$cfg" --set output="$dir/lz" "${small[@]}" \
  --set train.init_from="$dir/la/net-000003.eval"
echo "train_td.sh: ok"
