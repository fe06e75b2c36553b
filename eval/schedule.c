/* schedule.c — the tournament's numbered list of games (tournament.h).
 *
 * Order: for each game, for each pairing (round-robin: (i, j) with i < j in
 * config order; gauntlet: (0, j)), for each of the pairing's openings, for
 * each repeat: two jobs, the lower-numbered agent moving first, then the
 * other. Pairing p's openings are entries (p*k + m) mod N of the game's
 * opening pool (k = openings_per_pairing, N = pool size; k = 0 or k >= N:
 * the whole pool), so pairings rotate through a book.
 * Invariant: job i's content and seed depend only on the config and i. */
#include <stdlib.h>

#include "core/rng.h"
#include "eval/tournament.h"

int tournament_schedule(const tour_config_t *c, tour_job_t **jobs, int *num_jobs)
{
    /* Pass 1 counts the jobs (in long long: the product can pass INT_MAX) so the
     * list is allocated once and too-large tournaments are refused before any
     * allocation; pass 2 fills it in the order described above. The two passes
     * must compute k the same way. */
    long long total = 0;
    int na = c->num_agents;
    int npair = c->schedule == TOUR_GAUNTLET ? na - 1 : na * (na - 1) / 2;
    for (int g = 0; g < c->num_games; g++) {
        int pool = c->openings[g].n;
        int k = c->openings_per_pairing == 0 || c->openings_per_pairing > pool
                    ? pool
                    : c->openings_per_pairing;
        total += (long long)npair * k * c->games_per_opening * 2;
    }
    /* 1e8 jobs (~4 GB of tour_job_t) is past any tournament that could finish. */
    if (total <= 0 || total > 100000000)
        return hoyle_error(HOYLE_EINVAL, "tournament: %lld games is out of range [1, 1e8]", total);
    tour_job_t *list = calloc((size_t)total, sizeof *list); /* zeroed: padding compares equal */
    if (list == NULL) return hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
    int n = 0;
    for (int g = 0; g < c->num_games; g++) {
        int pool = c->openings[g].n;
        int k = c->openings_per_pairing == 0 || c->openings_per_pairing > pool
                    ? pool
                    : c->openings_per_pairing;
        int p = 0;
        for (int a = 0; a < na; a++) {
            for (int b = a + 1; b < na; b++) {
                /* p counts only the pairings actually scheduled, so gauntlet pairings are
                 * numbered 0..na-2 like round-robin's are 0..npair-1. */
                if (c->schedule == TOUR_GAUNTLET && a != 0) continue;
                for (int m = 0; m < k; m++) {
                    /* Consecutive pairings take consecutive windows of the (shuffled) pool:
                     * with k * npair <= pool no two pairings share an opening. */
                    int o = (int)(((long long)p * k + m) % pool);
                    for (int r = 0; r < c->games_per_opening; r++) {
                        /* Each opening is played twice with colours swapped, which cancels most of
                         * the first-move advantage from the pairing's score. */
                        for (int colour = 0; colour < 2; colour++) {
                            tour_job_t *j = &list[n];
                            j->index = n;
                            j->game = g;
                            j->pairing = p;
                            j->repeat = r;
                            j->opening = o;
                            j->seat[0] = colour == 0 ? a : b;
                            j->seat[1] = colour == 0 ? b : a;
                            /* The seed is a function of (config seed, job index) only, never of
                             * which worker plays it or when, so a resumed or reordered run replays
                             * the same games; agents and chance derive their own seeds from it
                             * (tournament_play.c). */
                            j->seed = rng_mix(c->seed ^ rng_mix((uint64_t)n + 1));
                            n++;
                        }
                    }
                }
                p++;
            }
        }
    }
    *jobs = list;
    *num_jobs = n;
    return HOYLE_OK;
}
