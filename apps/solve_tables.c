/* solve_tables.c — `hoyle solve GAME --tables DIR --position P`: a
 * position's exact value from endgame tables (solve/retro.h): the value for
 * the side to move, the distance in plies (to the end, or with --metric dtc
 * to conversion), and every move with its value, the best first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "core/error.h"
#include "games/registry.h"
#include "solve/retro.h"

#define MAX_MOVES 512

static const char help[] =
    "usage: hoyle solve GAME --tables DIR --position P [--metric dtm|dtc] [--line] [--json]\n\n"
    "The exact value of position P (default: the game's start) from the endgame\n"
    "tables in DIR (hoyle tablebase): win, draw or loss for the side to move, the\n"
    "distance to the end in plies (chess: to mate; a mate in N moves is 2N-1\n"
    "plies), and every legal move with its value for the mover, best first (the\n"
    "best moves are those that keep the value at the shortest win or longest\n"
    "loss). Exit 2 when P is outside the tables.\n"
    "--line: also a perfect line from P to the end of the game: each ply the\n"
    "mover's best move (the first of equal ones by its text), ready for --moves.\n"
    "--moves \"M1;M2;...\": replay a line from P against the tables instead: per\n"
    "move the position's value, the move's value for the mover and a verdict:\n"
    "best (keeps the value at the best distance), keeps (the value, not the\n"
    "distance) or ERROR (loses value: a win given up, a draw lost).\n"
    "--metric dtc: distances to conversion from DIR/CLASS.dtc (hoyle tablebase\n"
    "--metric dtc): plies to the first capture or promotion (a move into a\n"
    "smaller class, counted one ply with that class's value from its .tb) or the\n"
    "end; best moves by that distance; --line stops at the conversion.\n";

typedef struct move_val {
    char text[64];
    retro_code_t code;
} move_val_t;

typedef struct collect {
    const game_t *g;
    retro_tables_t *t;
    const void *before;
    move_val_t *moves;
    int n, status;
} collect_t;

static int collect(const int *actions, int n, const void *after, void *ctx)
{
    collect_t *c = ctx;
    if (c->n == MAX_MOVES) return 0;
    move_val_t *m = &c->moves[c->n];
    if (game_move_to_string(c->g, c->before, actions, n, m->text, sizeof m->text) < 0)
        snprintf(m->text, sizeof m->text, "?");
    int rc = retro_probe_move(c->t, c->before, after, &m->code);
    if (rc < 0) return c->status = rc;
    c->n++;
    return 0;
}

static int by_value(const void *a, const void *b)
{
    const move_val_t *x = a, *y = b;
    int c = retro_code_cmp(y->code, x->code);
    return c ? c : strcmp(x->text, y->text);
}

static void print(const game_t *g, const char *pos, retro_code_t v, const move_val_t *m, int n,
                  const char *line, retro_metric_t metric, bool json)
{
    char text[64];
    retro_code_text(v, text, sizeof text);
    const char *to = metric == RETRO_DTC && retro_sign(v) ? " to conversion" : "";
    if (json) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", g->spec);
        json_str(&j, "position", pos);
        json_str(&j, "value", retro_is_win(v) ? "win" : retro_is_loss(v) ? "loss" : "draw");
        json_int(&j, "plies", retro_dist(v));
        json_str(&j, "metric", retro_metric_name(metric));
        json_open(&j, "best", '[');
        for (int i = 0; i < n && retro_code_cmp(m[i].code, v) == 0; i++)
            json_str(&j, NULL, m[i].text);
        json_close(&j);
        json_open(&j, "moves", '[');
        for (int i = 0; i < n; i++) {
            json_open(&j, NULL, '{');
            json_str(&j, "move", m[i].text);
            json_str(&j, "value",
                     retro_is_win(m[i].code)    ? "win"
                     : retro_is_loss(m[i].code) ? "loss"
                                                : "draw");
            json_int(&j, "plies", retro_dist(m[i].code));
            json_close(&j);
        }
        json_close(&j);
        if (line) json_str(&j, "line", line);
        json_end(&j);
        return;
    }
    printf("%s\n%s: %s%s for the side to move\nbest:", pos, g->spec, text, to);
    for (int i = 0; i < n && retro_code_cmp(m[i].code, v) == 0; i++) printf(" %s", m[i].text);
    printf("\nmoves (value for the mover):\n");
    for (int i = 0; i < n; i++) {
        retro_code_text(m[i].code, text, sizeof text);
        printf("  %-10s %s\n", m[i].text, text);
    }
    if (line) printf("line: %s\n", line);
}

/* Replay `line` ("M1;M2;...") from `s`: one row per move. Exit code. */
static int replay(const game_t *g, retro_tables_t *t, void *s, const char *line, bool json)
{
    size_t bytes = (g->state_size + GAME_STATE_ALIGN - 1) / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
    void *before = aligned_alloc(GAME_STATE_ALIGN, bytes);
    char *copy = strdup(line), *save = NULL;
    if (before == NULL || copy == NULL) {
        free(before), free(copy);
        hoyle_error(HOYLE_ENOMEM, "out of memory");
        return cli_fail("solve", EXIT_FAILED);
    }
    json_t j;
    if (json) json_begin(&j, stdout), json_str(&j, "game", g->spec), json_open(&j, "moves", '[');
    int rc = EXIT_OK, ply = 0, errors = 0;
    for (char *m = strtok_r(copy, ";", &save); m && rc == EXIT_OK; m = strtok_r(NULL, ";", &save)) {
        while (*m == ' ') m++;
        retro_code_t v, got;
        memcpy(before, s, g->state_size);
        if (game_is_terminal(g, s)) {
            rc = cli_usage_error("solve", "--moves: '%s' after the game ended", m);
            break;
        }
        if (retro_probe(t, s, &v) < 0 || game_apply_move_string(g, s, m) < 0 ||
            retro_probe_move(t, before, s, &got) < 0) {
            hoyle_error_prefix(HOYLE_EINVAL, "--moves: '%s'", m);
            rc = cli_fail("solve", EXIT_USAGE);
            break;
        }
        const char *verdict = retro_code_cmp(got, v) == 0        ? "best"
                              : retro_sign(got) == retro_sign(v) ? "keeps"
                                                                 : "ERROR";
        errors += verdict[0] == 'E';
        char tv[32], tg[32];
        retro_code_text(v, tv, sizeof tv);
        retro_code_text(got, tg, sizeof tg);
        if (json) {
            json_open(&j, NULL, '{');
            json_str(&j, "move", m);
            json_str(&j, "position", tv);
            json_str(&j, "played", tg);
            json_str(&j, "verdict", verdict);
            json_close(&j);
        } else {
            printf("%3d  %-10s %-18s -> %-18s %s\n", ++ply, m, tv, tg, verdict);
        }
    }
    if (json)
        json_close(&j), json_int(&j, "errors", errors), json_end(&j);
    else if (rc == EXIT_OK)
        printf("%d moves, %d losing value\n", ply, errors);
    free(copy);
    free(before);
    return rc;
}

