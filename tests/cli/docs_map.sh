#!/usr/bin/env bash
# docs/architecture.md lists every source file of the repository (its file
# map is printed by scripts/filemap). usage: docs_map.sh HOYLE_BINARY DATA_DIR
set -u
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
while read -r f; do
  if grep -qF "\`$f\`" "$root/docs/architecture.md"; then
    pass=$((pass + 1))
  else
    miss "$f is not in docs/architecture.md (run scripts/filemap)"
  fi
done < <(cd "$root" && git ls-files "*.c" "*.h" "*.cpp" "*.hpp" | sort)
finish
