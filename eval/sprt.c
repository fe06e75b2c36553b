/* sprt.c — GSPRT log-likelihood ratios and the running test (see sprt.h).
 *
 * Both LLR forms work on "units" (a game or a pair) with bucketed scores
 * a_i in [0, 1] and counts n_i, N = sum n_i, phat_i = n_i / N.
 *
 * Normal approximation (fishtest LLRcalc.LLR_alt2; Van den Bergh's note on
 * the GSPRT shows it is the LLR of two normals with the sample variance):
 *     LLR = N (s1 - s0) (2 sbar - s0 - s1) / (2 var),
 *     sbar = sum phat_i a_i,  var = sum phat_i (a_i - sbar)^2.
 *
 * Exact constrained MLE (fishtest LLRcalc.MLE_expected / LLR_logistic): the
 * multinomial p maximising sum n_i log p_i subject to sum p_i = 1 and
 * sum p_i a_i = s is p_i = phat_i / (1 + lambda (a_i - s)), with lambda the
 * root of phi(lambda) = sum phat_i (a_i - s) / (1 + lambda (a_i - s)) = 0
 * (phi is decreasing on the interval where every denominator is positive,
 * so bisection finds it). Then
 *     LLR = sum n_i [log(1 + lambda0 (a_i - s0)) - log(1 + lambda1 (a_i - s1))].
 *
 * Regularisation (fishtest LLRcalc.regularize): the exact form counts every
 * empty bucket as 1e-3 before computing phat, so every phat_i > 0, both
 * hypotheses lie strictly inside the range the estimated distribution can
 * reach, and the LLR is defined from the first unit, zero variance
 * included (every unit a win: LLR ~ N log(s1/s0)). The normal
 * approximation is not regularised (with var ~ 1e-3/N it would explode):
 * it returns 0 (play on) until at least two different scores have been
 * seen. (cutechess waits for a win, a draw and a loss; that rule never
 * ends in games without draws.) */
#include "eval/sprt.h"

#include <math.h>
#include <string.h>

#include "core/error.h"
#include "eval/score.h"

#define SPRT_MAX_BUCKETS  16
#define SPRT_EMPTY_BUCKET 1e-3

void sprt_params_default(sprt_params_t *p)
{
    p->elo0 = 0;
    p->elo1 = 5;
    p->alpha = 0.05;
    p->beta = 0.05;
    p->exact = 1;
}

