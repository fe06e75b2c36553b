/* score.c — the Elo scale and the Wilson interval (score.h). */
#include "eval/score.h"

#include <math.h>

double elo_to_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

double score_to_elo(double s) { return 400.0 * log10(s / (1.0 - s)); }

void wilson_interval(double s, double n, double z, double *lo, double *hi)
{
    double z2 = z * z;
    double centre = (s + z2 / (2.0 * n)) / (1 + z2 / n);
    double half = z * sqrt(s * (1 - s) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
    *lo = fmax(0, centre - half);
    *hi = fmin(1, centre + half);
}
