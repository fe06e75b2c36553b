/* files.c — --data's files: safe paths (realpath inside the folder), GET /api/files, the game
 * records of an HDF5 record file (/api/records, /api/records/game), their Elo fit
 * (/api/ratings, the `hoyle report` model) and a training run's curves (/api/run). */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include "core/error.h"
#include "data/h5attr.h"
#include "data/h5rec.h"
#include "eval/elo.h"
#include "eval/elo_report.h"
#include "eval/tournament_results.h"
#include "games/game.h"
#include "serve/serve_internal.h"

#define CSV_MAX_BYTES (16 << 20) /* a train.csv larger than this is refused */

int files_resolve(const char *root, const char *rel, char *out, const char **why)
{
    if (rel == NULL || !*rel) {
        snprintf(out, PATH_MAX, "%s", root);
        return 0;
    }
    if (rel[0] == '/') {
        *why = "absolute paths are refused";
        return MHD_HTTP_FORBIDDEN;
    }
    for (const char *p = rel; *p;) { /* no component may be ".." */
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            *why = "'..' is refused in paths";
            return MHD_HTTP_FORBIDDEN;
        }
        p += slash ? n + 1 : n;
    }
    char joined[PATH_MAX];
    if ((size_t)snprintf(joined, sizeof joined, "%s/%s", root, rel) >= sizeof joined) {
        *why = "path too long";
        return MHD_HTTP_FORBIDDEN;
    }
    if (realpath(joined, out) == NULL) {
        *why = errno == ENOENT || errno == ENOTDIR ? "no such file" : "path refused";
        return errno == ENOENT || errno == ENOTDIR ? MHD_HTTP_NOT_FOUND : MHD_HTTP_FORBIDDEN;
    }
    size_t rl = strlen(root);
    if (strcmp(root, "/") != 0 &&
        (strncmp(out, root, rl) != 0 || (out[rl] != '/' && out[rl] != '\0'))) {
        *why = "the path leads out of the data folder";
        return MHD_HTTP_FORBIDDEN;
    }
    return 0;
}

/* Resolve the query argument `key` inside --data; replies and returns -1 on error. */
static int arg_path(const serve_req_t *rq, serve_reply_t *rp, const char *key, int required,
                    char *out)
{
    const char *rel = req_arg(rq, key), *why = NULL;
    if (required && (rel == NULL || !*rel)) {
        reply_error(rp, MHD_HTTP_BAD_REQUEST, "missing argument %s=PATH", key);
        return -1;
    }
    int st = files_resolve(rq->srv->data_real, rel, out, &why);
    if (st) {
        reply_error(rp, st, "%s '%s': %s", key, rel ? rel : "", why);
        return -1;
    }
    return 0;
}

/* Release the HDF5 lock, the error stack of a failed call (a foreign file)
 * cleared first: HDF5 keeps it until a later call clears it, and entries
 * still there when the process ends are leaks to LeakSanitizer. */
static void h5_unlock(serve_t *srv)
{
    H5Eclear2(H5E_DEFAULT);
    pthread_mutex_unlock(&srv->h5_lock);
}

/* The hoyle_schema root attribute of an HDF5 file (NULL when it has none, is
 * no HDF5 file, or is too damaged to tell: h5rec_probe_schema reads it in a
 * child process); the caller holds h5_lock and frees the string. */
static char *h5_schema(const char *path)
{
    char *schema = NULL;
    if (h5rec_probe_schema(path, &schema) < 0) schema = NULL;
    return schema;
}

/* ---- GET /api/files ---- */

typedef struct entry {
    char name[256];
    int dir;
    long long size;
    const char *kind;
} entry_t;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const entry_t *)a)->name, ((const entry_t *)b)->name);
}

