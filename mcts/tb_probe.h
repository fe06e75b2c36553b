/* tb_probe.h — the seam through which search reads exact values from
 * endgame tables: `alphabeta(tb=DIR)` and `mcts(tb=DIR)`.
 *
 * Tables live in solve/ (solve/retro.h), a layer above mcts/, so search
 * cannot call them directly. A module that can read tables registers one
 * provider at startup (solve_agents_register(), solve/agent_oracle.h, does;
 * apps/main.c calls it), the way agent kinds of other modules are added.
 * Search opens a handle from a path, probes decision states and closes it;
 * without a registered provider tb_open() fails with a one-line message.
 *
 * A probe's value is exact for the state it was given, under the game's own
 * rules: a provider declines (HOYLE_EUNSUP) a state outside the tables, and
 * one whose table value a draw rule the table ignores could change (Fox and
 * Geese's quiet-move counter, retro_index_t.horizon). Handles are shared
 * read-only by the threads of one search. */
#ifndef HOYLE_MCTS_TB_PROBE_H
#define HOYLE_MCTS_TB_PROBE_H

#include "games/game.h"

/* A provider's three functions. probe: 0 with *sign (+1 the player to move
 * in `state` wins, 0 draw, -1 loses) and *plies (to the end of the game under
 * perfect play: the fastest win, the slowest loss; 0 for a draw), or
 * HOYLE_EUNSUP when the state is not covered (no message needed: search asks
 * this at every node). `state` is a live decision state. */
typedef struct tb_provider {
    int (*open)(const game_t *g, const char *path, void **ctx); /* one-line error */
    int (*probe)(void *ctx, const void *state, int *sign, int *plies);
    void (*close)(void *ctx);
} tb_provider_t;

/* Register the provider (a static table; the last call wins). */
void tb_register_provider(const tb_provider_t *p);

typedef struct tb tb_t;

/* Open the tables at `path` for `g` into *out (freed with tb_close):
 * HOYLE_EUNSUP when no provider is registered, the provider's error (a
 * missing folder, no tables for this game) otherwise. */
int tb_open(const game_t *g, const char *path, tb_t **out);
void tb_close(tb_t *t); /* NULL: no-op */
/* void * form of tb_close, for release callbacks (agent_search_create). */
void tb_release(void *t);

/* Probe a decision state (see tb_provider_t.probe). Counts the hits. */
int tb_probe(tb_t *t, const void *state, int *sign, int *plies);

/* Probes answered since tb_open. */
unsigned long long tb_hits(const tb_t *t);

#endif
