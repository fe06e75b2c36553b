/* sprt.h — sequential probability ratio test between two agents.
 *
 * The hypotheses are about the tested agent's expected score s per game,
 * expressed in logistic Elo, L(elo) = 1 / (1 + 10^(-elo/400)):
 *   H0: s = L(elo0)    against    H1: s = L(elo1)     (elo0 < elo1).
 * After each game (or game pair) the log-likelihood ratio LLR is compared with
 * Wald's bounds (Wald 1945)
 *   A = log(beta / (1 - alpha)),   B = log((1 - beta) / alpha):
 * LLR <= A accepts H0, LLR >= B accepts H1, otherwise play on.
 *
 * Because the result distribution (draw rate, colour effects) is unknown,
 * the LLR is a generalised one (GSPRT, as in fishtest and cutechess): the
 * distribution is estimated from the games so far. Two estimators:
 *   - exact (default; fishtest's LLR_logistic): LLR = sum_i n_i log(p1_i /
 *     p0_i), p_k the maximum-likelihood multinomial under the constraint
 *     "mean score = s_k" (Van den Bergh, "A note on the GSPRT"), with every
 *     empty bucket counted as 1e-3 (fishtest's regularisation);
 *   - normal approximation (exact = 0; fishtest's LLR_alt2):
 *       LLR = N (s1 - s0) (2 sbar - s0 - s1) / (2 var)
 *     with sbar and var the mean and variance of the per-unit scores.
 * Units are single games (trinomial W/D/L, scores 1, 1/2, 0) or pairs of
 * games with colours swapped (pentanomial, pair scores 0, 1/2, 1, 3/2, 2,
 * scaled to per-game means 0 .. 1); pairs absorb the colour advantage and
 * the correlation of the two games of an opening.
 *
 * Zero variance: thanks to the regularisation the exact LLR is defined from
 * the first unit and moves by about log(s1/s0) per unit when every unit is
 * a win, so a much stronger agent is accepted (H1) after about
 * log((1-beta)/alpha) / log(s1/s0) units (104 pairs for elo1 = 10), and a
 * run of draws drifts to H0, never to H1. The normal approximation divides
 * by the sample variance: it stays 0 until two different scores have been
 * seen and then can jump far past a bound (20 won pairs and one split
 * pair give 12.5 at elo1 = 10), so it is kept for comparison and for large
 * samples only. docs/ratings.md has the measured error rates. */
#ifndef HOYLE_EVAL_SPRT_H
#define HOYLE_EVAL_SPRT_H

typedef struct sprt_params {
    double elo0;  /* H0 Elo (logistic), e.g. 0 */
    double elo1;  /* H1 Elo, > elo0, e.g. 5 */
    double alpha; /* probability of accepting H1 when H0 holds, in (0, 1) */
    double beta;  /* probability of accepting H0 when H1 holds, in (0, 1) */
    int exact;    /* 1: exact constrained-MLE LLR (default); 0: normal approximation */
} sprt_params_t;

typedef enum sprt_decision {
    SPRT_CONTINUE = 0,
    SPRT_ACCEPT_H0 = 1,
    SPRT_ACCEPT_H1 = 2
} sprt_decision_t;

/* The running test, in caller storage (no heap; no sprt_done needed). */
typedef struct sprt {
    sprt_params_t p;
    double lower, upper; /* Wald's A and B */
    double wdl[3];       /* tested agent's wins, draws, losses (trinomial mode) */
    double penta[5];     /* pairs scoring 0, 0.5, 1, 1.5, 2 (pentanomial mode) */
    int mode;            /* 0 nothing yet, 1 single games, 2 pairs; the two do not mix */
} sprt_t;

/* Defaults: elo0 0, elo1 5, alpha 0.05, beta 0.05, exact LLR. */
void sprt_params_default(sprt_params_t *p);

/* Hypotheses beyond this many Elo points put a score at 0 or 1 in double
 * precision, where the constrained MLE does not exist. */
#define SPRT_ELO_MAX 2000

/* Start a test. EINVAL (and *s untouched) unless elo0 < elo1, both in
 * [-SPRT_ELO_MAX, SPRT_ELO_MAX], and alpha, beta in (0, 1) with
 * alpha + beta < 1. */
int sprt_init(sprt_t *s, const sprt_params_t *p);

/* Record one game scored 1, 0.5 or 0 for the tested agent. EINVAL for other
 * scores; ESTATE if pairs were recorded before. */
int sprt_add_game(sprt_t *s, double score);

/* Record one colour-swapped pair with total score 0, 0.5, 1, 1.5 or 2 for the
 * tested agent. EINVAL for other totals; ESTATE if single games were recorded. */
int sprt_add_pair(sprt_t *s, double pair_score);

/* Current LLR (0 before any result). */
double sprt_llr(const sprt_t *s);

/* Decision for the current LLR: accept H0 / H1, or continue. */
sprt_decision_t sprt_decision(const sprt_t *s);

/* Number of units (games or pairs), mean per-game score and its standard
 * error from the recorded results (all 0 before any result). */
void sprt_score(const sprt_t *s, double *units, double *mean, double *se);

/* Pure forms. wdl = {wins, draws, losses}; penta[k] = pairs scoring k/2.
 * Counts are non-negative (weights allowed). */
double sprt_llr_trinomial(const double wdl[3], double elo0, double elo1, int exact);
double sprt_llr_pentanomial(const double penta[5], double elo0, double elo1, int exact);

/* The general case: k outcome buckets with per-unit scores score[i] in
 * [0, 1] and counts count[i]; hypotheses given as expected scores s0 < s1.
 * 0 before any count; the exact form is NaN unless s0 and s1 lie strictly
 * between the lowest and the highest score (NaN also for k outside 2..16). */
double sprt_llr_general(const double *count, const double *score, int k, double s0, double s1,
                        int exact);

#endif
