/* retro_probe.c — a folder of endgame tables read for probes (retro.h):
 * tables are mapped on first use, one per class, under a lock, and stay
 * mapped until the folder is closed; a table that failed to open is not
 * retried (its message is kept and repeated). A folder opened for DTC
 * reads NAME.dtc for the positions it probes and NAME.tb for the value of a
 * move that leaves the class (slots are kept by class and metric).
 *
 * Invariant: slots are only appended, each filled before `n` counts it (a
 * release store) and never changed after, so a probe of a class already
 * mapped reads `n` (acquire) and the slots below it without the lock; only a
 * class not found there takes the lock (and looks again under it). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "solve/retro_internal.h"

#define MAX_TABLES 128

typedef struct slot {
    char name[RETRO_CLASS_MAX];
    retro_metric_t metric;
    retro_table_t t;
    int status;                  /* 0 mapped, else the failure */
    char error[HOYLE_ERROR_MAX]; /* the failure's message */
} slot_t;

struct retro_tables {
    const game_t *g;
    const retro_index_t *ix;
    retro_metric_t metric; /* of the positions probed */
    char dir[2048];
    pthread_mutex_t lock;
    int n; /* slots published: read with __atomic_load_n outside the lock */
    slot_t slot[MAX_TABLES];
};

int retro_tables_open(const game_t *g, const char *dir, retro_tables_t **out)
{
    return retro_tables_open_metric(g, dir, RETRO_DTM, out);
}

int retro_tables_open_metric(const game_t *g, const char *dir, retro_metric_t m,
                             retro_tables_t **out)
{
    const retro_index_t *ix = retro_index_find(g);
    if (ix == NULL)
        return hoyle_error(HOYLE_EUNSUP, "%s: no endgame tables for this game", g->spec);
    if (strlen(dir) >= sizeof((retro_tables_t *)0)->dir)
        return hoyle_error(HOYLE_EINVAL, "%s: path too long", dir);
    retro_tables_t *t = calloc(1, sizeof *t);
    if (t == NULL) return hoyle_error(HOYLE_ENOMEM, "endgame tables: out of memory");
    t->g = g;
    t->ix = ix;
    t->metric = m;
    strcpy(t->dir, dir);
    pthread_mutex_init(&t->lock, NULL);
    *out = t;
    return 0;
}

void retro_tables_close(retro_tables_t *t)
{
    if (t == NULL) return;
    for (int i = 0; i < t->n; i++)
        if (t->slot[i].status == 0) retro_table_unmap(&t->slot[i].t);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* The mapped table of class `name` and metric `m`, or NULL with the message
 * set. */
static const retro_table_t *table_of(retro_tables_t *t, const char *name, retro_metric_t m)
{
    int n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++) /* the hit path: no lock (file comment) */
        if (t->slot[i].status == 0 && t->slot[i].metric == m && strcmp(t->slot[i].name, name) == 0)
            return &t->slot[i].t;
    pthread_mutex_lock(&t->lock);
    slot_t *s = NULL;
    for (int i = 0; i < t->n && s == NULL; i++)
        if (t->slot[i].metric == m && strcmp(t->slot[i].name, name) == 0) s = &t->slot[i];
    if (s == NULL && t->n < MAX_TABLES) {
        s = &t->slot[t->n];
        memcpy(s->name, name, RETRO_CLASS_MAX);
        s->metric = m;
        char path[4096];
        s->status = retro_path(path, sizeof path, t->dir, name, retro_metric_suffix(m));
        if (s->status == 0) s->status = retro_table_map(path, t->g->spec, name, 0, (int)m, &s->t);
        if (s->status == 0 && (s->status = retro_table_fits(t->g, path, &s->t)) != 0)
            retro_table_unmap(&s->t);
        if (s->status) snprintf(s->error, sizeof s->error, "%s", hoyle_last_error());
        __atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE); /* publish the filled slot */
    }
    const retro_table_t *res = NULL;
    if (s == NULL)
        hoyle_error(HOYLE_EFULL, "endgame tables: more than %d classes open", MAX_TABLES);
    else if (s->status)
        hoyle_error(s->status, "%s", s->error);
    else
        res = &s->t;
    pthread_mutex_unlock(&t->lock);
    return res;
}

int retro_tables_load(retro_tables_t *t, const char *name)
{
    bool full = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE) == MAX_TABLES;
    if (full) return 0; /* no slot to keep it in: a probe will say so */
    if (table_of(t, name, t->metric)) return 0;
    return hoyle_last_error()[0] ? HOYLE_EINVAL : HOYLE_EIO;
}

/* The code at `idx` of class `name`'s table of metric `m`. */
static int probe_index(retro_tables_t *t, const char *name, uint64_t idx, retro_metric_t m,
                       retro_code_t *out)
{
    const retro_table_t *tab = table_of(t, name, m);
    if (tab == NULL) return hoyle_last_error()[0] ? HOYLE_EUNSUP : HOYLE_EIO;
    if (idx >= tab->h.size || tab->codes[idx] == RETRO_INVALID)
        return hoyle_error(HOYLE_EINVAL, "%s: index %llu holds no position", name,
                           (unsigned long long)idx);
    *out = tab->codes[idx];
    return 0;
}

int retro_probe_index(retro_tables_t *t, const char *name, uint64_t idx, retro_code_t *out)
{
    return probe_index(t, name, idx, t->metric, out);
}

int retro_probe(retro_tables_t *t, const void *state, retro_code_t *out)
{
    if (game_is_terminal(t->g, state))
        return hoyle_error(HOYLE_ESTATE, "endgame tables: the game is over");
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    int rc = retro_index_locate(t->ix, t->g, state, name, &idx);
    if (rc < 0) return rc;
    return retro_probe_index(t, name, idx, out);
}

retro_code_t retro_back_up(retro_code_t c, int same_mover)
{
    int d = retro_dist(c) + 1;
    if (d > RETRO_DIST_MAX) d = RETRO_DIST_MAX;
    if (retro_is_win(c)) return (retro_code_t)((same_mover ? RETRO_WIN : RETRO_LOSS) | d);
    if (retro_is_loss(c)) return (retro_code_t)((same_mover ? RETRO_LOSS : RETRO_WIN) | d);
    return RETRO_DRAW;
}

int retro_probe_move(retro_tables_t *t, const void *before, const void *after, retro_code_t *out)
{
    int mover = game_current_player(t->g, before);
    if (game_is_terminal(t->g, after)) {
        double r[GAME_MAX_PLAYERS];
        game_returns(t->g, after, r);
        *out = r[mover] > 0 ? (RETRO_WIN | 1) : r[mover] < 0 ? (RETRO_LOSS | 1) : RETRO_DRAW;
        return 0;
    }
    retro_code_t c;
    int same = game_current_player(t->g, after) == mover;
    if (t->metric == RETRO_DTC) { /* a conversion: one ply, the smaller class's DTM value */
        char from[RETRO_CLASS_MAX], to[RETRO_CLASS_MAX];
        uint64_t i, j;
        int rc = retro_index_locate(t->ix, t->g, before, from, &i);
        if (rc == 0) rc = retro_index_locate(t->ix, t->g, after, to, &j);
        if (rc < 0) return rc;
        if (strcmp(from, to) != 0) {
            if ((rc = probe_index(t, to, j, RETRO_DTM, &c)) < 0) return rc;
            *out = retro_converted(retro_back_up(c, same));
            return 0;
        }
    }
    int rc = retro_probe(t, after, &c);
    if (rc < 0) return rc;
    *out = retro_back_up(c, same);
    return 0;
}
