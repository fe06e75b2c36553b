#!/usr/bin/env bash
# docs/architecture.md lists every source file of the repository (its file
# map is printed by scripts/filemap). usage: docs_map.sh HOYLE_BINARY DATA_DIR
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
missing=0
listed=0
while read -r f; do
  if grep -qF "\`$f\`" "$root/docs/architecture.md"; then
    listed=$((listed + 1))
  else
    echo "FAIL: $f is not in docs/architecture.md (run scripts/filemap)"
    missing=$((missing + 1))
  fi
done < <(cd "$root" && find apps core data eval games mcts solve train tests -name '*.[ch]' -o -name '*.cpp' -o -name '*.hpp' | sort)
echo "$listed passed, $missing failed"
[ "$missing" = 0 ]