static const char *file_kind(serve_t *srv, const char *path, const char *name, int dir)
{
    char sub[PATH_MAX + 16];
    if (dir) {
        snprintf(sub, sizeof sub, "%s/train.csv", path);
        return access(sub, R_OK) == 0 ? "run" : "other";
    }
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".csv") == 0) return "csv";
    if (!(n > 3 && strcmp(name + n - 3, ".h5") == 0)) return "other";
    pthread_mutex_lock(&srv->h5_lock);
    char *schema = h5_schema(path);
    h5_unlock(srv);
    const char *kind = "other";
    if (schema && strcmp(schema, H5REC_SCHEMA_NAME) == 0) kind = "records";
    if (schema && strcmp(schema, "hoyle.samples") == 0) kind = "samples";
    free(schema);
    return kind;
}

void route_files(const serve_req_t *rq, serve_reply_t *rp)
{
    serve_t *srv = rq->srv;
    char path[PATH_MAX];
    if (arg_path(rq, rp, "dir", 0, path)) return;
    DIR *d = opendir(path);
    if (d == NULL) {
        reply_error(rp, errno == ENOTDIR ? MHD_HTTP_BAD_REQUEST : MHD_HTTP_NOT_FOUND,
                    "dir: not a folder");
        return;
    }
    entry_t *e = NULL;
    int n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        char full[PATH_MAX], real[PATH_MAX];
        const char *why = NULL;
        if ((size_t)snprintf(full, sizeof full, "%s/%s", path, de->d_name) >= sizeof full) continue;
        /* an entry whose link leads out of --data is not shown */
        if (files_resolve(srv->data_real, full + strlen(srv->data_real) + 1, real, &why)) continue;
        struct stat st;
        if (stat(real, &st) || strlen(de->d_name) >= sizeof e->name) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            entry_t *ne = realloc(e, (size_t)cap * sizeof *e);
            if (ne == NULL) break;
            e = ne;
        }
        entry_t *x = &e[n++];
        snprintf(x->name, sizeof x->name, "%s", de->d_name);
        x->dir = S_ISDIR(st.st_mode);
        x->size = (long long)st.st_size;
        x->kind = file_kind(srv, real, x->name, x->dir);
    }
    closedir(d);
    if (n) qsort(e, (size_t)n, sizeof *e, by_name);
    FILE *f = reply_json_open(rp);
    json_t j;
    if (f) {
        const char *dir = req_arg(rq, "dir");
        json_begin(&j, f);
        json_str(&j, "dir", dir ? dir : "");
        json_open(&j, "entries", '[');
        for (int i = 0; i < n; i++) {
            json_open(&j, NULL, '{');
            json_str(&j, "name", e[i].name);
            json_str(&j, "type", e[i].dir ? "dir" : "file");
            json_int(&j, "size", e[i].size);
            json_str(&j, "kind", e[i].kind);
            json_close(&j);
        }
        json_end(&j);
    }
    reply_json_done(rp, f);
    free(e);
}

/* ---- GET /api/records ---- */

/* A writer (another process) holds the journal's lock, or the journal holds
 * games not yet folded in: the file is still being written. */
static int being_written(const char *path)
{
    char journal[PATH_MAX + 16];
    struct stat st;
    snprintf(journal, sizeof journal, "%s.journal", path);
    if (stat(journal, &st)) return 0;
    int busy = st.st_size > 0;
    int fd = open(journal, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK) busy = 1;
        close(fd);
    }
    return busy;
}

static const char *end_word(record_end_t e)
{
    switch (e) {
    case RECORD_END_RULES: return "rules";
    case RECORD_END_MOVE_LIMIT: return "adjudicated";
    case RECORD_END_RESIGN: return "resign";
    default: return "forfeit";
    }
}

/* Count the whole moves of a stored game (chance outcomes are not moves). */
static int count_moves(const game_t *g, const game_record_t *r, void *s)
{
    int moves = 0, last = PLAYER_TERMINAL;
    game_init(g, s);
    for (int i = 0; i < r->num_actions; i++) {
        int p = game_current_player(g, s);
        if (p == PLAYER_TERMINAL || !game_is_legal(g, s, r->actions[i])) return -1;
        if (p >= 0 && (p != last || g->num_players == 1)) moves++;
        last = p;
        game_apply(g, s, r->actions[i]);
    }
    return moves;
}

