/* alphabeta.c — alpha-beta / expectiminimax search (see alphabeta.h).
 * Invariant: search() returns the value of a decision state for its player
 * to move, exact when it lies strictly inside (alpha, beta), otherwise a
 * bound on the correct side (fail-soft). A frame (state, move list,
 * scores, chance outcomes, PV) per ply: ab_create() allocates enough for the
 * depth bound (max_depth, plus qdepth with quiescence, plus a margin); a
 * deeper ply (chance nodes and chains cost no depth) adds frames the first
 * time it is reached, up to max_game_length + 3, the deepest any line can
 * go, so the search is the same as with every frame allocated up front. */
#include "mcts/alphabeta.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/frames.h"
#include "mcts/tb_probe.h"
#include "mcts/tt.h"

/* AB_INF lies outside every value, so the first move always raises best; the
 * 1e-9 slack keeps a value of exactly -1 or +1 (after float rounding of a
 * chance mean) inside the Star1 bounds. */
#define AB_INF   1e9
#define VALUE_LO (-1.0 - 1e-9) /* bounds on every value (returns, evaluate) */
#define VALUE_HI (1.0 + 1e-9)
/* With tables on, |v| above this is a distance score (win or loss, ab_params_t.tb). */
#define AB_TB_BAND (AB_TB_EVAL_MAX + 0.01)

/* Each ply's scratch; frames[ply + 1]->state is the child being searched.
 * killer[] holds the last two quiet moves that cut at this ply. */
typedef struct frame {
    void *state;
    int *legal;
    int64_t *score;
    int *chance_actions;
    double *chance_probs;
    int pv[AB_PV_MAX];
    int pv_len;
    int killer[2];
    int move;        /* the action being searched from this ply (the next ply's counter-move key),
                        AB_NULL_MOVE for a pass, -1 for none */
    bool noisy;      /* that action is noisy (kept only with capture_ext) */
    double *lo, *hi; /* Star2: bounds on each chance outcome's value */
} frame_t;

#define AB_NULL_MOVE (-2)

struct ab {
    const game_t *g;
    ab_params_t p;
    tt_t tt;
    frames_t fs;       /* frame_t per ply, at most max_game_length + 3: a ply past it is a
                          leaf; fs.oom: a frame could not be allocated, the search fails */
    size_t num_chance; /* chance outcomes per frame */
    bool pvs;          /* p.pvs, in a game without chance nodes */
    bool mtdf;         /* p.mtdf, in a game without chance nodes */
    int64_t *history;  /* [num_players][num_actions] */
    int *counter;      /* [num_players][num_actions]: the quiet reply that last cut after that
                          action, or -1 */
    uint64_t nodes;
    int root_depth; /* this iteration's depth: extensions stop at ply 2 * root_depth */
    int probe_ply;  /* Star2: the node at this ply searches its first move only; -1 = none */
    double t_start;
    bool abort;
    ab_result_t result;
};

void ab_params_default(ab_params_t *p)
{
    *p = (ab_params_t){.max_depth = 4,
                       .time_limit_ms = 0,
                       .tt_entries = 1u << 20,
                       .quiescence = false,
                       .qdepth = 8,
                       .iterative = true,
                       .killers = true,
                       .history = true,
                       .pvs = true,
                       .counter_moves = true,
                       .aspiration = 0,
                       .check_ext = true};
}

/* frames_t's fill: a frame's buffers (ctx: the ab_t, for the game's sizes). */
static bool fill_frame(void *frame, const void *ctx)
{
    const ab_t *t = ctx;
    frame_t *f = frame;
    f->state = malloc(t->g->state_size);
    f->legal = malloc(sizeof *f->legal * (size_t)t->g->max_legal);
    f->score = malloc(sizeof *f->score * (size_t)t->g->max_legal);
    f->chance_actions = malloc(sizeof *f->chance_actions * t->num_chance);
    f->chance_probs = malloc(sizeof *f->chance_probs * t->num_chance);
    f->lo = malloc(sizeof *f->lo * t->num_chance);
    f->hi = malloc(sizeof *f->hi * t->num_chance);
    f->killer[0] = f->killer[1] = -1;
    f->move = -1;
    return f->state && f->legal && f->score && f->chance_actions && f->chance_probs && f->lo &&
           f->hi;
}

static void release_frame(void *frame)
{
    frame_t *f = frame;
    free(f->state);
    free(f->legal);
    free(f->score);
    free(f->chance_actions);
    free(f->chance_probs);
    free(f->lo);
    free(f->hi);
}

#define FRAME(t, i) ((frame_t *)(t)->fs.at[i])

/* Frame `ply` exists: the frames double the first time a search goes deeper than ever before
 * (not in the steady state). False past the deepest line, or out of memory (fs.oom set, the
 * search aborts and ab_search reports it). */
