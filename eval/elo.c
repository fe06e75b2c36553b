/* elo.c — elo_fit(): validation, the fit, intervals, LOS and per-player tallies.
 *
 * Steps: check the input, aggregate it (elo_model.c), refuse disconnected
 * data, fit with player `ref` held at 0, turn the inverse information into a
 * rating covariance on the caller's scale (anchor or mean 0), derive
 * intervals and LOS, tally the games, and run the bootstrap if asked.
 * A failed call leaves *out NULL and allocates nothing that survives. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "eval/elo.h"
#include "eval/elo_internal.h"
#include "eval/score.h"

/* BayesElo's defaults (2 virtual draws, both advantage and drawelo fitted);
 * 100 Newton iterations is far more than the handful a fit needs, so hitting
 * it means the data is degenerate, not that the limit is tight. */
void elo_params_default(elo_params_t *p)
{
    memset(p, 0, sizeof *p);
    p->prior_draws = 2.0;
    p->fit_advantage = 1;
    p->fit_drawelo = 1;
    p->anchor = NULL;
    p->advantage_prior_mean = 0;
    p->advantage_prior_sd = 200;
    p->drawelo_prior_mean = 97.3; /* BayesElo's default drawelo */
    p->drawelo_prior_sd = 200;
    p->confidence = 0.95;
    p->seed = 1;
    p->max_iter = 100;
    p->tol = 1e-7;
}

/* Linear: the player lists rated here are tens of names, not thousands. */
int elo_find_player(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) return i;
    return -1;
}

/* Phi(z) through erfc, which stays accurate in the tails where 1 - erf would
 * cancel to 0. */
double elo_normal_cdf(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }

