#!/usr/bin/env bash
# The Python package's pytest suite (python/tests) against this build's
# libhoyle.so and `hoyle` program. Skipped (77) when no Python has cffi,
# numpy and pytest (Debian: python3-cffi python3-numpy python3-pytest),
# unless HOYLE_REQUIRE_PYTHON=1 (scripts/run-tests sets it), which makes that
# a failure. Also runs against an ASan build's library (see below).
# Usage: python.sh LIBHOYLE_SO HOYLE_BINARY SOURCE_DIR
set -euo pipefail
so=$1 hoyle=$2 src=$3
. "$(dirname "$0")/lib.sh"
lib_required=${HOYLE_REQUIRE_PYTHON:-0}
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import cffi, numpy, pytest' 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] ||
  skip "no python3 with cffi, numpy and pytest (Debian: python3-cffi python3-numpy python3-pytest)"
# An ASan build's library needs the sanitizer runtimes loaded before the
# interpreter (LD_PRELOAD); CPython keeps memory to the end on purpose, so
# LeakSanitizer is off for this test (the C suites check leaks).
if readelf -d "$so" | grep -q 'NEEDED.*libasan'; then
  preload=$(ldd "$so" | awk '/lib(asan|ubsan)\.so/ {print $3}' | paste -sd:)
  [ -n "$preload" ] || fail "$so needs libasan, which ldd does not find"
  export LD_PRELOAD=$preload${LD_PRELOAD:+:$LD_PRELOAD}
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
cd "$src"
export HOYLE_LIB=$so HOYLE_CLI=$hoyle PYTHONPATH=$src/python${PYTHONPATH:+:$PYTHONPATH}
"$python" -m pytest -q -p no:cacheprovider python/tests
