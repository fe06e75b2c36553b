#!/usr/bin/env bash
# The Python package's pytest suite (python/tests) against this build's
# libhoyle.so and `hoyle` program. Skipped (77) when no Python has cffi,
# numpy and pytest (Debian: python3-cffi python3-numpy python3-pytest),
# unless HOYLE_REQUIRE_PYTHON=1 (scripts/run-tests sets it), which makes that
# a failure. Usage: python.sh LIBHOYLE_SO HOYLE_BINARY SOURCE_DIR
set -euo pipefail
so=$1 hoyle=$2 src=$3
python=""
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$p" -c 'import cffi, numpy, pytest' 2>/dev/null; then python=$p; break; fi
done
if [ -z "$python" ]; then
  msg="python.sh: no python3 with cffi, numpy and pytest (Debian: python3-cffi python3-numpy python3-pytest)"
  if [ "${HOYLE_REQUIRE_PYTHON:-0}" = 1 ]; then echo "$msg" >&2; exit 1; fi
  echo "$msg: skipped" >&2
  exit 77
fi
# An ASan build's library needs libasan loaded before the interpreter
# (LD_PRELOAD), and CPython's own allocations then trip LeakSanitizer: the
# Python layer is tested in the release build only.
if readelf -d "$so" | grep -q 'NEEDED.*libasan'; then
  echo "python.sh: $so is built with AddressSanitizer: skipped (the release build runs it)" >&2
  exit 77
fi
cd "$src"
export HOYLE_LIB=$so HOYLE_CLI=$hoyle PYTHONPATH=$src/python${PYTHONPATH:+:$PYTHONPATH}
exec "$python" -m pytest -q -p no:cacheprovider python/tests