void route_records(const serve_req_t *rq, serve_reply_t *rp)
{
    serve_t *srv = rq->srv;
    char path[PATH_MAX];
    if (arg_path(rq, rp, "file", 1, path)) return;
    pthread_mutex_lock(&srv->h5_lock);
    h5rec_t *h = NULL;
    if (h5rec_open_untrusted(path, &h)) {
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, "not a game-record file");
        h5_unlock(srv);
        return;
    }
    FILE *f = reply_json_open(rp);
    json_t j;
    int64_t n = h5rec_count(h);
    int rc = 0;
    /* the game of each spec made once, and a state to count moves with */
    const game_t *g = NULL;
    char gspec[GAME_SPEC_MAX] = "";
    void *s = NULL;
    if (f) {
        json_begin(&j, f);
        json_str(&j, "file", req_arg(rq, "file"));
        json_bool(&j, "complete", !being_written(path));
        json_open(&j, "games", '[');
        for (int64_t i = 0; i < n && rc == 0; i++) {
            game_record_t r;
            if ((rc = h5rec_read(h, i, &r))) break;
            if (strcmp(gspec, r.game_spec) != 0) {
                game_free(g);
                free(s);
                s = NULL;
                snprintf(gspec, sizeof gspec, "%s", r.game_spec);
                if (game_create(r.game_spec, &g)) g = NULL;
                if (g) s = calloc(1, g->state_size + GAME_STATE_ALIGN);
            }
            json_open(&j, NULL, '{');
            json_int(&j, "index", i);
            json_str(&j, "game", r.game_spec);
            json_open(&j, "agents", '[');
            for (int p = 0; p < RECORD_MAX_PLAYERS; p++)
                if (r.agent_spec[p] && r.agent_spec[p][0]) json_str(&j, NULL, r.agent_spec[p]);
            json_close(&j);
            json_open(&j, "returns", '[');
            for (int p = 0; p < (g ? g->num_players : RECORD_MAX_PLAYERS); p++)
                json_num(&j, NULL, "%g", r.returns[p]);
            json_close(&j);
            json_int(&j, "moves", g && s ? count_moves(g, &r, s) : -1);
            json_int(&j, "actions", r.num_actions);
            json_str(&j, "end", end_word(r.end));
            if (r.opening_name && r.opening_name[0]) json_str(&j, "opening", r.opening_name);
            json_close(&j);
            game_record_free(&r);
        }
        json_end(&j);
    }
    h5rec_close(h);
    h5_unlock(srv);
    game_free(g);
    free(s);
    if (rc) {
        if (f) fclose(f);
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, "not a readable game-record file");
        return;
    }
    reply_json_done(rp, f);
}

/* ---- GET /api/records/game ---- */

