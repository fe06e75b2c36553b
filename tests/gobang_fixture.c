/* gobang_fixture.c — the shared Go-Bang test fixture of gobang_fixture.h. */
#include "tests/gobang_fixture.h"

#include <stdio.h>
#include <string.h>

#include "games/registry.h"
#include "tests/harness.h"

const game_t *gbfx_make(const char *spec) { return harness_game(spec, sizeof(gbfx_state_t)); }

void gbfx_set_pos(const game_t *g, gbfx_state_t *s, const char *pos)
{
    harness_set_position(g, s, pos);
}

int gbfx_play(const game_t *g, gbfx_state_t *s, const char *moves)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",;", &save); tok; tok = strtok_r(NULL, ",;", &save)) {
        int st = game_apply_move_string(g, s, tok);
        if (st < 0) return st;
        n++;
    }
    return n;
}

void gbfx_expect_position(const game_t *g, const gbfx_state_t *s, const char *want)
{
    char buf[512];
    CU_ASSERT_FATAL(game_position_to_string(g, s, buf, sizeof buf) > 0);
    if (strcmp(buf, want)) fprintf(stderr, "position %s, want %s\n", buf, want);
    CU_ASSERT_STRING_EQUAL(buf, want);
}
