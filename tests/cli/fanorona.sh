#!/usr/bin/env bash
# CLI checks of Fanorona (issue 12): the perft counts through `hoyle perft`
# (per turn from the start to depth 5, the véla form to depth 6), the seed's
# véla game through `hoyle show --moves`, one-line errors for bad input, and
# games between the search agents in `hoyle play`. The per-step counts are
# checked by tests/test_fanorona.c. About a second in a Release build.
# usage: fanorona.sh HOYLE_BINARY DATA_DIR
set -u
H=$1
data=$2
. "$(dirname "$0")/lib.sh"
nodes() { "$H" perft "$1" "$2" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["nodes"])'; }

depth=5
[ "${HOYLE_SLOW_TESTS:-1}" = 0 ] && depth=4
want=(0 5 39 724 18026 431852)
for d in $(seq 1 $depth); do
  got=$(nodes fanorona "$d")
  [ "$got" = "${want[$d]}" ] || fail "perft fanorona $d = $got, expected ${want[$d]}"
done
vela=(0 5 24 94 817 3984 43015)
for d in 1 2 3 4 5 6; do
  got=$(nodes 'fanorona(vela=true)' "$d")
  [ "$got" = "${vela[$d]}" ] || fail "perft fanorona(vela=true) $d = $got, expected ${vela[$d]}"
done

# the véla game of seed 002, every move with the record's captures
moves=$(grep -v '^#' "$data/fanorona/vela_game.txt" | sed 's/ *#.*//' | paste -sd';')
out=$("$H" show 'fanorona(vela=true)' --moves "$moves") || fail "the vela game does not replay"
echo "$out" | grep -q '^position: ........./..b....../w......../...w...../......... b' ||
  fail "wrong final position of the vela game"

# bad input: one line, exit 2
for args in "--moves C4-C5" "--moves D5-C5A;B6-A5(C7,D8,E8)" "--position bbbbbbbbb/w"; do
  err=$("$H" show fanorona $args 2>&1 >/dev/null)
  [ $? -eq 2 ] || fail "show fanorona $args should exit 2"
  [ "$(echo "$err" | wc -l)" -eq 1 ] || fail "show fanorona $args: not one line: $err"
done

# the search agents play both forms to the end
for spec in fanorona 'fanorona(vela=true)'; do
  out=$("$H" play "$spec" --p1 'mcts(sims=100)' --p2 'alphabeta(depth=2)' --quiet) ||
    fail "play $spec"
  echo "$out" | grep -q "result after" || fail "no result line for $spec"
done
echo "fanorona: ok"
