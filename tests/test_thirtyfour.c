/* test_thirtyfour.c — the Thirty-four Game (games/thirtyfour/) and its
 * solver (solve/thirtyfour.c).
 *
 * Rules: blocks go on in order, the end is the last block, a magic square
 * returns +1 and any other arrangement -dev/dev_max; perft equals the
 * count of ordered placements; position and move text with bad input
 * (one-line messages, nothing changed). Solver: the known counts of magic
 * squares (order 3: 8, 1 up to symmetry; order 4: 7040 and 880), each class
 * representative's 8 images are distinct squares found by the search, every
 * square found is magic when played through the game, and Duerer's square
 * (Melencolia I, 1514) is among them; completions of a position agree with
 * a filter of the full list. */
#include <stdlib.h>
#include <string.h>

#include "games/registry.h"
#include "games/symmetry.h"
#include "solve/thirtyfour.h"
#include "tests/harness.h"

static const game_t *make(const char *spec)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    return g;
}

static const uint8_t durer[16] = {16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1};

/* Play the arrangement `cell` from the empty board: block b on its cell. */
static double play(const game_t *g, const uint8_t *cell, void *s)
{
    int cells = g->num_actions;
    game_init(g, s);
    for (int b = 1; b <= cells; b++)
        for (int c = 0; c < cells; c++)
            if (cell[c] == b) HARNESS_OK(game_apply_checked(g, s, c));
    CU_ASSERT(game_is_terminal(g, s));
    double r = 0;
    game_returns(g, s, &r);
    return r;
}

static void test_rules(void)
{
    const game_t *g = make("thirtyfour");
    void *s = malloc(g->state_size);
    CU_ASSERT_EQUAL(play(g, durer, s), 1.0);
    uint8_t rows[16];
    for (int c = 0; c < 16; c++) rows[c] = (uint8_t)(c + 1);
    /* 1..16 row by row: rows 10 26 42 58 (dev 24+8+8+24), columns 28 32 36
     * 40 (6+2+2+6), diagonals 34 and 34: dev 80 of at most 10 * 24 */
    CU_ASSERT_DOUBLE_EQUAL(play(g, rows, s), -80.0 / 240.0, 1e-12);
    game_init(g, s);
    CU_ASSERT_EQUAL(game_perft(g, s, 1), 16);
    CU_ASSERT_EQUAL(game_perft(g, s, 3), 16 * 15 * 14);
    HARNESS_OK(game_apply_move_string(g, s, "1@16") < 0 ? -1 : 0);
    HARNESS_OK(game_apply_move_string(g, s, "1") < 0 ? -1 : 0);
    char text[GAME_TEXT_MAX];
    HARNESS_OK(game_position_to_string(g, s, text, sizeof text) < 0 ? -1 : 0);
    CU_ASSERT_STRING_EQUAL(text, "2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1");
    free(s);
    game_free(g);
}

