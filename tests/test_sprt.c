/* test_sprt.c — the SPRT of eval/sprt.h: LLR formulas on hand-computed
 * cases, the state machine, degenerate counts (every unit alike), and error
 * rates over simulated tests, at the hypotheses and in degenerate cases. */
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
    p.elo0 = -2001; /* beyond SPRT_ELO_MAX a score is 0 or 1 in double precision */
    CU_ASSERT_EQUAL(sprt_init(&s, &p), HOYLE_EINVAL);
    p.elo0 = 0;
    CU_ASSERT_EQUAL(p.exact, 1); /* the default */
    p.exact = 0;                 /* the hand-computed numbers are the normal approximation's */
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
    CU_ASSERT_EQUAL(sprt_llr(&s), 0.0); /* normal approximation: no variance yet */
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_CONTINUE);
    HARNESS_OK(sprt_add_pair(&s, 1));
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_ACCEPT_H0);
}

/* Every unit alike (zero variance), the default (exact, regularised) LLR:
 * all wins accept H1 after ceil(log(19) / log(s1/s0)) = 104 pairs at
 * elo1 = 10, the LLR rising by about log(s1/s0) a pair; all draws (or all
 * pairs split 1-1) and all losses go to H0, never to H1; 20 won pairs then
 * a split one (`hoyle sprt checkers greedy random`) move the LLR by one
 * step, not to 12.5 as the normal approximation does. */
static void test_degenerate_counts(void)
{
    sprt_params_t p;
    sprt_params_default(&p);
    p.elo1 = 10;
    double step = log(elo_to_score(10) / 0.5); /* 0.02837 */
    sprt_t s;
    HARNESS_OK(sprt_init(&s, &p));
    int n = 0;
    double prev = 0;
    for (; n < 1000 && sprt_decision(&s) == SPRT_CONTINUE; n++) {
        HARNESS_OK(sprt_add_pair(&s, 2));
        double llr = sprt_llr(&s), d = llr - prev;
        if (!(d > 0.99 * step && d < 1.01 * step))
            CU_FAIL("all wins: the LLR does not rise by log(s1/s0) a pair");
        prev = llr;
    }
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_ACCEPT_H1);
    CU_ASSERT_EQUAL(n, (int)ceil(log(19) / step)); /* 104 */
    /* single games: the same rule */
    HARNESS_OK(sprt_init(&s, &p));
    for (n = 0; n < 1000 && sprt_decision(&s) == SPRT_CONTINUE; n++)
        HARNESS_OK(sprt_add_game(&s, 1));
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_ACCEPT_H1);
    CU_ASSERT(n >= 100 && n <= 108);
    /* all draws, all 1-1 pairs, all losses: falling, never H1 */
    static const double flat[3] = {1, 1, 0};
    for (int c = 0; c < 3; c++) {
        HARNESS_OK(sprt_init(&s, &p));
        prev = 0;
        int h1 = 0, rising = 0;
        for (n = 0; n < 1000 && sprt_decision(&s) == SPRT_CONTINUE; n++) {
            if (c == 0)
                HARNESS_OK(sprt_add_game(&s, 0.5));
            else
                HARNESS_OK(sprt_add_pair(&s, flat[c]));
            h1 += sprt_decision(&s) == SPRT_ACCEPT_H1;
            rising += sprt_llr(&s) >= prev;
            prev = sprt_llr(&s);
        }
        CU_ASSERT_EQUAL(h1, 0);
        CU_ASSERT_EQUAL(rising, 0);
        CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_ACCEPT_H0);
        CU_ASSERT(n >= 90 && n <= 130);
    }
    /* 20 won pairs, then a split pair: a step like the others */
    HARNESS_OK(sprt_init(&s, &p));
    prev = 0;
    for (n = 0; n < 21; n++) {
        HARNESS_OK(sprt_add_pair(&s, n < 20 ? 2 : 1));
        CU_ASSERT(fabs(sprt_llr(&s) - prev) < 2 * step);
        prev = sprt_llr(&s);
    }
    CU_ASSERT(prev > 0 && prev < 1);
    CU_ASSERT_EQUAL(sprt_decision(&s), SPRT_CONTINUE);
    /* the counts stay the recorded ones (the prior is inside the LLR) */
    CU_ASSERT_EQUAL(s.penta[0], 0.0);
    CU_ASSERT_EQUAL(s.penta[4], 20.0);
    /* the normal approximation on the same counts: 0, then the jump */
    double c20[5] = {0, 0, 0, 0, 20}, c21[5] = {0, 0, 1, 0, 20};
    CU_ASSERT_EQUAL(sprt_llr_pentanomial(c20, 0, 10, 0), 0.0);
    CU_ASSERT(sprt_llr_pentanomial(c21, 0, 10, 0) > 12);
    /* the exact form needs both hypotheses strictly inside the scores */
    double a[3] = {1, 0.5, 0}, w[3] = {5, 0, 0};
    CU_ASSERT(isnan(sprt_llr_general(w, a, 3, 0.5, 1.0, 1)));
    CU_ASSERT(isfinite(sprt_llr_general(w, a, 3, elo_to_score(1990), elo_to_score(2000), 1)));
    CU_ASSERT_EQUAL(sprt_llr_general((double[3]){0, 0, 0}, a, 3, 0.5, 0.6, 1), 0.0);
}

