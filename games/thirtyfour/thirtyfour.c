/* thirtyfour.c — the Thirty-four Game's registry entry: parameter schema,
 * variants, the vtable, create/destroy and the board's tables (lines,
 * symmetries, Zobrist keys); the plain-data view of thirtyfour.h. Rules,
 * observation and text live in the sibling files (thirtyfour_internal.h);
 * docs/games/thirtyfour.md describes the game as implemented. */
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/registry.h"
#include "games/symmetry.h"
#include "games/thirtyfour/thirtyfour_internal.h"

static const param_def_t thirtyfour_params[] = {
    {.key = "size",
     .type = PARAM_INT,
     .def = "4",
     .min = THIRTYFOUR_MIN_N,
     .max = THIRTYFOUR_MAX_N,
     .help = "board side N: blocks 1..N*N, lines adding to N(N*N+1)/2 (4: the seed's 34)"},
    {.key = NULL},
};

/* The seed's game and the 3 x 3 square (lines of 15), a cheap variant. */
static const char *const thirtyfour_variants[] = {
    "thirtyfour",
    "thirtyfour(size=3)",
    NULL,
};

static const game_vt_t thirtyfour_vt = {
    .init = tf_init,
    .current_player = tf_current_player,
    .legal_actions = tf_legal_actions,
    .apply = tf_apply,
    .returns = tf_returns,
    .hash = tf_hash,
    .hash_recompute = tf_hash_recompute,
    .observe = tf_observe,
    .state_to_string = tf_state_to_string,
    .position_to_string = tf_position_to_string,
    .position_from_string = tf_position_from_string,
    .action_to_string = tf_action_to_string,
    .action_from_string = tf_action_from_string,
    .symmetry_state = tf_symmetry_state,
    .symmetry_action = tf_symmetry_action,
};

void thirtyfour_lines(int n, thirtyfour_lines_t *out)
{
    memset(out, 0, sizeof *out);
    out->n = n, out->cells = n * n, out->magic = n * (n * n + 1) / 2;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            out->cell[i][k] = (uint8_t)(i * n + k);     /* row i */
            out->cell[n + i][k] = (uint8_t)(k * n + i); /* column i */
        }
    for (int k = 0; k < n; k++) {
        out->cell[2 * n][k] = (uint8_t)(k * n + k);             /* main diagonal */
        out->cell[2 * n + 1][k] = (uint8_t)(k * n + n - 1 - k); /* other diagonal */
    }
    out->num = 2 * n + 2;
}

int thirtyfour_deviation(const thirtyfour_lines_t *lines, const uint8_t *cell)
{
    int dev = 0;
    for (int l = 0; l < lines->num; l++) {
        int sum = 0;
        for (int k = 0; k < lines->n; k++) sum += cell[lines->cell[l][k]];
        dev += abs(sum - lines->magic);
    }
    return dev;
}

int thirtyfour_size(const game_t *g) { return tf_impl(g)->lines.n; }

void thirtyfour_board(const game_t *g, const void *sv, uint8_t *out)
{
    memcpy(out, ((const tf_state_t *)sv)->cell, (size_t)tf_impl(g)->lines.cells);
}

#define TF_ZOBRIST_SEED 0x7468697274793334ULL /* "thirty34" */

static int thirtyfour_create(game_t *g)
{
    int n = (int)params_int(&g->params, "size");
    tf_impl_t *im = calloc(1, sizeof *im);
    if (im == NULL) return hoyle_error(HOYLE_ENOMEM, "thirtyfour: out of memory");
    thirtyfour_lines(n, &im->lines);
    /* a line adds up to between 1 + ... + N and the N largest blocks */
    im->dev_max = im->lines.num * (im->lines.magic - n * (n + 1) / 2);
    for (int k = 0; k < SYM_COUNT; k++)
        for (int c = 0; c < n * n; c++) {
            int r, col;
            sym_map((sym_t)k, n, c / n, c % n, &r, &col);
            im->sym_cell[k][c] = (int8_t)(r * n + col);
        }
    rng_t rng;
    rng_init(&rng, TF_ZOBRIST_SEED);
    for (int b = 1; b <= n * n; b++)
        for (int c = 0; c < n * n; c++) im->zob[b][c] = rng_next(&rng);
    g->impl = im;
    g->vt = &thirtyfour_vt;
    g->num_players = 1;
    g->state_size = sizeof(tf_state_t);
    g->num_actions = n * n;
    g->max_legal = n * n;
    g->max_chance_outcomes = 0;
    g->max_game_length = n * n;
    g->obs_shape[0] = TF_PLANES, g->obs_shape[1] = n, g->obs_shape[2] = n;
    g->policy_planes = 1, g->policy_lead = 1; /* an action is the square the block goes on */
    /* every symmetry of the square maps lines onto lines, so keeps the returns */
    g->num_symmetries = SYM_COUNT;
    for (int k = 0; k < SYM_COUNT; k++) g->symmetries[k] = (sym_t)k;
    return HOYLE_OK;
}

static void thirtyfour_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

const game_entry_t thirtyfour_entry = {
    .name = "thirtyfour",
    .description = "the Thirty-four Game: blocks 1-16 on a 4 x 4 board, every line adding to 34",
    .params = thirtyfour_params,
    .variants = thirtyfour_variants,
    .create = thirtyfour_create,
    .destroy = thirtyfour_destroy,
};
