/* chess.c — the `chess` game: vtable and registry entry.
 * The laws as in docs/games/chess.md: fully legal moves, checkmate and
 * stalemate, automatic draws by the fifty-move rule, threefold repetition
 * and (unless insufficient=play) dead material. Actions are AlphaZero's
 * 8x8x73 encoding from the mover's view (rules.c); text is FEN and UCI long
 * algebraic, with SAN accepted on input (notation.c). */
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/rng.h"
#include "games/chess/chess_internal.h"
#include "games/registry.h"

/* The start of the game's odds (odds.c): the usual one without odds. */
static void ch_init(const game_t *g, void *s) { memcpy(s, &ch_game(g)->start, sizeof(ch_state_t)); }

static int ch_current_player(const game_t *g, const void *state)
{
    (void)g;
    const ch_state_t *s = state;
    return s->result == CH_ONGOING ? s->pos.side : PLAYER_TERMINAL;
}

/* The legal actions, or with `noisy` only the captures and promotions
 * (quiescence's moves, generated directly), ascending as the contract asks. */
static int actions_of(const ch_state_t *s, int *out, bool noisy)
{
    if (s->result != CH_ONGOING) return 0;
    ch_move_t moves[CH_MAX_MOVES];
    int n = noisy ? ch_gen_noisy(&s->pos, moves) : ch_gen_legal(&s->pos, moves);
    n = ch_odds_filter(s, moves, n);
    ch_moves_to_actions(&s->pos, moves, n, out);
    return n;
}

static int ch_legal(const game_t *g, const void *state, int *out)
{
    (void)g;
    return actions_of(state, out, false);
}

static int ch_noisy(const game_t *g, const void *state, int *out)
{
    (void)g;
    return actions_of(state, out, true);
}

/* What ch_legal returns, counted by the generator without listing. */
static int ch_count(const game_t *g, const void *state)
{
    (void)g;
    const ch_state_t *s = state;
    if (s->result != CH_ONGOING) return 0;
    if (s->prelude) { /* odds=pawn_two_moves' first turn: the filtered list */
        int out[CH_MAX_MOVES];
        return actions_of(s, out, false);
    }
    return ch_count_legal(&s->pos);
}

/* legal_actions()[rng_below(rng, n)] without listing the moves: each man's destination set,
 * then the k-th action picked from those (odds=pawn_two_moves' first turn: the filtered list). */
static int ch_random_legal(const game_t *g, const void *state, rng_t *rng)
{
    const ch_state_t *s = state;
    if (s->prelude) {
        int out[CH_MAX_MOVES], n = ch_legal(g, s, out);
        CHECK_GE(n, 1);
        return out[rng_below(rng, (uint32_t)n)];
    }
    uint64_t tgt[64];
    int n = s->result == CH_ONGOING ? ch_gen_targets(&s->pos, tgt) : 0;
    CHECK_GE(n, 1);
    return ch_targets_action_at(&s->pos, tgt, (int)rng_below(rng, (uint32_t)n));
}

static void ch_do(const game_t *g, void *state, int action)
{
    ch_state_t *s = state;
    ch_odds_make(ch_game(g), s, ch_action_decode(&s->pos, action));
}

static void ch_returns(const game_t *g, const void *state, double *out)
{
    (void)g;
    const ch_state_t *s = state;
    out[0] = out[1] = 0.0;
    if (s->result == CH_WIN_WHITE) out[0] = 1.0, out[1] = -1.0;
    if (s->result == CH_WIN_BLACK) out[0] = -1.0, out[1] = 1.0;
}

static uint64_t ch_hash(const game_t *g, const void *s)
{
    (void)g;
    const ch_state_t *cs = s;
    return cs->pos.key ^ ch_odds_key(cs);
}

/* From scratch, the en-passant square re-derived too: it counts only when a
 * legal capture exists (the incremental key must agree). */
static uint64_t ch_rehash(const game_t *g, const void *state)
{
    (void)g;
    ch_pos_t p = ((const ch_state_t *)state)->pos;
    if (p.ep != CH_NO_SQ && !ch_ep_legal(&p, p.ep)) p.ep = CH_NO_SQ;
    return ch_key_compute(&p) ^ ch_odds_key(state);
}

/* The fast perft knows no prelude (odds=pawn_two_moves): the generic one
 * counts through it. */
static uint64_t ch_perft_any(const game_t *g, const void *state, int depth)
{
    const ch_state_t *s = state;
    return s->prelude ? game_perft_generic(g, s, depth) : ch_perft(g, s, depth);
}

/* The null move of alpha-beta's null-move pruning: the other side to move,
 * no en-passant square (it belonged to the mover), the key recomputed.
 * Refused in check and when the mover has only king and pawns, where
 * zugzwang makes passing a false guess of the position's worth. */