static inline bool frame_ready(ab_t *t, int ply)
{
    if (frames_ready(&t->fs, ply)) return true;
    if (t->fs.oom) t->abort = true;
    return false;
}

int ab_create(const game_t *g, const ab_params_t *params, ab_t **out)
{
    if (params->max_depth < 1 || params->max_depth > 1000)
        return hoyle_error(HOYLE_EINVAL, "alphabeta: depth must be in [1, 1000]");
    if (params->null_r < 0 || params->null_r > 16 || params->lmr < 0)
        return hoyle_error(HOYLE_EINVAL, "alphabeta: null_r must be in [0, 16] and lmr >= 0");
    ab_t *t = calloc(1, sizeof *t);
    if (t == NULL) return hoyle_error(HOYLE_ENOMEM, "alphabeta: out of memory");
    t->g = g;
    t->p = *params;
    t->probe_ply = -1;
    /* Null windows only pay where the tree is strongly ordered: at a chance
     * node Star1 narrows a null window into probes that fail high and are
     * searched again (backgammon at depth 2: 14% more nodes with PVS). */
    t->pvs = params->pvs && g->max_chance_outcomes == 0;
    /* MTD(f) only where it was verified exact: with chance nodes its passes
     * disagreed with expectiminimax in test_alphabeta (an open question). */
    t->mtdf = params->mtdf && g->max_chance_outcomes == 0;
    frames_init(&t->fs, g->max_game_length + 3, sizeof(frame_t), fill_frame, release_frame, t);
    t->num_chance = g->max_chance_outcomes > 0 ? (size_t)g->max_chance_outcomes : 1;
    /* the depth bound: a ply per whole move and per quiescence step, plus a
     * margin; chance nodes and chain steps cost no depth, so lines with
     * them grow the frames on first use (frame_ready) */
    int bound = params->max_depth + (params->quiescence ? params->qdepth : 0) + 4;
    int initial = bound < t->fs.max ? bound : t->fs.max;
    t->history = calloc((size_t)g->num_players * (size_t)g->num_actions, sizeof *t->history);
    t->counter = malloc((size_t)g->num_players * (size_t)g->num_actions * sizeof *t->counter);
    bool ok = t->history && t->counter && frames_add(&t->fs, initial);
    if (ok && params->tt_entries > 0 && tt_init(&t->tt, params->tt_entries)) ok = false;
    if (!ok) {
        ab_free(t);
        return hoyle_error(HOYLE_ENOMEM, "alphabeta: out of memory");
    }
    ab_clear(t);
    *out = t;
    return HOYLE_OK;
}

void ab_free(ab_t *t)
{
    if (t == NULL) return;
    frames_done(&t->fs);
    free(t->history);
    free(t->counter);
    tt_done(&t->tt);
    free(t);
}

void ab_clear(ab_t *t)
{
    tt_clear(&t->tt);
    size_t cells = (size_t)t->g->num_players * (size_t)t->g->num_actions;
    memset(t->history, 0, sizeof *t->history * cells);
    for (size_t i = 0; i < cells; i++) t->counter[i] = -1;
    for (int i = 0; i < t->fs.num; i++) FRAME(t, i)->killer[0] = FRAME(t, i)->killer[1] = -1;
}

void ab_set_limits(ab_t *t, const ab_params_t *p)
{
    t->p.max_depth = p->max_depth > 0 ? p->max_depth : 64;
    t->p.time_limit_ms = p->time_limit_ms;
    t->p.max_nodes = p->max_nodes;
    t->p.stop = p->stop;
}

void ab_on_iteration(ab_t *t, void (*fn)(void *ctx, const ab_result_t *r), void *ctx)
{
    t->p.on_iteration = fn;
    t->p.on_iteration_ctx = ctx;
}

/* The limits other than the clock: a stop request or the node budget. */
static bool stop_requested(const ab_t *t)
{
    if (t->p.stop && atomic_load_explicit(t->p.stop, memory_order_relaxed)) return true;
    return t->p.max_nodes > 0 && t->nodes >= t->p.max_nodes;
}

static bool out_of_time(ab_t *t)
{
    if (t->abort) return true;
    /* The clock is read every 1024 nodes: clock_gettime per node would cost
     * more than the node. */
    if ((t->nodes & 1023) == 0 &&
        ((t->p.time_limit_ms > 0 &&
          (clock_seconds() - t->t_start) * 1000.0 >= t->p.time_limit_ms) ||
         stop_requested(t)))
        t->abort = true;
    return t->abort;
}

/* Order moves[0..n) by descending score (insertion sort: n is small).
 * `counter` is the counter-move of the previous action (or -1); with
 * `all_noisy` every move is known to be noisy (quiescence outside check). */
