#!/usr/bin/env bash
# The docs' parameter and config-key tables are the settings schemas (core/spec.h):
# every `<!-- generated: hoyle ARGS -->` block of docs/*.md must equal the output of
# `hoyle ARGS` (scripts/docs_tables regenerates them). usage: docs_tables.sh HOYLE DATA_DIR
set -u
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
python3 "$root/scripts/docs_tables" --check "$1"