double elo_normal_quantile(double p)
{
    /* Acklam's rational approximation (|rel. error| < 1.2e-9), then one Halley step. */
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    /* the interval ends map to the infinities; NaN and out-of-range p give NaN */
    if (!(p > 0 && p < 1)) return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
    double x;
    if (p < 0.02425 || p > 1 - 0.02425) {
        double q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        if (p > 0.5) x = -x;
    } else {
        double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    /* one Halley step on Phi(x) - p brings the error down to double precision */
    double e = elo_normal_cdf(x) - p;
    double u = e * 2.5066282746310002 /* sqrt(2 pi) */ * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

/* BayesElo's model: white wins with f(x - drawelo), loses with f(-x - drawelo)
 * where x = rating difference + advantage and f the Elo logistic; a draw is
 * the rest. drawelo = 0 means no draws at all. */
void elo_model_probs(double r_white_minus_black, double advantage, double drawelo, double *p_win,
                     double *p_draw, double *p_loss)
{
    double x = r_white_minus_black + advantage;
    *p_win = elo_to_score(x - drawelo);
    *p_loss = elo_to_score(-x - drawelo);
    /* 1 - f(a) - f(b) = f(-a) f(-b) (1 - 10^((a+b)/400)): no cancellation. */
    *p_draw = drawelo > 0 ? (1 - *p_win) * (1 - *p_loss) * -expm1(-2 * ELO_S * drawelo) : 0.0;
}

/* The fit fixes one player at 0; ratings are only defined up to a shift, so
 * the caller's scale is chosen here: the anchor at anchor_rating, or mean 0. */
void elo_rescale(double *r, int n, int anchor, double anchor_rating)
{
    double shift;
    if (anchor >= 0) {
        shift = anchor_rating - r[anchor];
    } else {
        shift = 0;
        for (int i = 0; i < n; i++) shift -= r[i] / n;
    }
    for (int i = 0; i < n; i++) r[i] += shift;
}

void elo_result_free(elo_result_t *r)
{
    if (!r) return;
    if (r->names)
        for (int i = 0; i < r->n; i++) free(r->names[i]);
    free(r->names);
    double *arrays[] = {r->rating,  r->se,      r->lo,    r->hi,    r->cov,  r->los,
                        r->boot_lo, r->boot_hi, r->games, r->score, r->oppo, r->draws};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
    free(r);
}

/* All arrays or none: NULL (and nothing allocated) when any allocation fails. */
static elo_result_t *result_alloc(int n, const char *const *names, int with_boot)
{
    elo_result_t *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->n = n;
    size_t nn = (size_t)n * (size_t)n;
    r->names = calloc((size_t)n, sizeof *r->names);
    r->rating = calloc((size_t)n, sizeof(double));
    r->se = calloc((size_t)n, sizeof(double));
    r->lo = calloc((size_t)n, sizeof(double));
    r->hi = calloc((size_t)n, sizeof(double));
    r->cov = calloc(nn, sizeof(double));
    r->los = calloc(nn, sizeof(double));
    r->games = calloc((size_t)n, sizeof(double));
    r->score = calloc((size_t)n, sizeof(double));
    r->oppo = calloc((size_t)n, sizeof(double));
    r->draws = calloc((size_t)n, sizeof(double));
    int ok = r->names && r->rating && r->se && r->lo && r->hi && r->cov && r->los && r->games &&
             r->score && r->oppo && r->draws;
    if (ok && with_boot) {
        r->boot_lo = calloc((size_t)n, sizeof(double));
        r->boot_hi = calloc((size_t)n, sizeof(double));
        ok = r->boot_lo && r->boot_hi;
    }
    for (int i = 0; ok && i < n; i++) {
        size_t len = strlen(names[i]) + 1;
        r->names[i] = malloc(len);
        if (r->names[i])
            memcpy(r->names[i], names[i], len);
        else
            ok = 0;
    }
    if (!ok) {
        elo_result_free(r);
        return NULL;
    }
    return r;
}

/* Everything a caller can pass wrong is refused here, before any allocation,
 * with a message naming the field; the negated comparisons also catch NaN. */
static int check_input(const elo_input_t *in, const elo_params_t *p, int *anchor)
{
    if (!in) return hoyle_error(HOYLE_EINVAL, "elo: no input");
    if (in->n_players < 2)
        return hoyle_error(HOYLE_EINVAL, "elo: need at least 2 players, got %d", in->n_players);
    if (in->n_games == 0 || !in->games) return hoyle_error(HOYLE_EINVAL, "elo: no games to rate");
    /* the bootstrap draws game indices with rng_below(), a 32-bit range */
    if (in->n_games > UINT32_MAX)
        return hoyle_error(HOYLE_EINVAL, "elo: too many games (%zu)", in->n_games);
    if (!in->names) return hoyle_error(HOYLE_EINVAL, "elo: no player names");
    for (int i = 0; i < in->n_players; i++) {
        if (!in->names[i]) return hoyle_error(HOYLE_EINVAL, "elo: player %d has no name", i);
        for (int j = 0; j < i; j++)
            if (strcmp(in->names[i], in->names[j]) == 0)
                return hoyle_error(HOYLE_EINVAL, "elo: duplicate player name '%s' (ids %d and %d)",
                                   in->names[i], j, i);
    }
    if (!(p->prior_draws >= 0) || isinf(p->prior_draws))
        return hoyle_error(HOYLE_EINVAL, "elo: prior_draws must be finite and >= 0, got %g",
                           p->prior_draws);
    if (!(p->confidence > 0 && p->confidence < 1))
        return hoyle_error(HOYLE_EINVAL, "elo: confidence must be in (0, 1), got %g",
                           p->confidence);
    if (p->bootstrap < 0)
        return hoyle_error(HOYLE_EINVAL, "elo: bootstrap must be >= 0, got %d", p->bootstrap);
    if (p->max_iter < 1 || !(p->tol > 0))
        return hoyle_error(HOYLE_EINVAL, "elo: max_iter must be >= 1 and tol > 0");
    if (!p->fit_advantage && !isfinite(p->advantage))
        return hoyle_error(HOYLE_EINVAL, "elo: fixed advantage must be finite, got %g",
                           p->advantage);
    if (!p->fit_drawelo && !(p->drawelo >= 0 && isfinite(p->drawelo)))
        return hoyle_error(HOYLE_EINVAL, "elo: fixed drawelo must be finite and >= 0, got %g",
                           p->drawelo);
    if (!isfinite(p->advantage_prior_mean) || !isfinite(p->drawelo_prior_mean) ||
        !(p->advantage_prior_sd >= 0) || isinf(p->advantage_prior_sd) ||
        !(p->drawelo_prior_sd >= 0) || isinf(p->drawelo_prior_sd))
        return hoyle_error(HOYLE_EINVAL,
                           "elo: prior means must be finite and prior sds finite and >= 0");
    if (!isfinite(p->anchor_rating))
        return hoyle_error(HOYLE_EINVAL, "elo: anchor_rating must be finite, got %g",
                           p->anchor_rating);
    *anchor = -1;
    if (p->anchor) {
        *anchor = elo_find_player(in->names, in->n_players, p->anchor);
        if (*anchor < 0)
            return hoyle_error(HOYLE_EINVAL, "elo: anchor '%s' is not a player", p->anchor);
    }
    return HOYLE_OK;
}

/* Per-player games, score and draw fraction from the real games (the virtual
 * prior draws are not games), and the mean opponent rating (which is why this
 * runs after the ratings are final). */
/* Tallies from the real games; oppo needs the final ratings. */
static void tally(const elo_data_t *d, elo_result_t *res)
{
    for (size_t k = 0; k < d->n_pairs; k++) {
        const elo_pair_t *p = &d->pairs[k];
        double tot = p->win + p->draw + p->loss;
        res->games[p->white] += tot;
        res->games[p->black] += tot;
        res->score[p->white] += p->win + 0.5 * p->draw;
        res->score[p->black] += p->loss + 0.5 * p->draw;
        res->draws[p->white] += p->draw;
        res->draws[p->black] += p->draw;
        res->oppo[p->white] += tot * res->rating[p->black];
        res->oppo[p->black] += tot * res->rating[p->white];
    }
    for (int i = 0; i < res->n; i++) {
        double g = res->games[i];
        res->score[i] = g > 0 ? res->score[i] / g : 0;
        res->draws[i] = g > 0 ? res->draws[i] / g : 0;
        res->oppo[i] = g > 0 ? res->oppo[i] / g : 0;
    }
}

/* Rating covariance on the caller's scale from theta's covariance; LOS; SEs. */
/* `ctheta` is the covariance of the fitted parameters: the n - 1 free ratings
 * (player ref removed), then advantage and drawelo when fitted; it is the
 * inverse of the observed information at the optimum. */
static void intervals(const double *ctheta, int k, const elo_solve_cfg_t *cfg, elo_result_t *res,
                      double *tmp)
{
    int n = res->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            /* the fixed player has variance 0 in the solver's frame */
            int a = i == cfg->ref ? -1 : (i < cfg->ref ? i : i - 1);
            int b = j == cfg->ref ? -1 : (j < cfg->ref ? j : j - 1);
            res->cov[i * n + j] = a < 0 || b < 0 ? 0 : ctheta[a * k + b];
        }
    if (res->anchor < 0) { /* mean 0: cov <- P cov P with P = I - 11^T/n */
        double *rowm = tmp, tot = 0;
        for (int i = 0; i < n; i++) {
            rowm[i] = 0;
            for (int j = 0; j < n; j++) rowm[i] += res->cov[i * n + j] / n;
            tot += rowm[i] / n;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) res->cov[i * n + j] += tot - rowm[i] - rowm[j];
    }
    double z = elo_normal_quantile(0.5 + 0.5 * res->confidence);
    for (int i = 0; i < n; i++) {
        res->se[i] = sqrt(fmax(0, res->cov[i * n + i]));
        res->lo[i] = res->rating[i] - z * res->se[i];
        res->hi[i] = res->rating[i] + z * res->se[i];
    }
    for (int i = 0; i < n; i++)
        /* LOS(i > j) = Phi((r_i - r_j) / sd(r_i - r_j)); a zero variance (two
         * players tied by the model) gives the sure answer or a coin flip */
        for (int j = 0; j < n; j++) {
            double v = res->cov[i * n + i] + res->cov[j * n + j] - 2 * res->cov[i * n + j];
            double diff = res->rating[i] - res->rating[j];
            res->los[i * n + j] = i == j  ? 0.5
                                  : v > 0 ? elo_normal_cdf(diff / sqrt(v))
                                          : (diff > 0   ? 1
                                             : diff < 0 ? 0
                                                        : 0.5);
        }
    int ia = n - 1, id = n - 1 + !!cfg->fit_adv;
    res->advantage_se = cfg->fit_adv ? sqrt(fmax(0, ctheta[ia * k + ia])) : 0;
    res->drawelo_se = cfg->fit_d ? sqrt(fmax(0, ctheta[id * k + id])) : 0;
}

int elo_fit(const elo_input_t *in, const elo_params_t *pin, elo_result_t **out)
{
    elo_params_t defaults;
    if (!pin) elo_params_default(&defaults);
    const elo_params_t *p = pin ? pin : &defaults;
    *out = NULL;
    int anchor = -1, status = check_input(in, p, &anchor);
    if (status < 0) return status;

    /* 1. Aggregate, and refuse data that does not link every player. */
    elo_data_t data;
    if ((status = elo_data_build(&data, in)) < 0) return status;
    int n = in->n_players, a, b;
    int comps = elo_data_refresh(&data, p->prior_draws, &a, &b);
    if (comps < 0) {
        elo_data_done(&data);
        return comps;
    }
    if (comps > 1) {
        elo_data_done(&data);
        return hoyle_error(HOYLE_EINVAL,
                           "elo: players fall into %d groups with no games between them "
                           "(e.g. '%s' and '%s'); rate each group separately",
                           comps, in->names[a], in->names[b]);
    }

    /* 2. What is fitted, and where it starts. */
    elo_solve_cfg_t cfg = {.ref = anchor >= 0 ? anchor : 0,
                           .fit_adv = !!p->fit_advantage,
                           .fit_d = !!p->fit_drawelo,
                           .prior_draws = p->prior_draws,
                           .adv_mean = p->advantage_prior_mean,
                           .adv_sd = p->advantage_prior_sd,
                           .d_mean = p->drawelo_prior_mean,
                           .d_sd = p->drawelo_prior_sd,
                           .max_iter = p->max_iter,
                           .tol = p->tol};
    double adv = p->fit_advantage ? 0 : p->advantage, d = p->drawelo;
    if (p->fit_drawelo) {
        /* a fitted drawelo needs both draws and decisive games, or its
         * prior: with only draws the likelihood grows without bound as
         * drawelo does */
        double tot = data.draw_weight + data.decisive_weight;
        if (data.decisive_weight <= 0 && !(p->drawelo_prior_sd > 0)) {
            elo_data_done(&data);
            return hoyle_error(HOYLE_EINVAL, "elo: every game is a draw, so drawelo has no finite "
                                             "estimate; hold it fixed (fit_drawelo = 0)");
        }
        if (data.draw_weight <= 0) { /* ML drawelo is the boundary 0: pin it there */
            cfg.fit_d = 0;
            d = 0;
        } else { /* the drawelo that gives the observed draw rate at x = 0 */
            double pd = fmin(data.draw_weight / tot, 0.9);
            d = 400 * log10((1 + pd) / (1 - pd)); /* = score_to_elo((1 + pd) / 2) */
        }
    } else if (data.draw_weight > 0 && !(d > 0)) {
        elo_data_done(&data);
        return hoyle_error(HOYLE_EINVAL,
                           "elo: the games include draws but drawelo is held at %g (need > 0)", d);
    }

    /* 3. Fit. */
    int k = elo_solve_dim(n, &cfg);
    double *r = calloc((size_t)n, sizeof *r),
           *ctheta = malloc((size_t)k * (size_t)k * sizeof *ctheta);
    double *tmp = malloc((size_t)n * sizeof *tmp);
    elo_result_t *res = result_alloc(n, in->names, p->bootstrap > 0);
    if (!r || !ctheta || !tmp || !res) {
        status = hoyle_error(HOYLE_ENOMEM, "elo: out of memory for %d players", n);
        goto fail;
    }
    int iters;
    double ll;
    if ((status = elo_solve(&data, &cfg, r, &adv, &d, ctheta, &iters, &ll)) < 0) goto fail;

    /* 4. Put on the caller's scale, intervals, LOS, tallies. */
    res->anchor = anchor;
    res->confidence = p->confidence;
    res->advantage = adv;
    res->drawelo = d;
    res->log_likelihood = ll;
    res->iterations = iters;
    memcpy(res->rating, r, (size_t)n * sizeof *r);
    elo_rescale(res->rating, n, anchor, p->anchor_rating);
    intervals(ctheta, k, &cfg, res, tmp);
    tally(&data, res);
    res->advantage_boot_lo = res->advantage_boot_hi = NAN;
    res->drawelo_boot_lo = res->drawelo_boot_hi = NAN;

    /* 5. Bootstrap. */
    if (p->bootstrap > 0 && (status = elo_bootstrap(&data, &cfg, p, r, adv, d, res)) < 0) goto fail;
    free(r);
    free(ctheta);
    free(tmp);
    elo_data_done(&data);
    *out = res;
    return HOYLE_OK;
fail:
    free(r);
    free(ctheta);
    free(tmp);
    elo_result_free(res);
    elo_data_done(&data);
    return status;
}