static void order(const ab_t *t, frame_t *f, const void *s, int n, int player, int tt_action,
                  int counter, bool all_noisy)
{
    const game_t *g = t->g;
    for (int i = 0; i < n; i++) {
        int a = f->legal[i];
        int64_t sc = 0;
        /* Bands: the TT move, then noisy moves, then the two killers, then the
         * counter-move, then the history score; history grows by depth^2 per
         * cutoff and stays far below 2^57, so the bands never mix. */
        if (a == tt_action)
            sc = INT64_C(1) << 62;
        else if (all_noisy || game_is_noisy(g, s, a))
            sc = (INT64_C(1) << 60) + game_noisy_order(g, s, a);
        else if (t->p.killers && a == f->killer[0])
            sc = INT64_C(1) << 59;
        else if (t->p.killers && a == f->killer[1])
            sc = INT64_C(1) << 58;
        else if (t->p.counter_moves && a == counter)
            sc = INT64_C(1) << 57;
        else if (t->p.history)
            sc = t->history[(size_t)player * (size_t)g->num_actions + (size_t)a];
        f->score[i] = sc;
    }
    for (int i = 1; i < n; i++) {
        int a = f->legal[i];
        int64_t sc = f->score[i];
        int j = i - 1;
        for (; j >= 0 && f->score[j] < sc; j--) {
            f->legal[j + 1] = f->legal[j];
            f->score[j + 1] = f->score[j];
        }
        f->legal[j + 1] = a;
        f->score[j + 1] = sc;
    }
}

static double search(ab_t *t, int ply, const void *s, int depth, double alpha, double beta);
static double qsearch(ab_t *t, int ply, const void *s, int qdepth, double alpha, double beta);

/* Step into a child: the value of state `c` (at frame `ply`) for `player`,
 * the player who moved into it, with the window (alpha, beta) of that
 * player. Chains keep the sign, a change of player negates it. */
static double child_value(ab_t *t, int ply, const void *c, int depth, double alpha, double beta,
                          int player, bool quiet);

/* The static value of `s` for `player`: the return at a terminal state, else the
 * params' evaluation or the game's heuristic. */
static double leaf_value(const ab_t *t, const void *s, int player)
{
    double v;
    if (t->p.eval == NULL || game_is_terminal(t->g, s))
        v = game_evaluate(t->g, s, player);
    else
        v = t->p.eval(t->p.eval_ctx, s, player);
    if (t->p.tb) v = fmax(-AB_TB_EVAL_MAX, fmin(AB_TB_EVAL_MAX, v)); /* below table scores */
    return v;
}

/* The score of a decided value for the mover at `ply`: +-(1 - step * (ply + plies)). */
static double tb_score(int sign, int ply, int plies)
{
    return sign ? sign * (1.0 - AB_TB_STEP * (ply + plies)) : 0.0;
}

/* Step 0 of search() and qsearch() with tables (params.tb): a state below the
 * root that they cover is valued by them, at any depth. True with *out set. */
static bool tb_value(ab_t *t, int ply, const void *s, double *out)
{
    int sign, plies;
    if (t->p.tb == NULL || ply == 0 || tb_probe(t->p.tb, s, &sign, &plies) < 0) return false;
    t->nodes++;
    FRAME(t, ply)->pv_len = 0;
    *out = tb_score(sign, ply, plies);
    return true;
}

/* Distance scores in the transposition table count from the node, not the
 * root (the mate-score convention), so an entry serves any ply. */
static double tt_in(const ab_t *t, double v, int ply)
{
    if (t->p.tb == NULL || fabs(v) <= AB_TB_BAND) return v;
    return v > 0 ? v + AB_TB_STEP * ply : v - AB_TB_STEP * ply;
}

static double tt_out(const ab_t *t, double v, int ply)
{
    if (t->p.tb == NULL || fabs(v) <= AB_TB_BAND) return v;
    return v > 0 ? v - AB_TB_STEP * ply : v + AB_TB_STEP * ply;
}

/* The weighted sum of the bounds b[] of outcomes [from, n) of frame f. */
static double bound_sum(const frame_t *f, const double *b, int from, int n, double total)
{
    double sum = 0;
    for (int j = from; j < n; j++) sum += f->chance_probs[j] / total * b[j];
    return sum;
}

/* Star2 (Ballard 1983; the formulation of Hauk, Buro & Schaeffer 2004, "Rediscovering
 * *-Minimax Search"): bounds lo[i] <= v_i <= hi[i] on each outcome's value for `player`
 * start at [-1, 1]. 1. Probing: each outcome's decision node searches its first move
 * only (t->probe_ply); that is a lower bound on the node's value for its mover, so a
 * lower bound on v_i when the mover is `player` and an upper bound when it is the
 * opponent; the node fails high as soon as the weighted lower bounds reach beta, low
 * when the upper ones reach alpha. 2. Star1 over the outcomes, with the probed bounds
 * in place of [-1, 1] for the outcomes not yet searched. Exact like Star1: every bound
 * used is on the correct side. */
