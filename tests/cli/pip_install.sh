#!/usr/bin/env bash
# `pip install ./python` into a fresh virtual environment, offline: the
# package with this build's libhoyle.so bundled (python/setup.py,
# HOYLE_BUNDLE_LIB), then used from outside the checkout with no HOYLE_LIB
# and no PYTHONPATH: the library found is the bundled one, a game, an agent
# and the vector environment work, and `pip uninstall` removes it.
# The venv has --system-site-packages for Debian's numpy and cffi, and pip
# runs with --no-build-isolation --no-index (Debian's setuptools and wheel;
# nothing downloaded). Skipped (77) without python3-venv, cffi or numpy
# (Debian: python3-venv python3-cffi python3-numpy), unless
# HOYLE_REQUIRE_PYTHON=1 (scripts/run-tests sets it).
# Usage: pip_install.sh LIBHOYLE_SO SOURCE_DIR
set -euo pipefail
so=$1 src=$2
. "$(dirname "$0")/lib.sh"
lib_required=${HOYLE_REQUIRE_PYTHON:-0}
python=${PYTHON:-/usr/bin/python3}
"$python" -c 'import cffi, numpy' 2>/dev/null || skip "no python3 with cffi and numpy (Debian: python3-cffi python3-numpy)"
if readelf -d "$so" | grep -q 'NEEDED.*libasan'; then
  # not a missing package: the release build's run of this test covers it
  lib_required=0
  skip "$so is a sanitizer build (the release build's library is installed)"
fi
"$python" -m venv --system-site-packages "$dir/venv" 2>"$dir/venv.err" ||
  skip "python3 -m venv failed (Debian: python3-venv): $(head -n1 "$dir/venv.err")"
# the sources pip builds from: python/ and the top CMakeLists.txt (the version), copied so
# that nothing is written into the checkout
mkdir "$dir/src"
cp -r "$src/python" "$dir/src/python"
cp "$src/CMakeLists.txt" "$dir/src/"
rm -rf "$dir/src/python/build" "$dir/src/python/"*.egg-info "$dir/src/python/hoyle/libhoyle.so"
HOYLE_BUNDLE_LIB=$so "$dir/venv/bin/pip" install --quiet --no-build-isolation --no-index \
  "$dir/src/python" >"$dir/pip.log" 2>&1 || { cat "$dir/pip.log" >&2; exit 1; }
cd "$dir"
env -u HOYLE_LIB -u PYTHONPATH "$dir/venv/bin/python" - "$dir/venv" <<'PY'
import os, sys
import numpy as np
import hoyle
venv = sys.argv[1]
assert hoyle.library_path.startswith(venv + "/"), f"library from {hoyle.library_path}, not the venv"
assert hoyle.__file__.startswith(venv + "/"), hoyle.__file__
speed = hoyle._lib.speed  # hoyle._speed, bundled beside the library when it was built
if os.environ.get("HOYLE_REQUIRE_PYTHON") == "1":
    assert speed is not None, "hoyle._speed was not bundled"
assert speed is None or speed.__file__.startswith(venv + "/"), speed.__file__
g = hoyle.Game("checkers")
a = hoyle.Agent(g, "mcts(sims=20)", seed=1)
s = g.new_state()
s.apply(a.act(s))
env = hoyle.VectorEnv("backgammon", 4, opponent="random")
env.reset(seed=1)
rng = np.random.default_rng(1)
for _ in range(20):
    env.step(env.random_actions(rng))
print("ok", hoyle.__version__, env.actions_applied)
PY
"$dir/venv/bin/pip" uninstall --quiet --yes hoyle
if env -u HOYLE_LIB -u PYTHONPATH "$dir/venv/bin/python" -c 'import hoyle' 2>/dev/null; then
  echo "pip_install.sh: hoyle still imports after pip uninstall" >&2
  exit 1
fi
