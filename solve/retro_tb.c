/* retro_tb.c — endgame tables as the search's table provider
 * (mcts/tb_probe.h): `alphabeta(tb=DIR)` and `mcts(tb=DIR)` read a folder
 * of tables (retro.h) through it. Opening lists the folder's tables for the
 * game (each file's checksum verified) and refuses a folder with none; a
 * probe answers only for a state of a class the folder holds, and only a
 * value that is exact under the game's rules (the index's horizon: a
 * decisive value farther than the draw counter allows is declined). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mcts/tb_probe.h"
#include "solve/retro.h"

#define TB_CLASSES 256

typedef struct retro_tb {
    const game_t *g;
    const retro_index_t *ix;
    retro_tables_t *tables;
    int n;
    char names[TB_CLASSES][RETRO_CLASS_MAX]; /* sorted (retro_tables_list) */
} retro_tb_t;

static void tb_free(void *ctx)
{
    retro_tb_t *t = ctx;
    if (t == NULL) return;
    retro_tables_close(t->tables);
    free(t);
}

static int tb_open_dir(const game_t *g, const char *dir, void **out)
{
    retro_tb_t *t = calloc(1, sizeof *t);
    if (t == NULL) return hoyle_error(HOYLE_ENOMEM, "tb: out of memory");
    int rc = retro_tables_open(g, dir, &t->tables);
    if (rc < 0) {
        free(t);
        return hoyle_error_prefix(rc, "tb");
    }
    t->g = g;
    t->ix = retro_index_find(g);
    t->n = retro_tables_list(g, dir, t->names, TB_CLASSES);
    if (t->n <= 0) {
        rc = t->n < 0 ? hoyle_error(HOYLE_EIO, "tb=%s: cannot open the folder", dir)
                      : hoyle_error(HOYLE_EINVAL, "tb=%s: no endgame tables for %s", dir, g->spec);
        tb_free(t);
        return rc;
    }
    for (int i = 0; i < t->n; i++) /* an unreadable or outdated table: say so now */
        if ((rc = retro_tables_load(t->tables, t->names[i])) < 0) {
            hoyle_error_prefix(rc, "tb=%s", dir);
            tb_free(t);
            return rc;
        }
    *out = t;
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

static int tb_probe_state(void *ctx, const void *state, int *sign, int *plies)
{
    retro_tb_t *t = ctx;
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    retro_code_t c;
    if (t->ix->index(t->g, state, name, &idx) < 0) return HOYLE_EUNSUP;
    if (bsearch(name, t->names, (size_t)t->n, RETRO_CLASS_MAX, by_name) == NULL)
        return HOYLE_EUNSUP;
    if (retro_probe_index(t->tables, name, idx, &c) < 0) return HOYLE_EUNSUP;
    *sign = retro_sign(c);
    *plies = *sign ? retro_dist(c) : 0;
    if (*sign && t->ix->horizon && *plies > t->ix->horizon(t->g, state)) return HOYLE_EUNSUP;
    return 0;
}

static const tb_provider_t retro_provider = {
    .open = tb_open_dir,
    .probe = tb_probe_state,
    .close = tb_free,
};

void retro_tb_register(void) { tb_register_provider(&retro_provider); }
