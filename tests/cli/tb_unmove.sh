#!/usr/bin/env bash
# Every chess class of 3 and 4 men, with pawns or without, built twice, by
# the move graph (--graph) and by un-moves (solve/retro_unmove.c): the same
# bytes, file by file (tests/test_retro.c compares a few small classes index
# by index on every run). Thirty-three classes; skipped (exit 77) when
# HOYLE_SLOW_TESTS=0.
# usage: tb_unmove.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
. "$(dirname "$0")/lib.sh"
[ "${HOYLE_SLOW_TESTS:-1}" = 0 ] && skip "HOYLE_SLOW_TESTS=0"
classes="KQvK KRvK KQQvK KQRvK KQBvK KQNvK KRRvK KRBvK KRNvK KBBvK KBNvK KNNvK
         KQvKQ KQvKR KQvKB KQvKN KRvKR KRvKB KRvKN KBvKB KBvKN KNvKN
         KPvK KPvKP KPPvK KQvKP KRvKP KBvKP KNvKP KQPvK KRPvK KBPvK KNPvK"
# shellcheck disable=SC2086
expect 0 "graph" -- "$hoyle" tablebase chess $classes --out "$dir/graph" --graph --quiet
# shellcheck disable=SC2086
expect 0 "un-moves" -- "$hoyle" tablebase chess $classes --out "$dir/unmove" --quiet
n=0
for f in "$dir"/graph/*.tb; do
  n=$((n + 1))
  check "$(basename "$f"): the same bytes both ways" "cmp -s '$f' '$dir/unmove/$(basename "$f")'"
done
check "every class built ($n tables)" "[ $n -ge 33 ]"
finish