static double star2_value(ab_t *t, int ply, const void *s, int n, double total, int depth,
                          double alpha, double beta, int player)
{
    const game_t *g = t->g;
    frame_t *f = FRAME(t, ply);
    void *c = FRAME(t, ply + 1)->state;
    for (int i = 0; i < n; i++) f->lo[i] = VALUE_LO, f->hi[i] = VALUE_HI;
    double sum_lo = bound_sum(f, f->lo, 0, n, total), sum_hi = bound_sum(f, f->hi, 0, n, total);
    for (int i = 0; i < n; i++) {
        double pi = f->chance_probs[i] / total;
        memcpy(c, s, g->state_size);
        game_apply(g, c, f->chance_actions[i]);
        int q = game_current_player(g, c);
        if (q == PLAYER_CHANCE) continue;
        double ca = fmax((alpha - (sum_hi - pi * f->hi[i])) / pi, VALUE_LO);
        double cb = fmin((beta - (sum_lo - pi * f->lo[i])) / pi, VALUE_HI);
        int saved = t->probe_ply;
        t->probe_ply = ply + 1;
        double w = child_value(t, ply + 1, c, depth, ca, cb, player, false);
        t->probe_ply = saved;
        if (t->abort) return 0;
        if (q == PLAYER_TERMINAL) {
            f->lo[i] = f->hi[i] = w;
        } else if (q == player) {
            if (w > ca && w > f->lo[i]) f->lo[i] = w;
        } else if (w < cb && w < f->hi[i]) {
            f->hi[i] = w;
        }
        sum_lo = bound_sum(f, f->lo, 0, n, total);
        sum_hi = bound_sum(f, f->hi, 0, n, total);
        if (sum_lo >= beta) return sum_lo;
        if (sum_hi <= alpha) return sum_hi;
    }
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double pi = f->chance_probs[i] / total;
        double rest_lo = bound_sum(f, f->lo, i + 1, n, total);
        double rest_hi = bound_sum(f, f->hi, i + 1, n, total);
        double ca = (alpha - sum - rest_hi) / pi, cb = (beta - sum - rest_lo) / pi;
        memcpy(c, s, g->state_size);
        game_apply(g, c, f->chance_actions[i]);
        double v = child_value(t, ply + 1, c, depth, fmax(ca, VALUE_LO), fmin(cb, VALUE_HI), player,
                               false);
        if (t->abort) return 0;
        if (v <= ca) return sum + pi * v + rest_hi;
        if (v >= cb) return sum + pi * v + rest_lo;
        sum += pi * v;
    }
    return sum;
}

/* Expectiminimax at a chance node with Star1 windows: after outcomes
 * 0..i-1 (weighted sum `sum`, remaining probability `rem` after i), the
 * final value lies in [sum + p_i v_i + rem*LO, sum + p_i v_i + rem*HI], so
 * v_i outside [(alpha - sum - rem*HI)/p_i, (beta - sum - rem*LO)/p_i]
 * decides the cutoff. This is Star1 (Ballard 1983, "The *-minimax search
 * procedure for trees containing chance nodes"). In quiescence (`quiet`) a
 * chance node is not searched: its static evaluation stands in. */
static double chance_value(ab_t *t, int ply, const void *s, int depth, double alpha, double beta,
                           int player, bool quiet)
{
    const game_t *g = t->g;
    frame_t *f = FRAME(t, ply);
    f->pv_len = 0;
    t->nodes++;
    /* No frame for the outcomes: the node is a leaf, valued by the game. */
    if (quiet || !frame_ready(t, ply + 1)) return leaf_value(t, s, player);
    int n = game_chance_outcomes(g, s, f->chance_actions, f->chance_probs);
    double total = 0, sum = 0, rem = 1;
    for (int i = 0; i < n; i++) total += f->chance_probs[i];
    if (t->p.star2) return star2_value(t, ply, s, n, total, depth, alpha, beta, player);
    for (int i = 0; i < n; i++) {
        double pi = f->chance_probs[i] / total;
        rem -= pi;
        if (rem < 0) rem = 0;
        double ca = (alpha - sum - rem * VALUE_HI) / pi, cb = (beta - sum - rem * VALUE_LO) / pi;
        void *c = FRAME(t, ply + 1)->state;
        memcpy(c, s, g->state_size);
        game_apply(g, c, f->chance_actions[i]);
        double v = child_value(t, ply + 1, c, depth, fmax(ca, VALUE_LO), fmin(cb, VALUE_HI), player,
                               false);
        if (t->abort) return 0;
        if (v <= ca) return sum + pi * v + rem * VALUE_HI;
        if (v >= cb) return sum + pi * v + rem * VALUE_LO;
        sum += pi * v;
    }
    return sum;
}