static void test_bad_input(void)
{
    const game_t *g = make("thirtyfour");
    void *s = malloc(g->state_size), *before = malloc(g->state_size);
    HARNESS_OK(game_position_from_string(g, "1 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0", s));
    memcpy(before, s, g->state_size);
    static const char *const positions[] = {
        "1 2 3",                             /* too few */
        "1 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", /* too many */
        "1 3 0 0 0 0 0 0 0 0 0 0 0 0 0 0",   /* block 2 missing */
        "1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0",   /* twice */
        "17 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",  /* out of range */
        "x 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
    };
    for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
        CU_ASSERT_EQUAL(game_position_from_string(g, positions[i], s), HOYLE_EINVAL);
        CU_ASSERT(strchr(hoyle_last_error(), '\n') == NULL);
    }
    static const char *const moves[] = {"1", "4@3", "3@17", "0", "3@", "@3", "3@3x", ""};
    int a;
    for (size_t i = 0; i < sizeof moves / sizeof *moves; i++)
        CU_ASSERT_EQUAL(game_action_from_string(g, s, moves[i], &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(memcmp(s, before, g->state_size), 0);
    HARNESS_OK(game_action_from_string(g, s, "3@3", &a));
    CU_ASSERT_EQUAL(a, 2);
    free(before);
    free(s);
    game_free(g);
}

typedef struct collected {
    int n, count, folded;
    uint8_t sq[7040][16];
    bool canon[7040];
} collected_t;

static int collect(const uint8_t *cell, bool canonical, void *ctx)
{
    collected_t *c = ctx;
    if (c->count == 7040) return 1; /* more than there are: fail loudly */
    memcpy(c->sq[c->count], cell, (size_t)(c->n * c->n));
    c->canon[c->count++] = canonical;
    c->folded += canonical;
    return 0;
}

static int cmp_square(const void *a, const void *b) { return memcmp(a, b, 16); }

/* Every representative's 8 images are distinct and each is a found square;
 * so the unfolded count is 8 x the folded one, class by class. */
static void check_classes(collected_t *c)
{
    int cells = c->n * c->n, images_found = 0;
    qsort(c->sq, (size_t)c->count, 16, cmp_square); /* canon[] no longer lines up */
    for (int i = 0; i < c->count; i++) {
        if (!thirtyfour_canonical(c->n, c->sq[i])) continue;
        uint8_t img[SYM_COUNT][16];
        memset(img, 0, sizeof img);
        for (int k = 0; k < SYM_COUNT; k++) {
            for (int q = 0; q < cells; q++) {
                int r, col;
                sym_map((sym_t)k, c->n, q / c->n, q % c->n, &r, &col);
                img[k][r * c->n + col] = c->sq[i][q];
            }
            images_found += bsearch(img[k], c->sq, (size_t)c->count, 16, cmp_square) != NULL;
            for (int m = 0; m < k; m++) CU_ASSERT(memcmp(img[m], img[k], 16) != 0);
        }
    }
    CU_ASSERT_EQUAL(images_found, c->count);
}

static void test_counts(void)
{
    static collected_t c;
    thirtyfour_result_t r;
    memset(&c, 0, sizeof c);
    c.n = 3;
    HARNESS_OK(thirtyfour_solve(3, NULL, collect, &c, &r));
    CU_ASSERT_EQUAL(r.solutions, 8);
    CU_ASSERT_EQUAL(r.folded, 1);
    CU_ASSERT_EQUAL(c.folded, 1);
    check_classes(&c);

    memset(&c, 0, sizeof c);
    c.n = 4;
    HARNESS_OK(thirtyfour_solve(4, NULL, collect, &c, &r));
    CU_ASSERT_EQUAL(r.solutions, 7040);
    CU_ASSERT_EQUAL(r.folded, 880);
    CU_ASSERT_EQUAL(c.count, 7040);
    CU_ASSERT_EQUAL(c.folded, 880);
    check_classes(&c);
    CU_ASSERT_PTR_NOT_NULL(bsearch(durer, c.sq, 7040, 16, cmp_square));
    const game_t *g = make("thirtyfour");
    void *s = malloc(g->state_size);
    int magic = 0;
    for (int i = 0; i < c.count; i++) magic += play(g, c.sq[i], s) == 1.0;
    CU_ASSERT_EQUAL(magic, 7040);

    /* completions of Duerer's first row: those of the full list that agree */
    uint8_t given[16] = {16, 3, 2, 13};
    int agree = 0;
    for (int i = 0; i < c.count; i++) agree += memcmp(c.sq[i], given, 4) == 0;
    HARNESS_OK(thirtyfour_solve(4, given, NULL, NULL, &r));
    CU_ASSERT_EQUAL(r.solutions, (uint64_t)agree);
    CU_ASSERT(agree > 0);
    given[4] = 16; /* a block given twice */
    CU_ASSERT_EQUAL(thirtyfour_solve(4, given, NULL, NULL, &r), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(thirtyfour_solve(5, NULL, NULL, NULL, &r), HOYLE_EINVAL);
    free(s);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"rules: order of blocks, returns, perft", test_rules},
        {"text: bad positions and moves, state unchanged", test_bad_input},
        {"solver: 8 / 1 and 7040 / 880 magic squares, classes, Duerer", test_counts},
        {NULL, NULL},
    };
    return harness_run("thirtyfour", tests);
}
