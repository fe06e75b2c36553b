/* elo_boot.c — bootstrap percentile intervals for elo_fit().
 *
 * Nonparametric bootstrap over games (Efron & Tibshirani 1993, ch. 13):
 * each replicate draws n_games games uniformly with replacement from the
 * input (weights travel with their game), refits the model from the point
 * estimate, and puts the ratings on the same scale as the estimate (anchor
 * or mean 0). The interval for each quantity is the pair of empirical
 * quantiles at (1 - c)/2 and (1 + c)/2 of its replicates. A replicate whose
 * games leave a player unlinked, or that is draw-only, is dropped and counted
 * in boot_failed. All randomness comes from one rng_t seeded with p->seed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "eval/elo_internal.h"

/* (x > y) - (x < y) instead of x - y, which does not fit an int result. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted v[m] by linear interpolation between order statistics. */
/* (Hyndman and Fan's type 7, the default of R and numpy.) */
static double quantile(const double *v, int m, double q)
{
    double pos = q * (m - 1);
    int i = (int)floor(pos);
    if (i >= m - 1) return v[m - 1];
    return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

int elo_bootstrap(elo_data_t *data, const elo_solve_cfg_t *cfg, const elo_params_t *p,
                  const double *r0, double adv0, double d0, elo_result_t *res)
{
    int n = data->n, B = p->bootstrap, cols = n + 2, status = HOYLE_OK;
    /* the resampling overwrites data->pairs in place (the solver reads the
     * counts from there); `saved` restores the real ones at the end */
    elo_pair_t *saved = malloc(data->n_pairs * sizeof *saved);
    double *samples = malloc((size_t)B * (size_t)cols * sizeof *samples);
    double *col = malloc((size_t)B * sizeof *col), *r = malloc((size_t)n * sizeof *r);
    if (!saved || !samples || !col || !r) {
        status = hoyle_error(HOYLE_ENOMEM, "elo: out of memory for %d bootstrap replicates", B);
        goto done;
    }
    memcpy(saved, data->pairs, data->n_pairs * sizeof *saved);
    rng_t rng;
    rng_init(&rng, p->seed);
    int done_n = 0, failed = 0;
    for (int rep = 0; rep < B; rep++) {
        /* 1. Resample the games into the pair counts. */
        for (size_t k = 0; k < data->n_pairs; k++)
            data->pairs[k].win = data->pairs[k].draw = data->pairs[k].loss = 0;
        for (size_t g = 0; g < data->n_games; g++) {
            size_t j = rng_below(&rng, (uint32_t)data->n_games);
            elo_pair_t *pp = &data->pairs[data->game_pair[j]];
            double w = data->game_w[j];
            if (data->game_res[j] == 0)
                pp->win += w;
            else if (data->game_res[j] == 1)
                pp->draw += w;
            else
                pp->loss += w;
        }
        int a, b, comps = elo_data_refresh(data, p->prior_draws, &a, &b);
        if (comps < 0) {
            status = comps;
            goto done;
        }
        /* 2. Same fitted set as the estimate, except a draw-free resample pins drawelo at 0. */
        elo_solve_cfg_t c = *cfg;
        double adv = adv0, d = d0;
        if (c.fit_d && data->draw_weight <= 0) {
            c.fit_d = 0;
            d = 0;
        }
        if (comps > 1 || (c.fit_d && data->decisive_weight <= 0 && !(c.d_sd > 0))) {
            failed++;
            continue;
        }
        /* starting from the estimate converges in a few steps, since a
         * replicate's optimum is close to it */
        memcpy(r, r0, (size_t)n * sizeof *r);
        int st = elo_solve(data, &c, r, &adv, &d, NULL, NULL, NULL);
        if (st == HOYLE_ENOMEM) {
            status = st;
            goto done;
        }
        if (st < 0) {
            failed++;
            continue;
        }
        /* 3. Same scale as the estimate. */
        elo_rescale(r, n, res->anchor, res->anchor >= 0 ? res->rating[res->anchor] : 0);
        double *row = &samples[(size_t)done_n * (size_t)cols];
        memcpy(row, r, (size_t)n * sizeof *r);
        row[n] = adv;
        row[n + 1] = d;
        done_n++;
    }
    res->boot_done = done_n;
    res->boot_failed = failed;
    if (done_n < 2) {
        status = hoyle_error(HOYLE_EINVAL,
                             "elo: only %d of %d bootstrap replicates could be fitted", done_n, B);
        goto done;
    }
    hoyle_clear_error(); /* dropped replicates are not an error of the call */
    /* 4. Percentile bounds, column by column. */
    double qlo = 0.5 - 0.5 * p->confidence, qhi = 0.5 + 0.5 * p->confidence;
    for (int c = 0; c < cols; c++) {
        for (int i = 0; i < done_n; i++) col[i] = samples[(size_t)i * (size_t)cols + (size_t)c];
        qsort(col, (size_t)done_n, sizeof *col, cmp_double);
        double lo = quantile(col, done_n, qlo), hi = quantile(col, done_n, qhi);
        if (c < n) {
            res->boot_lo[c] = lo;
            res->boot_hi[c] = hi;
        } else if (c == n) {
            res->advantage_boot_lo = lo;
            res->advantage_boot_hi = hi;
        } else {
            res->drawelo_boot_lo = lo;
            res->drawelo_boot_hi = hi;
        }
    }
done:
    if (saved) { /* restore the real counts and edges */
        memcpy(data->pairs, saved, data->n_pairs * sizeof *saved);
        int a, b;
        elo_data_refresh(data, p->prior_draws, &a, &b);
    }
    free(saved);
    free(samples);
    free(col);
    free(r);
    return status;
}
