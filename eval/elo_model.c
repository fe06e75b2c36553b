/* elo_model.c — the BayesElo likelihood, its derivatives and the Newton solver.
 *
 * With S = ln(10)/400, sigma(z) = 1/(1+e^-z), x = r_w - r_b + adv, d = drawelo:
 *
 *   log P(win)  = log sigma(S(x - d))
 *   log P(loss) = log sigma(S(-x - d))
 *   log P(draw) = log sigma(S(d - x)) + log sigma(S(x + d)) + log(1 - e^(-2 S d))
 *
 * The draw line is the identity 1 - sigma(a) - sigma(b) = sigma(-a) sigma(-b)
 * (1 - e^(a+b)) with a = S(x-d), b = S(-x-d): it stays accurate when the
 * draw probability is tiny, and every piece is a log-sigmoid of a linear form
 * in (x, d), whose derivatives are s(1 - sigma) and -s^2 sigma (1 - sigma).
 *
 * The prior adds, for each edge (i, j) of players who met, `weight` virtual
 * draws scored as half a win and half a loss under the plain logistic (no
 * advantage, no draw band): weight * [log sigma(S D) + log sigma(-S D)] / 2,
 * D = r_i - r_j. It is concave, shift-invariant, and leaves advantage and
 * drawelo to the real games. Those two have Gaussian priors of their own
 * (cfg->adv_*, cfg->d_*), which keep them finite on any data.
 *
 * Invariant: the solver only accepts steps that do not decrease the
 * objective, and reports the inverse information only at a converged point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "eval/elo_internal.h"

/* ---- data ---- */

int elo_data_build(elo_data_t *d, const elo_input_t *in)
{
    memset(d, 0, sizeof *d);
    int n = in->n_players;
    int *index = malloc((size_t)n * (size_t)n * sizeof *index);
    d->pairs = malloc(in->n_games * sizeof *d->pairs);
    d->game_pair = malloc(in->n_games * sizeof *d->game_pair);
    d->game_w = malloc(in->n_games * sizeof *d->game_w);
    d->edges = malloc(in->n_games * sizeof *d->edges);
    d->game_res = malloc(in->n_games);
    if (!index || !d->pairs || !d->game_pair || !d->game_w || !d->edges || !d->game_res) {
        free(index);
        elo_data_done(d);
        return hoyle_error(HOYLE_ENOMEM, "elo: out of memory for %zu games", in->n_games);
    }
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) index[i] = -1;
    d->n = n;
    d->n_games = in->n_games;
    for (size_t g = 0; g < in->n_games; g++) {
        const elo_game_t *gm = &in->games[g];
        const char *bad = NULL;
        if (gm->white < 0 || gm->white >= n || gm->black < 0 || gm->black >= n)
            bad = "player id out of range";
        else if (gm->white == gm->black)
            bad = "a player cannot play itself";
        else if (!(gm->score == 0.0 || gm->score == 0.5 || gm->score == 1.0))
            bad = "score must be 1, 0.5 or 0";
        else if (!(gm->weight >= 0.0) || isinf(gm->weight))
            bad = "weight must be finite and >= 0";
        if (bad) {
            free(index);
            elo_data_done(d);
            return hoyle_error(HOYLE_EINVAL,
                               "elo: game %zu (white %d, black %d, score %g, weight %g): %s", g,
                               gm->white, gm->black, gm->score, gm->weight, bad);
        }
        size_t key = (size_t)gm->white * (size_t)n + (size_t)gm->black;
        if (index[key] < 0) {
            index[key] = (int)d->n_pairs;
            size_t rkey = (size_t)gm->black * (size_t)n + (size_t)gm->white;
            d->pairs[d->n_pairs] = (elo_pair_t){gm->white, gm->black, index[rkey], 0, 0, 0};
            if (index[rkey] >= 0) d->pairs[index[rkey]].rev = (int)d->n_pairs;
            d->n_pairs++;
        }
        double w = gm->weight == 0.0 ? 1.0 : gm->weight;
        elo_pair_t *p = &d->pairs[index[key]];
        if (gm->score == 1.0)
            p->win += w;
        else if (gm->score == 0.5)
            p->draw += w;
        else
            p->loss += w;
        d->game_res[g] = gm->score == 1.0 ? 0 : gm->score == 0.5 ? 1 : 2;
        d->game_pair[g] = (size_t)index[key];
        d->game_w[g] = w;
    }
    free(index);
    return HOYLE_OK;
}

