#!/usr/bin/env bash
# CLI checks of `hoyle solve fifteen`: exit codes, one-line errors, a Korf
# file with published lengths (right and wrong), JSON, the node limit, the
# table cache. usage: solve_fifteen.sh HOYLE_BINARY DATA_DIR
set -u
hoyle=$1
data=$2
. "$(dirname "$0")/lib.sh"


expect 0 "help" -- "$hoyle" solve fifteen --help
expect 2 "short position" -- "$hoyle" solve fifteen --position "1 2 3"
has err "3 tiles, want 16" "short position"
expect 2 "unsolvable position" -- "$hoyle" solve fifteen --position "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0"
has err "not solvable" "unsolvable position"
expect 2 "bad heuristic" -- "$hoyle" solve fifteen --heuristic foo
expect 2 "no tables for 5x5" -- "$hoyle" solve "fifteen(size=5)" --heuristic pdb
expect 2 "missing file" -- "$hoyle" solve fifteen --korf "$dir/none.txt"
expect 2 "position and korf" -- "$hoyle" solve fifteen --position "1 2" --korf x
printf '# two of Korf instances\n55 41 13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11\n79 42 0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15\n' >"$dir/k.txt"
expect 0 "two Korf instances, lc" -- "$hoyle" solve fifteen --korf "$dir/k.txt" --heuristic lc --quiet
has out "total length 83 (published 83)" "two Korf instances"
sed 's/^79 42/79 40/' "$dir/k.txt" >"$dir/wrong.txt"
expect 1 "a wrong published length" -- "$hoyle" solve fifteen --korf "$dir/wrong.txt" --heuristic lc --quiet
has out "WRONG (published 40)" "wrong length"
printf '1 2 x 4\n' >"$dir/bad.txt"
expect 2 "a bad line" -- "$hoyle" solve fifteen --korf "$dir/bad.txt"
has err "line 1" "bad line"
expect 1 "node limit" -- "$hoyle" solve fifteen --korf "$dir/k.txt" --heuristic md --nodes 100 --quiet
has out "UNSOLVED" "node limit"
expect 0 "3x3 json, tables cached" -- "$hoyle" solve "fifteen(size=3,seed=5)" --pdb-dir "$dir/cache" --json
has out '"solved":true' "3x3 json"
has out '"pdb_from_cache":false' "3x3 json, first run"
expect 0 "3x3 again, from the cache" -- "$hoyle" solve "fifteen(size=3,seed=5)" --pdb-dir "$dir/cache" --json
has out '"pdb_from_cache":true' "3x3 json, second run"
printf 'x' >>"$dir/cache/fifteen-pdb-3x3-blank8.bin"
expect 0 "3x3, damaged cache" -- "$hoyle" solve "fifteen(size=3,seed=5)" --pdb-dir "$dir/cache"
has err "rebuilding" "damaged cache"
expect 0 "Korf's file is read" -- "$hoyle" solve fifteen --korf "$data/fifteen/korf100.txt" --first 1 --heuristic lc --quiet
has out "#1    length  57" "Korf instance 1"

finish