/* Whether `x` has left class `from` (DTC lines stop there). */
static bool converted(const game_t *g, const void *x, const char *from)
{
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    return retro_index_locate(retro_index_find(g), g, x, name, &idx) < 0 || strcmp(name, from) != 0;
}

/* A perfect line from `s` (left unchanged) to the end (DTC: to the
 * conversion): each ply the first best move of the sorted list, written
 * "M1;M2;..." into buf. 0, or a negative status with the message set. */
static int perfect_line(const game_t *g, retro_tables_t *t, retro_metric_t metric, const void *s,
                        move_val_t *moves, char *buf, size_t cap)
{
    char from[RETRO_CLASS_MAX];
    uint64_t idx;
    if (metric == RETRO_DTC && retro_index_locate(retro_index_find(g), g, s, from, &idx) < 0)
        return HOYLE_EINVAL;
    size_t bytes = (g->state_size + GAME_STATE_ALIGN - 1) / GAME_STATE_ALIGN * GAME_STATE_ALIGN;
    void *x = aligned_alloc(GAME_STATE_ALIGN, bytes);
    if (x == NULL) return hoyle_error(HOYLE_ENOMEM, "out of memory");
    memcpy(x, s, g->state_size);
    size_t len = 0;
    int rc = 0;
    buf[0] = '\0';
    for (int ply = 0; ply < RETRO_DIST_MAX && rc == 0 && !game_is_terminal(g, x) &&
                      !(metric == RETRO_DTC && converted(g, x, from));
         ply++) {
        collect_t c = {g, t, x, moves, 0, 0};
        game_whole_moves(g, x, collect, &c);
        if (c.status < 0 || c.n == 0) {
            rc = c.status < 0 ? c.status
                              : hoyle_error(HOYLE_ESTATE, "--line: no move at ply %d", ply);
            break;
        }
        qsort(moves, (size_t)c.n, sizeof *moves, by_value);
        int w = snprintf(buf + len, cap - len, "%s%s", len ? ";" : "", moves[0].text);
        if (w < 0 || (size_t)w >= cap - len) rc = hoyle_error(HOYLE_EFULL, "--line: too long");
        if (rc == 0) len += (size_t)w;
        if (rc == 0 && game_apply_move_string(g, x, moves[0].text) < 0) rc = HOYLE_EINVAL;
    }
    free(x);
    return rc;
}

