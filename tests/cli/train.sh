#!/usr/bin/env bash
# The training loop end to end on a tiny config (configs/train/tiny.yaml):
# a seeded run to completion; the same run killed with kill -9 part-way and
# resumed by the same command must end in the same state (same games,
# samples, steps and losses); the trained net plays as the `az` agent in a
# match and runs `hoyle selfplay --bench`; bad configs exit 2. Skipped (77) without libtorch.
# Usage: train.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cfg=$here/../../configs/train/tiny.yaml
. "$(dirname "$0")/lib.sh"
"$hoyle" train --help | grep "usage: hoyle train" >/dev/null
set +e
# the probe's folder has missing parents: made, as tournaments make theirs (issue 36, item 8)
"$hoyle" train "$cfg" --set output="$dir/new/parent/probe" --set train.generations=1 \
  --set eval.every=0 --quiet 2>"$dir/err" >/dev/null
rc=$?
set -e
if grep -q "no libtorch" "$dir/err"; then skip "no libtorch"; fi
[ "$rc" -eq 0 ] || { cat "$dir/err" >&2; exit 1; }
[ -f "$dir/new/parent/probe/state.txt" ] || { echo "train.sh: FAIL: no run in a new folder" >&2; exit 1; }
touch "$dir/in_the_way"
set +e
"$hoyle" train "$cfg" --set output="$dir/in_the_way/run" --quiet 2>"$dir/err" >/dev/null; rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "in_the_way' is not a folder" "$dir/err" ||
  { echo "train.sh: FAIL: a file in the way: rc $rc, $(cat "$dir/err")" >&2; exit 1; }
gens=8
args=(--set train.generations=$gens --set selfplay.games=16 --set selfplay.parallel=16)
# 1. the reference run, uninterrupted
"$hoyle" train "$cfg" --set output="$dir/a" "${args[@]}" --quiet --json >"$dir/a.json"
grep -q "\"generations\":$gens" "$dir/a.json"
# train.csv (issue 18): the first twelve columns as before, then the later ones, sane
python3 - "$dir/a/train.csv" "$gens" <<'PY'
import csv, sys
path, gens = sys.argv[1], int(sys.argv[2])
head = open(path).readline().strip().split(",")
first = ("generation,seconds,games,samples,steps,loss_policy,loss_value,loss_total,"
         "selfplay_evals_per_s,selfplay_samples_per_s,resign_checks,false_resigns").split(",")
more = ("wins_first,wins_second,draws,resigned,truncated,mean_game_length,cache_hit_rate,"
        "mean_forward_batch,selfplay_seconds,optimise_seconds,eval_seconds,lr,policy_entropy,"
        "policy_kl_prior,heldout_loss_policy,heldout_loss_value").split(",")
assert head == first + more, head
rows = list(csv.DictReader(open(path)))
assert len(rows) == gens, len(rows)
games = 0
for r in rows:
    f = {k: float(v) for k, v in r.items()}
    new = f["games"] - games
    games = f["games"]
    assert f["wins_first"] + f["wins_second"] + f["draws"] == new == 16, r
    assert f["resigned"] <= new and f["truncated"] == 0, r
    assert 0 < f["mean_game_length"] <= 25, r      # 5x5 free-style Go-Bang
    assert 0 <= f["cache_hit_rate"] <= 1, r
    assert 1 <= f["mean_forward_batch"] <= 16 * 4, r  # parallel * batch
    assert f["selfplay_seconds"] > 0 and f["optimise_seconds"] >= 0 and f["eval_seconds"] >= 0, r
    assert f["lr"] == 0.002, r
    assert f["policy_entropy"] > 0 and f["policy_kl_prior"] >= 0, r
    assert f["heldout_loss_policy"] > 0 and f["heldout_loss_value"] >= 0, r
PY
# the self-play games, one record file per generation: not rated, but stored
[ "$(ls "$dir/a/games" | grep -c '^gen-.*\.h5$')" -eq $gens ]
[ -s "$dir/a/heldout.h5" ]
set +e
"$hoyle" report "$dir/a/games/gen-000000.h5" 2>"$dir/err" >/dev/null; rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "self-play games are not rated" "$dir/err"
# 2. the same run, killed once state.txt shows generation >= 2, then resumed
"$hoyle" train "$cfg" --set output="$dir/b" "${args[@]}" --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  if [ -f "$dir/b/state.txt" ] && [ "$(awk '/^generation/{print $2}' "$dir/b/state.txt")" -ge 2 ]; then
    break
  fi
  sleep 0.02
done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
killed_at=$(awk '/^generation/{print $2}' "$dir/b/state.txt")
echo "train.sh: killed at generation $killed_at"
"$hoyle" train "$cfg" --set output="$dir/b" "${args[@]}" --json 2>"$dir/b.err" >"$dir/b.json"
grep -q "\"generations\":$gens" "$dir/b.json"
grep -q "resumed" "$dir/b.err"
# same results as the uninterrupted run (time columns aside)
cut -d, -f1,3-8 "$dir/a/train.csv" >"$dir/a.cols"
cut -d, -f1,3-8 "$dir/b/train.csv" >"$dir/b.cols"
diff "$dir/a.cols" "$dir/b.cols"
[ "$(ls "$dir/b/samples" | grep -c '^shard-.*\.h5$')" -eq $gens ]
! ls "$dir/b/samples" | grep -q '\.tmp$'
head -c 4 "$dir/b/elo.svg" | grep -q "<svg"
grep -q "^$gens," "$dir/b/elo.csv"
# the net as an agent
"$hoyle" match 'gobang(board=5,men=0)' "az(model=$dir/b/net-00000$gens.pt,sims=8)" random \
  --games 2 --json >"$dir/match.json"
