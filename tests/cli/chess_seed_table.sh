#!/usr/bin/env bash
# `hoyle report --seed-table`: a tiny chess tournament from the seed's
# openings (configs/tournament/chess_seed_openings.yaml, scaled down), then
# the seed's 1,500-game table printed beside it; a bad table file exits 2
# naming its line.
# Usage: chess_seed_table.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$(dirname "$0")/lib.sh"

cd "$root"
"$hoyle" tournament configs/tournament/chess_seed_openings.yaml --quiet \
  --set 'agents=["alphabeta(depth=2,quiescence=true)", random]' \
  --set openings_per_pairing=3 --set max_moves=60 --set workers=2 \
  --set output="$dir/seed.h5" >"$dir/tour.txt"
"$hoyle" report "$dir/seed.h5" --seed-table configs/books/chess_seed_results.txt >"$dir/report.txt"
grep -q "The seed's table of 1,500 games" "$dir/report.txt" || fail "no seed table"
grep -q "^Ruy Lopez .*145   103    58    306     57     20$" "$dir/report.txt" || fail "no Ruy Lopez row"
grep -q "^Total  *[0-9]  *[0-9]  *[0-9]  *6 .*697   542   261   1500" "$dir/report.txt" || fail "no Total row of 6 games"
grep -q "counting drawn games as one-half (the seed: 55.2)" "$dir/report.txt" || fail "no overall line"

printf 'A | 1 2 3 7 50 100 | x\nTotal | 1 2 3 7 50\n' >"$dir/bad.txt"
set +e
"$hoyle" report "$dir/seed.h5" --seed-table "$dir/bad.txt" >/dev/null 2>"$dir/err.txt"
rc=$?
set -e
[ "$rc" = 2 ] || fail "bad table: exit $rc, want 2"
grep -q "bad.txt:1: row 'A': 1 + 2 + 3 is not 7" "$dir/err.txt" || fail "bad table message: $(cat "$dir/err.txt")"
echo "chess_seed_table.sh: ok"