static double child_value(ab_t *t, int ply, const void *c, int depth, double alpha, double beta,
                          int player, bool quiet)
{
    const game_t *g = t->g;
    int next = game_current_player(g, c);
    if (next == PLAYER_TERMINAL) {
        double r[GAME_MAX_PLAYERS];
        t->nodes++;
        FRAME(t, ply)->pv_len = 0;
        game_returns(g, c, r);
        if (t->p.tb && fabs(r[player]) >= 1.0) return tb_score(r[player] > 0 ? 1 : -1, ply, 0);
        return r[player];
    }
    if (next == PLAYER_CHANCE) return chance_value(t, ply, c, depth, alpha, beta, player, quiet);
    /* A chain (the same player moves again) keeps the window and the sign;
     * otherwise negamax: the child's value for its own mover, negated. */
    if (next == player) {
        return quiet ? qsearch(t, ply, c, depth, alpha, beta)
                     : search(t, ply, c, depth, alpha, beta);
    }
    return quiet ? -qsearch(t, ply, c, depth, -beta, -alpha)
                 : -search(t, ply, c, depth, -beta, -alpha);
}

/* Stand-pat quiescence over noisy actions; `qdepth` plies left. Stand pat:
 * the mover may decline every noisy move, so the static value is a lower
 * bound and only noisy moves are searched past it. */
static double qsearch(ab_t *t, int ply, const void *s, int qdepth, double alpha, double beta)
{
    const game_t *g = t->g;
    frame_t *f = FRAME(t, ply);
    f->pv_len = 0;
    double tbv;
    if (tb_value(t, ply, s, &tbv)) return tbv;
    t->nodes++;
    int player = game_current_player(g, s);
    /* In a forcing state (in check) standing pat is no option: every move
     * is searched, the quiet ones too, within the same qdepth. */
    bool forcing = qdepth > 0 && game_is_forcing(g, s) && frame_ready(t, ply + 1);
    double best = forcing ? -AB_INF : leaf_value(t, s, player);
    if (forcing) {
        if (out_of_time(t)) return 0;
    } else {
        if (qdepth <= 0 || best >= beta || !frame_ready(t, ply + 1) || out_of_time(t)) return best;
        if (best > alpha) alpha = best;
    }
    /* the moves to search, ordered as in the main search (no TT move here) */
    int k = forcing ? game_legal_actions(g, s, f->legal) : game_noisy_actions(g, s, f->legal);
    order(t, f, s, k, player, -1, -1, !forcing);
    for (int i = 0; i < k; i++) {
        int a = f->legal[i];
        void *c = FRAME(t, ply + 1)->state;
        memcpy(c, s, g->state_size);
        game_apply(g, c, a);
        double v = child_value(t, ply + 1, c, qdepth - 1, alpha, beta, player, true);
        if (t->abort) return 0;
        if (v > best && t->p.qsearch_pv) {
            frame_t *cf = FRAME(t, ply + 1);
            f->pv[0] = a;
            int len = cf->pv_len < AB_PV_MAX - 1 ? cf->pv_len : AB_PV_MAX - 1;
            memcpy(f->pv + 1, cf->pv, sizeof(int) * (size_t)len);
            f->pv_len = len + 1;
        }
        if (v > best) best = v;
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
    }
    return best;
}

/* Null move (params.null_r), step 3 of search(): at a non-PV node whose
 * static value is at least beta, pass and search the opponent's reply
 * shallower with a null window at beta; if even passing keeps beta, cut. Not
 * twice in a row, not at the root, not when the game refuses (check,
 * zugzwang), and a proven win found while passing is not trusted (beta is
 * returned). True when search() returns *out (0 on abort). */
static bool null_move_cuts(ab_t *t, int ply, const void *s, int depth, double alpha, double beta,
                           int player, int prev, double *out)
{
    const game_t *g = t->g;
    bool pv_node = nextafter(alpha, INFINITY) < beta;
    if (!(t->p.null_r > 0 && !pv_node && ply > 0 && depth >= 2 && prev != AB_NULL_MOVE &&
          t->probe_ply != ply && leaf_value(t, s, player) >= beta))
        return false;
    void *c = FRAME(t, ply + 1)->state;
    memcpy(c, s, g->state_size);
    if (!game_null_move(g, c) || game_current_player(g, c) == player) return false;
    frame_t *f = FRAME(t, ply);
    f->move = AB_NULL_MOVE;
    double v = child_value(t, ply + 1, c, depth - 1 - t->p.null_r, nextafter(beta, -INFINITY), beta,
                           player, false);
    f->move = -1;
    if (t->abort) {
        *out = 0;
        return true;
    }
    if (v < beta) return false;
    *out = v >= (t->p.tb ? AB_TB_BAND : 1.0) ? beta : v;
    return true;
}

