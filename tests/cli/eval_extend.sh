#!/usr/bin/env bash
# scripts/eval_extend (docs/formats.md, "Evaluation weights"): the third chess run's net 43 (426
# terms) carried across the 30 later terms is byte for byte the copy kept beside it, which
# reads and plays, while the 426-term file itself is refused by hoyle in one line; the script
# refuses in one line with exit 2, writing nothing, another game, an OLD that is not the first
# terms of REFERENCE, a missing file and a file that is no weights file.
# Usage: eval_extend.sh HOYLE_BINARY DATA_DIR
set -uo pipefail
hoyle=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
extend="$root/scripts/eval_extend"
old="$root/docs/results/chess_tdleaf3/net-000043.eval"
net0="$root/docs/results/chess_tdleaf5/net-000000.eval" # run 5's net 0: net 43, 30 terms at 0

expect 0 "carry net 43 across" -- "$extend" "$old" "$net0" "$dir/net43.eval"
check "the same bytes as net-000043-456.eval" \
  "cmp -s '$dir/net43.eval' '$root/docs/results/chess_tdleaf3/net-000043-456.eval'"
expect 0 "the carried file plays" -- "$hoyle" match chess "alphabeta(eval=$dir/net43.eval,depth=1)" \
  random --games 1
expect 2 "hoyle refuses the 426-term file" -- "$hoyle" match chess \
  "alphabeta(eval=$old,depth=1)" random --games 1
has err "terms 456" "the refusal names the game's terms"

for bad in "$root/models/checkers.eval:$net0:differ" "$net0:$old:not the first terms" \
  "$dir/none.eval:$net0:No such file" "$root/README.md:$net0:not a hoyle evaluation file"; do
  IFS=: read -r a b words <<<"$bad"
  expect 2 "refuse $(basename "$a") over $(basename "$b")" -- "$extend" "$a" "$b" "$dir/out.eval"
  has err "$words" "its line says '$words'"
  check "nothing written for $(basename "$a")" "[ ! -e '$dir/out.eval' ]"
done
finish
