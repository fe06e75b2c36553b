#!/usr/bin/env bash
# Every shipped model under models/ (models/README.md) plays legal games of its own game: the TD
# nets by name, from the checkout and from another folder (the lookup of train/agent_td.h), the
# learned evaluation weights as alphabeta(eval=FILE); for another game each is refused in one
# line with exit 2. Fails when models/ has none.
# Usage: models.sh HOYLE_BINARY DATA_DIR
set -euo pipefail
hoyle=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "models.sh: $*" >&2; exit 1; }
n=0
for f in "$root"/models/*.td; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .td)
  game=$(sed -n 2p "$f" | sed 's/^game //')
  grep -q "| \`$name.td\` |" "$root/models/README.md" || fail "$name.td has no row in models/README.md"
  (cd "$root" && "$hoyle" match "$game" "td(model=$name)" random --games 2 --seed 3 --json) \
    >"$dir/a.json" 2>"$dir/a.err" || fail "$name: match from the checkout failed"
  ! grep -qi forfeit "$dir/a.err" || fail "$name: a forfeit: $(cat "$dir/a.err")"
  grep -q '"games":2' "$dir/a.json" || fail "$name: $(cat "$dir/a.json")"
  (cd "$dir" && "$hoyle" match "$game" "td(model=$name,plies=1,candidates=2)" random --games 2 \
    --seed 4 --json) >"$dir/b.json" 2>"$dir/b.err" || fail "$name: match from another folder failed"
  grep -q '"games":2' "$dir/b.json" || fail "$name: $(cat "$dir/b.json")"
  ! grep -qi forfeit "$dir/b.err" || fail "$name: a forfeit: $(cat "$dir/b.err")"
  other=checkers
  [ "${game%%(*}" = checkers ] && other=gobang
  set +e
  (cd "$root" && "$hoyle" match "$other" "td(model=$name)" random --games 2) >/dev/null 2>"$dir/err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q "not for" "$dir/err" ||
    fail "$name for $other: rc $rc: $(cat "$dir/err")"
  n=$((n + 1))
done
# learned evaluation weights (TDLeaf): alphabeta(eval=models/NAME.eval)
for f in "$root"/models/*.eval; do
  [ -e "$f" ] || continue
  name=$(basename "$f")
  game=$(sed -n 2p "$f" | sed 's/^game //')
  grep -q "| \`$name\` |" "$root/models/README.md" || fail "$name has no row in models/README.md"
  (cd "$dir" && "$hoyle" match "$game" "alphabeta(depth=2,eval=$f)" random --games 2 --seed 3 \
    --json) >"$dir/e.json" 2>"$dir/e.err" || fail "$name: match failed: $(cat "$dir/e.err")"
  grep -q '"games":2' "$dir/e.json" || fail "$name: $(cat "$dir/e.json")"
  ! grep -qi forfeit "$dir/e.err" || fail "$name: a forfeit: $(cat "$dir/e.err")"
  set +e
  "$hoyle" match chess "alphabeta(depth=1,eval=$f)" random --games 2 >/dev/null 2>"$dir/err"
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && grep -q "not for" "$dir/err" || fail "$name for chess: rc $rc: $(cat "$dir/err")"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no shipped model in models/"
echo "models.sh: $n models ok"