/* Late-move reduction (params.lmr) of the i-th move `a` (child state c, full
 * depth d): a late quiet move that is not a killer and does not force is
 * tried shallower first; 0 = no reduction. may_force: the child is a
 * decision state not already extended for forcing. */
static int lmr_reduction(const ab_t *t, const frame_t *f, const void *s, const void *c, int a,
                         int i, int depth, int d, bool may_force)
{
    const game_t *g = t->g;
    if (!(i >= t->p.lmr && depth >= 3 && d == depth - 1 && a != f->killer[0] && a != f->killer[1] &&
          !game_is_noisy(g, s, a) && !(may_force && game_is_forcing(g, c))))
        return 0;
    int r = (int)(0.75 + log((double)depth) * log((double)(i + 1)) / 2.25);
    if (r < 1) r = 1;
    if (r > d - 1) r = d - 1;
    return r;
}

/* A quiet move `a` caused a cutoff at `ply`: killers, history (depth^2:
 * cutoffs near the root refute more of the tree) and the counter-move. */
static void remember_cutoff(ab_t *t, frame_t *f, int ply, int player, int depth, int a)
{
    const game_t *g = t->g;
    if (t->p.killers && f->killer[0] != a) {
        f->killer[1] = f->killer[0];
        f->killer[0] = a;
    }
    if (t->p.history)
        t->history[(size_t)player * (size_t)g->num_actions + (size_t)a] += (int64_t)depth * depth;
    if (t->p.counter_moves && ply > 0 && FRAME(t, ply - 1)->move >= 0)
        t->counter[(size_t)player * (size_t)g->num_actions + (size_t)FRAME(t, ply - 1)->move] = a;
}

/* Step 2 of search(): whether the table's entry for `key` settles the node (*value: its
 * value); *tt_action: the entry's move for the ordering (-1: none). Only same-depth entries
 * cut, and never at the root: the root must run its move loop so that the PV and best
 * action of this iteration are set. */
static bool tt_cuts(ab_t *t, int ply, uint64_t key, int depth, double alpha, double beta,
                    int *tt_action, double *value)
{
    if (!t->tt.entries) return false;
    const tt_entry_t *e = tt_probe(&t->tt, key);
    if (!e) return false;
    *tt_action = e->action;
    double ev = tt_out(t, e->value, ply);
    *value = ev;
    if (e->depth != depth || ply == 0) return false;
    return e->kind == TT_EXACT || (e->kind == TT_LOWER && ev >= beta) ||
           (e->kind == TT_UPPER && ev <= alpha);
}

/* Step 5 of search(): the depth left after move `a` from `s` (child `c`, `next` to move) at
 * `ply`, the
 * extensions included; *forcing: the check extension applied. Sets the frame's noisy flag
 * (the capture extension of the reply reads it). */
static int child_depth(ab_t *t, int ply, const void *s, int a, const void *c, int next, int depth,
                       int player, bool prev_noisy, bool *forcing)
{
    const game_t *g = t->g;
    /* A move that leaves the same player to move (a chain step) costs no
     * depth in games with opponents, so a multi-step turn is searched whole;
     * one-player games count every move, or depth would never run out. */
    int d = (g->num_players > 1 && next == player) ? depth : depth - 1;
    /* Check extension: a move into a forcing state (the opponent in
     * check) costs no depth, up to ply 2 * the iteration's depth, so that
     * a series of checks cannot grow the tree without bound. */
    *forcing = false;
    if (d < depth && t->p.check_ext && ply < 2 * t->root_depth && next >= 0 &&
        game_is_forcing(g, c))
        d = depth, *forcing = true;
    /* Capture extension: a noisy reply to a noisy move (a recapture), the same limit. */
    bool noisy = t->p.capture_ext && game_is_noisy(g, s, a);
    FRAME(t, ply)->noisy = noisy;
    if (d < depth && noisy && prev_noisy && ply < 2 * t->root_depth) d = depth;
    return d;
}

/* The principal variation of frame f: move a, then the child frame's. */
static void pv_take(frame_t *f, int a, const frame_t *cf)
{
    f->pv[0] = a;
    int len = cf->pv_len < AB_PV_MAX - 1 ? cf->pv_len : AB_PV_MAX - 1;
    memcpy(f->pv + 1, cf->pv, sizeof(int) * (size_t)len);
    f->pv_len = len + 1;
}

/* Fail-soft negamax alpha-beta with a transposition table, killers and
 * history, for `depth` more whole moves from decision state `s` at `ply`.
 * On abort (time or out of memory) it returns 0, which callers discard. */
