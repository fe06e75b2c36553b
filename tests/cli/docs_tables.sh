#!/usr/bin/env bash
# The docs' parameter and config-key tables are the settings schemas (core/spec.h):
# every `<!-- generated: hoyle ARGS -->` block of docs/*.md must equal the output of
# `hoyle ARGS` (scripts/docs_tables regenerates them). usage: docs_tables.sh HOYLE DATA_DIR
set -u
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
python3 "$root/scripts/docs_tables" --check "$1"
rc=$?
# bounds in the tables are written in full, as people write them (issue 36, item 5)
if "$1" agents --markdown mcts | grep -q "e+0"; then
  echo "docs_tables.sh: FAIL: a bound printed as 1e+09 in 'hoyle agents --markdown mcts'" >&2
  exit 1
fi
exit $rc
