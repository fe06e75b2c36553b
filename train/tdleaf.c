/* tdleaf.c — TDLeaf(λ) self-play games and their update (tdleaf.h). */
#include "train/tdleaf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "games/playout.h"

static double weighted(void *ctx, const void *s, int player)
{
    return eval_linear_value(ctx, s, player, NULL);
}

int tdleaf_init(tdleaf_t *l, const game_t *g, const eval_linear_t *w, const tdleaf_params_t *p)
{
    memset(l, 0, sizeof *l);
    l->g = g;
    l->w = *w;
    l->p = *p;
    ab_params_t ap;
    ab_params_default(&ap);
    ap.max_depth = p->depth;
    ap.tt_entries = 0;
    ap.quiescence = p->quiescence;
    ap.qsearch_pv = true;
    ap.eval = weighted;
    ap.eval_ctx = &l->w;
    l->cap = p->max_moves + 1;
    l->terms = malloc(sizeof(double) * GAME_MAX_TERMS * (size_t)l->cap);
    l->v = malloc(sizeof(double) * (size_t)(l->cap + 1));
    int status = l->terms && l->v ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "tdleaf: out of memory");
    if (!status) status = ab_create(g, &ap, &l->search);
    if (status) tdleaf_done(l);
    return status;
}

void tdleaf_done(tdleaf_t *l)
{
    ab_free(l->search);
    free(l->terms);
    free(l->v);
    l->search = NULL;
    l->terms = l->v = NULL;
}

void tdleaf_update(eval_linear_t *e, const double *v, const double *terms, int n,
                   const tdleaf_params_t *p, double *abs_delta)
{
    double lambda = p->lambda;
    double s = 0; /* sum_{j >= t} lambda^(j-t) d_j, built from the end */
    double step[GAME_MAX_TERMS] = {0};
    for (int t = n - 1; t >= 0; t--) {
        double d = v[t + 1] - v[t];
        *abs_delta += fabs(d);
        s = d + lambda * s;
        double g = (1 - v[t] * v[t]) * s;
        for (int i = 0; i < e->n; i++) step[i] += g * terms[(size_t)t * GAME_MAX_TERMS + i];
    }
    double along = 0, norm = 0; /* step . w and w . w */
    for (int i = 0; i < e->n; i++) {
        along += step[i] * e->w[i];
        norm += e->w[i] * e->w[i];
    }
    double radial = norm > 0 ? p->scale_rate * along / norm : 0;
    eval_linear_t hand; /* the hand-set weights: which terms are new (rate new_rate) */
    bool known = p->new_rate != 1 && eval_linear_default(e->g, &hand) == HOYLE_OK;
    for (int i = 0; i < e->n; i++) {
        double rate = known && hand.w[i] == 0 ? p->new_rate : 1;
        e->w[i] += p->alpha * (rate * step[i] + radial * e->w[i]);
    }
}

/* The leaf of the search from `s`: the state its principal variation reaches. */
static void pv_leaf(const game_t *g, const void *s, const ab_result_t *r, void *leaf)
{
    memcpy(leaf, s, g->state_size);
    for (int i = 0; i < r->pv_len && game_is_legal(g, leaf, r->pv[i]); i++)
        game_apply(g, leaf, r->pv[i]);
}

int tdleaf_learn_game(tdleaf_t *l, rng_t *rng, tdleaf_stats_t *stats)
{
    const game_t *g = l->g;
    int width = g->max_legal > g->max_chance_outcomes ? g->max_legal : g->max_chance_outcomes;
    char *s = malloc(g->state_size), *leaf = malloc(g->state_size);
    int *legal = malloc(sizeof(int) * (size_t)(width + 1));
    double *probs = malloc(sizeof(double) * (size_t)(width + 1));
    int status =
        s && leaf && legal && probs ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "tdleaf: memory");
    int n = 0;
    if (!status) {
        game_init(g, s);
        for (int i = 0; i < l->p.opening_plies && !game_is_terminal(g, s); i++)
            game_apply(g, s, game_random_action(g, s, rng, legal, probs));
        ab_clear(l->search); /* nothing of the last game's weights stays */
    }
    while (!status && !game_is_terminal(g, s) && n < l->p.max_moves) {
        if (game_is_chance(g, s)) {
            game_apply(g, s, game_chance_sample(g, s, rng, legal, probs));
            continue;
        }
        const ab_result_t *r;
        if ((status = ab_search(l->search, s, &r))) break;
        pv_leaf(g, s, r, leaf);
        l->v[n] = eval_linear_value(&l->w, leaf, 0, l->terms + (size_t)n * GAME_MAX_TERMS);
        n++;
        game_apply(g, s, r->best_action);
    }
    if (!status) {
        double ret[GAME_MAX_PLAYERS] = {0, 0};
        bool over = game_is_terminal(g, s);
        if (over) game_returns(g, s, ret);
        l->v[n] = over ? ret[0] : (n > 0 ? l->v[n - 1] : 0);
        tdleaf_update(&l->w, l->v, l->terms, n, &l->p, &stats->abs_delta);
        stats->games++;
        stats->moves += n;
        stats->first_wins += over && ret[0] > ret[1];
        stats->draws += over && ret[0] == ret[1];
        stats->stopped += !over;
    }
    free(s);
    free(leaf);
    free(legal);
    free(probs);
    return status;
}