static double search(ab_t *t, int ply, const void *s, int depth, double alpha, double beta)
{
    const game_t *g = t->g;
    frame_t *f = FRAME(t, ply);
    f->pv_len = 0;
    int player = game_current_player(g, s);
    /* 0. endgame tables (params.tb): exact, at leaves and interior nodes alike */
    double tbv;
    if (tb_value(t, ply, s, &tbv)) return tbv;
    /* 1. leaves: depth exhausted (or no frame left) */
    if (depth <= 0 || !frame_ready(t, ply + 1)) {
        if (t->p.quiescence) return qsearch(t, ply, s, t->p.qdepth, alpha, beta);
        t->nodes++;
        return leaf_value(t, s, player);
    }
    t->nodes++;
    if (out_of_time(t)) return 0;
    /* 2. transposition table: cutoffs from same-depth entries, move always */
    uint64_t key = game_hash(g, s);
    int tt_action = -1;
    double ttv;
    if (tt_cuts(t, ply, key, depth, alpha, beta, &tt_action, &ttv)) return ttv;
    /* 3. null move (params.null_r) */
    int prev = ply > 0 ? FRAME(t, ply - 1)->move : -1;
    double cut;
    if (null_move_cuts(t, ply, s, depth, alpha, beta, player, prev, &cut)) return cut;
    /* 4. generate and order; the counter-move answers the move that led here */
    int n = game_legal_actions(g, s, f->legal);
    int counter = -1;
    if (t->p.counter_moves && ply > 0 && FRAME(t, ply - 1)->move >= 0)
        counter =
            t->counter[(size_t)player * (size_t)g->num_actions + (size_t)FRAME(t, ply - 1)->move];
    order(t, f, s, n, player, tt_action, counter, false);
    bool in_forcing = t->p.lmr > 0 && game_is_forcing(g, s);
    bool prev_noisy = t->p.capture_ext && ply > 0 && prev >= 0 && FRAME(t, ply - 1)->noisy;
    /* 5. the moves: the first with the whole window, the others (PVS) with a
     * null window just above alpha, searched again with the whole window only
     * when one lands inside it: a value at or below alpha, or at or above
     * beta, is a bound on the correct side either way */
    double alpha0 = alpha, best = -AB_INF;
    int best_action = n > 0 ? f->legal[0] : -1;
    for (int i = 0; i < n; i++) {
        int a = f->legal[i];
        void *c = FRAME(t, ply + 1)->state;
        memcpy(c, s, g->state_size);
        game_apply(g, c, a);
        f->move = a;
        int next = game_current_player(g, c);
        bool forcing = false;
        int d = child_depth(t, ply, s, a, c, next, depth, player, prev_noisy, &forcing);
        double v;
        double nb = nextafter(alpha, INFINITY);
        /* Late-move reduction: a late quiet move is tried shallower with a null
         * window first; only one that beats alpha there is searched in full. */
        int r = t->p.lmr > 0 && !in_forcing
                    ? lmr_reduction(t, f, s, c, a, i, depth, d, next >= 0 && !forcing)
                    : 0;
        if (r > 0) {
            v = child_value(t, ply + 1, c, d - r, alpha, nb, player, false);
            if (t->abort) return 0;
            if (v > alpha) r = 0; /* searched again below at full depth */
        }
        if (r > 0) {
            /* v <= alpha: the reduced search refuted the move */
        } else if (i == 0 || !t->pvs || nb >= beta) {
            v = child_value(t, ply + 1, c, d, alpha, beta, player, false);
        } else {
            v = child_value(t, ply + 1, c, d, alpha, nb, player, false);
            if (!t->abort && v > alpha && v < beta)
                v = child_value(t, ply + 1, c, d, alpha, beta, player, false);
        }
        if (t->abort) return 0;
        if (v > best) {
            best = v;
            best_action = a;
            pv_take(f, a, FRAME(t, ply + 1));
        }
        if (v > alpha) alpha = v;
        if (alpha >= beta) {
            /* 6. a cutoff: remember the quiet move that caused it */
            if (!game_is_noisy(g, s, a)) remember_cutoff(t, f, ply, player, depth, a);
            break;
        }
        /* a Star2 probe (star2_value) wants the first move's value only */
        if (ply == t->probe_ply) break;
    }
    f->move = -1;
    /* 7. store (not a probe's value: a bound on the first move only) */
    if (t->tt.entries && ply != t->probe_ply) {
        /* The bound kind follows the original window: at or below alpha0 no move
         * reached the window (an upper bound), at or above beta a cut (a lower). */
        int kind = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
        tt_store(&t->tt, key, tt_in(t, best, ply), depth, kind, best_action);
    }
    return best;
}

