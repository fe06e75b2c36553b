/* loop_eval.c — periodic evaluation in the training loop: the new net
 * against the previous evaluated net and against a fixed baseline agent
 * (eval/tournament.h plays the games), Elo over every evaluation game so far
 * (eval/elo.h, BayesElo model, net 0 anchored at 0), and the logs: elo.csv,
 * elo.h5 (HDF5, atomic) and elo.svg (a self-contained plot of Elo against
 * wall time). */
#include <hdf5.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/progress.h"
#include "core/rng.h"
#include "eval/elo.h"
#include "eval/tournament.h"
#include "train/loop_internal.h"

/* Players in one Elo fit: every evaluated net plus the baseline; a run of more evaluated
 * generations reports HOYLE_EFULL rather than dropping games. */
#define MAX_PLAYERS 4096

/* cfg->games games of `me` against `opp`, seats alternating, each game's seed derived from
 * `seed` and its index; one row per game in games_log; *score = me's mean score in [0, 1]. */
static int play_match(const game_t *g, const loop_eval_cfg_t *cfg, const char *me, const char *opp,
                      const char *opp_name, int64_t gen, uint64_t seed, loop_log_t *games_log,
                      FILE *progress, double *score)
{
    progress_t pg;
    char label[96], extra[32];
    snprintf(label, sizeof label, "[eval] net %" PRId64 " vs %s", gen, opp_name);
    progress_start(&pg, progress, label, "games", 0);
    progress_defer(&pg); /* the generation's summary line has the score */
    double total = 0;
    int w = 0, d = 0, l = 0, status = HOYLE_OK;
    for (int i = 0; i < cfg->games && !status; i++) {
        int my_seat = i % 2;
        const char *seats[2] = {my_seat == 0 ? me : opp, my_seat == 0 ? opp : me};
        tour_game_result_t r;
        status = tournament_play(g, seats, NULL, rng_mix(seed + (uint64_t)i), cfg->max_moves, &r);
        if (status) break;
        if (r.end == RECORD_END_ERROR) {
            status = hoyle_error(HOYLE_EINVAL, "eval: %s", r.error);
            tour_game_result_done(&r);
            break;
        }
        double s = (r.returns[my_seat] + 1.0) / 2.0; /* returns in [-1, 1] -> score in [0, 1] */
        tour_game_result_done(&r);
        total += s;
        w += s > 0.75;
        d += s > 0.25 && s < 0.75;
        l += s < 0.25;
        status = loop_log_add(games_log, "%" PRId64 ",%s,%d,%.1f\n", gen, opp_name, my_seat, s);
        snprintf(extra, sizeof extra, "score %.2f", total / (i + 1));
        if (!status) progress_update(&pg, i + 1, cfg->games, extra, 0);
    }
    progress_clear(&pg);
    if (status) return status;
    *score = total / cfg->games;
    (void)w, (void)d, (void)l;
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
 * 95% interval as a band. */
static int write_svg(const char *path, const game_t *g, const point_t *pts, int n)
{
    const double W = 640, H = 400, L = 60, R = 20, T = 40, B = 50;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    for (int i = 0; i < n; i++) {
        x1 = fmax(x1, pts[i].seconds / 60.0);
        y0 = fmin(y0, pts[i].lo);
        y1 = fmax(y1, pts[i].hi);
    }
    /* round the Elo range out to multiples of 50 with a margin, for readable tick labels */
    y0 = floor(y0 / 50) * 50 - 50;
    y1 = ceil(y1 / 50) * 50 + 50;
    size_t cap = 4096 + (size_t)n * 200; /* fixed parts + about 200 bytes per point */
    char *s = malloc(cap);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "svg: out of memory");
    size_t u = 0;
#define PUT(...) u += (size_t)snprintf(s + u, cap - u, __VA_ARGS__)
#define X(v)     (L + ((v)-x0) / (x1 - x0) * (W - L - R))
#define Y(v)     (H - B - ((v)-y0) / (y1 - y0) * (H - T - B))
    PUT("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
        "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
        "fill=\"white\"/>\n",
        W, H);
    PUT("<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">Elo vs time, %s "
        "(net 0 = 0)</text>\n",
        W / 2, g->spec);
    PUT("<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, H - B,
        W - R, H - B);
    PUT("<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T, L,
        H - B);
    for (int k = 0; k <= 4; k++) {
        double xv = x0 + (x1 - x0) * k / 4, yv = y0 + (y1 - y0) * k / 4;
        PUT("<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.1f</text>\n", X(xv), H - B + 16,
            xv);
        PUT("<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", L - 4, Y(yv) + 4, yv);
        PUT("<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, Y(yv),
            W - R, Y(yv));
    }
    PUT("<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">wall time (minutes)</text>\n", W / 2,
        H - 12);
    PUT("<text x=\"14\" y=\"%.0f\" transform=\"rotate(-90 14 %.0f)\" text-anchor=\"middle\">Elo"
        "</text>\n",
        H / 2, H / 2);
    if (n > 0) {
        PUT("<polygon fill=\"#cde\" stroke=\"none\" points=\"");
        for (int i = 0; i < n; i++) PUT("%.1f,%.1f ", X(pts[i].seconds / 60), Y(pts[i].hi));
        for (int i = n - 1; i >= 0; i--) PUT("%.1f,%.1f ", X(pts[i].seconds / 60), Y(pts[i].lo));
        PUT("\"/>\n<polyline fill=\"none\" stroke=\"#236\" stroke-width=\"2\" points=\"");
        for (int i = 0; i < n; i++) PUT("%.1f,%.1f ", X(pts[i].seconds / 60), Y(pts[i].elo));
        PUT("\"/>\n");
        for (int i = 0; i < n; i++)
            PUT("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#236\"><title>net %" PRId64
                ": %.0f</title></circle>\n",
                X(pts[i].seconds / 60), Y(pts[i].elo), pts[i].gen, pts[i].elo);
    }
    PUT("</svg>\n");
#undef PUT
#undef X
#undef Y
    int status =
        u < cap ? loop_write_atomic(path, s, u) : hoyle_error(HOYLE_EFULL, "svg: buffer too small");
    free(s);
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

int loop_evaluate(const game_t *g, const char *dir, const loop_eval_cfg_t *cfg, int64_t gen,
                  int64_t prev, double seconds, uint64_t seed, loop_log_t *games_log,
                  loop_log_t *eval_log, FILE *progress, loop_eval_out_t *out)
{
    char me[GAME_SPEC_MAX], opp[GAME_SPEC_MAX], name[64];
    /* a little temperature in the first moves, so that repeated games differ */
    const char *az = "az(model=%s/net-%06" PRId64 ".pt,sims=%d,temp=1,temp_moves=2)";
    snprintf(me, sizeof me, az, dir, gen, cfg->sims);
    out->score_prev = out->score_base = -1;
    out->elo = out->elo_lo = out->elo_hi = 0;
    int status = HOYLE_OK;
    if (prev >= 0) {
        snprintf(opp, sizeof opp, az, dir, prev, cfg->sims);
        snprintf(name, sizeof name, "net%" PRId64, prev);
        status = play_match(g, cfg, me, opp, name, gen, rng_mix(seed ^ 0x9e37), games_log, progress,
                            &out->score_prev);
        if (!status)
            status = loop_log_add(eval_log, "%" PRId64 ",%.1f,%s,%d,%.4f\n", gen, seconds, name,
                                  cfg->games, out->score_prev);
    }
    if (!status)
        status = play_match(g, cfg, me, cfg->baseline, "baseline", gen, rng_mix(seed ^ 0xba5e),
                            games_log, progress, &out->score_base);
    if (!status)
        status = loop_log_add(eval_log, "%" PRId64 ",%.1f,baseline,%d,%.4f\n", gen, seconds,
                              cfg->games, out->score_base);
    if (!status) status = loop_log_save(games_log);
    if (!status) status = loop_log_save(eval_log);
    if (!status) status = refit(g, dir, games_log, eval_log, gen, out);
    return status;
}
