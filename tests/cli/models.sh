#!/usr/bin/env bash
# Every shipped model under models/ (models/README.md), loaded by its name through the one
# lookup of core/models.h, from the checkout and from another folder: TD nets as
# td(model=NAME), learned evaluation weights as alphabeta(eval=NAME), AlphaZero nets as
# az(model=NAME) (libtorch builds). Each plays legal games of its own game (the game its file
# names, the shape checked by its loader), and is refused in one line with exit 2 for another
# game, cut in half, or with one byte changed (in its header and in its weights). Fails when
# models/ has none, or holds a file of no known kind or without a row in models/README.md.
# Usage: models.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$(dirname "$0")/lib.sh"

# refused SPEC GAME WHAT WORDS: a match with SPEC on GAME exits 2 with one line holding WORDS
refused() {
  local rc
  set +e
  (cd "$dir" && "$hoyle" match "$2" "$1" random --games 2) >/dev/null 2>"$dir/err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "$4" "$dir/err" ||
    fail "$3: rc $rc, want 2 and one line with '$4': $(cat "$dir/err")"
}

# plays SPEC GAME WHERE: two legal games against random, from folder WHERE
plays() {
  (cd "$3" && "$hoyle" match "$2" "$1" random --games 2 --seed 3 --json) >"$dir/m.json" \
    2>"$dir/m.err" || fail "$1 on $2 from $3: $(cat "$dir/m.err")"
  grep -q '"games":2' "$dir/m.json" || fail "$1: $(cat "$dir/m.json")"
  ! grep -qi forfeit "$dir/m.err" || fail "$1: a forfeit: $(cat "$dir/m.err")"
}

n=0
torch=false # az nets need a build with libtorch, where the az kind exists
# (grep reads the whole list: with -q it could stop early and, under pipefail, fail the pipe)
if "$hoyle" agents 2>/dev/null | grep '^az ' >/dev/null; then torch=true; fi
for f in "$root"/models/*; do
  file=$(basename "$f")
  [ "$file" = README.md ] && continue
  name=${file%.*}
  ext=${file##*.}
  grep -q "| \`$file\` |" "$root/models/README.md" || fail "$file has no row in models/README.md"
  case $ext in
    td) spec="td(model=$name)" bad="not for" ;;
    eval) spec="alphabeta(depth=2,eval=$name)" bad="not for" ;;
    pt)
      [ "$torch" = true ] || { echo "models.sh: $file skipped (no libtorch in this build)"; continue; }
      spec="az(model=$name,sims=8)" bad="shape" ;;
    *) fail "$file: no known kind of model (.td, .eval, .pt)" ;;
  esac
  if [ "$ext" = pt ]; then # the game: the README row's second column, a game spec
    game=$(grep "| \`$file\` |" "$root/models/README.md" | cut -d'|' -f3 | tr -d ' `')
  else # the game: line 2 of the file, `game SPEC`
    game=$(sed -n 2p "$f" | sed 's/^game //')
  fi
  [ -n "$game" ] || fail "$file: no game"
  plays "$spec" "$game" "$root"
  plays "$spec" "$game" "$dir" # by name from another folder: the checkout of the binary
  # another game: refused for its game or its shape
  other=checkers
  [ "${game%%(*}" = checkers ] && other=gobang
  [ "$ext" = eval ] && other=chess # gobang has no weighted terms at all
  [ "$ext" = eval ] && [ "${game%%(*}" = chess ] && other=checkers
  refused "$spec" "$other" "$file for $other" "$bad"
  # a damaged copy, by path: cut in half; one byte changed in the header; one in the weights
  size=$(stat -c %s "$f")
  head -c $((size / 2)) "$f" >"$dir/cut.$ext"
  refused "${spec/=$name/=$dir/cut.$ext}" "$game" "$file cut in half" "$file\|cut.$ext"
  for at in 7 $((size * 3 / 4)); do
    cp "$f" "$dir/flip.$ext"
    byte=$(od -An -tu1 -j "$at" -N1 "$f" | tr -d ' ')
    printf "$(printf '\\%03o' $(((byte ^ 1) == 10 ? byte ^ 2 : byte ^ 1)))" |
      dd of="$dir/flip.$ext" bs=1 seek="$at" conv=notrunc status=none
    cmp -s "$f" "$dir/flip.$ext" && fail "$file: byte $at unchanged"
    refused "${spec/=$name/=$dir/flip.$ext}" "$game" "$file with byte $at changed" "flip.$ext"
  done
  n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no shipped model in models/"
# a name that is no shipped model: one line naming it
refused "td(model=nosuch)" backgammon "an unknown name" "no model 'nosuch'"
refused "alphabeta(eval=nosuch)" checkers "an unknown name" "no model 'nosuch'"
echo "models.sh: $n models ok"
