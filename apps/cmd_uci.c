/* cmd_uci.c — `hoyle uci --agent SPEC`: any hoyle agent as a UCI engine on
 * stdin/stdout, for chess GUIs and for other engines' match runners (and for
 * hoyle's own uci agent, mcts/agent_uci.c).
 *
 * The main thread reads commands; `go` starts the search on a second thread
 * so that `isready` and `stop` are answered while it runs. The search
 * thread prints one `info` line (depth, score cp|mate, nodes, nps, time, pv)
 * and `bestmove`. Output lines are written whole under a lock.
 * Invariant: the position, its history and the agent are touched by the
 * main thread only while no search runs (a command that changes them while
 * one runs stops it first). Bad commands get an `info string` and change
 * nothing (UCI's convention: never a crash, never an exit). */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "apps/cli.h"
#include "core/clock.h"
#include "mcts/agent.h"
#include "mcts/uci.h"

static const char help[] =
    "usage: hoyle uci [--agent SPEC] [--game GAME] [--seed S]\n\n"
    "Serve agent SPEC (default alphabeta(time_ms=1000)) as a UCI engine on\n"
    "stdin/stdout: uci, isready, ucinewgame, setoption name Agent value SPEC,\n"
    "position startpos|fen FEN [moves ...], go [wtime btime winc binc\n"
    "movestogo movetime depth nodes infinite], stop, quit. Moves are the\n"
    "game's action text (UCI long algebraic for chess). The time manager\n"
    "spends remaining/movestogo (30 when not given) + 0.8 * increment.\n"
    "GAME (default chess) may be any game whose moves the GUI speaks.\n";

typedef struct server {
    const game_t *g;
    agent_t *a;
    uint64_t seed;
    void *start;      /* the position's first state (startpos or the FEN) */
    void *pos;        /* start with hist[] applied: what `go` searches */
    void *scratch;    /* replay buffer for position commands and the PV */
    int *hist, nhist; /* the moves of the last position command */
    int cap;          /* entries of hist */
    bool synced;      /* the agent has observed start + hist since its last reset */
    pthread_t thread; /* the search, while searching */
    bool searching;   /* thread started and not yet joined */
    bool infinite;    /* hold bestmove until stop */
    atomic_int stop;  /* set by stop / quit / an interrupting command */
    atomic_int done;  /* the search thread has printed its bestmove */
    agent_limits_t limits;
    bool has_limits;
    pthread_mutex_t out; /* one writer at a time on stdout */
} server_t;

