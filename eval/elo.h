/* elo.h — maximum-likelihood (MAP) Elo ratings from game results.
 *
 * The model is BayesElo's (Rémi Coulom, https://www.remi-coulom.fr/Bayesian-Elo/):
 * with f(x) = 1 / (1 + 10^(-x/400)), x = r_white - r_black + advantage,
 *
 *   P(white wins) = f( x - drawelo)
 *   P(black wins) = f(-x - drawelo)
 *   P(draw)       = 1 - P(white wins) - P(black wins)
 *
 * Ratings, `advantage` (first-move advantage, Elo) and `drawelo` (Elo
 * width of the draw band, > 0) are fitted together by damped Newton on the
 * log-likelihood plus a weak prior (virtual draws between players who met,
 * and Gaussian priors on advantage and drawelo; see elo_params_t and
 * docs/ratings.md). Intervals come from the
 * observed information (inverse Hessian) or, on request, from a seeded
 * bootstrap over games. Pure C, nothing here knows about games or files.
 *
 * Disconnected data (players who cannot be compared through any chain of
 * games, including a player with no games) is an error: the ratings of two
 * such groups have no common scale. Rate each group on its own instead. */
#ifndef HOYLE_EVAL_ELO_H
#define HOYLE_EVAL_ELO_H

#include <stddef.h>
#include <stdint.h>

/* One game. Players are indices into elo_input_t.names. */
typedef struct elo_game {
    int white;     /* player who moved first */
    int black;     /* the other player; must differ from white */
    double score;  /* white's result: 1 (win), 0.5 (draw), 0 (loss); nothing else */
    double weight; /* multiplicity, >= 0; 0 means 1, so a zeroed field is one game */
} elo_game_t;

/* The data to rate. Everything is borrowed for the duration of the call. */
typedef struct elo_input {
    int n_players;            /* >= 2 */
    const char *const *names; /* [n_players] distinct, non-NULL player names */
    const elo_game_t *games;  /* [n_games] */
    size_t n_games;           /* >= 1 */
} elo_input_t;

/* Tunables; fill with elo_params_default() and change what you need. */
typedef struct elo_params {
    double prior_draws; /* virtual draws per player, spread over its opponents (BayesElo's
                           default strength, 2); keeps perfect scores finite; 0 = pure ML */
    int fit_advantage;  /* 1: fit the first-move advantage by ML; 0: hold it at `advantage` */
    double advantage;   /* Elo; the fixed value, or ignored when fitted */
    int fit_drawelo;    /* 1: fit drawelo by ML; 0: hold it at `drawelo` */
    double drawelo;     /* Elo, > 0 when held fixed and the data has draws */
    /* Gaussian priors N(mean, sd^2) on a fitted advantage and drawelo (Elo),
     * so that any non-empty set of games has ratings: two games both won by
     * the first player, or only draws, would otherwise send them to infinity.
     * sd 0 = no prior (pure ML for that parameter). docs/ratings.md. */
    double advantage_prior_mean, advantage_prior_sd; /* default 0, 200 */
    double drawelo_prior_mean, drawelo_prior_sd;     /* default 97.3, 200 (BayesElo's drawelo) */
    const char *anchor;   /* name of the player held at anchor_rating; NULL = mean rating 0 */
    double anchor_rating; /* Elo given to the anchor player */
    double confidence;    /* two-sided interval level, in (0, 1); default 0.95 */
    int bootstrap;        /* number of bootstrap replicates B; 0 = none */
    uint64_t seed;        /* seed of the bootstrap's rng_t */
    int max_iter;         /* Newton iterations before giving up (default 100) */
    double tol;           /* stop when no parameter moves more than this many Elo (1e-7) */
} elo_params_t;

/* Defaults: prior_draws 2, advantage and drawelo fitted under their priors
 * (advantage N(0, 200^2), drawelo N(97.3, 200^2)), mean-0 scale, 95%
 * intervals, no bootstrap, seed 1, max_iter 100, tol 1e-7. */
void elo_params_default(elo_params_t *p);

/* The fit. Arrays are [n] or [n*n] row-major, indexed by player id (not rank). */
typedef struct elo_result {
    int n;           /* number of players */
    char **names;    /* [n] owned copies of the input names */
    double *rating;  /* [n] Elo */
    double *se;      /* [n] standard error from the curvature (0 for the anchor:
                        with an anchor, each SE is that of r_i - r_anchor) */
    double *lo, *hi; /* [n] rating -/+ z * se, z from `confidence` */
    double *cov;     /* [n*n] covariance of the ratings (inverse observed information,
                        prior included, mapped to the anchor or mean-0 constraint) */
    double *los;     /* [n*n] LOS[i*n+j] = P(r_i > r_j) = Phi((r_i - r_j) / sd(r_i - r_j));
                        0.5 on the diagonal */
    double *boot_lo; /* [n] bootstrap percentile bounds; NULL unless params.bootstrap > 0 */
    double *boot_hi;
    double advantage, advantage_se; /* se 0 when held fixed */
    double drawelo, drawelo_se;     /* se 0 when held fixed or pinned at 0 (no draws in the data) */
    double advantage_boot_lo, advantage_boot_hi; /* bootstrap bounds (NAN without bootstrap) */
    double drawelo_boot_lo, drawelo_boot_hi;
    int boot_done;         /* replicates that fitted (a resample can be disconnected, etc.) */
    int boot_failed;       /* replicates dropped */
    double confidence;     /* level of lo/hi and the bootstrap bounds */
    int anchor;            /* anchor player id, or -1 for mean 0 */
    double log_likelihood; /* at the estimate, prior excluded */
    int iterations;        /* Newton steps taken */
    /* Per-player tallies from the real games (weights applied, prior excluded). */
    double *games; /* [n] games played */
    double *score; /* [n] points / games, in [0, 1] */
    double *oppo;  /* [n] game-weighted mean rating of the opponents faced */
    double *draws; /* [n] draws / games, in [0, 1] */
} elo_result_t;

/* Rate the players. On success *out is a new result the caller frees with
 * elo_result_free(); on failure *out is NULL and the status is negative with a
 * message: HOYLE_EINVAL for empty input, bad ids, self-play, bad scores/weights,
 * NaNs, duplicate names, an unknown anchor, disconnected players, a draw-only
 * data set with fitted drawelo and no drawelo prior, or a fit that does not
 * converge (e.g. a perfect score with prior_draws = 0); HOYLE_ENOMEM when allocation fails.
 * `p` may be NULL for the defaults. */
int elo_fit(const elo_input_t *in, const elo_params_t *p, elo_result_t **out);

/* Free a result; NULL is a no-op. */
void elo_result_free(elo_result_t *r);

/* Index of `name` in names[0..n), or -1. */
int elo_find_player(const char *const *names, int n, const char *name);

/* Model probabilities for one game (x = r_white - r_black, advantage added
 * here): writes P(white wins), P(draw), P(black wins). For simulations and
 * reports; drawelo >= 0. */
void elo_model_probs(double r_white_minus_black, double advantage, double drawelo, double *p_win,
                     double *p_draw, double *p_loss);

/* Standard normal CDF and its inverse (Acklam's rational approximation
 * refined by one Halley step; |error| < 1e-12). p in (0, 1). */
double elo_normal_cdf(double z);
double elo_normal_quantile(double p);

#endif