int solve_tables(int argc, char **argv)
{
    const char *spec = NULL, *dir = NULL, *position = NULL, *line = NULL, *metric_text = NULL;
    bool json = false, want_line = false;
    const cli_opt_t opts[] = {
        CLI_OPT("--tables", &dir, "DIR", "the folder of endgame tables"),
        CLI_OPT_POSITION(&position),
        CLI_OPT("--moves", &line, "\"M1;M2\"", "replay a line against the tables"),
        CLI_OPT_FLAG("--line", &want_line, "also print a perfect line from P to the end"),
        CLI_OPT("--metric", &metric_text, "dtm|dtc", "distance to the end or to conversion",
                .def = "dtm"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("solve", help, opts, "GAME", NULL, &spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (dir == NULL) return cli_usage_error("solve", "--tables DIR is required");
    retro_metric_t metric = RETRO_DTM;
    if (metric_text && retro_metric_parse(metric_text, &metric) < 0)
        return cli_usage_error("solve", "--metric: %s", hoyle_last_error());
    const game_t *g = cli_game("solve", spec);
    if (g == NULL) return EXIT_USAGE;
    void *s = aligned_alloc(GAME_STATE_ALIGN, (g->state_size + GAME_STATE_ALIGN - 1) /
                                                  GAME_STATE_ALIGN * GAME_STATE_ALIGN);
    move_val_t *moves = malloc(sizeof *moves * MAX_MOVES);
    retro_tables_t *t = NULL;
    retro_code_t v = RETRO_DRAW;
    char pos[1024] = "";
    game_init(g, s);
    rc = EXIT_OK;
    if (s == NULL || moves == NULL) rc = EXIT_FAILED, hoyle_error(HOYLE_ENOMEM, "out of memory");
    if (rc == EXIT_OK && position && game_position_from_string(g, position, s) < 0) rc = EXIT_USAGE;
    if (rc == EXIT_OK && retro_tables_open_metric(g, dir, metric, &t) < 0) rc = EXIT_USAGE;
    if (rc == EXIT_OK && line) {
        rc = replay(g, t, s, line, json);
        retro_tables_close(t);
        free(moves);
        free(s);
        game_free(g);
        return rc;
    }
    if (rc == EXIT_OK && retro_probe(t, s, &v) < 0) rc = EXIT_USAGE;
    collect_t c = {g, t, s, moves, 0, 0};
    if (rc == EXIT_OK && (game_whole_moves(g, s, collect, &c), c.status < 0)) rc = EXIT_FAILED;
    static char pv[65536];
    if (rc == EXIT_OK && want_line && perfect_line(g, t, metric, s, moves, pv, sizeof pv) < 0)
        rc = EXIT_FAILED;
    if (rc == EXIT_OK && want_line) /* the line's search reused moves[]: list them again */
        c.n = 0, game_whole_moves(g, s, collect, &c);
    if (rc != EXIT_OK) {
        cli_fail("solve", rc);
    } else {
        qsort(moves, (size_t)c.n, sizeof *moves, by_value);
        game_position_to_string(g, s, pos, sizeof pos);
        print(g, pos, v, moves, c.n, want_line ? pv : NULL, metric, json);
    }
    retro_tables_close(t);
    free(moves);
    free(s);
    game_free(g);
    return rc;
}
