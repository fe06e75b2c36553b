#!/usr/bin/env bash
# TorchScript export check: tch_fixture (tests/tch_fixture.c) trains a small net, exports it
# and writes inputs + C-side outputs; Python torch (Debian python3-torch) loads the export
# with torch.jit.load and must reproduce the outputs within 1e-5.
# usage: tch_export.sh TCH_FIXTURE DATA_DIR  (registered by tests/CMakeLists.txt when libtorch
# is built). Exit 77 (CTest "skipped") when no python3 with torch is found; set HOYLE_PYTHON
# to choose the interpreter.
set -u
fixture=$1
here=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"

python=""
for candidate in ${HOYLE_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import torch' >/dev/null 2>&1; then
    python=$candidate
    break
  fi
done
[ -n "$python" ] || skip "no python3 with torch (Debian: apt-get install python3-torch)"

root=$dir
# every layout: tch_forward runs a folded inference copy, Python the export op by op
for variant in dense conv pool fc; do
  mkdir "$root/$variant"
  "$fixture" "$root/$variant" "$variant" || fail "tch_fixture $variant"
done
"$python" "$here/check_torchscript.py" "$root"/dense "$root"/conv "$root"/pool "$root"/fc ||
  fail "TorchScript export differs in Python torch"
echo "tch_export: ok ($python)"
