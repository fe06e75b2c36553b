/* tb_probe.c — the table seam of search (tb_probe.h): one registered
 * provider, handles that carry its context. */
#include "mcts/tb_probe.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "core/error.h"

struct tb {
    const tb_provider_t *p;
    void *ctx;
    atomic_ullong hits;
};

static const tb_provider_t *provider;

void tb_register_provider(const tb_provider_t *p) { provider = p; }

int tb_open(const game_t *g, const char *path, tb_t **out)
{
    if (provider == NULL)
        return hoyle_error(HOYLE_EUNSUP, "tb=%s: this program reads no endgame tables", path);
    tb_t *t = calloc(1, sizeof *t);
    if (t == NULL) return hoyle_error(HOYLE_ENOMEM, "tb: out of memory");
    t->p = provider;
    int rc = provider->open(g, path, &t->ctx);
    if (rc < 0) {
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}

void tb_close(tb_t *t)
{
    if (t == NULL) return;
    t->p->close(t->ctx);
    free(t);
}

void tb_release(void *t) { tb_close(t); }

int tb_probe(tb_t *t, const void *state, int *sign, int *plies)
{
    int rc = t->p->probe(t->ctx, state, sign, plies);
    if (rc == 0) atomic_fetch_add_explicit(&t->hits, 1, memory_order_relaxed);
    return rc;
}

unsigned long long tb_hits(const tb_t *t) { return atomic_load(&t->hits); }