/* lambda for the MLE under mean constraint s (see the file comment). */
static double mle_lambda(const double *ph, const double *a, int k, double s)
{
    /* Every 1 + lambda c_i must stay positive (the p_i are probabilities):
     * lambda > -1/c_i for c_i > 0 and lambda < -1/c_i for c_i < 0. */
    double lo = -INFINITY, hi = INFINITY;
    for (int i = 0; i < k; i++) {
        double c = a[i] - s;
        if (c > 0) lo = fmax(lo, -1.0 / c);
        if (c < 0) hi = fmin(hi, -1.0 / c);
    }
    /* s strictly inside (min a, max a) keeps both ends finite. */
    for (int it = 0; it < 200 && hi - lo > 1e-15 * fmax(1.0, fabs(lo) + fabs(hi)); it++) {
        double mid = 0.5 * (lo + hi), phi = 0;
        for (int i = 0; i < k; i++) phi += ph[i] * (a[i] - s) / (1 + mid * (a[i] - s));
        /* phi is decreasing in lambda, so phi > 0 means the root lies above mid. */
        if (phi > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

double sprt_llr_general(const double *count, const double *score, int k, double s0, double s1,
                        int exact)
{
    if (k < 2 || k > SPRT_MAX_BUCKETS) return NAN;
    double n[SPRT_MAX_BUCKETS], ph[SPRT_MAX_BUCKETS], tot = 0, amin = INFINITY, amax = -INFINITY;
    int filled = 0;
    for (int i = 0; i < k; i++) {
        filled += count[i] > 0;
        amin = fmin(amin, score[i]);
        amax = fmax(amax, score[i]);
    }
    if (filled == 0) return 0;          /* nothing recorded yet */
    if (!exact && filled < 2) return 0; /* one kind of result: no variance to go on */
    if (exact && !(amin < s0 && s1 < amax)) return NAN; /* no MLE with that mean */
    for (int i = 0; i < k; i++) {
        /* Only the exact form regularises: an empty bucket gets p_i = 0 at the MLE
         * and log(0) would follow. The normal form is unaffected by empty buckets. */
        n[i] = count[i] > 0 ? count[i] : exact ? SPRT_EMPTY_BUCKET : 0;
        tot += n[i];
    }
    double sbar = 0, var = 0;
    for (int i = 0; i < k; i++) {
        ph[i] = n[i] / tot;
        sbar += ph[i] * score[i];
    }
    for (int i = 0; i < k; i++) var += ph[i] * (score[i] - sbar) * (score[i] - sbar);
    if (!exact) return tot * (s1 - s0) * (2 * sbar - s0 - s1) / (2 * var);
    double l0 = mle_lambda(ph, score, k, s0), l1 = mle_lambda(ph, score, k, s1), llr = 0;
    for (int i = 0; i < k; i++)
        llr += n[i] * (log1p(l0 * (score[i] - s0)) - log1p(l1 * (score[i] - s1)));
    return llr;
}

/* Game units: a win, draw, loss score 1, 1/2, 0. The Elo bounds become score
 * bounds on the logistic scale (score.c), as in fishtest's logistic mode. */
double sprt_llr_trinomial(const double wdl[3], double elo0, double elo1, int exact)
{
    static const double a[3] = {1.0, 0.5, 0.0};
    return sprt_llr_general(wdl, a, 3, elo_to_score(elo0), elo_to_score(elo1), exact);
}

/* Pair units (a game and its colour-swapped twin, fishtest's pentanomial
 * model): the pair's points 0, 1/2, 1, 3/2, 2 divided by 2. Pairing removes
 * most of the opening's bias from the variance, so the test stops sooner
 * than with game units on the same games. */
double sprt_llr_pentanomial(const double penta[5], double elo0, double elo1, int exact)
{
    static const double a[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    return sprt_llr_general(penta, a, 5, elo_to_score(elo0), elo_to_score(elo1), exact);
}

int sprt_init(sprt_t *s, const sprt_params_t *p)
{
    if (!(p->elo0 >= -SPRT_ELO_MAX && p->elo1 <= SPRT_ELO_MAX && p->elo0 < p->elo1))
        return hoyle_error(HOYLE_EINVAL, "sprt: need elo0 < elo1, both in [%d, %d], got %g and %g",
                           -SPRT_ELO_MAX, SPRT_ELO_MAX, p->elo0, p->elo1);
    if (!(p->alpha > 0 && p->alpha < 1 && p->beta > 0 && p->beta < 1 && p->alpha + p->beta < 1))
        return hoyle_error(HOYLE_EINVAL,
                           "sprt: need alpha, beta in (0, 1) with alpha + beta < 1, got %g and %g",
                           p->alpha, p->beta);
    memset(s, 0, sizeof *s);
    s->p = *p;
    /* Wald's (1945) approximate bounds: accept H0 at LLR <= log(beta/(1-alpha)),
     * H1 at LLR >= log((1-beta)/alpha). */
    s->lower = log(p->beta / (1 - p->alpha));
    s->upper = log((1 - p->beta) / p->alpha);
    return HOYLE_OK;
}

/* mode records the unit the test was started with (0 none yet, 1 games,
 * 2 pairs); mixing units would make one LLR over incompatible buckets. */
int sprt_add_game(sprt_t *s, double score)
{
    if (s->mode == 2)
        return hoyle_error(HOYLE_ESTATE, "sprt: this test records pairs, not single games");
    if (score == 1.0)
        s->wdl[0] += 1;
    else if (score == 0.5)
        s->wdl[1] += 1;
    else if (score == 0.0)
        s->wdl[2] += 1;
    else
        return hoyle_error(HOYLE_EINVAL, "sprt: game score must be 1, 0.5 or 0, got %g", score);
    s->mode = 1;
    return HOYLE_OK;
}

int sprt_add_pair(sprt_t *s, double pair_score)
{
    if (s->mode == 1)
        return hoyle_error(HOYLE_ESTATE, "sprt: this test records single games, not pairs");
    /* The pair score in half points is the pentanomial bucket index 0..4. */
    double k = pair_score * 2;
    if (!(k >= 0 && k <= 4 && k == floor(k)))
        return hoyle_error(HOYLE_EINVAL, "sprt: pair score must be 0, 0.5, 1, 1.5 or 2, got %g",
                           pair_score);
    s->penta[(int)k] += 1;
    s->mode = 2;
    return HOYLE_OK;
}

double sprt_llr(const sprt_t *s)
{
    if (s->mode == 1) return sprt_llr_trinomial(s->wdl, s->p.elo0, s->p.elo1, s->p.exact);
    if (s->mode == 2) return sprt_llr_pentanomial(s->penta, s->p.elo0, s->p.elo1, s->p.exact);
    return 0;
}

sprt_decision_t sprt_decision(const sprt_t *s)
{
    double llr = sprt_llr(s);
    if (llr >= s->upper) return SPRT_ACCEPT_H1;
    if (llr <= s->lower) return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE;
}

/* Mean score per unit and its standard error sqrt(var / n) over the same
 * buckets the LLR uses (unregularised). */
void sprt_score(const sprt_t *s, double *units, double *mean, double *se)
{
    static const double a3[3] = {1.0, 0.5, 0.0}, a5[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    const double *c = s->mode == 2 ? s->penta : s->wdl, *a = s->mode == 2 ? a5 : a3;
    int k = s->mode == 2 ? 5 : 3;
    double n = 0, m = 0, v = 0;
    for (int i = 0; i < k; i++) {
        n += c[i];
        m += c[i] * a[i];
    }
    *units = n;
    *mean = *se = 0;
    if (!(n > 0)) return;
    m /= n;
    for (int i = 0; i < k; i++) v += c[i] * (a[i] - m) * (a[i] - m);
    *mean = m;
    *se = sqrt(v / n / n);
}