static bool ch_null_move(const game_t *g, void *state)
{
    (void)g;
    ch_state_t *s = state;
    ch_pos_t *p = &s->pos;
    int me = p->side;
    uint64_t pieces = p->colors[me] & ~ch_pieces(p, me, CH_PAWN) & ~ch_pieces(p, me, CH_KING);
    /* not during odds=pawn_two_moves' first turn: its side keeps the move */
    if (s->result != CH_ONGOING || s->prelude || pieces == 0 || ch_in_check(p)) return false;
    p->side = (uint8_t)(me ^ 1);
    p->ep = CH_NO_SQ;
    p->key = ch_key_compute(p);
    return true;
}

static const game_vt_t ch_vt = {
    .init = ch_init,
    .current_player = ch_current_player,
    .legal_actions = ch_legal,
    .legal_count = ch_count,
    .legal_random = ch_random_legal,
    .apply = ch_do,
    .returns = ch_returns,
    .hash = ch_hash,
    .hash_recompute = ch_rehash,
    .observe = ch_observe,
    .state_to_string = ch_state_to_string,
    .position_to_string = ch_position_to_string,
    .position_from_string = ch_position_from_string,
    .action_to_string = ch_action_to_string,
    .move_to_display = ch_move_to_display,
    .action_from_string = ch_action_from_string,
    .move_from_string = ch_move_from_string,
    .evaluate = ch_evaluate,
    .eval_terms = ch_eval_terms,
    .eval_dot = ch_eval_dot,
    .is_noisy = ch_is_noisy,
    .noisy_actions = ch_noisy,
    .is_forcing = ch_is_forcing,
    .null_move = ch_null_move,
    .noisy_order = ch_noisy_order,
    .perft = ch_perft_any,
    .record_format = "PGN",
    .record_to_string = ch_record_to_string,
};

static const param_def_t chess_params[] = {
    {.key = "insufficient",
     .type = PARAM_CHOICE,
     .def = "draw",
     .choices = "draw|play",
     .help = "draw: dead material (K v K, K+minor v K, bishops on one colour) ends the game; "
             "play: it does not (perft tables count through such positions)"},
    {.key = "values",
     .type = PARAM_CHOICE,
     .def = "standard",
     .choices = "standard|seed",
     .help = "the evaluation's piece values: standard (P 1, N 3.2, B 3.3, R 5, Q 9) or the "
             "seed's (N 3.5, B 5.25, R 9.5, Q 15)"},
    {.key = "odds",
     .type = PARAM_CHOICE,
     .def = "none",
     .quiet = true, /* added after records and models: left out of specs at none */
     .choices = "none|pawn_move|pawn_two_moves|qknight|kknight|qrook|krook|queen|exchange",
     .help = "games at odds (seed 001): Black gives his KBP and the move (pawn_move), or also a "
             "second move, none past the fourth rank (pawn_two_moves); White gives and moves "
             "first: a Knight, a Rook (no castling on its side), the Queen, or the exchange "
             "(his QR for Black's QKt)"},
    {.key = NULL},
};

static const char *const chess_variants[] = {
    "chess(insufficient=draw)",
    "chess(odds=pawn_two_moves)",
    "chess(odds=qrook)",
    NULL,
};

static int chess_create(game_t *g)
{
    ch_game_t *cg = calloc(1, sizeof *cg);
    if (cg == NULL) return hoyle_error(HOYLE_ENOMEM, "chess: out of memory");
    ch_attacks_init();
    cg->material_draw = params_choice(&g->params, "insufficient") == 0;
    cg->seed_values = params_choice(&g->params, "values") == 1;
    int rc = ch_odds_init(cg, params_choice(&g->params, "odds"));
    if (rc) {
        free(cg);
        return rc;
    }
    g->impl = cg;
    g->vt = &ch_vt;
    g->num_players = 2;
    g->state_size = sizeof(ch_state_t);
    g->num_actions = CH_ACTIONS;
    g->max_legal = CH_MAX_MOVES;
    g->max_chance_outcomes = 0;
    g->one_action_moves = cg->start.prelude == 0; /* pawn and two moves: one player, two actions */
    /* At most 96 pawn steps and 30 captures reset the fifty-move counter,
     * each followed by fewer than 100 plies. */
    g->max_game_length = 12800;
    g->obs_shape[0] = CH_PLANES;
    g->obs_shape[1] = 8;
    g->obs_shape[2] = 8;
    g->policy_planes = 73, g->policy_lead = 0; /* from-square * 73 + move type, mover's view */
    /* No symmetry: castling breaks the left-right mirror, pawns the rest. */
    g->num_symmetries = 1;
    g->symmetries[0] = SYM_IDENTITY;
    return HOYLE_OK;
}

static void chess_destroy(game_t *g)
{
    free(g->impl);
    g->impl = NULL;
}

const game_entry_t chess_entry = {
    .name = "chess",
    .description = "chess (FIDE laws: castling, en passant, promotion; automatic fifty-move, "
                   "threefold and dead-material draws)",
    .params = chess_params,
    .variants = chess_variants,
    .create = chess_create,
    .destroy = chess_destroy,
};
