# lib.sh — what the tests/cli scripts share. Source it after `set`:
#   . "$(dirname "$0")/lib.sh"
# fail MESSAGE...: print "SCRIPT: FAIL: MESSAGE" on stderr and exit 1 (the test fails).
fail() { echo "$(basename "$0"): FAIL: $*" >&2; exit 1; }
