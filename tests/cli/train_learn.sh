#!/usr/bin/env bash
# The learning options of `hoyle train` on the tiny config (configs/train/tiny.yaml), a few
# generations each: a resume takes the config's optimiser settings (--set optim.lr=...) and
# keeps the state; the learning-rate schedule and the optimiser kinds come from the config;
# a changed optimiser kind is refused; retention keeps what it promises; a warm start
# copies a net and refuses another shape; `hoyle export` writes TorchScript and describes a
# checkpoint (--json); `auto` heads follow the game. Skipped (77) without libtorch.
# Usage: train_learn.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
. "$(dirname "$0")/lib.sh"
cfg=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../configs/train" && pwd)/tiny.yaml
# a failure shows the last command's stderr first
at_exit '[ "$?" != 1 ] || { [ -f "$dir/err" ] && cat "$dir/err" >&2; }'
set +e
"$hoyle" export --help >"$dir/help"
rc=$?
set -e
[ "$rc" -eq 0 ] && grep -q "usage: hoyle export RUN|NET" "$dir/help" || fail "export --help"
"$hoyle" train --help | grep "usage: hoyle train" >/dev/null
quick=(--set eval.every=0 --set selfplay.games=8 --set selfplay.parallel=8 --quiet)
set +e
"$hoyle" train "$cfg" --set output="$dir/probe" --set train.generations=1 "${quick[@]}" \
  2>"$dir/err" >/dev/null
rc=$?
set -e
if grep -q "no libtorch" "$dir/err"; then skip "no libtorch"; fi
[ "$rc" -eq 0 ] || fail "probe run"
# a JSON number or string field of `hoyle export FILE --json`
field() { "$hoyle" export "$1" --json | grep -o "\"$2\":[^,}]*" | head -1 | cut -d: -f2 | tr -d '"'; }

# 1. resume with --set optim.lr: the optimiser's rate reads back, its step count goes on,
#    and resume.csv records the change
"$hoyle" train "$cfg" --set output="$dir/a" --set train.generations=2 "${quick[@]}"
steps2=$(field "$dir/a/net-000002.pt" steps)
[ "$steps2" -gt 0 ] || fail "no optimiser steps in 2 generations"
[ "$(field "$dir/a/net-000002.pt" lr)" = "0.002" ] || fail "lr before the resume"
"$hoyle" train "$cfg" --set output="$dir/a" --set train.generations=3 "${quick[@]}" \
  --set optim.lr=0.001 2>"$dir/err" || fail "resume with optim.lr"
[ "$(field "$dir/a/net-000003.pt" lr)" = "0.001" ] || fail "lr after the resume: $(field "$dir/a/net-000003.pt" lr)"
[ "$(field "$dir/a/net-000003.pt" steps)" -gt "$steps2" ] || fail "steps did not go on"
grep -qx "2,optim.lr,0.002,0.001" "$dir/a/resume.csv" || fail "resume.csv: $(cat "$dir/a/resume.csv")"
# ... a changed kind is refused, naming the key
set +e
"$hoyle" train "$cfg" --set output="$dir/a" --set train.generations=4 "${quick[@]}" \
  --set optim.lr=0.001 --set optim.kind=sgd 2>"$dir/err"; rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "key 'optim.kind' was 'adam' (config.yaml), now 'sgd'" "$dir/err" \
  || fail "changed kind (exit $rc)"
rm -f "$dir/err"

# 2. the schedule from the config: step decay every 2 steps by 0.5, read back at the step
#    count the checkpoint holds; SGD with Nesterov and AdamW are accepted
"$hoyle" train "$cfg" --set output="$dir/s" --set train.generations=2 "${quick[@]}" \
  --set optim.schedule=step --set optim.step_every=2 --set optim.step_gamma=0.5
n=$(field "$dir/s/net-000002.pt" steps)
want=$(awk -v n="$n" 'BEGIN { printf "%.6g", 0.002 * 0.5 ^ int(n / 2) }')
got=$(awk -v x="$(field "$dir/s/net-000002.pt" lr)" 'BEGIN { printf "%.6g", x }')
[ "$got" = "$want" ] || fail "step schedule: lr $got after $n steps, want $want"
[ "$(field "$dir/s/net-000002.pt" schedule)" = "step" ] || fail "schedule name"
"$hoyle" train "$cfg" --set output="$dir/n" --set train.generations=1 "${quick[@]}" \
  --set optim.kind=sgd --set optim.lr=0.01 --set optim.nesterov=true
[ "$(field "$dir/n/net-000001.pt" kind)" = "sgd" ] && [ "$(field "$dir/n/net-000001.pt" nesterov)" = "true" ] \
  || fail "sgd nesterov"
"$hoyle" train "$cfg" --set output="$dir/w" --set train.generations=1 "${quick[@]}" \
  --set optim.kind=adamw --set optim.weight_decay=0.01 --set optim.l2=0
[ "$(field "$dir/w/net-000001.pt" kind)" = "adamw" ] || fail "adamw"
# bad values: one line, exit 2
for bad in "optim.kind=adamx:is not one of sgd, adam, adamw" \
  "optim.schedule=linear:is not one of constant, step, cosine" \
  "optim.nesterov=true:nesterov needs kind sgd" "optim.weight_decay=0.1:weight_decay needs kind adamw" \
  "net.trunk=mlp:is not one of conv, fc, auto"; do
  set +e
  "$hoyle" train "$cfg" --set output="$dir/bad" --set "${bad%%:*}" 2>"$dir/err"; rc=$?
  set -e
  [ "$rc" -eq 2 ] && grep -q "${bad#*:}" "$dir/err" && [ "$(wc -l <"$dir/err")" -eq 1 ] \
    || fail "--set ${bad%%:*} (exit $rc)"
