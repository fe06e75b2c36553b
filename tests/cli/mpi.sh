#!/usr/bin/env bash
# `mpirun -np 3 hoyle tournament` on loopback (docs/scaling.md):
#   1. a 3-rank tournament's file holds the same games as a one-process run of the same config
#      (per job: agents, opening, result, end, actions), and prints the same Elo table;
#   2. kill -9 of a worker rank mid-run ends the job (Open MPI's default); the same command
#      again resumes, and the file then equals the uninterrupted one;
#   3. kill -9 of the whole job (launcher and ranks) likewise;
#   4. a config that differs between ranks is refused, not mixed into the file.
# Skips (77) when hoyle was built without MPI or mpirun is missing, unless HOYLE_REQUIRE_MPI=1.
# Usage: mpi.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$(dirname "$0")/lib.sh"
lib_required=${HOYLE_REQUIRE_MPI:-0}
"$hoyle" --version | grep '^mpi: yes' >/dev/null || skip "hoyle was built without MPI"
command -v mpirun >/dev/null || skip "mpirun not found (Debian: openmpi-bin)"
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import h5py, numpy' 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || fail "python3 with h5py is required"
# CI runs as root; Open MPI refuses that unless told (its documented switch).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# One machine, loopback only: no network interfaces probed, no warnings about them.
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
# Under ASan (scripts/run-tests) Open MPI's plugins leak at exit from modules it has already
# unloaded, so their stacks cannot be suppressed: leak checking is off for the ranks (memory
# errors are still caught); hoyle's own code is leak-checked by every other test.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
at_exit 'pkill -9 -f "$dir/" 2>/dev/null || true'
mpi() { timeout 300 mpirun -np "$1" --oversubscribe "${@:2}"; }
dump() { "$python" "$here/../check_tournament_h5.py" --dump "$1"; }
count() {  # games in a record file (and its journal); 0 when there is none
  "$hoyle" elo "$1" --json 2>/dev/null |
    "$python" -c "import json,sys; print(json.load(sys.stdin)['records'])" 2>/dev/null || echo 0
}

cat >"$dir/t.yaml" <<EOF
name: mpi
games: [checkers, "gobang(board=8,men=12)"]
agents: [random, greedy, "alphabeta(depth=2)"]
schedule: round-robin
openings: {checkers: "book:$root/configs/books/checkers_two_move.txt", gobang: "random:2"}
openings_per_pairing: 2
games_per_opening: 1
max_moves: 150
workers: 1
seed: 11
output: $dir/one.h5
anchor: random
EOF

# ---- 1. three ranks = one process ----
"$hoyle" tournament "$dir/t.yaml" --quiet >"$dir/one.txt"
mpi 3 "$hoyle" tournament "$dir/t.yaml" --set "output=$dir/three.h5" --quiet >"$dir/three.txt" 2>"$dir/three.err" ||
  fail "3-rank run failed: $(tail -3 "$dir/three.err")"
"$python" "$here/../check_tournament_h5.py" "$dir/three.h5" 24 random greedy "alphabeta(depth=2)"
dump "$dir/one.h5" >"$dir/one.dump"
dump "$dir/three.h5" >"$dir/three.dump"
cmp -s "$dir/one.dump" "$dir/three.dump" || fail "the 3-rank file's games differ from the one-process file's"
diff <(sed "s|$dir/three.h5|F|" "$dir/three.txt") <(sed "s|$dir/one.h5|F|" "$dir/one.txt") >/dev/null ||
  fail "the 3-rank Elo table differs from the one-process table"
# two workers' threads on one rank as well
mpi 2 "$hoyle" tournament "$dir/t.yaml" --set "output=$dir/two.h5" --set workers=2 --quiet >/dev/null 2>&1 ||
  fail "2-rank run with 2 threads failed"
dump "$dir/two.h5" | cmp -s - "$dir/one.dump" || fail "the 2-rank, 2-thread file differs"
echo "mpi.sh: 1, 2 and 3 ranks store the same 24 games and print the same table"

