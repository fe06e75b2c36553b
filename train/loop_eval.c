/* loop_eval.c — periodic evaluation in the training loop: the new net against
 * fixed opponents (the baseline agent, anchors given as agent specs or as earlier
 * nets of the run) and the previous evaluated net, from one fixed set of openings
 * played with both colours, an SPRT optionally stopping each match (eval/sprt.h);
 * Elo over every evaluation game so far (eval/elo.h, BayesElo model, net 0 anchored
 * at 0), and the logs: eval_games.csv, eval.csv, elo.csv, elo.h5 (HDF5, atomic) and
 * elo.svg (a self-contained plot of Elo against wall time). */
#include <hdf5.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/progress.h"
#include "core/rng.h"
#include "eval/elo.h"
#include "eval/openings.h"
#include "eval/score.h"
#include "eval/svg_plot.h"
#include "eval/tournament.h"
#include "train/loop_internal.h"

/* Players in one Elo fit: every evaluated net plus the baseline; a run of more evaluated
 * generations reports HOYLE_EFULL rather than dropping games. */
#define MAX_PLAYERS 4096

void loop_eval_search_keys(const mcts_params_t *sp, char *buf, size_t cap)
{
    /* az's defaults (train/agent_az.c): c 1.25, c_base 19652, fpu parent-0.2, batch 4,
     * vloss 1, reuse on; then every MCTS_KNOBS entry away from its default (gumbel, the
     * provers, the variants), so the evaluated net searches as self-play did */
    mcts_params_t d;
    mcts_params_default(&d);
    size_t u = 0;
    buf[0] = '\0';
#define KEY(cond, ...)                                                                             \
    if ((cond) && u < cap) u += (size_t)snprintf(buf + u, cap - u, __VA_ARGS__)
    KEY(sp->c_init != 1.25, ",c=%.10g", sp->c_init);
    KEY(sp->c_base != 19652, ",c_base=%.10g", sp->c_base);
    KEY(sp->fpu_value != 0.2, ",fpu=%.10g", sp->fpu_value);
    KEY(sp->batch != 4, ",batch=%d", sp->batch);
    KEY(sp->virtual_loss != 1, ",vloss=%.10g", sp->virtual_loss);
    KEY(!sp->reuse, ",reuse=false");
#define KNOB_(ctype, name, type, dflt, lo, hi, help)                                               \
    KEY(sp->name != d.name && type == PARAM_BOOL, ",%s=%s", #name, sp->name ? "true" : "false");   \
    KEY(sp->name != d.name && type != PARAM_BOOL, ",%s=%.10g", #name, (double)sp->name);
    MCTS_KNOBS(KNOB_)
#undef KNOB_
#undef KEY
}

/* The `eval` section's rows, landing in a loop_eval_cfg_t: a loop's schema gives its section
 * row PARAM_AT(its run struct, eval). Rows without a default keep what the loop set before
 * binding, the values in which the AZ and the TD loops differ (docs/td.md). */
#define ROW(...) LOOP_ROW(loop_eval_cfg_t, __VA_ARGS__)
static const param_def_t sprt_rows[] = {
    ROW("elo0", PARAM_DOUBLE, "0", -2000, 2000, sprt_params.elo0,
        "H0: the new net is elo0 stronger"),
    ROW("elo1", PARAM_DOUBLE, "5", -2000, 2000, sprt_params.elo1,
        "H1: the new net is elo1 stronger"),
    ROW("alpha", PARAM_DOUBLE, "0.05", 0, 1, sprt_params.alpha, "P(accept H1 | H0)"),
    ROW("beta", PARAM_DOUBLE, "0.05", 0, 1, sprt_params.beta, "P(accept H0 | H1)"),
    {NULL},
};
const param_def_t loop_eval_rows[] = {
    ROW("every", PARAM_INT, "5", 0, 1e9, every, "generations between evaluations (0 = never)",
        LOOP_MAY_CHANGE),
    ROW("games", PARAM_INT, "100", 2, 1e6, games,
        "games per opponent (even: colour-swapped pairs; the most with sprt)", LOOP_MAY_CHANGE),
    ROW("sims", PARAM_INT, NULL, 1, 1e8, sims,
        "az simulations per move (default: selfplay.sims; td: unused)"),
    ROW("max_moves", PARAM_INT, "0", 0, 1e6, max_moves, "whole moves before a draw (0 = rules)"),
    ROW("baseline", PARAM_STRING, NULL, 0, 0, baseline,
        "fixed opponent agent spec (\"\" = none; default: mcts(sims=256), td: docs/td.md)"),
    ROW("openings", PARAM_STRING, NULL, 0, 0, openings,
        "random:K, book:PATH or none, both colours (default: random:2, td: docs/td.md)"),
    {.key = "anchors",
     .type = PARAM_LIST,
     .min = 0,
     .max = LOOP_EVAL_MAX_ANCHORS,
     .help = "fixed opponents: agent specs or net:G (default: [net:0])"},
    ROW("previous", PARAM_BOOL, "true", 0, 0, previous, "also play the previous evaluated net"),
    {.key = "sprt",
     .type = PARAM_SECTION,
     .fields = sprt_rows,
     .help = "given: each match stops at an SPRT decision (eval/sprt.h)"},
    {NULL},
};
#undef ROW

void loop_eval_read(const config_t *c, loop_eval_cfg_t *ev)
{
    config_node_t *const *items = NULL;
    if (config_find(c, "eval.anchors")) ev->num_anchors = config_strings(c, "eval.anchors", &items);
    for (int i = 0; items && i < ev->num_anchors; i++)
        snprintf(ev->anchors[i], sizeof ev->anchors[i], "%s", items[i]->value);
    ev->sprt = config_find(c, "eval.sprt") != NULL;
}

void loop_eval_effective(const loop_eval_cfg_t *ev, char *anchors, size_t acap, char *sprt,
                         size_t scap)
{
    anchors[0] = '\0';
    for (int i = 0, u = 0; i < ev->num_anchors; i++)
        u += snprintf(anchors + u, acap - (size_t)u, "%s%s", i ? ";" : "", ev->anchors[i]);
    const sprt_params_t *t = &ev->sprt_params;
    if (ev->sprt)
        snprintf(sprt, scap, "%.17g,%.17g,%.17g,%.17g", t->elo0, t->elo1, t->alpha, t->beta);
    else
        snprintf(sprt, scap, "off");
}

/* The agent spec of net `gen` of the run in `dir` (az, td, or alpha-beta with the net's
 * weights) with the evaluation's search. */
static int az_spec(const loop_eval_cfg_t *cfg, const char *dir, int64_t gen, char *buf, size_t cap)
{
    int n = cfg->kind == LOOP_NET_TD
                ? snprintf(buf, cap, "td(model=%s/net-%06" PRId64 ".td%s)", dir, gen, cfg->search)
            : cfg->kind == LOOP_NET_EVAL
                ? snprintf(buf, cap, "alphabeta(eval=%s/net-%06" PRId64 ".eval%s)", dir, gen,
                           cfg->search)
                : snprintf(buf, cap, "az(model=%s/net-%06" PRId64 ".pt,sims=%d%s)", dir, gen,
                           cfg->sims, cfg->search);
    if (n < 0 || (size_t)n >= cap)
        return hoyle_error(HOYLE_EINVAL, "eval: the az spec of '%s' is too long", dir);
    return HOYLE_OK;
}

int64_t loop_eval_anchor_net(const char *spec)
{
    char *end;
    if (strncmp(spec, "net:", 4) != 0) return -1;
    long long g = strtoll(spec + 4, &end, 10);
    return end != spec + 4 && *end == '\0' && g >= 0 ? g : -2;
}

int loop_eval_check(const game_t *g, const loop_eval_cfg_t *cfg, const char **key)
{
    *key = "eval.baseline";
    agent_t *base = NULL;
    if (cfg->baseline[0] && agent_create(g, cfg->baseline, 0, &base)) return HOYLE_EINVAL;
    int person = base && agent_is_human(base);
    agent_free(base);
    if (person) return hoyle_error(HOYLE_EINVAL, "a human cannot be the baseline");
    *key = "eval.games";
    if (cfg->games % 2)
        return hoyle_error(HOYLE_EINVAL, "%d games: need an even number (pairs of colours)",
                           cfg->games);
    *key = "eval.openings";
    opening_list_t l = {0, NULL};
    int status = openings_from_source(g, cfg->openings, cfg->games / 2, cfg->seed, &l);
    opening_list_done(&l);
    if (status) return status;
    *key = "eval.anchors";
    for (int i = 0; i < cfg->num_anchors; i++) {
        const char *a = cfg->anchors[i];
        int64_t net = loop_eval_anchor_net(a);
        if (net == -2) return hoyle_error(HOYLE_EINVAL, "'%s': net:G needs a generation >= 0", a);
        if (net >= 0) continue;
        agent_t *probe = NULL;
        if (agent_create(g, a, 0, &probe)) return hoyle_error_prefix(HOYLE_EINVAL, "'%s'", a);
        int human = agent_is_human(probe);
        agent_free(probe);
        if (human) return hoyle_error(HOYLE_EINVAL, "'%s': a human cannot be an anchor", a);
    }
    *key = "eval.sprt";
    sprt_t t;
    if (cfg->sprt && sprt_init(&t, &cfg->sprt_params))
        return hoyle_error(HOYLE_EINVAL,
                           "elo0 %g, elo1 %g, alpha %g, beta %g: need elo0 < elo1 and alpha, "
                           "beta in (0, 1) with alpha + beta < 1",
                           cfg->sprt_params.elo0, cfg->sprt_params.elo1, cfg->sprt_params.alpha,
                           cfg->sprt_params.beta);
    *key = NULL;
    return HOYLE_OK;
}

/* One game of a pair: game k of the pair puts the tested net in seat k. Its own agents
 * (kept for the whole match and reseeded per game), so the two games of a pair can run
 * on two threads; errors are copied here since hoyle_last_error is per thread. */
typedef struct pair_side {
    const game_t *g;
    agent_t *seat[2];
    const char *spec[2];
    const opening_t *opening;
    uint64_t seed;
    int max_moves, status;
    double score; /* the tested net's: 1, 1/2, 0 */
    char error[HOYLE_ERROR_MAX];
} pair_side_t;

static void *play_side(void *arg)
{
    pair_side_t *ps = arg;
    tour_game_result_t r;
    memset(&r, 0, sizeof r);
    ps->status = HOYLE_OK;
    for (int p = 0; p < 2 && !ps->status; p++)
        ps->status = agent_reseed(ps->seat[p], tournament_agent_seed(ps->seed, p));
    if (!ps->status)
        ps->status = tournament_play_agents(ps->g, ps->seat, ps->spec, ps->opening, ps->seed,
                                            ps->max_moves, &r);
    if (!ps->status && r.end == RECORD_END_ERROR)
        ps->status = hoyle_error(HOYLE_EINVAL, "eval: %s", r.error);
    if (ps->status) snprintf(ps->error, sizeof ps->error, "%s", hoyle_last_error());
    /* seat 0's result as a score; the caller turns it into the tested net's */
    ps->score = r.returns[0] > r.returns[1] ? 1 : r.returns[0] < r.returns[1] ? 0 : 0.5;
    tour_game_result_done(&r);
    return NULL;
}

/* A finished match against one opponent. */
typedef struct match {
    int games;
    double score;         /* the tested net's mean score */
    sprt_t test;          /* the pairs (pentanomial), decided or not */
    sprt_decision_t sprt; /* with cfg->sprt: the decision when the match stopped */
} match_t;

/* Colour-swapped pairs of `me` against `opp` over `ol` (pair i plays opening i twice, `me`
 * first in game 0), each game's seed derived from `seed` and its number, until cfg->games
 * games or (with cfg->sprt) the SPRT's decision; one row per game in games_log:
 * gen,opponent,seat,score,opening. The four agents are created once per match. */
static int play_match(const game_t *g, const loop_eval_cfg_t *cfg, const opening_list_t *ol,
                      const char *me, const char *opp, const char *opp_name, int64_t gen,
                      uint64_t seed, loop_log_t *games_log, FILE *progress, match_t *out)
{
    progress_t pg;
    char label[96], extra[48];
    snprintf(label, sizeof label, "[eval] net %" PRId64 " vs %s", gen, opp_name);
    progress_start(&pg, progress, label, "games", 0);
    progress_defer(&pg); /* the generation's summary line has the score */
    memset(out, 0, sizeof *out);
    sprt_params_t sp;
    sprt_params_default(&sp);
    int status = sprt_init(&out->test, cfg->sprt ? &cfg->sprt_params : &sp);
    pair_side_t side[2];
    memset(side, 0, sizeof side);
    for (int k = 0; k < 2 && !status; k++) {
        side[k] = (pair_side_t){.g = g, .max_moves = cfg->max_moves};
        side[k].spec[k] = me;
        side[k].spec[1 - k] = opp;
        for (int p = 0; p < 2 && !status; p++)
            status = agent_create(g, side[k].spec[p], 0, &side[k].seat[p]);
    }
    double total = 0;
    int pairs = cfg->games / 2;
    for (int i = 0; i < pairs && !status && out->sprt == SPRT_CONTINUE; i++) {
        const opening_t *o = &ol->items[i % ol->n];
        for (int k = 0; k < 2; k++) {
            side[k].opening = o;
            side[k].seed = rng_mix(seed + 2 * (uint64_t)i + (uint64_t)k);
        }
        pthread_t th;
        int threaded = pthread_create(&th, NULL, play_side, &side[1]) == 0;
        play_side(&side[0]);
        if (threaded)
            pthread_join(th, NULL);
        else
            play_side(&side[1]);
        double pair = 0;
        for (int k = 0; k < 2 && !status; k++) {
            if (side[k].status) {
                status = hoyle_error(side[k].status, "%s", side[k].error);
                break;
            }
            int seat = side[k].spec[0] == me ? 0 : 1; /* the tested net's seat */
            double s = seat == 0 ? side[k].score : 1 - side[k].score;
            pair += s;
            char name[OPENING_NAME_MAX];
            snprintf(name, sizeof name, "%s", o->name);
            for (char *c = name; *c; c++)
                if (*c == ',' || *c == '\n') *c = ';'; /* one CSV field */
            status = loop_log_add(games_log, "%" PRId64 ",%s,%d,%.1f,%s\n", gen, opp_name, seat, s,
                                  name);
        }
        if (!status) status = sprt_add_pair(&out->test, pair);
        if (status) break;
        total += pair;
        out->games += 2;
        if (cfg->sprt) out->sprt = sprt_decision(&out->test);
        snprintf(extra, sizeof extra, "score %.2f", total / out->games);
        progress_update(&pg, out->games, cfg->games, extra, 0);
    }
    progress_clear(&pg);
    for (int k = 0; k < 2; k++)
        for (int p = 0; p < 2; p++) agent_free(side[k].seat[p]);
    if (status) return status;
    out->score = total / out->games;
    return HOYLE_OK;
}

/* Players and games from the per-game log; rows: gen,opponent,seat,score. */
typedef struct elo_data {
    int n;
    char *names[MAX_PLAYERS];
    elo_game_t *games;
    size_t num_games;
} elo_data_t;

/* The index of `name`, added when new; -1 when the table is full or strdup fails. A linear
 * scan: a fit has at most a few hundred players and runs once per evaluation. */
static int player_id(elo_data_t *e, const char *name)
{
    for (int i = 0; i < e->n; i++)
        if (strcmp(e->names[i], name) == 0) return i;
    if (e->n >= MAX_PLAYERS) return -1;
    e->names[e->n] = strdup(name);
    return e->names[e->n] ? e->n++ : -1;
}

static void elo_data_done(elo_data_t *e)
{
    for (int i = 0; i < e->n; i++) free(e->names[i]);
    free(e->games);
}

/* Rebuild the games from eval_games.csv (the log is the source of truth, so a resumed run
 * fits exactly the games the uninterrupted run would). Malformed rows are skipped. */
static int parse_games(const loop_log_t *log, elo_data_t *e)
{
    memset(e, 0, sizeof *e);
    size_t rows = 0;
    for (const char *p = log->text; *p; p++) rows += *p == '\n';
    e->games = calloc(rows + 1, sizeof *e->games);
    if (e->games == NULL) return hoyle_error(HOYLE_ENOMEM, "eval: out of memory");
    const char *line = strchr(log->text, '\n'); /* skip the header */
    while (line && line[1]) {
        line++;
        long long gen;
        char opp[64];
        int seat;
        double s;
        if (sscanf(line, "%lld,%63[^,],%d,%lf", &gen, opp, &seat, &s) == 4) {
            char me[64];
            snprintf(me, sizeof me, "net%lld", gen);
            int a = player_id(e, me), b = player_id(e, opp);
            if (a < 0 || b < 0) return hoyle_error(HOYLE_EFULL, "eval: too many players");
            elo_game_t *eg = &e->games[e->num_games++];
            /* elo_game_t scores are from white's (seat 0's) view */
            eg->white = seat == 0 ? a : b;
            eg->black = seat == 0 ? b : a;
            eg->score = seat == 0 ? s : 1.0 - s;
        }
        line = strchr(line, '\n');
    }
    return HOYLE_OK;
}

/* One point of the Elo curve. */
typedef struct point {
    int64_t gen;
    double seconds, elo, lo, hi;
} point_t;

/* elo.h5: schema and game attributes plus one column per point_t field (docs/formats.md),
 * written to PATH.tmp and renamed. Errors are collected in rc so every handle is closed. */
static int write_h5(const char *path, const game_t *g, const point_t *pts, int n)
{
    char tmp[1400];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int rc = 0;
    H5E_BEGIN_TRY
    {
        hid_t fid = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        if (fid < 0) {
            rc = -1;
        } else {
            hid_t st = H5Tcopy(H5T_C_S1);
            H5Tset_size(st, H5T_VARIABLE);
            hid_t sp = H5Screate(H5S_SCALAR);
            const char *attrs[2][2] = {{"hoyle_schema", "hoyle.train_elo"}, {"game", g->spec}};
            for (int k = 0; k < 2; k++) {
                hid_t a = H5Acreate2(fid, attrs[k][0], st, sp, H5P_DEFAULT, H5P_DEFAULT);
                if (a < 0 || H5Awrite(a, st, &attrs[k][1]) < 0) rc = -1;
                if (a >= 0) H5Aclose(a);
            }
            H5Sclose(sp);
            H5Tclose(st);
            hsize_t dim = (hsize_t)n;
            const char *names[5] = {"generation", "seconds", "elo", "elo_low", "elo_high"};
            double *col = malloc(sizeof(double) * (size_t)(n ? n : 1));
            for (int c = 0; c < 5 && col; c++) { /* column c of names[], through col */
                for (int i = 0; i < n; i++)
                    col[i] = c == 0   ? (double)pts[i].gen
                             : c == 1 ? pts[i].seconds
                             : c == 2 ? pts[i].elo
                             : c == 3 ? pts[i].lo
                                      : pts[i].hi;
                hid_t dsp = H5Screate_simple(1, &dim, NULL);
                hid_t d = H5Dcreate2(fid, names[c], c == 0 ? H5T_STD_I64LE : H5T_IEEE_F64LE, dsp,
                                     H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
                if (d < 0) rc = -1;
                if (d >= 0 && n > 0) {
                    if (c == 0) {
                        int64_t *iv = malloc(sizeof(int64_t) * (size_t)n);
                        for (int i = 0; iv && i < n; i++) iv[i] = pts[i].gen;
                        if (!iv ||
                            H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, iv) < 0)
                            rc = -1;
                        free(iv);
                    } else if (H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, col) <
                               0) {
                        rc = -1;
                    }
                }
                if (d >= 0) H5Dclose(d);
                H5Sclose(dsp);
            }
            if (!col) rc = -1;
            free(col);
            if (H5Fclose(fid) < 0) rc = -1;
        }
    }
    H5E_END_TRY;
    if (rc || rename(tmp, path) != 0) {
        unlink(tmp);
        return hoyle_error(HOYLE_EIO, "'%s': cannot write the Elo log", path);
    }
    return HOYLE_OK;
}

/* A self-contained SVG: Elo (y) against wall-clock minutes (x), with the
 * 95% interval as a band (eval/svg_plot.h, the plot writer studies use too). */
static int write_svg(const char *path, const game_t *g, const point_t *pts, int n)
{
    double *col = calloc((size_t)(n > 0 ? n : 1) * 4, sizeof *col);
    char *text = NULL, title[GAME_SPEC_MAX + 64];
    size_t len = 0;
    FILE *f = col ? open_memstream(&text, &len) : NULL;
    if (f == NULL) {
        free(col);
        return hoyle_error(HOYLE_ENOMEM, "svg: out of memory");
    }
    double *x = col, *y = col + n, *lo = col + 2 * n, *hi = col + 3 * n;
    for (int i = 0; i < n; i++)
        x[i] = pts[i].seconds / 60, y[i] = pts[i].elo, lo[i] = pts[i].lo, hi[i] = pts[i].hi;
    snprintf(title, sizeof title, "Elo vs time, %s (net 0 = 0)", g->spec);
    plot_series_t se = {.n = n, .x = x, .y = y, .lo = lo, .hi = hi, .band = 1};
    plot_panel_t panel = {.title = title,
                          .x_label = "wall time (minutes)",
                          .y_label = "Elo",
                          .min_y_span = 100,
                          .n_series = 1,
                          .series = &se};
    int status = svg_plot_write(f, &panel, 1);
    if (fclose(f) != 0 && status == 0) status = hoyle_error(HOYLE_ENOMEM, "svg: out of memory");
    if (status == 0) status = loop_write_atomic(path, text, len);
    free(text);
    free(col);
    return status;
}

/* Refit Elo over every evaluation game and rewrite elo.csv, elo.h5, elo.svg. */
static int refit(const game_t *g, const char *dir, const loop_log_t *games_log,
                 const loop_log_t *eval_log, int64_t gen, loop_eval_out_t *out)
{
    elo_data_t e;
    int status = parse_games(games_log, &e);
    if (status || e.n < 2 || e.num_games == 0) {
        elo_data_done(&e);
        return status;
    }
    elo_input_t in = {.n_players = e.n,
                      .names = (const char *const *)e.names,
                      .games = e.games,
                      .n_games = e.num_games};
    elo_params_t ep;
    elo_params_default(&ep);
    ep.anchor = elo_find_player(in.names, e.n, "net0") >= 0 ? "net0" : NULL;
    /* few games per pairing: hold the first-move advantage at 0 and the draw
     * width at BayesElo's usual 97.3 rather than fitting them */
    ep.fit_advantage = 0;
    ep.advantage = 0;
    ep.fit_drawelo = 0;
    ep.drawelo = 97.3;
    elo_result_t *r = NULL;
    if (elo_fit(&in, &ep, &r)) { /* no Elo this time (reported as NaN); training goes on */
        out->elo = out->elo_lo = out->elo_hi = NAN;
        elo_data_done(&e);
        return HOYLE_OK;
    }
    point_t *pts = calloc((size_t)e.n, sizeof *pts);
    int np = 0;
    if (status == HOYLE_OK && pts) {
        /* one point per evaluated net, in generation order, time from eval.csv */
        const char *line = strchr(eval_log->text, '\n');
        while (line && line[1]) {
            line++;
            long long gg;
            double secs;
            if (sscanf(line, "%lld,%lf", &gg, &secs) == 2 && (np == 0 || pts[np - 1].gen != gg)) {
                char name[64];
                snprintf(name, sizeof name, "net%lld", gg);
                int id = elo_find_player(in.names, e.n, name);
                if (id >= 0) pts[np++] = (point_t){gg, secs, r->rating[id], r->lo[id], r->hi[id]};
            }
            line = strchr(line, '\n');
        }
        char path[1200];
        loop_log_t csv;
        snprintf(path, sizeof path, "%s/elo.csv", dir);
        memset(&csv, 0, sizeof csv);
        snprintf(csv.path, sizeof csv.path, "%s", path);
        status = loop_log_add(&csv, "generation,seconds,elo,elo_low,elo_high\n");
        for (int i = 0; i < np && !status; i++)
            status = loop_log_add(&csv, "%" PRId64 ",%.1f,%.1f,%.1f,%.1f\n", pts[i].gen,
                                  pts[i].seconds, pts[i].elo, pts[i].lo, pts[i].hi);
        if (!status) status = loop_log_save(&csv);
        loop_log_done(&csv);
        snprintf(path, sizeof path, "%s/elo.h5", dir);
        if (!status) status = write_h5(path, g, pts, np);
        snprintf(path, sizeof path, "%s/elo.svg", dir);
        if (!status) status = write_svg(path, g, pts, np);
        for (int i = 0; i < np; i++)
            if (pts[i].gen == gen) {
                out->elo = pts[i].elo;
                out->elo_lo = pts[i].lo;
                out->elo_hi = pts[i].hi;
            }
    } else if (status == HOYLE_OK) {
        status = hoyle_error(HOYLE_ENOMEM, "eval: out of memory");
    }
    free(pts);
    elo_result_free(r);
    elo_data_done(&e);
    return status;
}

/* One row of eval.csv: the match, its score with the Wilson 95% interval as an Elo
 * difference, and the SPRT's decision ("-" without eval.sprt, "none" when undecided). */
static int log_match(loop_log_t *eval_log, const loop_eval_cfg_t *cfg, int64_t gen, double seconds,
                     const char *name, const match_t *m)
{
    double lo, hi;
    wilson_interval(m->score, m->games, 1.96, &lo, &hi);
    const char *d = !cfg->sprt                  ? "-"
                    : m->sprt == SPRT_ACCEPT_H1 ? "H1"
                    : m->sprt == SPRT_ACCEPT_H0 ? "H0"
                                                : "none";
    return loop_log_add(eval_log, "%" PRId64 ",%.1f,%s,%d,%.4f,%.1f,%.1f,%.1f,%s,%.3f\n", gen,
                        seconds, name, m->games, m->score, score_to_elo(m->score), score_to_elo(lo),
                        score_to_elo(hi), d, sprt_llr(&m->test));
}

int loop_evaluate(const game_t *g, const char *dir, const loop_eval_cfg_t *cfg, int64_t gen,
                  int64_t prev, double seconds, uint64_t seed, loop_log_t *games_log,
                  loop_log_t *eval_log, FILE *progress, loop_eval_out_t *out)
{
    char me[GAME_SPEC_MAX], opp[GAME_SPEC_MAX], name[64];
    out->score_prev = out->score_base = -1;
    out->elo = out->elo_lo = out->elo_hi = 0;
    /* the same openings at every evaluation (from the run's seed alone), so that the points
     * of the Elo curve differ by the nets only */
    opening_list_t ol = {0, NULL};
    int status = openings_from_source(g, cfg->openings, cfg->games / 2, cfg->seed, &ol);
    if (status) status = hoyle_error_prefix(HOYLE_EINVAL, "eval.openings");
    if (!status) status = az_spec(cfg, dir, gen, me, sizeof me);
    /* the opponents: the baseline, the anchors, the previous net; a net met twice (net:0
     * and the previous net 0) is played once */
    int64_t nets_done[LOOP_EVAL_MAX_ANCHORS + 1];
    int n_nets = 0;
    for (int k = -1; k <= cfg->num_anchors && !status; k++) {
        int64_t net = k < 0                  ? -1
                      : k < cfg->num_anchors ? loop_eval_anchor_net(cfg->anchors[k])
                                             : prev;
        if (k < 0 && cfg->baseline[0] == '\0') continue;
        if (k == cfg->num_anchors && (!cfg->previous || prev < 0)) continue;
        bool is_net = k >= 0 && (k == cfg->num_anchors || net >= 0);
        if (is_net) {
            bool seen = net >= gen; /* not there yet, or the net itself */
            for (int j = 0; j < n_nets && !seen; j++) seen = nets_done[j] == net;
            if (seen) continue;
            nets_done[n_nets++] = net;
            status = az_spec(cfg, dir, net, opp, sizeof opp);
            snprintf(name, sizeof name, "net%" PRId64, net);
        } else {
            snprintf(opp, sizeof opp, "%s", k < 0 ? cfg->baseline : cfg->anchors[k]);
            if (k < 0)
                snprintf(name, sizeof name, "baseline");
            else
                snprintf(name, sizeof name, "anchor%d", k + 1);
        }
        match_t m;
        uint64_t ms = rng_mix(seed ^ rng_mix(0xe7a1ULL + (uint64_t)(k + 1)));
        if (!status)
            status = play_match(g, cfg, &ol, me, opp, name, gen, ms, games_log, progress, &m);
        if (!status) status = log_match(eval_log, cfg, gen, seconds, name, &m);
        if (!status && k < 0) out->score_base = m.score;
        if (!status && is_net && net == prev && cfg->previous) out->score_prev = m.score;
    }
    opening_list_done(&ol);
    if (!status) status = loop_log_save(games_log);
    if (!status) status = loop_log_save(eval_log);
    if (!status) status = refit(g, dir, games_log, eval_log, gen, out);
    return status;
}
