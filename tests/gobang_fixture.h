/* gobang_fixture.h — the Go-Bang test fixture that test_gobang.c and
 * test_gobang_partners.c share: a state buffer, game creation and positions
 * set, played and compared with CUnit assertions. */
#ifndef HOYLE_TESTS_GOBANG_FIXTURE_H
#define HOYLE_TESTS_GOBANG_FIXTURE_H

#include <stdint.h>

#include "games/gobang/gobang_internal.h"

/* Caller storage for any Go-Bang state (cells and owners), every spec. */
typedef struct gbfx_state {
    uint64_t w[GB_STATE_WORDS];
} gbfx_state_t;

/* game_create(spec); a failure prints hoyle_last_error() and ends the test
 * (CU_ASSERT_FATAL), as does a state larger than gbfx_state_t. The caller
 * frees the game with game_free. */
const game_t *gbfx_make(const char *spec);

/* Set s from position text; a failure prints the text and the error and ends the test. */
void gbfx_set_pos(const game_t *g, gbfx_state_t *s, const char *pos);

/* Apply comma- or semicolon-separated moves ("d4,e5,c6 d7") to s; returns
 * the count applied, or the negative status of the first move that failed
 * (s then holds the moves before it). */
int gbfx_play(const game_t *g, gbfx_state_t *s, const char *moves);

/* Assert that s prints as `want` (position text); a mismatch prints both. */
void gbfx_expect_position(const game_t *g, const gbfx_state_t *s, const char *want);

#endif
