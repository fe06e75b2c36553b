#!/usr/bin/env bash
# The deepest published perft counts, through the `hoyle perft` command:
# every row of tests/data/checkers/perft.txt whose source is published
# (English and the Losing Game through depth 12, Polish through depth 10),
# and every row of tests/data/chess/perft_*.txt (the start position to depth
# 6, Kiwipete to 5, position 3 to 7, the rule traps), checked at its last
# depth. About 35 s in a Release build; skipped (exit 77) when
# HOYLE_SLOW_TESTS=0, as in the sanitizer run, where the unit tests cover the
# same tables to smaller depths.
# usage: perft_deep.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"
data=$2
[ "${HOYLE_SLOW_TESTS:-1}" = 0 ] && skip "HOYLE_SLOW_TESTS=0"
while IFS='|' read -r spec position counts; do
  spec=$(echo "$spec" | xargs)
  case "$spec" in ''|'#'*|*devil*) continue ;; esac
  set -- $counts
  depth=$#
  expected=${!depth}
  args=()
  [ "$(echo "$position" | xargs)" = start ] || args=(--position "$(echo "$position" | xargs)")
  got=$("$hoyle" perft "$spec" "$depth" "${args[@]}" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["nodes"])')
  if [ "$got" = "$expected" ]; then
    pass=$((pass + 1))
    echo "ok: perft $spec $depth = $got"
  else
    miss "perft $spec $depth = $got, expected $expected"
  fi
done < <(cat "$data/checkers/perft.txt" "$data"/chess/perft_*.txt)
[ "$pass" -ge 35 ] || miss "only $pass perft lines"
finish
