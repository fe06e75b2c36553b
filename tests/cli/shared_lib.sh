#!/usr/bin/env bash
# libhoyle.so exports the public C API and nothing else, and installs for C
# users (api/CMakeLists.txt):
#   1. nm -D lists exactly the names of api/libhoyle.symbols;
#   2. each of them is declared in an installed header;
#   3. `cmake --install` to a temporary prefix (bin/hoyle installed and
#      runs: on PATH for the default prefix), then a small C program is
#      compiled and linked against it with `pkg-config --cflags --libs hoyle`
#      and runs; one that calls an internal function does not link.
# Usage: shared_lib.sh LIBHOYLE_SO BUILD_DIR SOURCE_DIR
set -euo pipefail
so=$1 build=$2 src=$3
. "$(dirname "$0")/lib.sh"

# ---- 1. the exported names are the list ----
# type A is the version node (HOYLE_0), not a symbol of the API
nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | sed 's/@.*//' | sort -u >"$dir/exported"
grep -E '^[a-z_0-9]+$' "$src/api/libhoyle.symbols" | sort -u >"$dir/expected"
if ! diff "$dir/expected" "$dir/exported" >"$dir/diff"; then
  cat "$dir/diff" >&2
  fail "exported symbols differ from api/libhoyle.symbols (> leaked, < missing)"
fi
[ "$(wc -l <"$dir/exported")" -gt 50 ] || fail "too few exported symbols"

# ---- 2. each is declared in an installed header ----
"${CMAKE:-cmake}" --install "$build" --prefix "$dir/prefix" >/dev/null
inc="$dir/prefix/include/hoyle"
[ -f "$inc/games/game.h" ] && [ -f "$inc/api/api.h" ] || fail "headers not installed"
# the program too, in bin/ (on PATH for the default prefix /usr/local), and it runs
[ -x "$dir/prefix/bin/hoyle" ] || fail "cmake --install did not install bin/hoyle"
"$dir/prefix/bin/hoyle" --version >/dev/null || fail "the installed bin/hoyle does not run"
while read -r name; do
  grep -rqE "\\b$name *(\\(|\\[)" "$inc" || fail "$name is exported but declared in no installed header"
done <"$dir/exported"
# the installed headers compile on their own (no internal header included)
for h in $(cd "$inc" && find . -name '*.h' | sed 's|^\./||'); do
  echo "#include \"$h\"" | cc -std=c11 -fsyntax-only -I"$inc" -x c - || fail "$h does not compile alone"
done

# ---- 3. a C program links with pkg-config ----
# an ASan build's library needs the sanitizer runtime in the program too
san=""
if readelf -d "$so" | grep -q 'NEEDED.*libasan'; then san="-fsanitize=address,undefined"; fi
pc=$(find "$dir/prefix" -name hoyle.pc)
[ -n "$pc" ] || fail "hoyle.pc not installed"
export PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir hoyle)
[ -e "$libdir/libhoyle.so" ] || fail "pkg-config libdir $libdir has no libhoyle.so"
cat >"$dir/tiny.c" <<'C'
#include <stdio.h>
#include <stdlib.h>

#include "api/api.h"
#include "games/playout.h"

int main(void)
{
    const game_t *g;
    if (game_create("checkers", &g)) return fprintf(stderr, "%s\n", hoyle_last_error()), 1;
    void *s = api_state_new(g);
    int legal[64];
    int n = game_legal_actions(g, s, legal); /* an inline wrapper of game.h */
    game_random_stats_t st;
    if (game_random_games(g, s, 10, 1, &st)) return 1;
    agent_t *a;
    int action;
    if (api_agent_create(g, "mcts(sims=16)", 1, &a) || agent_act(a, s, &action)) return 1;
    if (game_apply_checked(g, s, 999) == 0) return 1;
    printf("%s %d %llu %d %s\n", g->spec, n, (unsigned long long)st.games, game_is_legal(g, s, action),
           hoyle_last_error());
    agent_free(a);
    api_state_free(s);
    game_free(g);
    return 0;
}
C
# shellcheck disable=SC2046
cc -std=c11 $san -o "$dir/tiny" "$dir/tiny.c" $(pkg-config --cflags --libs hoyle) || fail "tiny.c did not build"
out=$(LD_LIBRARY_PATH=$libdir "$dir/tiny") || fail "tiny did not run"
[ "$out" = "checkers(variant=english) 7 10 1 checkers(variant=english): action 999 is not legal here" ] ||
  fail "tiny printed '$out'"
# an internal function (data/h5attr.h, not installed) is not there to link
cat >"$dir/internal.c" <<'C'
int h5_attr_put_str(long loc, const char *name, const char *value);
int main(void) { return h5_attr_put_str(0, "x", "y"); }
C
# shellcheck disable=SC2046
if cc $san -o "$dir/internal" "$dir/internal.c" $(pkg-config --libs hoyle) 2>/dev/null; then
  fail "a program linked an internal symbol of libhoyle.so"
fi
echo "shared_lib.sh: OK"
