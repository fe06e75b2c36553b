/* registry.h — the one table of games (STYLE.md point 3).
 *
 * A game family registers one game_entry_t: its name, a one-line
 * description, its parameter schema, the specs of its named variants (the
 * conformance suite and `hoyle games` loop over them) and a create/destroy
 * pair. game_create() (game.h) parses a spec, binds parameters against the
 * schema, then calls create(). */
#ifndef HOYLE_GAMES_REGISTRY_H
#define HOYLE_GAMES_REGISTRY_H

#include "games/game.h"

typedef struct game_entry {
    const char *name;            /* "checkers" */
    const char *description;     /* one line */
    const param_def_t *params;   /* schema, {.key = NULL}-terminated */
    const char *const *variants; /* NULL-terminated specs, e.g. "checkers(variant=losing)" */
    /* Fill every field of `g` except vt/entry/spec/params, which game_create
     * sets (g->params is bound before the call; g->vt may be set by create).
     * Allocate g->impl if needed. Returns 0 or a negative status + message. */
    int (*create)(game_t *g);
    /* Free what create() allocated (g->impl); may be NULL. */
    void (*destroy)(game_t *g);
} game_entry_t;

/* All registered games, NULL-terminated, in registration order. */
extern const game_entry_t *const game_registry[];

/* The entry called `name`, or NULL. */
const game_entry_t *game_registry_find(const char *name);

/* Self-check of the table: unique names, schemas with defaults that bind,
 * variants that create. Returns 0 or a status + message. */
int game_registry_check(void);

#endif
