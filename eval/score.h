/* score.h — the match score and the Elo scale, one definition each: the
 * logistic Elo model (a player Elo D stronger scores 1 / (1 + 10^(-D/400)))
 * and the Wilson score interval on a mean score. Used by `hoyle match`,
 * sprt, the first-player tables and the rating reports. */
#ifndef HOYLE_EVAL_SCORE_H
#define HOYLE_EVAL_SCORE_H

/* Expected score of the side `elo` points stronger. */
double elo_to_score(double elo);

/* Elo difference of mean score s in [0, 1]: 400 log10(s / (1 - s));
 * +inf at 1, -inf at 0. */
double score_to_elo(double s);

/* Wilson score interval (Wilson 1927) of a mean score s over n games at
 * normal quantile z (1.96 for 95%):
 *     centre = (s + z^2/2n) / (1 + z^2/n)
 *     half   = z sqrt(s(1 - s)/n + z^2/4n^2) / (1 + z^2/n)
 * clipped to [0, 1]. Unlike the normal interval it stays informative at
 * 0% and 100%. With draws counted as half a win, n may be an effective
 * number of games. */
void wilson_interval(double s, double n, double z, double *lo, double *hi);

#endif
