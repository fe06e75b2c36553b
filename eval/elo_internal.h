/* elo_internal.h — structures shared by elo.c, elo_model.c and elo_boot.c.
 * Not part of the public surface (see elo.h). */
#ifndef HOYLE_EVAL_ELO_INTERNAL_H
#define HOYLE_EVAL_ELO_INTERNAL_H

#include <stddef.h>

#include "eval/elo.h"

/* Elo to natural log-odds: f(x) = 1/(1+10^(-x/400)) = sigmoid(ELO_S * x). */
#define ELO_S (2.302585092994045684 / 400.0)

/* Games aggregated by ordered (white, black) pair; counts are weighted. */
typedef struct elo_pair {
    int white, black;
    int rev;                /* index of the (black, white) pair, or -1 */
    double win, draw, loss; /* white's wins, draws, losses */
} elo_pair_t;

/* A prior edge: `weight` virtual draws between players i and j (no colours). */
typedef struct elo_edge {
    int i, j;
    double weight;
} elo_edge_t;

/* The data in the form the solver reads. Built once from an elo_input_t;
 * the bootstrap rewrites the pair counts and calls elo_data_refresh(). */
typedef struct elo_data {
    int n;
    elo_pair_t *pairs; /* [n_pairs] one per ordered pair present in the input */
    size_t n_pairs;
    size_t *game_pair;       /* [n_games] pair index of each input game */
    double *game_w;          /* [n_games] weight of each input game (0 already mapped to 1) */
    unsigned char *game_res; /* [n_games] 0 white won, 1 draw, 2 white lost */
    size_t n_games;
    elo_edge_t *edges; /* [n_edges] unordered pairs with positive weight, prior spread */
    size_t n_edges;
    double draw_weight, decisive_weight;
} elo_data_t;

/* Validate `in` (ids, scores, weights, NaNs, names) and aggregate it.
 * On success `d` owns heap memory released by elo_data_done(). */
int elo_data_build(elo_data_t *d, const elo_input_t *in);
void elo_data_done(elo_data_t *d);

/* Recompute edges (with prior_draws spread over each player's distinct
 * opponents) and the draw/decisive totals from the pair counts. Returns the
 * number of connected components (>= 1), or HOYLE_ENOMEM; when there is more
 * than one, *a and *b receive two players in different components. */
int elo_data_refresh(elo_data_t *d, double prior_draws, int *a, int *b);

/* What the Newton solver fits. Parameter vector theta = ratings of every
 * player but `ref` (held at 0), then advantage if fit_adv, then drawelo if fit_d. */
typedef struct elo_solve_cfg {
    int ref;
    int fit_adv, fit_d;
    double prior_draws;      /* only to report; the weights are in data->edges */
    double adv_mean, adv_sd; /* Gaussian prior on a fitted advantage; sd 0 = none */
    double d_mean, d_sd;     /* the same for a fitted drawelo */
    int max_iter;
    double tol;
} elo_solve_cfg_t;

/* Number of free parameters for `cfg` over n players. */
int elo_solve_dim(int n, const elo_solve_cfg_t *cfg);

/* Maximise log-likelihood + log-prior from the starting point in r[n], *adv,
 * *d (held values stay as given). On success r[ref] = 0 and, when cov is not
 * NULL, cov[k*k] is the inverse of the observed information at the optimum
 * (k = elo_solve_dim). *iters and *ll (likelihood without prior) may be NULL.
 * Returns HOYLE_EINVAL with a message when it diverges, fails to converge or
 * the information is singular; HOYLE_ENOMEM on allocation failure. */
int elo_solve(const elo_data_t *data, const elo_solve_cfg_t *cfg, double *r, double *adv, double *d,
              double *cov, int *iters, double *ll);

/* Log-likelihood (prior excluded) of the data at (r, adv, d); -INFINITY when a
 * draw has probability <= 0. Exposed for tests of the derivatives. */
double elo_loglik(const elo_data_t *data, const double *r, double adv, double d);

/* Log-likelihood plus log-prior, its gradient g[k] and Hessian h[k*k]
 * (g NULL: value only; h NULL: no Hessian). */
double elo_objective(const elo_data_t *data, const elo_solve_cfg_t *cfg, const double *r,
                     double adv, double d, double *g, double *h);

/* Bootstrap percentile bounds into res->boot_* and the advantage/drawelo
 * bounds (elo_boot.c): B = p->bootstrap resamples of the games with
 * replacement, each fitted from the raw estimate (r0 with r0[ref] = 0, adv0,
 * d0) and put on the result's scale. Restores data's counts before returning. */
int elo_bootstrap(elo_data_t *data, const elo_solve_cfg_t *cfg, const elo_params_t *p,
                  const double *r0, double adv0, double d0, elo_result_t *res);

/* Shift/centre raw ratings (r[ref] = 0) to the caller's scale, as elo_fit does. */
void elo_rescale(double *r, int n, int anchor, double anchor_rating);

#endif