done
[ ! -e "$dir/bad" ] || fail "a bad config wrote its folder"
rm -f "$dir/err"

# 3. retention: keep every 3rd and the newest 2; with eval every 4 the newest evaluated net
#    stays too; a resume still works; keep_every 0 keeps every net
"$hoyle" train "$cfg" --set output="$dir/r" --set train.generations=7 --set eval.every=4 \
  --set eval.games=2 --set selfplay.games=8 --set selfplay.parallel=8 --quiet \
  --set train.keep_every=3 --set train.keep_last=2
[ "$(cd "$dir/r" && ls net-*.pt | tr '\n' ' ')" = "net-000000.pt net-000003.pt net-000004.pt net-000006.pt net-000007.pt " ] \
  || fail "retention kept: $(cd "$dir/r" && ls net-*.pt | tr '\n' ' ')"
"$hoyle" train "$cfg" --set output="$dir/r" --set train.generations=9 --set eval.every=4 \
  --set eval.games=2 --set selfplay.games=8 --set selfplay.parallel=8 --quiet \
  --set train.keep_every=3 --set train.keep_last=2
[ "$(cd "$dir/r" && ls net-*.pt | tr '\n' ' ')" = "net-000000.pt net-000003.pt net-000006.pt net-000008.pt net-000009.pt " ] \
  || fail "retention after the resume kept: $(cd "$dir/r" && ls net-*.pt | tr '\n' ' ')"
"$hoyle" train "$cfg" --set output="$dir/k" --set train.generations=4 "${quick[@]}" --set train.keep_every=0
[ "$(cd "$dir/k" && ls net-*.pt | wc -l)" -eq 5 ] || fail "keep_every=0"

# 4. warm start from a run folder: net 0 of the new run is the old run's newest net (the same
#    priors in the same search), with a fresh optimiser; another shape is refused
"$hoyle" train "$cfg" --set output="$dir/ws" --set train.generations=1 "${quick[@]}" \
  --set train.init_from="$dir/a"
[ "$(field "$dir/ws/net-000000.pt" steps)" -eq 0 ] || fail "warm start kept the optimiser"
priors() {
  "$hoyle" analyze 'gobang(board=5,men=0)' --agent "az(model=$1,sims=8)" --seed 3 --json \
    | grep -o '"prior":[^,}]*' | tr '\n' ' '
}
[ -n "$(priors "$dir/a/net-000003.pt")" ] || fail "no priors from analyze"
[ "$(priors "$dir/a/net-000003.pt")" = "$(priors "$dir/ws/net-000000.pt")" ] || fail "warm start net differs"
[ "$(priors "$dir/a/net-000000.pt")" != "$(priors "$dir/ws/net-000000.pt")" ] || fail "warm start is net 0"
set +e
"$hoyle" train "$cfg" --set output="$dir/ws2" --set train.generations=1 "${quick[@]}" \
  --set train.init_from="$dir/a" --set net.filters=16 2>"$dir/err"; rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "key 'train.init_from': '$dir/a/net-000003.pt' is .* 8 filters.*; the config asks for .* 16 filters" "$dir/err" \
  && [ "$(wc -l <"$dir/err")" -eq 1 ] || fail "warm start with another shape (exit $rc)"
rm -f "$dir/err"

# 5. export: a run folder's newest net as TorchScript (a zip archive); --json describes it
"$hoyle" export "$dir/a" --torchscript "$dir/a.ts.pt" 2>"$dir/export.err"
grep -q "net-000003.pt -> $dir/a.ts.pt" "$dir/export.err" || fail "export message"
[ "$(head -c 2 "$dir/a.ts.pt")" = "PK" ] || fail "export is not a zip archive"
set +e
"$hoyle" export "$dir/nothing" --torchscript "$dir/x.pt" 2>"$dir/err"; rc=$?
set -e
[ "$rc" -eq 2 ] && [ ! -e "$dir/x.pt" ] || fail "export of a missing net (exit $rc)"
rm -f "$dir/err"

# 6. heads: auto gives Go-Bang the conv policy head, dense when asked; backgammon the fc trunk
[ "$(field "$dir/a/net-000000.pt" policy_head)" = "conv" ] || fail "gobang auto policy head"
"$hoyle" train "$cfg" --set output="$dir/d" --set train.generations=1 "${quick[@]}" \
  --set net.policy_head=dense --set net.value_head=pool
[ "$(field "$dir/d/net-000001.pt" policy_head)" = "dense" ] && [ "$(field "$dir/d/net-000001.pt" value_head)" = "pool" ] \
  || fail "explicit heads"
"$hoyle" train "$cfg" --set output="$dir/bg" --set game=backgammon --set train.generations=1 \
  --set eval.every=0 --set selfplay.games=2 --set selfplay.parallel=2 --set selfplay.sims=4 \
  --set selfplay.fast_sims=2 --set selfplay.batch=1 --set replay.augment=false --set replay.min_samples=100000 --quiet
[ "$(field "$dir/bg/net-000001.pt" trunk)" = "fc" ] || fail "backgammon auto trunk"
echo "train_learn.sh: OK"
