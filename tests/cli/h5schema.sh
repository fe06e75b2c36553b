#!/usr/bin/env bash
# Write a record file with tests/h5rec_fixture and read it back with h5py
# (tests/check_h5schema.py): the HDF5 schema of docs/formats.md is readable
# with no hoyle code. Usage: h5schema.sh HOYLE_BINARY DATA_DIR
# The fixture is found beside the tests (build/tests/h5rec_fixture), or via
# $H5REC_FIXTURE.
set -euo pipefail
hoyle_bin=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fixture=${H5REC_FIXTURE:-$(dirname "$hoyle_bin")/../tests/h5rec_fixture}
if [ ! -x "$fixture" ]; then
  echo "h5schema.sh: fixture '$fixture' not built (cmake --build ... --target h5rec_fixture)" >&2
  exit 1
fi
# The first Python that has h5py: $PYTHON, python3 on PATH, then Debian's.
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import h5py, numpy' 2>/dev/null; then python=$p; break; fi
done
if [ -z "$python" ]; then
  echo "h5schema.sh: python3 with h5py and numpy is required (Debian: python3-h5py python3-numpy)" >&2
  exit 1
fi
. "$(dirname "$0")/lib.sh"
"$fixture" "$dir/fixture.h5"
"$python" "$here/../check_h5schema.py" "$dir/fixture.h5"
# The fixture refuses to overwrite: a second run on the same path fails cleanly.
if "$fixture" "$dir/fixture.h5" 2>"$dir/err"; then
  echo "h5schema.sh: fixture overwrote an existing file" >&2
  exit 1
fi
grep -q "already exists" "$dir/err"
echo "h5schema.sh: OK"
