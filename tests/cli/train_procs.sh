#!/usr/bin/env bash
# selfplay.processes (docs/training.md, "Self-play in processes"): `hoyle train` is the learner
# over the run-folder transport and starts the actor processes itself.
#   1. a tiny run with selfplay.processes=2 finishes; train.csv has samples, rates (the
#      actors' evaluator columns too) and held-out losses; the actors' game records are in
#      RUN/games/ and read like gen-N files; the learner has reaped both actors, one of them
#      stopped (SIGSTOP) all along, and removed the stopped one's half-written files;
#   2. the actors run with one libtorch thread; the learner killed (-9): its actors end within
#      seconds (checked by pid); the rerun resumes and finishes;
#   3. an actor killed: the learner fails with one line naming it, and its other actor ends;
#   4. bad combinations and values exit 2 with one line.
# Skipped (77) without libtorch.
# Usage: train_procs.sh HOYLE_BINARY
set -euo pipefail
hoyle=$1
. "$(dirname "$0")/lib.sh"
at_exit 'pkill -9 -f "$dir/" 2>/dev/null || true'
cfg=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/configs/train/tiny.yaml
if "$hoyle" selfplay checkers --model /nonexistent.pt 2>&1 | grep "needs a build with libtorch" >/dev/null; then
  skip "no libtorch"
fi
python=$(for p in ${PYTHON:-} python3 /usr/bin/python3; do
  "$p" -c 'import h5py, numpy' 2>/dev/null && { echo "$p"; break; }; done) ||
  fail "python3 with h5py is required"
[ -n "$python" ] || fail "python3 with h5py is required"
# a process is gone when it no longer exists or is a zombie nobody reaped yet
gone() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
# wait_gone SECONDS PID...: fail unless every PID is gone within SECONDS
wait_gone() {
  local t=$1; shift
  for _ in $(seq 1 $((t * 10))); do
    local left=0
    for p in "$@"; do gone "$p" || left=1; done
    [ $left = 0 ] && return 0
    sleep 0.1
  done
  fail "actor process(es) still running $t s after: $(for p in "$@"; do gone "$p" || echo "$p"; done)"
}
# children PARENT: the pids of its actor processes, once there are two (10 s at most)
children() {
  for _ in $(seq 1 100); do
    local k; k=$(pgrep -P "$1" -f "selfplay --model-dir" | tr '\n' ' ')
    [ "$(echo $k | wc -w)" -ge 2 ] && { echo $k; return; }
    sleep 0.1
  done
  fail "the learner did not start 2 actor processes"
}

# ---- 1. a finished run; one actor stopped (SIGSTOP) all along: the learner must end it ----
run=$dir/run
"$hoyle" train "$cfg" --set "output=$run" --set selfplay.processes=2 --json \
  >"$dir/out.json" 2>"$dir/err" &
learner=$!
kids=($(children $learner))
kill -STOP "${kids[1]}"
# what an actor killed mid-write leaves: the learner removes its half-written files
a=$(tr '\0' ' ' <"/proc/${kids[1]}/cmdline" | sed 's/.*--actor \([0-9]*\).*/\1/')
for sub in games incoming; do
  for _ in $(seq 1 100); do [ -d "$run/$sub" ] && break; sleep 0.1; done
  : >"$run/$sub/g000000-a$a-${kids[1]}-000099.h5.tmp"
