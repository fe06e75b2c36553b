/* retro_accuracy.c — an agent's moves valued by endgame tables
 * (retro_accuracy.h): sampling positions from a class's index space by
 * rejection, and one move's tally. */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "mcts/agent_kind.h"
#include "solve/retro_accuracy.h"

#define MAX_TRIES   100000 /* draws per position before giving up (a class of no positions) */
#define MAX_ACTIONS 64     /* actions of one whole turn */

int retro_sample(const game_t *g, const char *const *names, int n, rng_t *rng, void *state)
{
    const retro_index_t *ix = retro_index_find(g);
    if (ix == NULL || n < 1)
        return hoyle_error(HOYLE_EINVAL, "accuracy: no classes to draw positions from");
    const char *name = names[rng_below(rng, (uint32_t)n)];
    char canon[RETRO_CLASS_MAX];
    uint64_t size;
    int rc = ix->class_parse(g, name, canon, &size);
    if (rc < 0) return rc;
    for (int i = 0; i < MAX_TRIES; i++) {
        uint64_t idx = rng_next(rng) % size;
        if (ix->unindex(g, canon, idx, state) && !game_is_terminal(g, state)) return 0;
    }
    return hoyle_error(HOYLE_EINVAL, "accuracy: class %s: no position found", canon);
}

static int value_slot(retro_code_t c) { return retro_sign(c) + 1; }

int retro_accuracy_one(retro_tables_t *t, agent_t *a, const void *state, retro_acc_t *acc)
{
    const game_t *g = a->g;
    retro_code_t v, got = RETRO_LOSS;
    int rc = retro_probe(t, state, &v);
    if (rc < 0) return rc;
    size_t bytes = (g->state_size + GAME_STATE_ALIGN - 1) / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
    void *s = aligned_alloc(GAME_STATE_ALIGN, bytes);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "accuracy: out of memory");
    memcpy(s, state, g->state_size);
    int mover = game_current_player(g, state), failed = 0;
    agent_reset(a);
    double t0 = clock_seconds();
    for (int k = 0; k < MAX_ACTIONS && !game_is_terminal(g, s) &&
                    game_current_player(g, s) == mover && !failed;
         k++) {
        int action;
        if (agent_act(a, s, &action) < 0 || !game_is_legal(g, s, action))
            failed = 1;
        else
            game_apply(g, s, action);
    }
    acc->seconds += clock_seconds() - t0;
    rc = failed ? 0 : retro_probe_move(t, state, s, &got);
    free(s);
    if (rc < 0) return rc;
    int slot = value_slot(v);
    acc->n++;
    acc->by_value[slot]++;
    acc->failed += failed;
    if (failed || retro_sign(got) < retro_sign(v)) {
        acc->blunders++;
        return 0;
    }
    if (retro_sign(got) > retro_sign(v)) return 0; /* cannot happen with exact tables */
    acc->kept++;
    acc->kept_by_value[slot]++;
    acc->optimal += retro_code_cmp(got, v) == 0;
    if (v != RETRO_DRAW) {
        double extra =
            retro_is_win(v) ? retro_dist(got) - retro_dist(v) : retro_dist(v) - retro_dist(got);
        acc->extra_n++;
        acc->extra_sum += extra;
        acc->extra_sq += extra * extra;
    }
    return 0;
}