static void replay_record(serve_reply_t *rp, const game_record_t *r, const char *file)
{
    const game_t *g = NULL;
    if (game_create(r->game_spec, &g)) {
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, "the record's game");
        return;
    }
    void *s = calloc(1, g->state_size + GAME_STATE_ALIGN);
    void *before = calloc(1, g->state_size + GAME_STATE_ALIGN);
    char *text = malloc(GAME_TEXT_MAX);
    FILE *f = s && before && text ? reply_json_open(rp) : NULL;
    if (f == NULL) {
        free(s), free(before), free(text), game_free(g);
        reply_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
        return;
    }
    json_t j;
    json_begin(&j, f);
    json_str(&j, "file", file);
    json_str(&j, "game", r->game_spec);
    json_open(&j, "agents", '[');
    for (int p = 0; p < g->num_players; p++) json_str(&j, NULL, r->agent_spec[p]);
    json_close(&j);
    game_init(g, s);
    if (game_position_to_string(g, s, text, GAME_TEXT_MAX) < 0) text[0] = '\0';
    json_str(&j, "start", text);
    if (game_state_to_string(g, s, text, GAME_TEXT_MAX) < 0) text[0] = '\0';
    json_str(&j, "start_board", text);
    json_open(&j, "moves", '[');
    int bad = -1;
    for (int i = 0; i < r->num_actions && bad < 0;) {
        int p = game_current_player(g, s), n = 0;
        memcpy(before, s, g->state_size);
        /* a whole move: the run of actions of one player (one action at a
         * chance node or in a puzzle) */
        do {
            if (game_is_terminal(g, s) || !game_is_legal(g, s, r->actions[i + n])) {
                bad = i + n;
                break;
            }
            game_apply(g, s, r->actions[i + n]);
            n++;
        } while (i + n < r->num_actions && p >= 0 && g->num_players > 1 && n < GAME_MAX_CHAIN &&
                 game_current_player(g, s) == p);
        if (bad >= 0) break;
        char move[GAME_MOVE_MAX];
        if (p == PLAYER_CHANCE
                ? game_action_to_string(g, before, r->actions[i], move, sizeof move) < 0
                : game_move_to_string(g, before, r->actions + i, n, move, sizeof move) < 0)
            snprintf(move, sizeof move, "?");
        json_open(&j, NULL, '{');
        if (p == PLAYER_CHANCE)
            json_str(&j, "player", "chance");
        else
            json_int(&j, "player", p);
        json_str(&j, "move", move);
        if (game_position_to_string(g, s, text, GAME_TEXT_MAX) < 0) text[0] = '\0';
        json_str(&j, "position", text);
        if (game_state_to_string(g, s, text, GAME_TEXT_MAX) < 0) text[0] = '\0';
        json_str(&j, "board", text);
        json_close(&j);
        i += n;
    }
    json_close(&j);
    json_open(&j, "returns", '[');
    for (int p = 0; p < g->num_players; p++) json_num(&j, NULL, "%g", r->returns[p]);
    json_close(&j);
    json_str(&j, "end", end_word(r->end));
    json_end(&j);
    free(s), free(before), free(text);
    game_free(g);
    if (bad >= 0) {
        fclose(f);
        reply_error(rp, MHD_HTTP_BAD_REQUEST, "the record's action %d is not legal in %s", bad,
                    r->game_spec);
        return;
    }
    reply_json_done(rp, f);
}

void route_record_game(const serve_req_t *rq, serve_reply_t *rp)
{
    serve_t *srv = rq->srv;
    char path[PATH_MAX];
    if (arg_path(rq, rp, "file", 1, path)) return;
    const char *arg = req_arg(rq, "index");
    char *end = NULL;
    errno = 0;
    long long index = arg ? strtoll(arg, &end, 10) : -1;
    if (arg == NULL || !*arg || *end || errno || index < 0) {
        reply_error(rp, MHD_HTTP_BAD_REQUEST, "index: '%s' is not a game index", arg ? arg : "");
        return;
    }
    pthread_mutex_lock(&srv->h5_lock);
    h5rec_t *h = NULL;
    game_record_t r;
    int rc = h5rec_open_untrusted(path, &h), status = MHD_HTTP_BAD_REQUEST;
    if (rc == 0 && index >= h5rec_count(h)) {
        rc = hoyle_error(HOYLE_EINVAL, "no game %lld: the file holds %lld", index,
                         (long long)h5rec_count(h));
        status = MHD_HTTP_NOT_FOUND;
    }
    if (rc == 0) rc = h5rec_read(h, index, &r);
    h5rec_close(h);
    h5_unlock(srv);
    if (rc) {
        reply_last_error(rp, status, NULL);
        return;
    }
    replay_record(rp, &r, req_arg(rq, "file"));
    game_record_free(&r);
}

/* ---- GET /api/ratings ---- */

