#!/usr/bin/env bash
# The shared-folder mode of training, no MPI (docs/scaling.md): `hoyle train CONFIG
# --external-actors` is the learner, `hoyle selfplay --model-dir RUN` processes the actors.
#   1. two actors (started before the learner: they wait) and a learner finish a tiny run;
#      the actors stop by themselves when it ends; the shards number the games in sequence;
#   2. the learner killed (-9) mid-run and started again resumes and finishes with the same
#      actors, which never stopped; a foreign file dropped into RUN/incoming is set aside;
#   3. bad uses of --model-dir exit 2 with a message.
# Skipped (77) without libtorch.
# Usage: train_actors.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import h5py, numpy' 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || fail "python3 with h5py is required"
. "$(dirname "$0")/lib.sh"
at_exit 'pkill -9 -f "$dir/" 2>/dev/null || true'
cfg=$root/configs/train/tiny.yaml
if "$hoyle" selfplay checkers --model "$dir/none.pt" 2>&1 | grep "needs a build with libtorch" >/dev/null; then
  skip "no libtorch"
fi

# ---- 1. two actors, then the learner ----
run=$dir/run
for a in 1 2; do "$hoyle" selfplay --model-dir "$run" --actor $a 2>"$dir/a$a.err" & done
timeout 300 "$hoyle" train "$cfg" --set "output=$run" --external-actors --json >"$dir/out.json" 2>"$dir/err" ||
  fail "learner failed: $(tail -3 "$dir/err")"
for _ in $(seq 1 100); do pgrep -f "model-dir $run" >/dev/null || break; sleep 0.1; done
! pgrep -f "model-dir $run" >/dev/null || fail "the actors did not stop when the run ended"
wait
grep -q "waiting for a learner" "$dir/a1.err" || fail "an actor started first did not wait"
"$python" - "$dir/out.json" "$run" <<'PY'
import glob, json, sys, h5py, numpy as np
d = json.load(open(sys.argv[1]))
assert d["generations"] == 4 and d["games"] == 32, d
ids = []
for f in sorted(glob.glob(sys.argv[2] + "/samples/shard-*.h5")):
    with h5py.File(f) as h:
        ids.extend(sorted(np.unique(h["game_id"][()]).tolist()))
assert ids == list(range(32)), ids
PY
echo "train_actors.sh: a learner and 2 actors through the folder: 4 generations, 32 games in sequence"

# ---- 2. the learner killed and restarted, the actors kept ----
run=$dir/k
long=(--set "output=$run" --set train.generations=8 --set eval.every=0)
for a in 1 2; do "$hoyle" selfplay --model-dir "$run" --actor $a 2>>"$dir/k$a.err" & done
"$hoyle" train "$cfg" "${long[@]}" --external-actors --quiet >/dev/null 2>&1 &
learner=$!
for _ in $(seq 1 1500); do
  grep -q "^generation [2-9]" "$run/state.txt" 2>/dev/null && break
  sleep 0.02
done
kill -9 "$learner" 2>/dev/null || true
wait "$learner" 2>/dev/null || true
was=$(sed -n 's/^generation //p' "$run/state.txt")
pgrep -f "model-dir $run" >/dev/null || fail "the actors stopped with the learner"
printf 'not a shard\n' >"$run/incoming/g000000-foreign.h5"
timeout 300 "$hoyle" train "$cfg" "${long[@]}" --external-actors --json >"$dir/k.json" 2>"$dir/k.err" ||
  fail "resumed learner failed: $(tail -3 "$dir/k.err")"
"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['generations']==8 and d['resumed'], d" "$dir/k.json"
[ -e "$run/incoming/g000000-foreign.h5.bad" ] || fail "the foreign file was not set aside"
grep -q "g000000-foreign.h5" "$dir/k.err" || fail "the foreign file was not reported"
for _ in $(seq 1 100); do pgrep -f "model-dir $run" >/dev/null || break; sleep 0.1; done
! pgrep -f "model-dir $run" >/dev/null || fail "the actors did not stop when the resumed run ended"
wait
echo "train_actors.sh: learner killed at generation $was, restarted with the same actors: finished at 8"

# ---- 3. bad uses ----
expect_usage() {  # expect_usage PATTERN CMD...
  local pattern=$1; shift
  set +e; "$@" >/dev/null 2>"$dir/e"; local rc=$?; set -e
  [ $rc = 2 ] || fail "exit $rc (expected 2) for: $*"
  grep -q -- "$pattern" "$dir/e" || fail "message '$(cat "$dir/e")' lacks '$pattern'"
}
expect_usage "need --model-dir" "$hoyle" selfplay --actor 3
expect_usage "no GAME, --model" "$hoyle" selfplay checkers --model-dir "$dir/run"
expect_usage "not known\|unknown option" "$hoyle" tournament x.yaml --external-actors
echo "train_actors.sh: bad uses refused"
