/* bench_tdnet.c — the cost of TD(λ)'s net in plain C (train/tdnet.h), for
 * scripts/bench-td beside the same shapes in libtorch: microseconds per
 * forward pass over a move's afterstates and per learning step (the trace
 * gradient and the TD update), on the features of real backgammon positions.
 * A benchmark, not a test: CTest does not run it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/rng.h"
#include "games/game.h"
#include "games/playout.h"
#include "train/td.h"
#include "train/tdnet.h"

int main(int argc, char **argv)
{
    int hidden = argc > 1 ? atoi(argv[1]) : 128, batch = 20,
        rounds = argc > 2 ? atoi(argv[2]) : 20000;
    const game_t *g = NULL;
    if (game_create("backgammon", &g)) return 1;
    int inputs = td_features_size(g, "expert");
    rng_t rng;
    rng_init(&rng, 1);
    tdnet_t *n = NULL;
    if (tdnet_create(inputs, hidden, 5, 0.1, &rng, &n)) return 1;
    /* features of 256 positions along random games */
    enum { POS = 256 };
    float *x = malloc(sizeof(float) * (size_t)inputs * POS), h[4096], y[8];
    char *s = malloc(g->state_size);
    int legal[256];
    double probs[256];
    game_init(g, s);
    for (int i = 0; i < POS; i++) {
        for (int k = 0; k < 7; k++) {
            if (game_is_terminal(g, s)) game_init(g, s);
            game_apply(g, s, game_random_action(g, s, &rng, legal, probs));
        }
        td_features(g, true, s, i % 2, x + (size_t)i * inputs);
    }
    double nnz = 0;
    for (int i = 0; i < inputs * POS; i++) nnz += x[i] != 0;
    tdnet_trace_t t;
    if (tdnet_trace_init(&t, n)) return 1;
    float delta[5] = {0.01f, -0.01f, 0.002f, 0.f, 0.001f};
    double t0 = clock_seconds();
    for (int r = 0; r < rounds; r++)
        for (int b = 0; b < batch; b++)
            tdnet_forward(n, x + (size_t)((r * batch + b) % POS) * inputs, h, y);
    double fwd = (clock_seconds() - t0) / ((double)rounds * batch);
    t0 = clock_seconds();
    for (int r = 0; r < rounds / 4; r++) {
        const float *xi = x + (size_t)(r % POS) * inputs;
        tdnet_forward(n, xi, h, y);
        tdnet_td_step(n, &t, 1e-6, delta, 0.7);
        tdnet_trace_add(&t, n, xi, h, y);
    }
    double step = (clock_seconds() - t0) / (rounds / 4);
    printf("{\"impl\":\"hoyle C\",\"inputs\":%d,\"hidden\":%d,\"heads\":5,\"nonzero_inputs\":%.1f,"
           "\"forward_us\":%.3f,\"move_forward_us\":%.2f,\"learn_step_us\":%.2f}\n",
           inputs, hidden, nnz / POS, fwd * 1e6, fwd * 1e6 * batch, step * 1e6);
    tdnet_trace_done(&t);
    tdnet_free(n);
    free(x);
    free(s);
    game_free(g);
    return 0;
}