# ---- 2. a worker rank killed mid-run; 3. the whole job killed ----
# (a few seconds of games, so that the kill lands mid-run)
# (HOYLE_SLOW_TESTS=0, the sanitizer run, where games are ten times slower: fewer, shallower)
reps=3 depth=5
[ "${HOYLE_SLOW_TESTS:-1}" = 0 ] && reps=1 depth=4
big=(--set openings_per_pairing=0 --set games_per_opening=$reps --set "games=[checkers]"
     --set "openings={checkers: 'book:$root/configs/books/checkers_two_move.txt'}"
     --set "agents=[random, greedy, 'alphabeta(depth=$depth)']")
"$hoyle" tournament "$dir/t.yaml" "${big[@]}" --set "output=$dir/ref.h5" --quiet >/dev/null
dump "$dir/ref.h5" >"$dir/ref.dump"
total=$(wc -l <"$dir/ref.dump")
# the pid of a rank, found by the rank variable Open MPI puts in its environment
rank_pid() {
  local want=$1 p
  for p in $(pgrep -f "$dir/t.yaml" || true); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$want"; then echo "$p"; return; fi
  done
}
wait_games() {  # until the journal of $1 holds some games
  for _ in $(seq 1 500); do
    if [ -s "$1.journal" ] && [ "$(stat -c %s "$1.journal")" -gt 3000 ]; then return 0; fi
    sleep 0.02
  done
}
for victim in worker job; do
  out="$dir/killed-$victim.h5"
  mpi 3 "$hoyle" tournament "$dir/t.yaml" "${big[@]}" --set "output=$out" --quiet >/dev/null 2>"$dir/kill.err" &
  launcher=$!
  wait_games "$out"
  if [ "$victim" = worker ]; then
    pid=$(rank_pid 1)
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
  else
    for r in 0 1 2; do pid=$(rank_pid $r); [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true; done
    kill -9 "$launcher" 2>/dev/null || true
  fi
  set +e; wait "$launcher" 2>/dev/null; rc=$?; set -e
  # every rank of the killed run gone before the resume (under load a rank can
  # outlive its launcher for a moment and still hold the output's lock)
  if [ "$victim" = job ]; then
    for _ in $(seq 1 100); do
      pkill -9 -f "$dir/t.yaml" 2>/dev/null || break
      sleep 0.1
    done
  fi
  partial=$(count "$out")
  [ "$rc" != 0 ] || echo "mpi.sh: note: the run finished before the $victim was killed" >&2
  mpi 3 "$hoyle" tournament "$dir/t.yaml" "${big[@]}" --set "output=$out" --quiet >/dev/null 2>"$dir/resume.err" ||
    fail "resume after killing the $victim failed: $(grep -v -e '^-*$' -e 'Open MPI' -e 'may or may not' -e 'exactly when' "$dir/resume.err" | tail -5)"
  dump "$out" | cmp -s - "$dir/ref.dump" || fail "resumed file (after killing the $victim at $partial games) differs"
  echo "mpi.sh: killed the $victim after $partial of $total games (mpirun exit $rc); resumed: identical games"
done

# ---- 4. ranks with different configs ----
# Rank 1 reads another seed: its schedule has the same length but other seeds, so rank 0 must
# refuse its first job rather than store another tournament's game.
cat >"$dir/wrap.sh" <<EOF
#!/usr/bin/env bash
if [ "\$OMPI_COMM_WORLD_RANK" = 1 ]; then exec "$hoyle" "\$@" --set seed=99; fi
exec "$hoyle" "\$@"
EOF
chmod +x "$dir/wrap.sh"
set +e
mpi 2 "$dir/wrap.sh" tournament "$dir/t.yaml" --set "output=$dir/mixed.h5" --quiet >/dev/null 2>"$dir/mixed.err"
rc=$?
set -e
[ "$rc" != 0 ] || fail "ranks with different configs ran to completion"
grep -q "another seed on this rank: its config differs from rank 0's" "$dir/mixed.err" ||
  fail "no clear message for differing configs: $(tail -3 "$dir/mixed.err")"
n=$(count "$dir/mixed.h5")
[ "$n" = 0 ] || fail "a rank with another config stored $n games"
echo "mpi.sh: a rank with another config is refused with a message; nothing stored"