static void write_ratings(json_t *j, const tres_set_t *set, const elo_result_t *r)
{
    int n = set->n_players;
    int *order = malloc((size_t)n * sizeof *order);
    if (order == NULL) return;
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++) /* rank order: rating descending */
        for (int k = i; k > 0 && r->rating[order[k]] > r->rating[order[k - 1]]; k--) {
            int t = order[k];
            order[k] = order[k - 1], order[k - 1] = t;
        }
    char scale[300];
    elo_scale_text(r, scale, sizeof scale);
    json_str(j, "scale", scale); /* the one Elo convention (docs/ratings.md, "Scale") */
    json_open(j, "ratings", '[');
    for (int i = 0; i < n; i++) {
        int p = order[i];
        json_open(j, NULL, '{');
        json_str(j, "agent", set->names[p]);
        json_num(j, "elo", "%.1f", r->rating[p]);
        json_num(j, "lo", "%.1f", r->lo[p]);
        json_num(j, "hi", "%.1f", r->hi[p]);
        json_num(j, "games", "%.0f", r->games[p]);
        json_num(j, "score", "%.4f", r->score[p]);
        json_close(j);
    }
    json_close(j);
    /* cross table: points and games of the row player against the column player */
    double *pts = calloc((size_t)n * (size_t)n, sizeof *pts);
    double *cnt = calloc((size_t)n * (size_t)n, sizeof *cnt);
    for (size_t g = 0; pts && cnt && g < set->n_games; g++) {
        const elo_game_t *e = &set->games[g];
        double w = e->weight > 0 ? e->weight : 1;
        pts[e->white * n + e->black] += w * e->score;
        pts[e->black * n + e->white] += w * (1 - e->score);
        cnt[e->white * n + e->black] += w;
        cnt[e->black * n + e->white] += w;
    }
    json_open(j, "cross", '{');
    json_open(j, "agents", '[');
    for (int i = 0; i < n; i++) json_str(j, NULL, set->names[order[i]]);
    json_close(j);
    for (int pass = 0; pass < 2; pass++) {
        json_open(j, pass ? "games" : "score", '[');
        for (int a = 0; a < n; a++) {
            json_open(j, NULL, '[');
            for (int b = 0; b < n; b++) {
                int x = order[a] * n + order[b];
                double c = cnt ? cnt[x] : 0;
                if (pass)
                    json_num(j, NULL, "%.0f", c);
                else
                    json_num(j, NULL, "%.4f", c > 0 && pts ? pts[x] / c : NAN);
            }
            json_close(j);
        }
        json_close(j);
    }
    json_close(j);
    free(pts), free(cnt), free(order);
    json_open(j, "openings", '[');
    for (int i = 0; i < set->n_groups; i++) {
        const elo_group_t *gr = &set->groups[i];
        double games = gr->wins + gr->draws + gr->losses;
        json_open(j, NULL, '{');
        json_str(j, "opening", gr->label);
        json_num(j, "first_player_score", "%.4f",
                 games > 0 ? (gr->wins + gr->draws / 2) / games : NAN);
        json_num(j, "games", "%.0f", games);
        json_close(j);
    }
    json_close(j);
}

void route_ratings(const serve_req_t *rq, serve_reply_t *rp)
{
    serve_t *srv = rq->srv;
    char path[PATH_MAX];
    if (arg_path(rq, rp, "file", 1, path)) return;
    tres_t t;
    memset(&t, 0, sizeof t);
    pthread_mutex_lock(&srv->h5_lock);
    int rc = tres_add_file(&t, path);
    h5_unlock(srv);
    if (rc) {
        tres_done(&t);
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, "not a game-record file");
        return;
    }
    const char *want = req_arg(rq, "game");
    int pick = t.n_sets ? 0 : -1;
    for (int i = 0; want && i < t.n_sets; i++)
        if (strcmp(t.sets[i].label, want) == 0) pick = i;
    if (pick < 0 || (want && strcmp(t.sets[pick].label, want) != 0)) {
        reply_error(rp, MHD_HTTP_BAD_REQUEST,
                    pick < 0 ? "no rated games in the file" : "no games of that spec in the file");
        tres_done(&t);
        return;
    }
    const tres_set_t *set = &t.sets[pick];
    elo_input_t in = {.n_players = set->n_players,
                      .names = (const char *const *)set->names,
                      .games = set->games,
                      .n_games = set->n_games};
    elo_result_t *r = NULL;
    rc = set->n_players < 2 ? hoyle_error(HOYLE_EINVAL, "fewer than 2 players")
                            : elo_fit(&in, NULL, &r);
    if (rc) {
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, "ratings");
        tres_done(&t);
        return;
    }
    FILE *f = reply_json_open(rp);
    if (f) {
        json_t j;
        json_begin(&j, f);
        json_str(&j, "file", req_arg(rq, "file"));
        json_str(&j, "game", set->label);
        json_open(&j, "pools", '[');
        for (int i = 0; i < t.n_sets; i++) json_str(&j, NULL, t.sets[i].label);
        json_close(&j);
        json_u64(&j, "num_games", set->n_games);
        json_num(&j, "advantage", "%.1f", r->advantage);
        json_num(&j, "drawelo", "%.1f", r->drawelo);
        write_ratings(&j, set, r);
        json_end(&j);
    }
    reply_json_done(rp, f);
    elo_result_free(r);
    tres_done(&t);
}