/* MTD(f) (Plaat, Schaeffer, Pijls & de Bruin 1996, "Best-first fixed-depth
 * minimax algorithms"): null-window searches of the root at depth d, each
 * window (beta-, beta) just below beta, from the guess `f`: a result below
 * beta is an upper bound, one at or above beta a lower bound, and the next
 * beta is the new bound (one step above it after a lower bound) until the
 * bounds meet. Values are doubles, so "one step" is the next double:
 * fail-soft results are bounds on the correct side and each pass moves a
 * bound strictly, so the loop ends at the exact value. The root's move and
 * PV are those of the last pass that failed high (it proved the value is
 * reached by that move); they are left in frame 0. */
static double mtdf(ab_t *t, int d, double f_guess)
{
    frame_t *f0 = FRAME(t, 0);
    double lower = -AB_INF, upper = AB_INF, g = f_guess;
    int pv[AB_PV_MAX], pv_len = 0;
    while (lower < upper) {
        double beta = g <= lower ? nextafter(lower, INFINITY) : g;
        double v = search(t, 0, f0->state, d, nextafter(beta, -INFINITY), beta);
        if (t->abort) return 0;
        if (v < beta) {
            upper = v;
        } else {
            lower = v;
            pv_len = f0->pv_len;
            memcpy(pv, f0->pv, sizeof(int) * (size_t)pv_len);
        }
        g = v;
    }
    if (pv_len > 0) {
        f0->pv_len = pv_len;
        memcpy(f0->pv, pv, sizeof(int) * (size_t)pv_len);
    }
    return lower > -AB_INF ? lower : g;
}

/* Iterative deepening, depth 1..max_depth: each iteration seeds the next
 * with its TT moves and killers. A timed-out iteration is dropped whole;
 * the result is the deepest completed one (or, if none completed, the
 * first legal move). */
int ab_search(ab_t *t, const void *state, const ab_result_t **out)
{
    const game_t *g = t->g;
    if (game_current_player(g, state) < 0)
        return hoyle_error(HOYLE_ESTATE, "alphabeta: %s: search needs a decision state", g->spec);
    ab_result_t *r = &t->result;
    memset(r, 0, sizeof *r);
    t->nodes = 0;
    t->abort = t->fs.oom = false;
    t->t_start = clock_seconds();
    memcpy(FRAME(t, 0)->state, state, g->state_size);
    game_legal_actions(g, state, FRAME(t, 0)->legal);
    r->best_action = FRAME(t, 0)->legal[0];
    for (int i = 0; i < t->fs.num; i++) FRAME(t, i)->move = -1;
    for (int d = t->p.iterative ? 1 : t->p.max_depth; d <= t->p.max_depth; d++) {
        t->root_depth = d;
        /* Aspiration: from the second iteration on, a window of
         * +-aspiration around the last value; a result on or past an edge is
         * only a bound, so that side is widened (the width doubled each
         * time) and the iteration searched again, until the value lies
         * strictly inside the window and is exact. */
        double width = t->p.aspiration, lo = -AB_INF, hi = AB_INF, v = 0;
        if (width > 0 && r->depth > 0) lo = r->value - width, hi = r->value + width;
        if (t->mtdf) {
            int me = game_current_player(g, state);
            v = mtdf(t, d, r->depth > 0 ? r->value : leaf_value(t, state, me));
        }
        for (; !t->mtdf;) {
            v = search(t, 0, FRAME(t, 0)->state, d, lo, hi);
            if (t->abort || (v > lo && v < hi)) break;
            width *= 2;
            if (v <= lo) lo = r->value - width < VALUE_LO ? -AB_INF : r->value - width;
            if (v >= hi) hi = r->value + width > VALUE_HI ? AB_INF : r->value + width;
        }
        if (t->fs.oom) return hoyle_error(HOYLE_ENOMEM, "alphabeta: out of memory (search frames)");
        if (t->abort) {
            r->timed_out = true;
            break;
        }
        frame_t *f = FRAME(t, 0);
        r->value = v;
        r->depth = d;
        r->pv_len = f->pv_len;
        memcpy(r->pv, f->pv, sizeof(int) * (size_t)f->pv_len);
        if (f->pv_len > 0) r->best_action = f->pv[0];
        if (t->p.on_iteration) {
            r->nodes = t->nodes;
            r->seconds = clock_seconds() - t->t_start;
            t->p.on_iteration(t->p.on_iteration_ctx, r);
        }
        /* Stop before starting an iteration that the clock has already used up. */
        if (t->p.time_limit_ms > 0 && (clock_seconds() - t->t_start) * 1000.0 >= t->p.time_limit_ms)
            break;
        if (stop_requested(t)) break;
    }
    r->nodes = t->nodes;
    r->seconds = clock_seconds() - t->t_start;
    *out = r;
    return HOYLE_OK;
}
