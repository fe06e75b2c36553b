/* checkers.c — the `checkers` game family: vtable and registry entry.
 * One game with a `variant` parameter: english (the default), losing,
 * polish (Polish draughts on 8x8 = Brazilian rules) and devil (Devil among
 * the Tailors). Rules: docs/games/checkers.md. The move generator, notation
 * and PDN live in the sibling files; this one maps the game_vt_t contract
 * onto them and fixes the per-variant bounds every caller sizes buffers by. */
#include <stdlib.h>
#include <string.h>

#include "games/checkers/checkers_internal.h"
#include "games/registry.h"

static void ck_init(const game_t *g, void *s) { ck_start_position(ck_game(g), s); }

/* `result` is decided when a whole move ends (checkers_internal.h), so an
 * ended game never reports a player to move; mid-chain the mover keeps the
 * turn, which is what makes game_whole_moves group a multi-jump. */
static int ck_current_player(const game_t *g, const void *state)
{
    (void)g;
    const ck_state_t *s = state;
    return s->result == CK_ONGOING ? s->side : PLAYER_TERMINAL;
}

static int ck_legal(const game_t *g, const void *s, int *out)
{
    return ck_legal_actions(ck_game(g), s, out);
}

static void ck_do(const game_t *g, void *s, int action)
{
    const ck_game_t *cg = ck_game(g);
    if (cg->huff)
        ck_huff_apply(cg, s, action);
    else
        ck_apply(cg, s, action);
}

/* The fast perft knows no huffing: capture=huff counts with the generic one. */
static uint64_t ck_perft_any(const game_t *g, const void *s, int depth)
{
    return ck_game(g)->huff ? game_perft_generic(g, s, depth) : ck_perft(g, s, depth);
}

/* Zero-sum, +-1 for a win, 0 for a draw (and for an ongoing game).
 * The losing and devil variants decide `result` by their own rules, so the
 * mapping here is the same for all four. */
static void ck_returns(const game_t *g, const void *state, double *out)
{
    (void)g;
    const ck_state_t *s = state;
    out[0] = out[1] = 0.0;
    if (s->result == CK_WIN0) out[0] = 1.0, out[1] = -1.0;
    if (s->result == CK_WIN1) out[0] = -1.0, out[1] = 1.0;
}

/* The incremental Zobrist key kept by ck_apply; ck_rehash recomputes it from
 * scratch so the conformance tests can check the two agree. */
static uint64_t ck_hash(const game_t *g, const void *s)
{
    (void)g;
    return ((const ck_state_t *)s)->hash;
}

static uint64_t ck_rehash(const game_t *g, const void *s) { return ck_hash_compute(ck_game(g), s); }

static const game_vt_t ck_vt = {
    .init = ck_init,
    .current_player = ck_current_player,
    .legal_actions = ck_legal,
    .apply = ck_do,
    .returns = ck_returns,
    .hash = ck_hash,
    .hash_recompute = ck_rehash,
    .observe = ck_observe,
    .state_to_string = ck_state_to_string,
    .position_to_string = ck_position_to_string,
    .position_from_string = ck_huff_position_from_string,
    .action_to_string = ck_action_to_string,
    .action_from_string = ck_action_from_string,
    .move_from_string = ck_move_from_string,
    .move_to_string = ck_move_to_string,
    .evaluate = ck_evaluate,
    .eval_terms = ck_eval_terms,
    .is_noisy = ck_is_noisy,
    .perft = ck_perft_any,
    .record_format = "PDN",
    .record_to_string = ck_record_to_string,
};

static const param_def_t checkers_params[] = {
    {.key = "variant",
     .type = PARAM_CHOICE,
     .def = "english",
     .choices = "english|losing|polish|devil",
     .help = "english checkers, the Losing Game, Polish draughts on 8x8 (Brazilian), Devil among "
             "the Tailors"},
    {.key = "capture",
     .type = PARAM_CHOICE,
     .def = "forced",
     .quiet = true, /* added after records and golden files: left out of specs at forced */
     .choices = "forced|huff",
     .help = "forced: a capture must be taken; huff (english only): it may be neglected, and the "
             "opponent then compels it, huffs a man that could have taken, or lets the move stand "
             "(Checker Laws 14-15)"},
    {.key = NULL},
};

/* The variants game_registry_check creates and the conformance suite runs. */
static const char *const checkers_variants[] = {
    "checkers(variant=english)", "checkers(variant=losing)", "checkers(variant=polish)",
    "checkers(variant=devil)",   "checkers(capture=huff)",   NULL,
};

static int checkers_create(game_t *g)
{
    ck_game_t *cg = calloc(1, sizeof *cg);
    if (cg == NULL) return hoyle_error(HOYLE_ENOMEM, "checkers: out of memory");
    cg->variant = params_choice(&g->params, "variant");
    cg->huff = params_choice(&g->params, "capture") == 1;
    if (cg->huff && cg->variant != CK_ENGLISH) {
        free(cg);
        return hoyle_error(HOYLE_EINVAL, "checkers: capture=huff: only with variant=english");
    }
    /* Two rule switches derived once: flying kings / backward men captures /
     * majority capture (Polish), and the draw rules Devil does without. */
    cg->flying = cg->variant == CK_POLISH;
    cg->draws = cg->variant != CK_DEVIL;
    /* Keys are generated per game instance from a fixed seed, so hashes are
     * reproducible across runs. */
    ck_zobrist_init(cg);
    g->impl = cg;
    g->vt = &ck_vt;
    g->num_players = 2;
    g->state_size = sizeof(ck_state_t);
    /* An action is one step from one playable square to another: from * 32 + to
     * (a multi-jump is several actions by the same player). */
    g->num_actions = cg->huff ? CK_HUFF_NUM_ACTIONS : 32 * 32; /* + huffs and compel */
    g->max_chance_outcomes = 0;
    /* Bounds (docs/games/checkers.md): at most 12 pieces a side; a piece's
     * steps land on its two diagonals (<= 13 squares; 4 for short pieces).
     * A game has <= 192 irreversible whole moves (24 men x 7 rows + 24
     * captures), < 80 reversible ones around each, <= 24 extra chain steps.
     * Devil: the tailors make at most 4 x 7 moves. */
    switch (cg->variant) {
    case CK_POLISH: g->max_legal = CK_MAX_LEGAL; break;
    case CK_DEVIL: g->max_legal = 8; break;
    default: g->max_legal = 48; break;
    }
    /* huffing: captures and quiet moves together (still one action per
     * piece and direction), a huff per man and compel */
    if (cg->huff) g->max_legal = 48 + 12 + 1;
    g->max_game_length = cg->variant == CK_DEVIL ? 64 : 16000;
    g->obs_shape[0] = CK_PLANES;
    g->obs_shape[1] = 8;
    g->obs_shape[2] = 8;
    /* No board symmetry is declared: a left-right mirror moves pieces off the
     * playing squares, and the 180-degree turn swaps the players. */
    g->num_symmetries = 1;
    g->symmetries[0] = SYM_IDENTITY;
    return HOYLE_OK;
}

static void checkers_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

const game_entry_t checkers_entry = {
    .name = "checkers",
    .description = "checkers/draughts on 8x8: English, Losing Game, Polish (Brazilian), Devil "
                   "among the Tailors",
    .params = checkers_params,
    .variants = checkers_variants,
    .create = checkers_create,
    .destroy = checkers_destroy,
};