/* ---- GET /api/run ---- */

/* A CSV file as "columns": [...], "rows": [[...]] (in an object under `key`
 * when not NULL, null when that file is absent): numbers as numbers, other
 * fields as strings. */
static int write_csv(json_t *j, const char *key, const char *path)
{
    FILE *in = fopen(path, "r");
    if (in == NULL) {
        if (key) json_num(j, key, "%g", NAN);
        return key ? 0 : hoyle_error(HOYLE_EIO, "cannot read %s", path);
    }
    struct stat st;
    if (fstat(fileno(in), &st) || st.st_size > CSV_MAX_BYTES) {
        fclose(in);
        return hoyle_error(HOYLE_EINVAL, "%s is larger than %d bytes", path, CSV_MAX_BYTES);
    }
    if (key) json_open(j, key, '{');
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int row = 0;
    while ((len = getline(&line, &cap, in)) > 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (row == 1) json_open(j, "rows", '[');
        json_open(j, row == 0 ? "columns" : NULL, '[');
        for (char *p = line;;) {
            char *comma = strchr(p, ',');
            if (comma) *comma = '\0';
            size_t n = strlen(p);
            if (n >= 2 && p[0] == '"' && p[n - 1] == '"') p[n - 1] = '\0', p++;
            char *end = NULL;
            double v = strtod(p, &end);
            if (row > 0 && *p && end && *end == '\0' && isfinite(v))
                json_num(j, NULL, "%.10g", v);
            else
                json_str(j, NULL, p);
            if (!comma) break;
            p = comma + 1;
        }
        json_close(j);
        row++;
    }
    if (row <= 1) {
        if (row == 0) {
            json_open(j, "columns", '[');
            json_close(j);
        }
        json_open(j, "rows", '[');
    }
    json_close(j);
    if (key) json_close(j);
    free(line);
    fclose(in);
    return 0;
}

void route_run(const serve_req_t *rq, serve_reply_t *rp)
{
    char path[PATH_MAX], csv[PATH_MAX + 16];
    if (arg_path(rq, rp, "dir", 1, path)) return;
    if ((size_t)snprintf(csv, sizeof csv, "%s/train.csv", path) >= sizeof csv ||
        access(csv, R_OK) != 0) {
        reply_error(rp, MHD_HTTP_NOT_FOUND, "dir '%s' is not a training run (no train.csv)",
                    req_arg(rq, "dir"));
        return;
    }
    FILE *f = reply_json_open(rp);
    if (f == NULL) return;
    json_t j;
    json_begin(&j, f);
    json_str(&j, "dir", req_arg(rq, "dir"));
    int rc = write_csv(&j, NULL, csv);
    snprintf(csv, sizeof csv, "%s/elo.csv", path);
    if (rc == 0) rc = write_csv(&j, "elo", csv);
    json_end(&j);
    if (rc) {
        fclose(f);
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, NULL);
        return;
    }
    reply_json_done(rp, f);
}
