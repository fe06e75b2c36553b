/* test_sprt.c — the SPRT of eval/sprt.h: LLR formulas on hand-computed
 * cases, the state machine, and error rates over simulated tests. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "eval/score.h"
#include "eval/sprt.h"
#include "tests/harness.h"

static void test_bounds_and_scores(void)
{
    sprt_params_t p;
    sprt_params_default(&p);
    p.alpha = 0.05;
    p.beta = 0.1;
    sprt_t s;
    HARNESS_OK(sprt_init(&s, &p));
    CU_ASSERT_DOUBLE_EQUAL(s.lower, log(0.1 / 0.95), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.upper, log(0.9 / 0.05), 1e-12);
    CU_ASSERT_EQUAL(sprt_llr(&s), 0.0);
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_CONTINUE);
    CU_ASSERT_DOUBLE_EQUAL(elo_to_score(0), 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(elo_to_score(400 * log10(1.5)), 0.6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(score_to_elo(elo_to_score(37.5)), 37.5, 1e-9);
}

/* W/D/L = 60/20/20: sbar = 0.7, var = (60*.09 + 20*.04 + 20*.49)/100 = 0.16.
 * elo0 = 0 (s0 = 0.5), elo1 = 400 log10 1.5 (s1 = 0.6):
 * LLR = 100 * 0.1 * (1.4 - 1.1) / (2 * 0.16) = 9.375. */
static void test_llr_trinomial_hand(void)
{
    double wdl[3] = {60, 20, 20}, e1 = 400 * log10(1.5);
    CU_ASSERT_DOUBLE_EQUAL(sprt_llr_trinomial(wdl, 0, e1, 0), 9.375, 1e-9);
    /* Exact MLE without draws: the constrained MLE is p_win = s, so
     * LLR = W log(s1/s0) + L log((1-s1)/(1-s0)) (up to the 1e-3 empty-bucket count). */
    double wl[3] = {60, 0, 40};
    double want = 60 * log(0.6 / 0.5) + 40 * log(0.4 / 0.5);
    CU_ASSERT_DOUBLE_EQUAL(sprt_llr_trinomial(wl, 0, e1, 1), want, 1e-3);
    /* For small Elo gaps the two forms agree closely. */
    double big[3] = {4100, 3900, 3700};
    double a = sprt_llr_trinomial(big, 0, 5, 0), b = sprt_llr_trinomial(big, 0, 5, 1);
    CU_ASSERT(fabs(a - b) < 0.01 * fabs(a) + 1e-3);
    CU_ASSERT_EQUAL(sprt_llr_trinomial((double[3]){0, 0, 0}, 0, 5, 0), 0.0);
}

/* Pentanomial counts {5, 10, 40, 25, 20}: per-game means 0, .25, .5, .75, 1;
 * sbar = (10*.25 + 40*.5 + 25*.75 + 20)/100 = 0.6125,
 * var = sum p (a - sbar)^2, LLR = N (s1 - s0)(2 sbar - s0 - s1) / (2 var). */
static void test_llr_pentanomial_hand(void)
{
    double c[5] = {5, 10, 40, 25, 20}, a[5] = {0, .25, .5, .75, 1};
    double sbar = 0.6125, var = 0;
    for (int i = 0; i < 5; i++) var += c[i] / 100 * (a[i] - sbar) * (a[i] - sbar);
    double s0 = elo_to_score(0), s1 = elo_to_score(20);
    double want = 100 * (s1 - s0) * (2 * sbar - s0 - s1) / (2 * var);
    CU_ASSERT_DOUBLE_EQUAL(sprt_llr_pentanomial(c, 0, 20, 0), want, 1e-9);
    /* The general form with the same buckets gives the same numbers. */
    double ex = sprt_llr_pentanomial(c, 0, 20, 1);
    CU_ASSERT_DOUBLE_EQUAL(sprt_llr_general(c, a, 5, s0, s1, 0), want, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(sprt_llr_general(c, a, 5, s0, s1, 1), ex, 1e-12);
    /* Far from both hypotheses (sbar ~ 79 Elo) the forms differ (3.93 vs
     * 3.35); near them (sbar = 0.525 ~ 17 Elo) they agree within 1%. */
    CU_ASSERT(ex > 3.0 && ex < want);
    double near[5] = {50, 200, 450, 200, 100};
    double a1 = sprt_llr_pentanomial(near, 0, 20, 0), a2 = sprt_llr_pentanomial(near, 0, 20, 1);
    CU_ASSERT(fabs(a1 - a2) < 0.01 * fabs(a1));
}

static void test_state_and_errors(void)
{
    sprt_params_t p;
    sprt_params_default(&p);
    sprt_t s;
    p.elo1 = p.elo0;
    CU_ASSERT_EQUAL(sprt_init(&s, &p), HOYLE_EINVAL);
    p.elo1 = 5;
    p.alpha = 0;
    CU_ASSERT_EQUAL(sprt_init(&s, &p), HOYLE_EINVAL);
    p.alpha = 0.6;
    p.beta = 0.5;
    CU_ASSERT_EQUAL(sprt_init(&s, &p), HOYLE_EINVAL);
    p.alpha = p.beta = 0.05;
    p.elo1 = 400 * log10(1.5);
    HARNESS_OK(sprt_init(&s, &p));
    CU_ASSERT_EQUAL(sprt_add_game(&s, 0.3), HOYLE_EINVAL);
    for (int i = 0; i < 60; i++) HARNESS_OK(sprt_add_game(&s, 1));
    for (int i = 0; i < 20; i++) HARNESS_OK(sprt_add_game(&s, 0.5));
    for (int i = 0; i < 20; i++) HARNESS_OK(sprt_add_game(&s, 0));
    CU_ASSERT_DOUBLE_EQUAL(sprt_llr(&s), 9.375, 1e-9);
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_ACCEPT_H1);
    double units, mean, se;
    sprt_score(&s, &units, &mean, &se);
    CU_ASSERT_DOUBLE_EQUAL(units, 100, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mean, 0.7, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(se, 0.04, 1e-12);
    CU_ASSERT_EQUAL(sprt_add_pair(&s, 1), HOYLE_ESTATE);
    HARNESS_OK(sprt_init(&s, &p));
    CU_ASSERT_EQUAL(sprt_add_pair(&s, 0.7), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(sprt_add_pair(&s, 2.5), HOYLE_EINVAL);
    for (int i = 0; i < 30; i++) HARNESS_OK(sprt_add_pair(&s, 0.5));
    CU_ASSERT_EQUAL(sprt_add_game(&s, 1), HOYLE_ESTATE);
    CU_ASSERT_EQUAL(sprt_llr(&s), 0.0); /* one kind of result: no variance yet */
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_CONTINUE);
    HARNESS_OK(sprt_add_pair(&s, 1));
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_ACCEPT_H0);
}