grep -q '"games":2' "$dir/match.json"
# the net in `hoyle selfplay --bench`: five paired rounds, each replaying its own forward calls
# once (the same positions on both sides), the median of their ratios quoted, in JSON and in
# the text printout; --bench-seconds S replays them for S s; alone or out of range: exit 2
net=$dir/b/net-00000$gens.pt
sp=('gobang(board=5,men=0)' 'games=4,parallel=4,sims=8' --model "$net")
"$hoyle" selfplay "${sp[@]}" --bench --json >"$dir/bench.json" 2>/dev/null
python3 - "$dir/bench.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["bench"]
assert b["rounds"] == 5 and len(b["round_ratios"]) == 5 and b["ratio"] > 0, b
assert b["ratio"] == sorted(b["round_ratios"])[2], b
s, r = b["selfplay"], b["raw_forward"]
assert s["positions"] > 0 and s["seconds"] > 0 and s["user_seconds"] >= 0, s
assert r["positions"] == s["positions"] and r["seconds"] > 0, (s, r)
assert abs(b["pooled_ratio"] - s["positions_per_s"] / r["positions_per_s"]) < 0.01 * b["pooled_ratio"] + 1e-3, b
PY
"$hoyle" selfplay "${sp[@]}" --bench --bench-seconds 0.2 --json 2>/dev/null >"$dir/bench2.json"
python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["bench"]["raw_forward"]; assert 1.0 <= r["seconds"] < 30, r' "$dir/bench2.json"
"$hoyle" selfplay "${sp[@]}" --bench 2>/dev/null >"$dir/bench.txt"
grep -q "bench, 5 paired rounds: network positions/s in self-play .* (pooled [0-9.]*x); per round\( [0-9.]*\)\{5\}$" "$dir/bench.txt"
grep -q "raw forward .* s wall, .* s user, .* s system, .* context switches" "$dir/bench.txt"
grep -q "^  evaluator ratio [0-9]*\.[0-9]* = network positions/s inside self-play / raw forward .* the median of 5 paired rounds" "$dir/bench.txt"
for bad in "--bench-seconds 1" "--bench --bench-seconds 0" "--bench --bench-seconds 4000"; do
  set +e
  # shellcheck disable=SC2086
  "$hoyle" selfplay "${sp[@]}" $bad 2>"$dir/err" >/dev/null; rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "bench-seconds" "$dir/err" ||
    fail "selfplay $bad: exit $rc: $(cat "$dir/err")"
done
# bad input: exit 2 with one line
set +e
"$hoyle" train "$cfg" --set output="$dir/c" --set selfplay.bogus=1 2>"$dir/err"; rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "bogus" "$dir/err"
# resume checks the config (issue 16): a changed key that shapes the run is refused
# with exit 2, naming the key, its old and new value, and nothing changes ...
before=$(cat "$dir/a/config.yaml" "$dir/a/state.txt" "$dir/a/train.csv" | cksum)
set +e
"$hoyle" train "$cfg" --set output="$dir/a" "${args[@]}" --set optim.batch=16 --quiet \
  2>"$dir/err"; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "changed optim.batch resumed (exit $rc)"
grep -q "key 'optim.batch' was '32' (config.yaml), now '16'" "$dir/err" || { cat "$dir/err" >&2; exit 1; }
[ "$(cat "$dir/a/config.yaml" "$dir/a/state.txt" "$dir/a/train.csv" | cksum)" = "$before" ]
[ ! -e "$dir/a/resume.csv" ]
# ... while a key of the documented list is accepted, config.yaml is rewritten and
# resume.csv records the change
"$hoyle" train "$cfg" --set output="$dir/a" "${args[@]}" --set train.generations=$((gens + 1)) \
  --quiet --json >"$dir/a2.json"
grep -q "\"generations\":$((gens + 1))" "$dir/a2.json"
grep -q "^  generations: $((gens + 1))$" "$dir/a/config.yaml"
grep -qx "$gens,train.generations,$gens,$((gens + 1))" "$dir/a/resume.csv"
# a run folder is locked: a second train on it is refused while the first runs, and
# the lock goes with a killed process
"$hoyle" train "$cfg" --set output="$dir/d" --set train.generations=100000 --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do [ -f "$dir/d/net-000000.pt" ] && break; sleep 0.02; done
set +e
"$hoyle" train "$cfg" --set output="$dir/d" --set train.generations=1 --quiet 2>"$dir/err"; rc=$?
set -e
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
[ "$rc" -eq 1 ] && grep -q "in use by another hoyle train" "$dir/err" || { cat "$dir/err" >&2; exit 1; }
"$hoyle" train "$cfg" --set output="$dir/d" --set train.generations=1 --set eval.every=0 --quiet
# a bad eval.baseline is found before anything is written, with file:line and key
sed 's/^  baseline: .*/  baseline: mcts(simz=3)/' "$cfg" >"$dir/bad.yaml"
set +e
"$hoyle" train "$dir/bad.yaml" --set output="$dir/e" 2>"$dir/err"; rc=$?
set -e
line=$(grep -n 'baseline:' "$dir/bad.yaml" | cut -d: -f1)
[ "$rc" -eq 2 ] && grep -q "bad.yaml:$line: key 'eval.baseline': mcts: unknown parameter 'simz'" "$dir/err" \
  || { cat "$dir/err" >&2; exit 1; }
[ ! -e "$dir/e" ]
echo "train.sh: OK"
