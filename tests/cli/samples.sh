#!/usr/bin/env bash
# Self-play with the fake network, samples written as a shard, read back
# with h5py (tests/check_samples_h5.py): the "Training samples" schema of
# docs/formats.md needs no hoyle code. Usage: samples.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import h5py, numpy' 2>/dev/null; then python=$p; break; fi
done
if [ -z "$python" ]; then
  echo "samples.sh: python3 with h5py and numpy is required (Debian: python3-h5py)" >&2
  exit 1
fi
. "$(dirname "$0")/lib.sh"
"$hoyle" selfplay --help | grep "usage: hoyle selfplay" >/dev/null
"$hoyle" selfplay 'gobang(board=5,men=0)' 'games=4,parallel=4,sims=16,fast_sims=4,full_prob=0.5' \
  --output "$dir/s.h5" --json >"$dir/out.json"
grep -q '"games":4' "$dir/out.json"
grep -q '"evaluator":"fake"' "$dir/out.json"
"$python" "$here/../check_samples_h5.py" "$dir/s.h5" 4
# bad input: one line, exit 2
set +e
"$hoyle" selfplay 'gobang(board=5,men=0)' 'sims=0' 2>"$dir/err"; rc=$?
set -e
[ "$rc" -eq 2 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "sims" "$dir/err"
echo "samples.sh: OK"
