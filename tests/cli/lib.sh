# lib.sh — what the tests/cli scripts share; every script sources it first thing after `set`:
#   . "$(dirname "$0")/lib.sh"
# It gives
#   $dir          a temporary folder, removed when the script exits (after the commands
#                 given to at_exit, e.g. stopping a server the script started; KEEP=1 keeps it)
#   at_exit CMD   run CMD (a shell string) when the script exits
#   fail MSG      print "SCRIPT: FAIL: MSG" on stderr and exit 1: the first failure ends it
#   skip MSG      print "SCRIPT: skipped: MSG" on stderr and exit 77 (CTest's skip code);
#                 a FAIL instead when the script set lib_required=1 (HOYLE_REQUIRE_MPI=1 ...)
# and, for scripts that run every check and report them together:
#   expect CODE WHAT -- CMD...   CMD (stdout to $dir/out, stderr to $dir/err) exits CODE, and
#                                on exit 2 its stderr is exactly one line
#   has FILE TEXT WHAT           $dir/FILE contains TEXT
#   check WHAT EXPR              EXPR (a shell string, evaluated) succeeds
#   miss WHAT                    count one failed check, printing "FAIL: WHAT"
#   finish                       print "N passed, M failed"; exit 1 when any failed
lib_name=$(basename "$0")
dir=$(mktemp -d "${TMPDIR:-/tmp}/hoyle_${lib_name%.sh}.XXXXXX") || exit 1
lib_at_exit=""
trap 'eval "$lib_at_exit"; [ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
at_exit() { lib_at_exit="$lib_at_exit $*;"; }
pass=0
fails=0

fail() { echo "$lib_name: FAIL: $*" >&2; exit 1; }
skip() {
  [ "${lib_required:-0}" = 1 ] && fail "$* (required here, so not skipped)"
  echo "$lib_name: skipped: $*" >&2
  exit 77
}
miss() { echo "FAIL: $*"; fails=$((fails + 1)); }

expect() {
  local code=$1 what=$2 rc
  shift 3
  "$@" >"$dir/out" 2>"$dir/err"; rc=$?
  if [ "$rc" != "$code" ]; then
    miss "$what: exit $rc, expected $code ($*)"; cat "$dir/err"; return
  fi
  if [ "$code" = 2 ] && [ "$(wc -l <"$dir/err")" != 1 ]; then
    miss "$what: expected a one-line error, got:"; cat "$dir/err"; return
  fi
  pass=$((pass + 1))
}
has() {
  if grep -q -- "$2" "$dir/$1"; then pass=$((pass + 1)); else miss "$3: no '$2' in $1"; cat "$dir/$1"; fi
}
check() { if eval "$2"; then pass=$((pass + 1)); else miss "$1"; fi; }
finish() {
  echo "$pass passed, $fails failed"
  [ "$fails" = 0 ] || exit 1
  exit 0
}