void elo_data_done(elo_data_t *d)
{
    free(d->pairs);
    free(d->game_pair);
    free(d->game_w);
    free(d->edges);
    free(d->game_res);
    memset(d, 0, sizeof *d);
}

/* Union-find root with path halving: connectivity of the players is what
 * decides whether ratings are comparable at all. */
static int uf_find(int *parent, int x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

int elo_data_refresh(elo_data_t *d, double prior_draws, int *a, int *b)
{
    int n = d->n;
    int *parent = malloc((size_t)n * sizeof *parent);
    int *deg = calloc((size_t)n, sizeof *deg);
    if (!parent || !deg) {
        free(parent);
        free(deg);
        return hoyle_error(HOYLE_ENOMEM, "elo: out of memory");
    }
    for (int i = 0; i < n; i++) parent[i] = i;
    d->draw_weight = d->decisive_weight = 0;
    d->n_edges = 0;
    /* 1. One edge per unordered pair that met: pair k makes it unless its
     *    reverse-coloured pair came earlier and has games too. */
    for (size_t k = 0; k < d->n_pairs; k++) {
        const elo_pair_t *p = &d->pairs[k];
        double tot = p->win + p->draw + p->loss;
        d->draw_weight += p->draw;
        d->decisive_weight += p->win + p->loss;
        if (tot <= 0) continue;
        if (p->rev >= 0 && (size_t)p->rev < k) {
            const elo_pair_t *o = &d->pairs[p->rev];
            if (o->win + o->draw + o->loss > 0) continue;
        }
        int i = p->white < p->black ? p->white : p->black;
        int j = p->white < p->black ? p->black : p->white;
        d->edges[d->n_edges++] = (elo_edge_t){i, j, 0};
        deg[i]++;
        deg[j]++;
        int ri = uf_find(parent, i), rj = uf_find(parent, j);
        if (ri != rj) parent[ri] = rj;
    }
    /* 2. Each player spreads prior_draws/2 over its opponents; an edge gets
     *    both halves, so a player takes part in about prior_draws virtual draws. */
    for (size_t e = 0; e < d->n_edges; e++) {
        elo_edge_t *ed = &d->edges[e];
        ed->weight = 0.5 * prior_draws * (1.0 / deg[ed->i] + 1.0 / deg[ed->j]);
    }
    /* 3. Components. */
    int comps = 0, first = -1;
    *a = *b = -1;
    for (int i = 0; i < n; i++) {
        if (uf_find(parent, i) != i) continue;
        comps++;
        if (first < 0)
            first = i;
        else if (*b < 0) {
            *a = first;
            *b = i;
        }
    }
    free(parent);
    free(deg);
    return comps;
}

/* ---- likelihood pieces ---- */

/* Both branches keep exp() of a non-positive number, so neither overflows
 * for large |z| (ratings far apart). */
static double log_sigmoid(double z) { return z >= 0 ? -log1p(exp(-z)) : z - log1p(exp(z)); }
static double sigmoid(double z) { return z >= 0 ? 1.0 / (1.0 + exp(-z)) : exp(z) / (1.0 + exp(z)); }

/* Value and derivatives in (x, d) of a sum of weighted terms. */
typedef struct acc {
    double v, gx, gd, hxx, hxd, hdd;
} acc_t;

/* Add w * log sigma(S (kx x + kd d)). */
static void add_logsig(acc_t *a, double w, double kx, double kd, double x, double d)
{
    if (w == 0) return;
    double z = ELO_S * (kx * x + kd * d);
    double p = sigmoid(z), q = sigmoid(-z);
    double h = -w * ELO_S * ELO_S * p * q;
    a->v += w * log_sigmoid(z);
    a->gx += w * ELO_S * q * kx;
    a->gd += w * ELO_S * q * kd;
    a->hxx += h * kx * kx;
    a->hxd += h * kx * kd;
    a->hdd += h * kd * kd;
}

/* One ordered pair's contribution; d <= 0 with draws gives -inf. */
static acc_t pair_terms(const elo_pair_t *p, double x, double d)
{
    acc_t a = {0, 0, 0, 0, 0, 0};
    add_logsig(&a, p->win, 1, -1, x, d);
    add_logsig(&a, p->loss, -1, -1, x, d);
    if (p->draw > 0) {
        if (!(d > 0)) {
            a.v = -INFINITY;
            return a;
        }
        add_logsig(&a, p->draw, -1, 1, x, d);
        add_logsig(&a, p->draw, 1, 1, x, d);
        double e = exp(-2 * ELO_S * d); /* log(1 - e^(-2Sd)) and its d-derivatives */
        a.v += p->draw * log(-expm1(-2 * ELO_S * d));
        a.gd += p->draw * 2 * ELO_S * e / (1 - e);
        a.hdd -= p->draw * 4 * ELO_S * ELO_S * e / ((1 - e) * (1 - e));
    }
    return a;
}

double elo_loglik(const elo_data_t *data, const double *r, double adv, double d)
{
    double v = 0;
    for (size_t k = 0; k < data->n_pairs; k++) {
        const elo_pair_t *p = &data->pairs[k];
        v += pair_terms(p, r[p->white] - r[p->black] + adv, d).v;
    }
    return v;
}

int elo_solve_dim(int n, const elo_solve_cfg_t *cfg)
{
    return n - 1 + !!cfg->fit_adv + !!cfg->fit_d;
}

/* Position of player i in theta, or -1 for the reference. */
static int ridx(const elo_solve_cfg_t *cfg, int i)
{
    return i == cfg->ref ? -1 : (i < cfg->ref ? i : i - 1);
}

double elo_objective(const elo_data_t *data, const elo_solve_cfg_t *cfg, const double *r,
                     double adv, double d, double *g, double *h)
{
    int k = elo_solve_dim(data->n, cfg);
    int ia = cfg->fit_adv ? data->n - 1 : -1;
    int id = cfg->fit_d ? data->n - 1 + !!cfg->fit_adv : -1;
    if (g) memset(g, 0, (size_t)k * sizeof *g);
    if (h) memset(h, 0, (size_t)k * (size_t)k * sizeof *h);
    double v = 0;
    for (size_t q = 0; q < data->n_pairs + data->n_edges; q++) {
        acc_t a;
        int u[3], nu = 0; /* theta indices with coefficient +1, -1, +1 in x */
        double cu[3];
        if (q < data->n_pairs) {
            const elo_pair_t *p = &data->pairs[q];
            a = pair_terms(p, r[p->white] - r[p->black] + adv, d);
            u[nu] = ridx(cfg, p->white), cu[nu++] = 1;
            u[nu] = ridx(cfg, p->black), cu[nu++] = -1;
            u[nu] = ia, cu[nu++] = 1;
        } else {
            const elo_edge_t *e = &data->edges[q - data->n_pairs];
            double x = r[e->i] - r[e->j];
            a = (acc_t){0, 0, 0, 0, 0, 0};
            add_logsig(&a, 0.5 * e->weight, 1, 0, x, 0);
            add_logsig(&a, 0.5 * e->weight, -1, 0, x, 0);
            u[nu] = ridx(cfg, e->i), cu[nu++] = 1;
            u[nu] = ridx(cfg, e->j), cu[nu++] = -1;
        }
        v += a.v;
        if (!g) continue;
        for (int s = 0; s < nu; s++) {
            if (u[s] < 0) continue;
            g[u[s]] += cu[s] * a.gx;
            if (!h) continue;
            for (int t = 0; t < nu; t++)
                if (u[t] >= 0) h[u[s] * k + u[t]] += cu[s] * cu[t] * a.hxx;
            if (id >= 0) {
                h[u[s] * k + id] += cu[s] * a.hxd;
                h[id * k + u[s]] += cu[s] * a.hxd;
            }
        }
        if (id >= 0) {
            g[id] += a.gd;
            if (h) h[id * k + id] += a.hdd;
        }
    }
    /* Gaussian priors on the fitted advantage and drawelo: -(t - m)^2 / (2 sd^2) */
    double t[2] = {adv, d}, m[2] = {cfg->adv_mean, cfg->d_mean}, sd[2] = {cfg->adv_sd, cfg->d_sd};
    int at[2] = {ia, id};
    for (int q = 0; q < 2; q++) {
        if (at[q] < 0 || !(sd[q] > 0)) continue;
        double inv = 1.0 / (sd[q] * sd[q]);
        v -= 0.5 * (t[q] - m[q]) * (t[q] - m[q]) * inv;
        if (g) g[at[q]] -= (t[q] - m[q]) * inv;
        if (h) h[at[q] * k + at[q]] -= inv;
    }
    return v;
}

/* ---- linear algebra: Cholesky of a symmetric positive-definite k x k ---- */

/* In place, lower triangle; returns 0 or -1 when not positive definite. */
static int cholesky(double *a, int k)
{
    for (int j = 0; j < k; j++) {
        double s = a[j * k + j];
        for (int p = 0; p < j; p++) s -= a[j * k + p] * a[j * k + p];
        if (!(s > 0)) return -1;
        double l = sqrt(s);
        a[j * k + j] = l;
        for (int i = j + 1; i < k; i++) {
            double t = a[i * k + j];
            for (int p = 0; p < j; p++) t -= a[i * k + p] * a[j * k + p];
            a[i * k + j] = t / l;
        }
    }
    return 0;
}

/* Solve L L^T x = b in place (b becomes x). */
static void chol_solve(const double *l, int k, double *b)
{
    for (int i = 0; i < k; i++) {
        double t = b[i];
        for (int p = 0; p < i; p++) t -= l[i * k + p] * b[p];
        b[i] = t / l[i * k + i];
    }
    for (int i = k - 1; i >= 0; i--) {
        double t = b[i];
        for (int p = i + 1; p < k; p++) t -= l[p * k + i] * b[p];
        b[i] = t / l[i * k + i];
    }
}

/* ---- Newton ---- */

static void theta_get(const elo_solve_cfg_t *cfg, int n, const double *r, double adv, double d,
                      double *th)
{
    for (int i = 0; i < n; i++)
        if (i != cfg->ref) th[ridx(cfg, i)] = r[i];
    if (cfg->fit_adv) th[n - 1] = adv;
    if (cfg->fit_d) th[n - 1 + !!cfg->fit_adv] = d;
}

static void theta_set(const elo_solve_cfg_t *cfg, int n, const double *th, double *r, double *adv,
                      double *d)
{
    for (int i = 0; i < n; i++) r[i] = i == cfg->ref ? 0 : th[ridx(cfg, i)];
    if (cfg->fit_adv) *adv = th[n - 1];
    if (cfg->fit_d) *d = th[n - 1 + !!cfg->fit_adv];
}

int elo_solve(const elo_data_t *data, const elo_solve_cfg_t *cfg, double *r, double *adv, double *d,
              double *cov, int *iters, double *ll)
{
    int n = data->n, k = elo_solve_dim(n, cfg);
    size_t kk = (size_t)k * (size_t)k;
    double *g = malloc((size_t)k * sizeof *g), *h = malloc(kk * sizeof *h);
    double *a = malloc(kk * sizeof *a), *th = malloc((size_t)k * sizeof *th);
    double *th2 = malloc((size_t)k * sizeof *th2), *step = malloc((size_t)k * sizeof *step);
    double *r2 = malloc((size_t)n * sizeof *r2);
    int status = HOYLE_OK, it = 0, converged = 0;
    if (!g || !h || !a || !th || !th2 || !step || !r2) {
        status = hoyle_error(HOYLE_ENOMEM, "elo: out of memory (%d parameters)", k);
        goto done;
    }
    /* the reference player is held at 0: ratings are defined only up to a
     * shift, and fixing one makes the Hessian invertible */
    for (int i = 0; i < n; i++) r[i] -= r[cfg->ref];
    double f = elo_objective(data, cfg, r, *adv, *d, NULL, NULL);
    if (!isfinite(f)) {
        status =
            hoyle_error(HOYLE_EINVAL,
                        "elo: the starting point has zero likelihood (drawelo %g with draws?)", *d);
        goto done;
    }
    for (it = 0; it < cfg->max_iter && !converged; it++) {
        /* 1. Gradient and Hessian; Newton system (-H + lambda I) step = g. */
        elo_objective(data, cfg, r, *adv, *d, g, h);
        /* -H is positive definite at a proper maximum; away from it, add
         * lambda I (Levenberg damping) until Cholesky succeeds */
        double lambda = 0;
        for (;;) {
            for (size_t q = 0; q < kk; q++) a[q] = -h[q];
            for (int i = 0; i < k; i++) a[i * k + i] += lambda;
            if (cholesky(a, k) == 0) break;
            lambda = lambda == 0 ? 1e-6 : lambda * 10;
            if (lambda > 1e6) {
                status = hoyle_error(HOYLE_EINVAL,
                                     "elo: Newton system singular (ratings not identifiable)");
                goto done;
            }
        }
        memcpy(step, g, (size_t)k * sizeof *step);
        chol_solve(a, k, step);
        /* 2. Backtracking: halve the step until the objective does not fall. */
        theta_get(cfg, n, r, *adv, *d, th);
        double t = 1, f2 = -INFINITY, adv2 = *adv, d2 = *d;
        for (int half = 0; half < 60; half++, t *= 0.5) {
            for (int i = 0; i < k; i++) th2[i] = th[i] + t * step[i];
            theta_set(cfg, n, th2, r2, &adv2, &d2);
            f2 = elo_objective(data, cfg, r2, adv2, d2, NULL, NULL);
            if (f2 >= f - 1e-12 * fabs(f)) break;
        }
        double moved = 0;
        for (int i = 0; i < k; i++) moved = fmax(moved, fabs(t * step[i]));
        if (!(f2 >= f - 1e-12 * fabs(f))) { /* no ascent possible: at the optimum up to rounding */
            converged = moved < 1e3 * cfg->tol;
            break;
        }
        memcpy(r, r2, (size_t)n * sizeof *r);
        *adv = adv2;
        *d = d2;
        f = f2;
        /* 3. Stop when nothing moves; give up when ratings run away. */
        if (moved < cfg->tol) converged = 1;
        for (int i = 0; i < k; i++)
            if (fabs(th2[i]) > 1e5) {
                status = hoyle_error(HOYLE_EINVAL, "elo: estimates diverge (a perfect score with "
                                                   "prior_draws = 0, or a draw-only data set?)");
                goto done;
            }
    }
    if (!converged) {
        status = hoyle_error(HOYLE_EINVAL,
                             "elo: Newton did not converge in %d iterations "
                             "(perfect score with prior_draws = 0?)",
                             cfg->max_iter);
        goto done;
    }
    /* 4. Observed information at the optimum, inverted column by column. */
    if (cov) {
        elo_objective(data, cfg, r, *adv, *d, g, h);
        for (size_t q = 0; q < kk; q++) a[q] = -h[q];
        if (cholesky(a, k) != 0) {
            status = hoyle_error(HOYLE_EINVAL, "elo: information matrix singular (a parameter "
                                               "is not identifiable from these games)");
            goto done;
        }
        for (int j = 0; j < k; j++) {
            for (int i = 0; i < k; i++) step[i] = i == j;
            chol_solve(a, k, step);
            for (int i = 0; i < k; i++) cov[i * k + j] = step[i];
        }
    }
    if (iters) *iters = it;
    if (ll) *ll = elo_loglik(data, r, *adv, *d);
done:
    free(g);
    free(h);
    free(a);
    free(th);
    free(th2);
    free(step);
    free(r2);
    return status;
}