static void say(server_t *sv, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void say(server_t *sv, const char *fmt, ...)
{
    pthread_mutex_lock(&sv->out);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
    pthread_mutex_unlock(&sv->out);
}

static double now_ms(void) { return 1e3 * clock_seconds(); }

/* ---- the search thread ---- */

/* "score cp X" or "score mate N" for the mover, from the agent's value. */
static void score_text(const game_t *g, const void *s, const agent_info_t *info, char *buf,
                       size_t cap, void *t)
{
    double v = info->value;
    /* Exact only when proven: alpha-beta's +-1 is a result it searched to
     * (its evaluations stay inside), an unproven MCTS mean of +-1 is not. */
    bool exact = info->proven || (info->visits == NULL && (v <= -1.0 + 1e-9 || v >= 1.0 - 1e-9));
    if (!exact) {
        snprintf(buf, cap, "cp %d", uci_cp_from_value(v));
        return;
    }
    /* A proven result: mate in the plies of the PV when it ends the game. */
    int plies = info->pv_len > 0 ? info->pv_len : 1;
    memcpy(t, s, g->state_size);
    for (int i = 0; i < info->pv_len && !game_is_terminal(g, t); i++) {
        if (!game_is_legal(g, t, info->pv[i])) break;
        game_apply(g, t, info->pv[i]);
    }
    int moves = (plies + 1) / 2;
    snprintf(buf, cap, "mate %d", v > 0 ? moves : -moves);
}

/* The PV in the game's notation, cut at the first action not legal there. */
static void pv_text(const game_t *g, const void *s, const agent_info_t *info, char *buf, size_t cap,
                    void *t)
{
    size_t used = 0;
    buf[0] = '\0';
    memcpy(t, s, g->state_size);
    for (int i = 0; i < info->pv_len && !game_is_terminal(g, t); i++) {
        char move[GAME_MOVE_MAX];
        if (!game_is_legal(g, t, info->pv[i]) ||
            game_action_to_string(g, t, info->pv[i], move, sizeof move) < 0)
            break;
        int k = snprintf(buf + used, cap - used, " %s", move);
        if (k < 0 || (size_t)k >= cap - used) break;
        used += (size_t)k;
        game_apply(g, t, info->pv[i]);
    }
}

/* One "info depth ... score ... nodes ... nps ... time ... pv ..." line; `t` is scratch. */
static void say_info(server_t *sv, const agent_info_t *info, double ms, void *t)
{
    char score[64], pv[2048];
    score_text(sv->g, sv->pos, info, score, sizeof score, t);
    pv_text(sv->g, sv->pos, info, pv, sizeof pv, t);
    unsigned long long nodes =
        info->sims > 0 ? (unsigned long long)info->sims : (unsigned long long)info->nodes;
    int depth = info->depth > 0 ? info->depth : info->pv_len > 0 ? info->pv_len : 1;
    unsigned long long nps = ms > 0 ? (unsigned long long)(nodes * 1000.0 / ms) : 0;
    say(sv, "info depth %d score %s nodes %llu nps %llu time %.0f%s%s", depth, score, nodes, nps,
        ms, pv[0] ? " pv" : "", pv);
}

/* What a deepening search reports after each iteration (agent_on_iteration). */
typedef struct iteration_ctx {
    server_t *sv;
    void *scratch; /* for the PV; NULL when it could not be allocated */
} iteration_ctx_t;

static void on_iteration(void *ctx, const agent_info_t *info)
{
    iteration_ctx_t *it = ctx;
    if (it->scratch == NULL) return;
    say_info(it->sv, info, 1e3 * info->seconds, it->scratch);
}

static void *search_main(void *arg)
{
    server_t *sv = arg;
    const game_t *g = sv->g;
    char move[GAME_MOVE_MAX] = "(none)";
    void *t = malloc(g->state_size);
    if (game_current_player(g, sv->pos) < 0) {
        say(sv, "info string the position has no move to search (game over)");
    } else {
        int status = agent_set_limits(sv->a, sv->has_limits ? &sv->limits : NULL);
        if (status && status != HOYLE_EUNSUP) say(sv, "info string limits: %s", hoyle_last_error());
        iteration_ctx_t it = {sv, t};
        agent_on_iteration(sv->a, on_iteration, &it);
        double t0 = now_ms();
        int action = -1;
        status = agent_act(sv->a, sv->pos, &action);
        double ms = now_ms() - t0;
        agent_on_iteration(sv->a, NULL, NULL);
        if (status || !game_is_legal(g, sv->pos, action)) {
            int legal[1024];
            int n = g->max_legal <= 1024 ? game_legal_actions(g, sv->pos, legal) : 0;
            say(sv, "info string search failed (%s); playing the first legal move",
                status ? hoyle_last_error() : "illegal action");
            action = n > 0 ? legal[0] : -1;
        } else if (t) {
            /* the search's summary (a deepening search said each iteration already; this
             * line's nodes and time are the whole act's) */
            say_info(sv, agent_info(sv->a), ms, t);
        }
        if (action >= 0 && game_action_to_string(g, sv->pos, action, move, sizeof move) < 0)
            snprintf(move, sizeof move, "(none)");
    }
    free(t);
    /* go infinite: bestmove only after stop (UCI) */
    while (sv->infinite && !atomic_load(&sv->stop)) {
        struct timespec ts = {0, 2 * 1000000};
        nanosleep(&ts, NULL);
    }
    say(sv, "bestmove %s", move);
    atomic_store(&sv->done, 1);
    return NULL;
}

/* Ends a running search (stop, then wait for its bestmove). */
static void finish_search(server_t *sv, bool stop)
{
    if (!sv->searching) return;
    if (stop) atomic_store(&sv->stop, 1);
    pthread_join(sv->thread, NULL);
    sv->searching = false;
}

/* ---- commands ---- */

/* Words of a command line, split at blanks (modified in place). */
#define MAX_WORDS 4096
typedef struct words {
    char *w[MAX_WORDS];
    int n;
} words_t;

static void split(char *line, words_t *out)
{
    out->n = 0;
    char *save = NULL;
    for (char *w = strtok_r(line, " \t\r\n", &save); w && out->n < MAX_WORDS;
         w = strtok_r(NULL, " \t\r\n", &save))
        out->w[out->n++] = w;
}

/* Brings the agent to sv->pos: only the new moves when the position extends
 * the one it has seen, else a reset and the whole history. */
static void sync_agent(server_t *sv, const void *start, const int *hist, int n)
{
    const game_t *g = sv->g;
    bool extends = sv->synced && memcmp(start, sv->start, g->state_size) == 0 && n >= sv->nhist &&
                   memcmp(hist, sv->hist, sizeof *hist * (size_t)sv->nhist) == 0;
    int from = extends ? sv->nhist : 0;
    if (!extends) {
        agent_reset(sv->a);
        memcpy(sv->pos, start, g->state_size);
    }
    for (int i = from; i < n; i++) {
        agent_observe(sv->a, sv->pos, hist[i]);
        game_apply(g, sv->pos, hist[i]);
    }
    memcpy(sv->start, start, g->state_size);
    memcpy(sv->hist, hist, sizeof *hist * (size_t)n);
    sv->nhist = n;
    sv->synced = true;
}

/* position startpos|fen TEXT... [moves m1 m2 ...]: all or nothing. */
static void cmd_position(server_t *sv, words_t *w, int at)
{
    const game_t *g = sv->g;
    int i = at + 1, moves_at = w->n;
    for (int k = i; k < w->n; k++)
        if (!strcmp(w->w[k], "moves")) {
            moves_at = k;
            break;
        }
    void *start = malloc(g->state_size);
    int *hist = malloc(sizeof *hist * (size_t)sv->cap);
    if (!start || !hist) {
        say(sv, "info string position: out of memory");
        goto done;
    }
    if (i < w->n && !strcmp(w->w[i], "startpos")) {
        game_init(g, start);
    } else if (i < w->n && !strcmp(w->w[i], "fen") && i + 1 < moves_at) {
        char fen[GAME_TEXT_MAX];
        size_t used = 0;
        fen[0] = '\0';
        for (int k = i + 1; k < moves_at && used < sizeof fen; k++)
            used += (size_t)snprintf(fen + used, sizeof fen - used, "%s%s", k > i + 1 ? " " : "",
                                     w->w[k]);
        if (game_position_from_string(g, fen, start)) {
            say(sv, "info string position: %s", hoyle_last_error());
            goto done;
        }
    } else {
        say(sv, "info string position: expected startpos or fen FEN");
        goto done;
    }
    memcpy(sv->scratch, start, g->state_size);
    int n = 0;
    for (int k = moves_at + 1; k < w->n; k++) {
        int action;
        if (n >= sv->cap || game_is_terminal(g, sv->scratch) ||
            game_action_from_string(g, sv->scratch, w->w[k], &action)) {
            say(sv, "info string position: move %d '%s': %s", n + 1, w->w[k],
                n >= sv->cap || game_is_terminal(g, sv->scratch) ? "the game is over"
                                                                 : hoyle_last_error());
            goto done;
        }
        game_apply(g, sv->scratch, action);
        hist[n++] = action;
    }
    sync_agent(sv, start, hist, n);
done:
    free(start);
    free(hist);
}

static bool read_number(words_t *w, int *k, double *out)
{
    if (*k + 1 >= w->n) return false;
    char *end;
    double v = strtod(w->w[*k + 1], &end);
    if (end == w->w[*k + 1] || *end) return false;
    *out = v;
    ++*k;
    return true;
}

/* go [wtime X btime X winc X binc X movestogo N movetime X depth N nodes N infinite] */
static void cmd_go(server_t *sv, words_t *w, int at)
{
    static const char *const keys[] = {"wtime",    "btime", "winc",  "binc", "movestogo",
                                       "movetime", "depth", "nodes", NULL};
    double val[8] = {0};
    bool given[8] = {false}, infinite = false;
    for (int k = at + 1; k < w->n; k++) {
        if (!strcmp(w->w[k], "infinite")) {
            infinite = true;
            continue;
        }
        if (!strcmp(w->w[k], "ponder")) continue;
        int j = 0;
        while (keys[j] && strcmp(keys[j], w->w[k])) j++;
        if (keys[j] == NULL) {
            if (!strcmp(w->w[k], "searchmoves") || !strcmp(w->w[k], "mate"))
                say(sv, "info string go: '%s' is not supported (ignored)", w->w[k]);
            continue;
        }
        if (!read_number(w, &k, &val[j]) || val[j] < 0) {
            say(sv, "info string go: %s needs a non-negative number", keys[j]);
            continue;
        }
        given[j] = true;
    }
    agent_limits_t l = {.stop = &sv->stop};
    bool any = infinite;
    if (given[5]) l.time_ms = val[5], any = true;
    if (given[6]) l.depth = (int)val[6], any = true;
    if (given[7]) l.nodes = (long long)val[7], any = true;
    int side = game_current_player(sv->g, sv->pos) == 1;
    if (!infinite && !given[5] && given[side]) {
        double left = val[side], inc = given[2 + side] ? val[2 + side] : 0;
        double mtg = given[4] && val[4] > 0 ? val[4] : 30;
        double budget = left / mtg + 0.8 * inc;
        double cap = left > 100 ? left - 50 : left / 2; /* never lose on time */
        l.time_ms = budget < cap ? budget : cap;
        if (l.time_ms < 1) l.time_ms = 1;
        any = true;
    }
    sv->limits = l;
    sv->has_limits = any; /* plain `go`: the agent's own limits */
    sv->infinite = infinite;
    atomic_store(&sv->stop, 0);
    atomic_store(&sv->done, 0);
    if (pthread_create(&sv->thread, NULL, search_main, sv) != 0) {
        say(sv, "info string go: cannot start the search thread");
        say(sv, "bestmove (none)");
        return;
    }
    sv->searching = true;
}

/* setoption name Agent value SPEC: all or nothing. */
static void cmd_setoption(server_t *sv, words_t *w, int at)
{
    int name = -1, value = -1;
    for (int k = at + 1; k < w->n; k++) {
        if (!strcmp(w->w[k], "name") && name < 0) name = k + 1;
        if (!strcmp(w->w[k], "value") && value < 0) value = k + 1;
    }
    if (name < 0 || name >= w->n || (value >= 0 && value < name + 2)) {
        say(sv, "info string setoption: expected name NAME [value VALUE]");
        return;
    }
    char option[256];
    size_t len = 0;
    option[0] = '\0';
    for (int k = name; k < (value >= 0 ? value - 1 : w->n) && len < sizeof option; k++)
        len += (size_t)snprintf(option + len, sizeof option - len, "%s%s", k > name ? " " : "",
                                w->w[k]);
    if (strcasecmp(option, "Agent") != 0) {
        say(sv, "info string setoption: unknown option '%s' (known: Agent)", option);
        return;
    }
    if (value < 0 || value >= w->n) {
        say(sv, "info string setoption Agent: needs a value (an agent spec)");
        return;
    }
    char spec[GAME_SPEC_MAX];
    size_t used = 0;
    spec[0] = '\0';
    for (int k = value; k < w->n && used < sizeof spec; k++)
        used += (size_t)snprintf(spec + used, sizeof spec - used, "%s%s", k > value ? " " : "",
                                 w->w[k]);
    agent_t *fresh;
    if (agent_create(sv->g, spec, sv->seed, &fresh)) {
        say(sv, "info string setoption Agent: %s", hoyle_last_error());
        return;
    }
    if (agent_is_human(fresh)) {
        agent_free(fresh);
        say(sv, "info string setoption Agent: a human agent cannot serve UCI");
        return;
    }
    agent_free(sv->a);
    sv->a = fresh;
    sv->synced = false;
    sync_agent(sv, sv->start, sv->hist, sv->nhist);
}

/* The first known command of the line (UCI: unknown leading tokens are
 * skipped) and its index in w, or NULL. */
static const char *const known[] = {"uci",      "isready", "ucinewgame", "setoption",
                                    "position", "go",      "stop",       "ponderhit",
                                    "quit",     "debug",   "register",   NULL};

static int find_command(const words_t *w, int *at)
{
    for (int k = 0; k < w->n; k++)
        for (int j = 0; known[j]; j++)
            if (!strcmp(w->w[k], known[j])) {
                *at = k;
                return j;
            }
    return -1;
}

/* One command line; returns false after quit. */
static bool handle(server_t *sv, char *line)
{
    words_t *w = malloc(sizeof *w);
    if (!w) {
        say(sv, "info string out of memory");
        return true;
    }
    char first[64];
    split(line, w);
    snprintf(first, sizeof first, "%s", w->n ? w->w[0] : "");
    int at = 0, c = w->n ? find_command(w, &at) : -2;
    const char *cmd = c >= 0 ? known[c] : "";
    bool go_on = true;
    /* Commands that change the position or the agent end a running search
     * first (a GUI should have sent stop; this keeps the invariant anyway). */
    bool changes = !strcmp(cmd, "ucinewgame") || !strcmp(cmd, "setoption") ||
                   !strcmp(cmd, "position") || !strcmp(cmd, "go");
    if (changes && sv->searching && !atomic_load(&sv->done))
        say(sv, "info string %s during a search: stopping it first", cmd);
    if (changes) finish_search(sv, true);
    if (c == -1) {
        say(sv, "info string unknown command '%s'", first);
    } else if (!strcmp(cmd, "uci")) {
        say(sv, "id name hoyle %s %s", HOYLE_VERSION, agent_spec(sv->a));
        say(sv, "id author the hoyle authors");
        say(sv, "option name Agent type string default %s", agent_spec(sv->a));
        say(sv, "uciok");
    } else if (!strcmp(cmd, "isready")) {
        say(sv, "readyok");
    } else if (!strcmp(cmd, "ucinewgame")) {
        sv->synced = false; /* sync_agent resets the agent */
        game_init(sv->g, sv->start);
        sync_agent(sv, sv->start, sv->hist, 0);
    } else if (!strcmp(cmd, "setoption")) {
        cmd_setoption(sv, w, at);
    } else if (!strcmp(cmd, "position")) {
        cmd_position(sv, w, at);
    } else if (!strcmp(cmd, "go")) {
        cmd_go(sv, w, at);
    } else if (!strcmp(cmd, "stop")) {
        finish_search(sv, true);
    } else if (!strcmp(cmd, "quit")) {
        finish_search(sv, true);
        go_on = false;
    } /* ponderhit, debug, register: nothing to do (no pondering, no debug output) */
    free(w);
    return go_on;
}

/* Exit codes: 0 after quit or end of input; 2 bad usage, game or agent. */
int cmd_uci(int argc, char **argv)
{
    const char *agent_text = NULL, *game_text = NULL;
    uint64_t seed = 0;
    const cli_opt_t opts[] = {
        CLI_OPT("--agent", &agent_text, "SPEC", "the agent", .def = "alphabeta(time_ms=1000)"),
        CLI_OPT("--game", &game_text, "GAME", "the game", .def = "chess"),
        CLI_OPT("--seed", &seed, "S", "the agent's seed", .def = "1"),
        CLI_OPT_END,
    };
    cli_command_t command = {.name = "uci",
                             .help = help,
                             .opts = opts,
                             .positional = "",
                             .min_pos = 0,
                             .max_pos = 0,
                             .more_help = cli_print_agent_kinds};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    const game_t *g = cli_game("uci", game_text);
    if (g == NULL) return EXIT_USAGE;
    server_t sv = {.g = g, .seed = seed, .cap = agent_game_capacity(g)};
    pthread_mutex_init(&sv.out, NULL);
    int code = EXIT_OK;
    if (agent_create(g, agent_text, seed, &sv.a)) {
        code = cli_fail("uci", EXIT_USAGE);
        goto done;
    }
    if (agent_is_human(sv.a)) {
        code = cli_usage_error("uci", "a human agent cannot serve UCI");
        goto done;
    }
    sv.start = malloc(g->state_size);
    sv.pos = malloc(g->state_size);
    sv.scratch = malloc(g->state_size);
    sv.hist = malloc(sizeof *sv.hist * (size_t)sv.cap);
    if (!sv.start || !sv.pos || !sv.scratch || !sv.hist) {
        code = cli_usage_error("uci", "out of memory");
        goto done;
    }
    game_init(g, sv.start);
    memcpy(sv.pos, sv.start, g->state_size);
    sv.synced = true;         /* a fresh agent has seen the start and nothing else */
    signal(SIGPIPE, SIG_IGN); /* a GUI that went away: writes fail, reading ends */
    char *line = NULL;
    size_t len = 0;
    while (getline(&line, &len, stdin) >= 0)
        if (!handle(&sv, line)) break;
    free(line);
    finish_search(&sv, true);
done:
    agent_free(sv.a);
    free(sv.start);
    free(sv.pos);
    free(sv.scratch);
    free(sv.hist);
    pthread_mutex_destroy(&sv.out);
    game_free(g);
    return code;
}
