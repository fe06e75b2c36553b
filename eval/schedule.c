/* schedule.c — the tournament's numbered list of games (tournament.h).
 *
 * Order: for each opening slot m (0 .. k-1), for each game with more than m
 * openings, for each pairing (round-robin: (i, j) with i < j in config order;
 * gauntlet: (0, j)), for each repeat: two jobs, the lower-numbered agent
 * moving first, then the other. Pairing p's m-th opening is entry
 * (m*P + p) mod N of the game's opening pool (P = pairings, k =
 * openings_per_pairing, N = pool size; k = 0 or k >= N: the whole pool).
 * Invariants: job i's content and seed depend only on the config and i, and
 * the schedule for k is a prefix of the schedule for any larger k (growing
 * openings_per_pairing extends a file, docs/tournament.md). */
#include <stdlib.h>

#include "core/rng.h"
#include "eval/tournament.h"

/* The number of openings each pairing of game g plays. */
static int openings_of(const tour_config_t *c, int g)
{
    int pool = c->openings[g].n;
    int k = c->openings_per_pairing;
    return k == 0 || k > pool ? pool : k;
}

int tournament_schedule(const tour_config_t *c, tour_job_t **jobs, int *num_jobs)
{
    /* Pass 1 counts the jobs (in long long: the product can pass INT_MAX) so the
     * list is allocated once and too-large tournaments are refused before any
     * allocation; pass 2 fills it in the order described above. */
    long long total = 0;
    int na = c->num_agents, kmax = 0;
    int npair = c->schedule == TOUR_GAUNTLET ? na - 1 : na * (na - 1) / 2;
    for (int g = 0; g < c->num_games; g++) {
        int k = openings_of(c, g);
        if (k > kmax) kmax = k;
        total += (long long)npair * k * c->games_per_opening * 2;
    }
    /* 1e8 jobs (~4 GB of tour_job_t) is past any tournament that could finish. */
    if (total <= 0 || total > 100000000)
        return hoyle_error(HOYLE_EINVAL, "tournament: %lld games is out of range [1, 1e8]", total);
    tour_job_t *list = calloc((size_t)total, sizeof *list); /* zeroed: padding compares equal */
    if (list == NULL) return hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
    int n = 0;
    /* The opening slot is the outer loop, so the jobs of slots below k come first
     * and keep their numbers when k grows. */
    for (int m = 0; m < kmax; m++) {
        for (int g = 0; g < c->num_games; g++) {
            if (m >= openings_of(c, g)) continue;
            int pool = c->openings[g].n;
            int p = 0;
            for (int a = 0; a < na; a++) {
                for (int b = a + 1; b < na; b++) {
                    /* p counts only the pairings actually scheduled, so gauntlet pairings are
                     * numbered 0..na-2 like round-robin's are 0..npair-1. */
                    if (c->schedule == TOUR_GAUNTLET && a != 0) continue;
                    /* Slot m of the pairings is a window of P consecutive pool entries (of the
                     * shuffled book, or of the random openings drawn for every pairing): with
                     * k * P <= N no two pairings share an opening, and the entry does not
                     * depend on k. */
                    int o = (int)(((long long)m * npair + p) % pool);
                    for (int r = 0; r < c->games_per_opening; r++) {
                        /* Each opening is played twice with colours swapped, which cancels most
                         * of the first-move advantage from the pairing's score. */
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
                             * which worker plays it or when, so a resumed or reordered run
                             * replays the same games; agents and chance derive their own seeds
                             * from it (tournament_play.c). */
                            j->seed = rng_mix(c->seed ^ rng_mix((uint64_t)n + 1));
                            n++;
                        }
                    }
                    p++;
                }
            }
        }
    }
    *jobs = list;
    *num_jobs = n;
    return HOYLE_OK;
}
