/* agent_greedy.c — one-ply greedy: the action whose resulting state the
 * game's evaluate() likes best for the mover (an expectation over the
 * outcomes when the action leads to a chance node); ties broken at random
 * by the agent's seeded stream. */
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_kind.h"

typedef struct greedy {
    void *after;
    void *outcome;
    int *chance_actions;
    double *chance_probs;
} greedy_t;

/* The mover's value after one action: the evaluation itself, or at a chance
 * node the probability-weighted mean over the outcomes (one expectimax ply). */
static double value_after(agent_t *a, greedy_t *gr, int player)
{
    const game_t *g = a->g;
    if (!game_is_chance(g, gr->after)) return game_evaluate(g, gr->after, player);
    int n = game_chance_outcomes(g, gr->after, gr->chance_actions, gr->chance_probs);
    double sum = 0, total = 0;
    for (int i = 0; i < n; i++) {
        memcpy(gr->outcome, gr->after, g->state_size);
        game_apply(g, gr->outcome, gr->chance_actions[i]);
        sum += gr->chance_probs[i] * game_evaluate(g, gr->outcome, player);
        total += gr->chance_probs[i];
    }
    /* Divided by the total, not assumed to be 1: games may round probabilities. */
    return total > 0 ? sum / total : 0;
}

static int greedy_act(agent_t *a, const void *state, int *action)
{
    const game_t *g = a->g;
    greedy_t *gr = a->impl;
    int player = game_current_player(g, state);
    int n = game_legal_actions(g, state, a->legal), ties = 0;
    /* Below any evaluation, so the first action always becomes the best. */
    double best = -1e300;
    for (int i = 0; i < n; i++) {
        memcpy(gr->after, state, g->state_size);
        game_apply(g, gr->after, a->legal[i]);
        double v = value_after(a, gr, player);
        /* Values within 1e-12 are ties: float noise between equal positions must
         * not decide the move, the seeded tie-break does (uniform by reservoir
         * sampling: the k-th tie replaces the choice with probability 1/k). */
        if (v > best + 1e-12) {
            best = v;
            ties = 1;
            *action = a->legal[i];
        } else if (v >= best - 1e-12 && rng_below(&a->rng, (uint32_t)++ties) == 0) {
            *action = a->legal[i]; /* reservoir choice among equals */
        }
    }
    a->info.value = best;
    return n > 0 ? HOYLE_OK : hoyle_error(HOYLE_ESTATE, "greedy: no legal action");
}

static void greedy_destroy(agent_t *a)
{
    greedy_t *gr = a->impl;
    if (gr == NULL) return;
    free(gr->after);
    free(gr->outcome);
    free(gr->chance_actions);
    free(gr->chance_probs);
    free(gr);
}

static const agent_vt_t greedy_vt = {.act = greedy_act, .destroy = greedy_destroy};

static int greedy_create(agent_t *a)
{
    size_t nc = a->g->max_chance_outcomes > 0 ? (size_t)a->g->max_chance_outcomes : 1;
    greedy_t *gr = calloc(1, sizeof *gr);
    a->impl = gr;
    a->vt = &greedy_vt;
    if (gr) {
        gr->after = malloc(a->g->state_size);
        gr->outcome = malloc(a->g->state_size);
        gr->chance_actions = malloc(sizeof(int) * nc);
        gr->chance_probs = malloc(sizeof(double) * nc);
    }
    if (!gr || !gr->after || !gr->outcome || !gr->chance_actions || !gr->chance_probs) {
        greedy_destroy(a);
        a->impl = NULL;
        return hoyle_error(HOYLE_ENOMEM, "greedy: out of memory");
    }
    return HOYLE_OK;
}

static const param_def_t greedy_params[] = {{.key = NULL}};

const agent_kind_t agent_greedy_kind = {
    .name = "greedy",
    .description = "one-ply: the move the game's heuristic likes best",
    .params = greedy_params,
    .create = greedy_create,
};
