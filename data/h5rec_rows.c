/* h5rec_rows.c — appending games to and reading games from the HDF5
 * tables of a record file (layout in h5rec_schema.c and docs/formats.md).
 * Agents and openings are stored once each; rows refer to them by index. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/h5rec_internal.h"

/* ---- append ---- */

/* Owns the strings it loaded or added (copied out of HDF5's allocator). */
static void tables_free(h5s_tables_t *t)
{
    for (int64_t i = 0; i < t->num_agents; i++) free(t->agents[i]);
    for (int64_t i = 0; i < t->num_openings; i++) free(t->openings[i].name);
    free(t->agents);
    free(t->openings);
    free(t->opening_actions);
}

/* Doubling growth for the tables' arrays; -1 when out of memory, *p intact. */
static int grow(void **p, int64_t *cap, int64_t need, size_t elem)
{
    if (need <= *cap) return 0;
    int64_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (q == NULL) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Loads the whole agents / openings / opening_actions tables: a checkpoint
 * must find existing entries to reuse their index instead of repeating them. */
static int tables_load(hid_t fid, h5s_tables_t *t)
{
    int64_t na = h5s_dset_len(fid, "agents"), no = h5s_dset_len(fid, "openings");
    int64_t noa = h5s_dset_len(fid, "opening_actions");
    if (na < 0 || no < 0 || noa < 0) return -1;
    if (grow((void **)&t->agents, &t->cap_agents, na, sizeof(char *)) ||
        grow((void **)&t->openings, &t->cap_openings, no, sizeof(opening_row_t)) ||
        grow((void **)&t->opening_actions, &t->cap_opening_actions, noa, sizeof(int32_t)))
        return -1;
    hid_t st = h5_str_type(), ot = h5s_opening_type(0);
    int rc = h5s_dset_read(fid, "agents", st, 0, (hsize_t)na, t->agents);
    if (rc == 0) {
        for (int64_t i = 0; i < na; i++) {
            /* variable-length strings come from HDF5's allocator: copy them
             * into ours so that tables_free() can use free() on every entry */
            char *s = strdup(t->agents[i] ? t->agents[i] : "");
            H5free_memory(t->agents[i]);
            t->agents[i] = s;
        }
        t->num_agents = t->old_agents = na;
    }
    if (rc == 0) rc = h5s_dset_read(fid, "openings", ot, 0, (hsize_t)no, t->openings);
    if (rc == 0) {
        for (int64_t i = 0; i < no; i++) {
            char *s = strdup(t->openings[i].name ? t->openings[i].name : "");
            H5free_memory(t->openings[i].name);
            t->openings[i].name = s;
        }
        t->num_openings = t->old_openings = no;
    }
    if (rc == 0)
        rc = h5s_dset_read(fid, "opening_actions", H5T_NATIVE_INT32, 0, (hsize_t)noa,
                           t->opening_actions);
    if (rc == 0) t->num_opening_actions = t->old_opening_actions = noa;
    H5Tclose(st);
    H5Tclose(ot);
    return rc;
}

/* Index of `spec` in the agents table, added when new. -1: no agent (the
 * seat's spec is empty); -2: out of memory. A linear scan, since a file
 * holds a handful of distinct agents. */
static int32_t agent_index(h5s_tables_t *t, const char *spec)
{
    if (spec == NULL || spec[0] == '\0') return -1;
    for (int64_t i = 0; i < t->num_agents; i++)
        if (strcmp(t->agents[i], spec) == 0) return (int32_t)i;
    if (grow((void **)&t->agents, &t->cap_agents, t->num_agents + 1, sizeof(char *))) return -2;
    if ((t->agents[t->num_agents] = strdup(spec)) == NULL) return -2;
    return (int32_t)t->num_agents++;
}

/* Index of the opening (same name and same actions), added when new; -1 for
 * no opening, -2 when out of memory. Two openings with one name but other
 * actions are distinct rows, so a renamed book cannot change stored games. */
static int32_t opening_index(h5s_tables_t *t, const game_record_t *r)
{
    const char *name = r->opening_name ? r->opening_name : "";
    if (name[0] == '\0' && r->opening_len == 0) return -1;
    size_t bytes = (size_t)r->opening_len * sizeof(int32_t);
    for (int64_t i = 0; i < t->num_openings; i++) {
        const opening_row_t *o = &t->openings[i];
        if (strcmp(o->name, name) == 0 && o->num_actions == r->opening_len &&
            (bytes == 0 ||
             memcmp(t->opening_actions + o->actions_offset, r->opening_actions, bytes) == 0))
            return (int32_t)i;
    }
    if (grow((void **)&t->openings, &t->cap_openings, t->num_openings + 1, sizeof(opening_row_t)) ||
        grow((void **)&t->opening_actions, &t->cap_opening_actions,
             t->num_opening_actions + r->opening_len, sizeof(int32_t)))
        return -2;
    opening_row_t *o = &t->openings[t->num_openings];
    if ((o->name = strdup(name)) == NULL) return -2;
    o->actions_offset = t->num_opening_actions;
    o->num_actions = r->opening_len;
    if (bytes) memcpy(t->opening_actions + t->num_opening_actions, r->opening_actions, bytes);
    t->num_opening_actions += r->opening_len;
    return (int32_t)t->num_openings++;
}

static int game_index_of(const h5rec_t *h, const char *spec)
{
    for (int i = 0; i < h->meta.num_games; i++)
        if (strcmp(h->game_specs[i], spec) == 0) return i;
    return -1;
}

/* Appends the journalled games `blobs` to the file at `path` (the checkpoint's
 * temp copy). Rows, actions and new table entries are built in memory first
 * and written at the end, so a failure before the writes leaves the tables of
 * the copy untouched; the copy is discarded on any failure anyway. */
int h5s_append(const char *path, const h5rec_t *h, const h5rec_blob_t *blobs, int64_t n)
{
    hid_t fid = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (fid < 0) return H5S_FAIL(path, "cannot open for writing");
    h5s_tables_t t = {0};
    row_t *rows = calloc(n ? (size_t)n : 1, sizeof *rows);
    int32_t *actions = NULL;
    float *ms = NULL;
    int64_t num = 0, cap = 0, cap_ms = 0;
    int64_t base = h5s_dset_len(fid, "actions");
    int rc =
        rows && base >= 0 && tables_load(fid, &t) == 0 ? 0 : H5S_FAIL(path, "cannot read tables");
    for (int64_t i = 0; i < n && rc == 0; i++) {
        game_record_t r;
        if ((rc = rec_decode(blobs[i].bytes, blobs[i].len, &r)) < 0) break;
        row_t *w = &rows[i];
        w->game = game_index_of(h, r.game_spec);
        for (int p = 0; p < RECORD_MAX_PLAYERS; p++) w->agent[p] = agent_index(&t, r.agent_spec[p]);
        w->opening = opening_index(&t, &r);
        w->pairing = r.pairing;
        w->round = r.round;
        w->game_index = r.game_index;
        w->seed = r.seed;
        w->result = r.result;
        memcpy(w->returns, r.returns, sizeof w->returns);
        w->end = (int8_t)r.end;
        w->num_actions = r.num_actions;
        /* a row's actions are a slice of the one actions dataset */
        w->actions_offset = base + num;
        if (w->game < 0 || w->agent[0] < -1 || w->agent[1] < -1 || w->opening < -1 ||
            grow((void **)&actions, &cap, num + r.num_actions, sizeof *actions) ||
            grow((void **)&ms, &cap_ms, num + r.num_actions, sizeof *ms)) {
            rc = hoyle_error(HOYLE_EIO, "file '%s': cannot add game %lld", path,
                             (long long)(h->h5_count + i));
        } else if (r.num_actions > 0) {
            memcpy(actions + num, r.actions, (size_t)r.num_actions * sizeof *actions);
            memcpy(ms + num, r.action_ms, (size_t)r.num_actions * sizeof *ms);
            num += r.num_actions;
        }
        game_record_free(&r);
    }
    if (rc == 0) {
        hid_t rt = h5s_row_type(0), ot = h5s_opening_type(0), st = h5_str_type();
        int bad = h5s_dset_append(fid, "agents", st, (hsize_t)(t.num_agents - t.old_agents),
                                  t.agents + t.old_agents);
        bad |= h5s_dset_append(fid, "openings", ot, (hsize_t)(t.num_openings - t.old_openings),
                               t.openings + t.old_openings);
        bad |= h5s_dset_append(fid, "opening_actions", H5T_NATIVE_INT32,
                               (hsize_t)(t.num_opening_actions - t.old_opening_actions),
                               t.opening_actions + t.old_opening_actions);
        bad |= h5s_dset_append(fid, "actions", H5T_NATIVE_INT32, (hsize_t)num, actions);
        bad |= h5s_dset_append(fid, "action_ms", H5T_NATIVE_FLOAT, (hsize_t)num, ms);
        bad |= h5s_dset_append(fid, "games", rt, (hsize_t)n, rows);
        bad |= h5s_attr_put_u32(fid, "tables_crc32", h5s_tables_crc(&t));
        if (bad) rc = H5S_FAIL(path, "cannot append games");
        H5Tclose(rt);
        H5Tclose(ot);
        H5Tclose(st);
    }
    tables_free(&t);
    free(rows);
    free(actions);
    free(ms);
    if (H5Fclose(fid) < 0 && rc == 0) rc = H5S_FAIL(path, "cannot close");
    return rc;
}

/* ---- read ---- */

static char *dup_or_empty(const char *s) { return strdup(s ? s : ""); }

/* Safe on a reader that failed halfway: unopened datasets are negative ids. */
void h5s_reader_close(h5s_reader_t *rd)
{
    if (!rd->open) return;
    hid_t d[] = {rd->games, rd->actions, rd->action_ms};
    for (size_t i = 0; i < sizeof d / sizeof *d; i++)
        if (d[i] >= 0) H5Dclose(d[i]);
    H5Tclose(rd->row_type);
    tables_free(&rd->tables);
    H5Fclose(rd->fid);
    rd->open = 0;
}

int h5s_reader_open(const char *path, h5s_reader_t *rd)
{
    /* the numeric datasets stay open across reads (a report reads every
     * game, and reopening per game costs more than the read); the agents
     * and openings are read once, whole, and their checksum checked */
    h5s_reader_t r = {.open = 1};
    r.fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (r.fid < 0) return H5S_FAIL(path, "cannot open");
    r.games = H5Dopen2(r.fid, "games", H5P_DEFAULT);
    r.actions = H5Dopen2(r.fid, "actions", H5P_DEFAULT);
    r.action_ms = H5Dopen2(r.fid, "action_ms", H5P_DEFAULT);
    r.row_type = h5s_row_type(0);
    int rc = HOYLE_OK;
    if (r.games < 0 || r.actions < 0 || r.action_ms < 0)
        rc = H5S_FAIL(path, "cannot open its datasets");
    if (rc == 0) r.actions_len = h5s_dset_len(r.fid, "actions");
    if (rc == 0 && r.actions_len != h5s_dset_len(r.fid, "action_ms"))
        rc = hoyle_error(HOYLE_EIO, "file '%s': /actions and /action_ms differ in length", path);
    if (rc == 0 && tables_load(r.fid, &r.tables) < 0)
        rc = H5S_FAIL(path, "dataset /agents or /openings or /opening_actions cannot be read");
    uint32_t crc = 0;
    int has = rc == 0 ? h5s_attr_get_u32(r.fid, "tables_crc32", &crc) : 0;
    if (rc == 0 && (has < 0 || (has == 1 && crc != h5s_tables_crc(&r.tables))))
        rc = hoyle_error(HOYLE_EIO,
                         "file '%s': datasets /agents and /openings: checksum mismatch (the "
                         "file is damaged)",
                         path);
    if (rc < 0) {
        h5s_reader_close(&r);
        return rc;
    }
    *rd = r;
    return HOYLE_OK;
}

/* One failed dataset read: its name goes into the message, with HDF5's
 * reason ("data error detected by Fletcher32 checksum"). */
static int read_fail(const char *path, int64_t index, const char *dset)
{
    return hoyle_error(HOYLE_EIO, "file '%s': dataset /%s: cannot read game %lld (%s)", path, dset,
                       (long long)index, h5s_detail());
}

/* Offsets and lengths from the file are checked against the tables and
 * datasets before they are used, so a damaged row is an error, not a read
 * out of bounds or a huge allocation. */
int h5s_read(const h5rec_t *h, const h5s_reader_t *rd, int64_t index, game_record_t *out)
{
    const char *path = h->path;
    const h5s_tables_t *t = &rd->tables;
    row_t w;
    game_record_t r = {0};
    if (h5s_dset_read_id(rd->games, rd->row_type, (hsize_t)index, 1, &w) < 0)
        return read_fail(path, index, "games");
    int64_t nact = rd->actions_len;
    int ok = w.game >= 0 && w.game < h->meta.num_games && w.num_actions >= 0 && w.end >= 0 &&
             w.end < RECORD_END_COUNT && w.opening >= -1 && w.opening < t->num_openings &&
             w.actions_offset >= 0 && w.actions_offset + w.num_actions <= nact;
    for (int p = 0; p < RECORD_MAX_PLAYERS; p++)
        ok = ok && w.agent[p] >= -1 && w.agent[p] < t->num_agents;
    const opening_row_t *o = ok && w.opening >= 0 ? &t->openings[w.opening] : NULL;
    if (o && (o->num_actions < 0 || o->actions_offset < 0 ||
              o->actions_offset + o->num_actions > t->num_opening_actions))
        ok = 0;
    if (!ok)
        return hoyle_error(HOYLE_EIO, "file '%s': dataset /games: game %lld is malformed", path,
                           (long long)index);
    r.game_spec = dup_or_empty(h->game_specs[w.game]);
    for (int p = 0; p < RECORD_MAX_PLAYERS; p++)
        r.agent_spec[p] = dup_or_empty(w.agent[p] >= 0 ? t->agents[w.agent[p]] : NULL);
    r.opening_name = dup_or_empty(o ? o->name : NULL);
    r.opening_len = o ? o->num_actions : 0;
    size_t na = (size_t)r.opening_len, nm = (size_t)w.num_actions;
    r.opening_actions = calloc(na ? na : 1, sizeof(int32_t));
    r.actions = calloc(nm ? nm : 1, sizeof(int32_t));
    r.action_ms = calloc(nm ? nm : 1, sizeof(float));
    if (!r.game_spec || !r.agent_spec[0] || !r.agent_spec[1] || !r.opening_name ||
        !r.opening_actions || !r.actions || !r.action_ms) {
        game_record_free(&r);
        return hoyle_error(HOYLE_ENOMEM, "file '%s': out of memory", path);
    }
    if (na) memcpy(r.opening_actions, t->opening_actions + o->actions_offset, na * sizeof(int32_t));
    const char *bad = NULL;
    if (h5s_dset_read_id(rd->actions, H5T_NATIVE_INT32, (hsize_t)w.actions_offset, nm, r.actions) <
        0)
        bad = "actions";
    else if (h5s_dset_read_id(rd->action_ms, H5T_NATIVE_FLOAT, (hsize_t)w.actions_offset, nm,
                              r.action_ms) < 0)
        bad = "action_ms";
    if (bad) {
        int rc = read_fail(path, index, bad);
        game_record_free(&r);
        return rc;
    }
    memcpy(r.returns, w.returns, sizeof r.returns);
    r.result = w.result;
    r.end = (record_end_t)w.end;
    r.num_actions = w.num_actions;
    r.seed = w.seed;
    r.pairing = w.pairing;
    r.round = w.round;
    r.game_index = w.game_index;
    *out = r;
    return HOYLE_OK;
}
