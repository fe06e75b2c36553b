#!/usr/bin/env bash
# No include from a lower layer of docs/architecture.md into a higher one, and no
# module's *_internal.h included from another folder (scripts/check_layers).
# usage: layers.sh HOYLE_BINARY DATA_DIR
set -u
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
python3 "$root/scripts/check_layers"
