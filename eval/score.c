/* score.c — the Elo scale and the Wilson interval (score.h). The one place
 * the logistic Elo formula lives, so models, reports and SPRT bounds share
 * one definition. */
#include "eval/score.h"

#include <math.h>

/* Expected score of a player `elo` points stronger: E = 1 / (1 + 10^(-D/400))
 * (Elo 1978; fishtest's "logistic Elo"). */
double elo_to_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* The inverse, D = 400 log10(s / (1 - s)); infinite at s = 0 or 1, which
 * callers clamp or report as such. */
double score_to_elo(double s) { return 400.0 * log10(s / (1.0 - s)); }

/* Wilson score interval (Wilson 1927) for a proportion s over n trials at
 * normal quantile z:
 *   centre = (s + z^2/2n) / (1 + z^2/n),
 *   half   = z sqrt(s(1-s)/n + z^2/4n^2) / (1 + z^2/n).
 * Unlike the normal (Wald) interval it stays inside [0, 1] and is not empty
 * at s = 0 or 1; the clamps only absorb rounding. With draws as 1/2, pass
 * an effective n (elo_first_player_stat) or accept a conservative interval. */
void wilson_interval(double s, double n, double z, double *lo, double *hi)
{
    double z2 = z * z;
    double centre = (s + z2 / (2.0 * n)) / (1 + z2 / n);
    double half = z * sqrt(s * (1 - s) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
    *lo = fmax(0, centre - half);
    *hi = fmin(1, centre + half);
}