/* ---- simulations ---- */

/* One game for an agent whose expected score is s, with draw rate `dr`. */
static double sim_game(rng_t *r, double s, double dr)
{
    double u = rng_double(r), win = s - dr / 2;
    return u < win ? 1.0 : u < win + dr ? 0.5 : 0.0;
}

/* A simulated pairing: the tested agent's true Elo, the draw rate per game
 * and, for pairs, the first mover's extra expected score (`edge`): the
 * first game of a pair is played with +edge, the second with -edge, so pair
 * scores are correlated with colour as in real opening-pair play; the mean
 * stays L(elo). Needs edge + draw / 2 <= min(s, 1 - s). */
typedef struct sim_truth {
    double elo, draw, edge;
} sim_truth_t;

/* Run one SPRT to its end; returns the decision (CONTINUE if it hit the cap). */
static sprt_decision_t run_one(rng_t *r, const sprt_params_t *p, const sim_truth_t *t, int pairs,
                               long *units)
{
    sprt_t s;
    sprt_init(&s, p);
    double sc = elo_to_score(t->elo), e = pairs ? t->edge : 0;
    if (!(e + t->draw / 2 <= fmin(sc, 1 - sc) + 1e-12)) {
        CU_FAIL("simulated truth out of range: needs edge + draw / 2 <= min(s, 1 - s)");
        return SPRT_CONTINUE;
    }
    for (long n = 1; n <= 200000; n++) {
        if (pairs)
            sprt_add_pair(&s,
                          sim_game(r, sc + t->edge, t->draw) + sim_game(r, sc - t->edge, t->draw));
        else
            sprt_add_game(&s, sim_game(r, sc, t->draw));
        sprt_decision_t d = sprt_decision(&s);
        if (d != SPRT_CONTINUE) {
            *units += n;
            return d;
        }
    }
    return SPRT_CONTINUE;
}

/* A simulated error-rate check: `runs` tests with the truth at elo0 and as
 * many at elo1, each played to a decision. */
typedef struct sim_case {
    const char *name;
    sprt_params_t p;
    double draw, edge;
    int pairs, runs;
    uint64_t seed;
} sim_case_t;

/* With the truth at elo0 (elo1) the wrong acceptance rate should be about
 * alpha (beta) or less; the bound is alpha + 3 binomial SDs (0.071 for
 * alpha = 0.05 and 1000 runs, 0.088 for 300). Every test must decide. */
static void check_case(const sim_case_t *c)
{
    rng_t r;
    rng_init(&r, c->seed);
    int wrong_h0 = 0, wrong_h1 = 0, undecided = 0, runs = c->runs;
    long units0 = 0, units1 = 0;
    sim_truth_t t0 = {c->p.elo0, c->draw, c->edge}, t1 = {c->p.elo1, c->draw, c->edge};
    for (int i = 0; i < runs; i++) {
        sprt_decision_t d0 = run_one(&r, &c->p, &t0, c->pairs, &units0);
        sprt_decision_t d1 = run_one(&r, &c->p, &t1, c->pairs, &units1);
        wrong_h0 += d0 == SPRT_ACCEPT_H1;
        wrong_h1 += d1 == SPRT_ACCEPT_H0;
        undecided += (d0 == SPRT_CONTINUE) + (d1 == SPRT_CONTINUE);
    }
    double a = (double)wrong_h0 / runs, b = (double)wrong_h1 / runs;
    double bound_a = c->p.alpha + 3 * sqrt(c->p.alpha * (1 - c->p.alpha) / runs);
    double bound_b = c->p.beta + 3 * sqrt(c->p.beta * (1 - c->p.beta) / runs);
    fprintf(stderr,
            "\n  %s: false H1 %.3f (bound %.3f), false H0 %.3f (bound %.3f), mean %s %.0f / %.0f\n",
            c->name, a, bound_a, b, bound_b, c->pairs ? "pairs" : "games", (double)units0 / runs,
            (double)units1 / runs);
    CU_ASSERT_EQUAL(undecided, 0);
    CU_ASSERT(a <= bound_a);
    CU_ASSERT(b <= bound_b);
}

/* elo0 = 0, elo1 = 20, alpha = beta = 0.05, draw rate 0.4, colour edge 0.06
 * for pairs; 1000 runs per case (300 for the slower exact LLR). */
static void check_error_rates(int pairs, int exact)
{
    sim_case_t c = {pairs ? exact ? "pentanomial (exact)" : "pentanomial" : "trinomial",
                    {0, 20, 0.05, 0.05, exact},
                    0.4,
                    pairs ? 0.06 : 0,
                    pairs,
                    exact ? 300 : 1000,
                    42 + (uint64_t)pairs * 2 + (uint64_t)exact};
    check_case(&c);
}