done
for _ in $(seq 1 1200); do kill -0 "$learner" 2>/dev/null || break; sleep 0.1; done
kill -0 "$learner" 2>/dev/null && { kill -9 "$learner"; fail "the learner did not finish"; }
wait "$learner" || fail "learner failed: $(tail -3 "$dir/err")"
for k in "${kids[@]}"; do [ ! -e "/proc/$k" ] || fail "actor $k was not reaped by the learner"; done
[ -s "$run/heldout.h5" ] || fail "no heldout.h5 in an actor run"
ls "$run"/games/g*-a[12]-*.h5 >/dev/null 2>&1 || fail "no game records in $run/games"
! ls "$run"/games/*.tmp "$run"/incoming/*.tmp >/dev/null 2>&1 ||
  fail "half-written files of a dead actor were left: $(ls "$run"/games/*.tmp "$run"/incoming/*.tmp)"
for f in "$run"/games/g*.h5; do # read as the gen-N files are: stored, not rated
  set +e; "$hoyle" report "$f" >/dev/null 2>"$dir/rep"; rc=$?; set -e
  [ $rc = 2 ] && grep -q "self-play games are not rated" "$dir/rep" ||
    fail "hoyle report $f: exit $rc: $(cat "$dir/rep")"
done
"$python" - "$dir/out.json" "$run" <<'PY'
import csv, glob, json, sys, h5py
d = json.load(open(sys.argv[1]))
assert d["generations"] == 4 and d["games"] == 32, d
rows = list(csv.DictReader(open(sys.argv[2] + "/train.csv")))
assert len(rows) == 4, rows
for r in rows:
    assert int(r["samples"]) > 0, r
    # positions per second of the actors together: the actors' own times, not zero
    assert 10 < float(r["selfplay_samples_per_s"]) < 1e6, r
    assert float(r["selfplay_evals_per_s"]) >= float(r["selfplay_samples_per_s"]), r
    assert int(r["wins_first"]) + int(r["wins_second"]) + int(r["draws"]) >= 8, r
    assert float(r["heldout_loss_policy"]) > 0 and float(r["heldout_loss_value"]) >= 0, r
    # the actors' evaluators: calls of at least one position, up to parallel * batch
    assert 1 <= float(r["mean_forward_batch"]) <= 4096, r
    assert 0 <= float(r["cache_hit_rate"]) < 1, r
assert any(float(r["cache_hit_rate"]) > 0 for r in rows), rows
games = 0
for f in glob.glob(sys.argv[2] + "/games/g*.h5"):
    gen = int(f.rsplit("/", 1)[1][1:7])  # gGGGGGG-aA-PID-NNNNNN.h5: the net that played
    with h5py.File(f) as h:
        assert h.attrs["hoyle_schema"] == "hoyle.game_records", dict(h.attrs)
        g = h["games"][()]
        assert len(g) >= 1 and (g["num_actions"] > 0).all() and (g["round"] == gen).all(), f
        assert g["num_actions"].sum() == len(h["actions"]), f
        games += len(g)
assert games >= 32, games  # every game the learner took, and batches it did not need
PY
echo "train_procs.sh: selfplay.processes=2: 4 generations, rates, held-out losses, game records"

# ---- 2. the learner killed, then resumed ----
run=$dir/k
long=(--set "output=$run" --set train.generations=4 --set eval.every=0 --set selfplay.processes=2)
"$hoyle" train "$cfg" "${long[@]}" --quiet >/dev/null 2>&1 &
learner=$!
kids=$(children $learner)
for k in $kids; do
  tr '\0' ' ' <"/proc/$k/cmdline" | grep -q -- "--actor [12] --threads 1 " ||
    fail "actor $k: $(tr '\0' ' ' <"/proc/$k/cmdline")"
done
for _ in $(seq 1 1500); do
  grep -q "^generation [1-9]" "$run/state.txt" 2>/dev/null && break
  sleep 0.02
done
kill -9 "$learner"
wait "$learner" 2>/dev/null || true
wait_gone 5 $kids
was=$(sed -n 's/^generation //p' "$run/state.txt")
timeout 300 "$hoyle" train "$cfg" "${long[@]}" --json >"$dir/k.json" 2>"$dir/k.err" ||
  fail "resumed learner failed: $(tail -3 "$dir/k.err")"
"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['generations']==4 and d['resumed'], d" "$dir/k.json"
! pgrep -f "model-dir $run" >/dev/null || fail "actors still running after the resumed run"
echo "train_procs.sh: learner killed at generation $was: actors $kids gone; resumed to 4"

# ---- 3. an actor killed ----
run=$dir/a
"$hoyle" train "$cfg" --set "output=$run" --set train.generations=1000 --set eval.every=0 \
  --set selfplay.processes=2 --quiet >/dev/null 2>"$dir/a.err" &
learner=$!
kids=($(children $learner))
kill -9 "${kids[0]}"
for _ in $(seq 1 600); do kill -0 "$learner" 2>/dev/null || break; sleep 0.1; done
kill -0 "$learner" 2>/dev/null && { kill -9 "$learner"; fail "the learner kept waiting for a dead actor"; }
set +e; wait "$learner"; rc=$?; set -e
[ $rc = 1 ] || fail "learner exit $rc after an actor was killed (expected 1)"
[ "$(wc -l <"$dir/a.err")" = 1 ] || fail "more than one line: $(cat "$dir/a.err")"
grep -q "actor [12] (pid ${kids[0]}) was killed by signal 9" "$dir/a.err" ||
  fail "message: $(cat "$dir/a.err")"
wait_gone 10 "${kids[1]}"
echo "train_procs.sh: an actor killed: $(cat "$dir/a.err")"

# ---- 4. bad uses ----
expect_usage() { # expect_usage PATTERN CMD...
  local pattern=$1; shift
  set +e; "$@" >/dev/null 2>"$dir/e"; local rc=$?; set -e
  [ $rc = 2 ] || fail "exit $rc (expected 2) for: $*"
  [ "$(wc -l <"$dir/e")" = 1 ] || fail "more than one line: $(cat "$dir/e")"
  grep -q -- "$pattern" "$dir/e" || fail "message '$(cat "$dir/e")' lacks '$pattern'"
}
expect_usage "selfplay.processes.*--external-actors" "$hoyle" train "$cfg" --set "output=$dir/x" \
  --set selfplay.processes=2 --external-actors
expect_usage "selfplay.processes.*65 is out of range \[0, 64\]" "$hoyle" train "$cfg" \
  --set "output=$dir/x" --set selfplay.processes=65
expect_usage "selfplay.processes.*'two' is not an integer" "$hoyle" train "$cfg" \
  --set "output=$dir/x" --set selfplay.processes=two
[ ! -e "$dir/x" ] || fail "a refused run wrote its folder"
echo "train_procs.sh: bad uses refused"