/* ---- simulations ---- */

/* One game for an agent whose expected score is s, with draw rate `dr`. */
static double sim_game(rng_t *r, double s, double dr)
{
    double u = rng_double(r), win = s - dr / 2;
    return u < win ? 1.0 : u < win + dr ? 0.5 : 0.0;
}

/* Run one SPRT to its end; returns the decision (CONTINUE if it hit the cap). */
static sprt_decision_t run_one(rng_t *r, const sprt_params_t *p, double true_elo, int pairs,
                               long *units)
{
    sprt_t s;
    sprt_init(&s, p);
    double sc = elo_to_score(true_elo);
    /* Pairs: the first game of a pair is played with the first-move edge
     * (+0.06 expected score), the second without it, so pair scores are
     * correlated with colour as in real opening-pair play; mean stays sc. */
    for (long n = 1; n <= 200000; n++) {
        if (pairs)
            sprt_add_pair(&s, sim_game(r, sc + 0.06, 0.4) + sim_game(r, sc - 0.06, 0.4));
        else
            sprt_add_game(&s, sim_game(r, sc, 0.4));
        sprt_decision_t d = sprt_decision(&s);
        if (d != SPRT_CONTINUE) {
            *units += n;
            return d;
        }
    }
    return SPRT_CONTINUE;
}

/* elo0 = 0, elo1 = 20, alpha = beta = 0.05, 1000 runs per case (300 for the
 * slower exact LLR): with the truth at elo0 (elo1) the wrong acceptance rate
 * should be about alpha (beta) or less; the bound is 0.05 + 3 binomial SDs
 * (0.071 for 1000 runs, 0.088 for 300). Trinomial and pentanomial tests. */
static void check_error_rates(int pairs, int exact)
{
    sprt_params_t p = {0, 20, 0.05, 0.05, exact};
    rng_t r;
    rng_init(&r, 42 + (uint64_t)pairs * 2 + (uint64_t)exact);
    int wrong_h0 = 0, wrong_h1 = 0, undecided = 0, runs = exact ? 300 : 1000;
    long units0 = 0, units1 = 0;
    for (int i = 0; i < runs; i++) {
        sprt_decision_t d0 = run_one(&r, &p, 0, pairs, &units0);
        sprt_decision_t d1 = run_one(&r, &p, 20, pairs, &units1);
        wrong_h0 += d0 == SPRT_ACCEPT_H1;
        wrong_h1 += d1 == SPRT_ACCEPT_H0;
        undecided += (d0 == SPRT_CONTINUE) + (d1 == SPRT_CONTINUE);
    }
    double a = (double)wrong_h0 / runs, b = (double)wrong_h1 / runs;
    double bound = 0.05 + 3 * sqrt(0.05 * 0.95 / runs);
    fprintf(stderr, "\n  %s%s: false H1 %.3f, false H0 %.3f (bound %.3f), mean %s %.0f / %.0f\n",
            pairs ? "pentanomial" : "trinomial", exact ? " (exact)" : "", a, b, bound,
            pairs ? "pairs" : "games", (double)units0 / runs, (double)units1 / runs);
    CU_ASSERT_EQUAL(undecided, 0);
    CU_ASSERT(a <= bound);
    CU_ASSERT(b <= bound);
}

static void test_error_rates_trinomial(void) { check_error_rates(0, 0); }
static void test_error_rates_pentanomial(void) { check_error_rates(1, 0); }
static void test_error_rates_exact(void) { check_error_rates(1, 1); }

int main(void)
{
    static const harness_test_t tests[] = {
        {"bounds and score scale", test_bounds_and_scores},
        {"trinomial LLR by hand", test_llr_trinomial_hand},
        {"pentanomial LLR by hand", test_llr_pentanomial_hand},
        {"state machine and errors", test_state_and_errors},
        {"error rates, trinomial", test_error_rates_trinomial},
        {"error rates, pentanomial", test_error_rates_pentanomial},
        {"error rates, exact LLR", test_error_rates_exact},
        {NULL, NULL},
    };
    return harness_run("sprt", tests);
}