static void test_error_rates_trinomial(void) { check_error_rates(0, 0); }
static void test_error_rates_pentanomial(void) { check_error_rates(1, 0); }
static void test_error_rates_exact(void) { check_error_rates(1, 1); }

/* The default (exact, regularised) LLR where the results are nearly all
 * alike, the truth at each hypothesis: almost every game drawn (90% of the
 * games in pairs, 94% of single games, about the most a score of L(20)
 * allows: the first units are often all draws, where the prior decides how fast
 * the LLR falls); the colour deciding nearly every game (pairs split 1-1
 * 90% of the time); and hypotheses near a score of 1 (400 and 450 Elo). */
static void test_error_rates_near_degenerate(void)
{
    static const sim_case_t cases[] = {
        {"90% draws", {0, 20, 0.05, 0.05, 1}, 0.9, 0.02, 1, 1000, 7},
        {"colour decides", {0, 20, 0.05, 0.05, 1}, 0, 0.45, 1, 1000, 8},
        {"near a score of 1", {400, 450, 0.05, 0.05, 1}, 0.08, 0.02, 1, 1000, 9},
        {"94% draws, single games", {0, 20, 0.05, 0.05, 1}, 0.94, 0, 0, 1000, 10},
        {"alpha 0.01, beta 0.1, elo -10 / 10", {-10, 10, 0.01, 0.1, 1}, 0.6, 0.05, 1, 300, 11},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(&cases[i]);
}

/* The edge of the nuisance space: every pair is split 1-1 or won twice,
 * the chance of a double win q = 2(s - 1/2) set to put the mean at the
 * hypothesis. At that mean a run of split pairs is as likely as it can be,
 * the hardest case for the prior on empty buckets. elo0 = 10, elo1 = 30;
 * measured with 20000 runs at elo0 = 0, elo1 = 20: false H0 0.055
 * (+- 0.0015), a little above beta, as documented in docs/ratings.md. */
static void test_error_rates_two_point(void)
{
    sprt_params_t p = {10, 30, 0.05, 0.05, 1};
    rng_t r;
    rng_init(&r, 13);
    int runs = 1000, wrong[2] = {0, 0};
    long units[2] = {0, 0};
    for (int i = 0; i < runs; i++)
        for (int h = 0; h < 2; h++) {
            double q = 2 * (elo_to_score(h ? p.elo1 : p.elo0) - 0.5);
            sprt_t s;
            sprt_init(&s, &p);
            sprt_decision_t d = SPRT_CONTINUE;
            for (long n = 1; n <= 200000 && d == SPRT_CONTINUE; n++) {
                sprt_add_pair(&s, rng_double(&r) < q ? 2 : 1);
                d = sprt_decision(&s);
                units[h] += d != SPRT_CONTINUE ? n : 0;
            }
            wrong[h] += d == (h ? SPRT_ACCEPT_H0 : SPRT_ACCEPT_H1);
            CU_ASSERT(d != SPRT_CONTINUE);
        }
    double bound = 0.05 + 3 * sqrt(0.05 * 0.95 / runs);
    fprintf(stderr,
            "\n  split or won twice: false H1 %.3f, false H0 %.3f (bound %.3f), mean pairs %.0f / "
            "%.0f\n",
            (double)wrong[0] / runs, (double)wrong[1] / runs, bound, (double)units[0] / runs,
            (double)units[1] / runs);
    CU_ASSERT((double)wrong[0] / runs <= bound);
    CU_ASSERT((double)wrong[1] / runs <= bound);
}

/* Far from both hypotheses, with degenerate results: a truth of +-800 Elo
 * without draws (the stronger side wins 99% of its games) decides every
 * test the right way, in about log(19) / log(s1/s0) pairs (53 at elo1 =
 * 20); a truth of 0 with every game drawn never accepts H1. */
static void test_degenerate_truths(void)
{
    sprt_params_t p = {0, 20, 0.05, 0.05, 1};
    rng_t r;
    rng_init(&r, 12);
    static const sim_truth_t truths[3] = {{800, 0, 0}, {-800, 0, 0}, {0, 1, 0}};
    static const sprt_decision_t want[3] = {SPRT_ACCEPT_H1, SPRT_ACCEPT_H0, SPRT_ACCEPT_H0};
    for (int k = 0; k < 3; k++) {
        int right = 0, runs = 300;
        long units = 0;
        for (int i = 0; i < runs; i++) right += run_one(&r, &p, &truths[k], 1, &units) == want[k];
        fprintf(stderr, "\n  truth %+.0f Elo, draws %.0f%%: %d/%d right, mean pairs %.1f\n",
                truths[k].elo, 100 * truths[k].draw, right, runs, (double)units / runs);
        CU_ASSERT_EQUAL(right, runs);
        CU_ASSERT((double)units / runs < 120);
    }
}

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
        {"degenerate counts", test_degenerate_counts},
        {"error rates, nearly alike results", test_error_rates_near_degenerate},
        {"error rates, split or won twice", test_error_rates_two_point},
        {"degenerate truths", test_degenerate_truths},
        {NULL, NULL},
    };
    return harness_run("sprt", tests);
}
