#!/usr/bin/env bash
# The libtorch module is loaded on demand (train/tch/tch_dl.c): `hoyle` itself does not link
# libtorch; a command that needs a net but cannot load the module fails with one line naming
# what was tried; commands that need no net work without it; HOYLE_TORCH_MODULE chooses the
# file. Registered only in builds with libtorch (tests/CMakeLists.txt).
# Usage: torch_module.sh HOYLE_BINARY TORCH_MODULE (the build tree's libhoyle_torch.so)
set -euo pipefail
hoyle=$1
module=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$(dirname "$0")/lib.sh"
unset HOYLE_TORCH_MODULE
expect_one_line() { # RC_FILE ERR_FILE TEXT
  local rc; rc=$(cat "$1")
  [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || { cat "$2" >&2; fail "exit $rc, wanted 1 or 2"; }
  [ "$(wc -l <"$2")" -eq 1 ] || { cat "$2" >&2; fail "message is not one line"; }
  grep -qF "$3" "$2" || { cat "$2" >&2; fail "message lacks '$3'"; }
}
run_failing() { # ERR_FILE CMD...
  local err=$1; shift
  set +e; "$@" >/dev/null 2>"$err"; echo $? >"$err.rc"; set -e
}

# 0. Found the usual way (the build tree), the module reports a model file it cannot read
# (one that is there: a missing one is refused before the module is loaded, core/models.c).
echo "not a TorchScript file" >"$dir/x.pt"
run_failing "$dir/e0" "$hoyle" match gobang "az(model=$dir/x.pt)" random --games 1
expect_one_line "$dir/e0.rc" "$dir/e0" "tch_load: $dir/x.pt"

# 1. The binary does not link libtorch (that is the point: ~0.5 s of start-up per command).
if ldd "$hoyle" | grep -i torch; then fail "hoyle links libtorch"; fi

# 2. A module path that does not exist: commands that need the net fail with one line.
export HOYLE_TORCH_MODULE=$dir/missing.so
run_failing "$dir/e1" "$hoyle" match gobang "az(model=$dir/x.pt)" random --games 1
expect_one_line "$dir/e1.rc" "$dir/e1" "libtorch module not found: tried $dir/missing.so (from HOYLE_TORCH_MODULE)"
run_failing "$dir/e2" "$hoyle" train "$here/../../configs/train/tiny.yaml" --set output="$dir/run" --quiet
expect_one_line "$dir/e2.rc" "$dir/e2" "libtorch module not found: tried $dir/missing.so"

# 3. ... while commands that need no net work.
"$hoyle" games >"$dir/games.txt" && grep -q "^gobang" "$dir/games.txt" || fail "hoyle games without the module"
"$hoyle" perft gobang 1 >/dev/null || fail "hoyle perft without the module"
"$hoyle" match gobang random random --games 2 >/dev/null 2>&1 || fail "hoyle match without the module"

# 4. A file that is there but is not a module: "not loaded", with the reason, one line.
echo "not a library" >"$dir/bogus.so"
export HOYLE_TORCH_MODULE=$dir/bogus.so
run_failing "$dir/e3" "$hoyle" match gobang "az(model=$dir/x.pt)" random --games 1
expect_one_line "$dir/e3.rc" "$dir/e3" "libtorch module not loaded: tried $dir/bogus.so ("

# 5. HOYLE_TORCH_MODULE names the file to load: a copy of the real module works.
cp "$module" "$dir/copy.so"
export HOYLE_TORCH_MODULE=$dir/copy.so
run_failing "$dir/e4" "$hoyle" match gobang "az(model=$dir/x.pt)" random --games 1
expect_one_line "$dir/e4.rc" "$dir/e4" "tch_load: $dir/x.pt"
echo "torch_module.sh: ok"
