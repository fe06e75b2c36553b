#!/usr/bin/env bash
# The published longest wins of the 4-man chess endings that take longer
# to build than a unit test should: K+2B v K 19 moves (37 plies), K+B+Kt v K
# 33 (65 plies), K+Q v K+R 35 (69 plies), through `hoyle tablebase`, with the
# smaller classes they need (K+Q v K and K+R v K: 10 and 16 moves, also in
# tests/test_retro.c). About 35-70 s of CPU in a Release build; skipped
# (exit 77) when HOYLE_SLOW_TESTS=0, as in the sanitizer run.
# usage: tb_longest.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"
[ "${HOYLE_SLOW_TESTS:-1}" = 0 ] && skip "HOYLE_SLOW_TESTS=0"
expect 0 "build" -- "$hoyle" tablebase chess KBBvK KBNvK KQvKR --out "$dir/tb" --threads 2 --quiet
has out "^KBBvK .* 37 *19 *dtm$" "K+2B v K: mate in 19"
has out "^KBNvK .* 65 *33 *dtm$" "K+B+Kt v K: mate in 33"
has out "^KQvKR .* 69 *35 *dtm$" "K+Q v K+R: mate in 35"
has out "^KQvK .* 19 *10 *dtm$" "K+Q v K: mate in 10"
has out "^KRvK .* 31 *16 *dtm$" "K+R v K: mate in 16"
finish
