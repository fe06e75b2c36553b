#!/usr/bin/env bash
# `mpirun -np 3 hoyle train` on loopback: one learner and two actors (docs/scaling.md):
#   1. a tiny run finishes its generations; both actors play (generation 0 waits for a batch
#      from each, so its shard holds two batches of 8 games); the shards hold the games the actors
#      played, with game ids in sequence, and train.csv has a row per generation;
#   2. kill -9 of the whole job mid-run, the same command again: the run resumes from its
#      newest finished generation and finishes;
#   3. an actor that fails (its config does not read) ends the job with its message.
# Skips (77) without MPI or libtorch, unless HOYLE_REQUIRE_MPI=1 (MPI only).
# Usage: mpi_train.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$(dirname "$0")/lib.sh"
lib_required=${HOYLE_REQUIRE_MPI:-0}
if ! "$hoyle" --version | grep "^mpi: yes" >/dev/null || ! command -v mpirun >/dev/null; then
  skip "no MPI in this build or no mpirun"
fi
lib_required=0 # a build without libtorch has no train command, MPI or not
"$hoyle" train --help 2>&1 | grep "Under MPI" >/dev/null || skip "no train command"
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import h5py, numpy' 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || fail "python3 with h5py is required"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
# Under ASan (scripts/run-tests) Open MPI's plugins leak at exit from modules it has already
# unloaded, so their stacks cannot be suppressed: leak checking is off for the ranks (memory
# errors are still caught); hoyle's own code is leak-checked by every other test.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
at_exit 'pkill -9 -f "$dir/" 2>/dev/null || true'
mpi() { timeout 300 mpirun -np "$1" --oversubscribe "${@:2}"; }
cfg=$root/configs/train/tiny.yaml

# ---- 1. learner + 2 actors ----
set +e
mpi 3 "$hoyle" train "$cfg" --set "output=$dir/run" --json >"$dir/out.json" 2>"$dir/err"
rc=$?
set -e
if [ $rc != 0 ] && grep -q "no libtorch" "$dir/err"; then skip "no libtorch"; fi
[ $rc = 0 ] || fail "3-rank training failed: $(tail -5 "$dir/err")"
"$python" - "$dir/out.json" "$dir/run" <<'PY'
import glob, json, sys, h5py, numpy as np
d = json.load(open(sys.argv[1]))
assert d["generations"] == 4 and d["games"] == 40, d
ids = []
for i, f in enumerate(sorted(glob.glob(sys.argv[2] + "/samples/shard-*.h5"))):
    with h5py.File(f) as h:
        # generation 0: the first batch (8 games, selfplay.games) and the other actor's
        assert h.attrs["games"] == (16 if i == 0 else 8), (f, h.attrs["games"])
        ids.extend(np.unique(h["game_id"][()]).tolist())
assert ids == list(range(40)), ids
rows = open(sys.argv[2] + "/train.csv").read().splitlines()
assert len(rows) == 5, rows
PY
grep -q "samples from the actors" "$dir/err" || fail "the learner did not report collecting from the actors"
for a in 1 2; do
  grep -q "^\[actor $a\] batch " "$dir/err" || fail "actor $a reported no batch"
done
echo "mpi_train.sh: learner + 2 actors, both played: 4 generations, 40 games in sequence"

# ---- 2. kill -9 of the whole job, resume ----
gens=10
[ "${HOYLE_SLOW_TESTS:-1}" = 0 ] && gens=6 # the sanitizer run
long=(--set "output=$dir/k" --set train.generations=$gens --set eval.every=0)
mpi 3 "$hoyle" train "$cfg" "${long[@]}" --quiet >/dev/null 2>&1 &
launcher=$!
for _ in $(seq 1 1500); do
  [ -s "$dir/k/state.txt" ] && grep -q "^generation [3-9]" "$dir/k/state.txt" 2>/dev/null && break
  sleep 0.02
done
pkill -9 -f "$dir/k" 2>/dev/null || true
kill -9 "$launcher" 2>/dev/null || true
wait "$launcher" 2>/dev/null || true
was=$(sed -n 's/^generation //p' "$dir/k/state.txt")
[ -n "$was" ] || fail "no state.txt generation before the kill: $(cat "$dir/k/state.txt" 2>/dev/null)"
mpi 3 "$hoyle" train "$cfg" "${long[@]}" --json >"$dir/k.json" 2>"$dir/k.err" ||
  fail "resume after kill -9 failed: $(tail -5 "$dir/k.err")"
"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['generations']==int(sys.argv[2]) and d['resumed'], d" "$dir/k.json" "$gens"
echo "mpi_train.sh: killed the job at generation $was; resumed to generation $gens"

# ---- 3. a failing actor ends the job with its message ----
cat >"$dir/wrap.sh" <<EOF
#!/usr/bin/env bash
if [ "\$OMPI_COMM_WORLD_RANK" = 2 ]; then exec "$hoyle" "\$@" --set optim.kind=bogus; fi
exec "$hoyle" "\$@"
EOF
chmod +x "$dir/wrap.sh"
set +e
mpi 3 "$dir/wrap.sh" train "$cfg" --set "output=$dir/bad" --quiet >/dev/null 2>"$dir/bad.err"
rc=$?
set -e
[ $rc != 0 ] || fail "a failing actor did not fail the job"
grep -q "'bogus' is not one of sgd, adam, adamw" "$dir/bad.err" || fail "the actor's message is missing: $(tail -3 "$dir/bad.err")"
echo "mpi_train.sh: a failing actor ends the job with its message"
