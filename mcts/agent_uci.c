/* agent_uci.c — an external UCI engine as an agent,
 * `uci(cmd=PROGRAM ARGS,option.NAME=VALUE,...,movetime=|depth=|nodes=)`, so
 * that hoyle's agents meet Stockfish (or any UCI engine) in matches and
 * tournaments.
 *
 * One engine process per agent, started at the first act (creating the
 * agent only checks that the program exists), with the handshake uci/uciok,
 * one `setoption name NAME value VALUE` per option.* key, isready/readyok.
 * Each act sends `ucinewgame` first in a new game, then `position startpos
 * moves ...` (or `position fen START moves ...` when the game began
 * elsewhere) built from the actions the agent observed, spelled by the
 * game's action_to_string (UCI long algebraic for chess), then `go`, and
 * reads `bestmove`, read back with action_from_string.
 *
 * Failures cost the game, never hang the match: an engine that sends no
 * bestmove by the deadline is sent `stop`, then killed; one that dies, or
 * answers a move that is not legal, fails the act with a one-line message
 * (agent_play() forfeits the game). The next act starts a new process.
 *
 * Generic over the game contract (mcts/ because it reads no game's
 * internals): any two-player game without chance whose action text the
 * engine speaks, which in practice means chess (and `hoyle uci --game G`
 * for another game G, which the tests use). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/child.h"
#include "mcts/agent_kind.h"
#include "mcts/uci.h"

#define HANDSHAKE_MS      10000 /* longest wait for uciok / readyok (timeout_ms when set) */
#define STOP_GRACE_MS     1000  /* after `stop`, how long a bestmove may still take */
#define QUIT_GRACE_MS     500   /* how long an engine may take to quit before it is killed */
#define DEFAULT_MOVE_MS   1000  /* movetime when no limit is given */
#define DEPTH_TIMEOUT_MS  60000 /* deadline of a depth or nodes search when timeout_ms=0 */
#define TIMEOUT_MARGIN_MS 2000  /* deadline of a movetime search: 2 * movetime + this */

typedef struct uci_agent {
    child_t *child; /* the engine, or NULL before the first act / after a failure */
    char words[1024];
    char *argv[UCI_MAX_ARGS + 1];
    int movetime_ms, depth, timeout_ms; /* the spec's limits (0 = none) */
    long long nodes;
    agent_limits_t limits; /* agent_set_limits overrides; has_limits = in force */
    bool has_limits;
    bool new_game; /* send ucinewgame before the next position */
    bool tracking; /* start/cur/moves describe the game so far */
    void *start;   /* the first position observed */
    void *cur;     /* start with the observed actions applied */
    void *init;    /* scratch: the game's initial position */
    char *moves;   /* " a b c": the observed actions, as text */
    size_t moves_len, moves_cap;
    char *line; /* scratch for the position command */
} uci_agent_t;

/* Errors of an act are short: agent_play() puts the agent's spec (which
 * names the engine) before them in a forfeit message of limited length. */
static int engine_error(int code, const char *what) { return hoyle_error(code, "uci: %s", what); }

/* Kill the engine (if any); the next act starts a new one. */
static void engine_drop(uci_agent_t *u)
{
    child_close(u->child, "quit\n", QUIT_GRACE_MS);
    u->child = NULL;
}

/* Read lines until one starts with `word` (followed by a blank or the end). */
static int wait_for(uci_agent_t *u, const char *word, long long deadline, char **line)
{
    size_t n = strlen(word);
    for (;;) {
        int rc = child_read_line(u->child, deadline, line);
        if (rc) return rc;
        if (strncmp(*line, word, n) == 0 && ((*line)[n] == '\0' || (*line)[n] == ' ')) return 0;
    }
}

/* Start the engine and run the handshake; on failure the engine is gone. */
static int engine_start(agent_t *a)
{
    uci_agent_t *u = a->impl;
    int rc = child_open("uci", u->argv, NULL, &u->child);
    if (rc) return rc;
    char *line;
    rc = child_send(u->child, "uci\n", 4);
    long long wait = u->timeout_ms > 0 ? u->timeout_ms : HANDSHAKE_MS;
    if (!rc) rc = wait_for(u, "uciok", child_now_ms() + wait, &line);
    for (int i = 0; !rc && i < a->num_options; i++)
        rc = child_printf(u->child, "setoption name %s value %s\n", a->options[i].name,
                          a->options[i].value);
    if (!rc) rc = child_send(u->child, "isready\n", 8);
    if (!rc) rc = wait_for(u, "readyok", child_now_ms() + wait, &line);
    if (rc) {
        char why[HOYLE_ERROR_MAX];
        snprintf(why, sizeof why, "%s", hoyle_last_error());
        engine_drop(u);
        return hoyle_error(rc == HOYLE_ENOMEM ? rc : HOYLE_EIO, "uci: handshake failed (%s)",
                           strncmp(why, "uci: ", 5) ? why : why + 5);
    }
    u->new_game = true;
    return HOYLE_OK;
}

/* Forget the game; the next observed state starts it again. */
static void track_restart(uci_agent_t *u, const game_t *g, const void *s)
{
    memcpy(u->start, s, g->state_size);
    memcpy(u->cur, s, g->state_size);
    u->moves_len = 0;
    u->moves[0] = '\0';
    u->tracking = true;
}

static void uci_observe(agent_t *a, const void *state_before, int action)
{
    uci_agent_t *u = a->impl;
    const game_t *g = a->g;
    if (!u->tracking || memcmp(u->cur, state_before, g->state_size) != 0)
        track_restart(u, g, state_before);
    char text[GAME_MOVE_MAX];
    if (game_action_to_string(g, u->cur, action, text, sizeof text) < 0) {
        u->tracking = false; /* the next act sends the position alone */
        return;
    }
    size_t need = u->moves_len + strlen(text) + 2;
    if (need > u->moves_cap) {
        size_t cap = u->moves_cap * 2 > need ? u->moves_cap * 2 : need;
        char *bigger = realloc(u->moves, cap);
        if (!bigger) {
            u->tracking = false;
            return;
        }
        u->moves = bigger;
        u->moves_cap = cap;
    }
    u->moves_len += (size_t)sprintf(u->moves + u->moves_len, " %s", text);
    game_apply(g, u->cur, action);
}

/* The `position ...` command for `state`, in u->line. */
static int position_command(agent_t *a, const void *state)
{
    uci_agent_t *u = a->impl;
    const game_t *g = a->g;
    if (!u->tracking || memcmp(u->cur, state, g->state_size) != 0) track_restart(u, g, state);
    /* startpos when the game began at the initial position */
    game_init(g, u->init);
    bool startpos = memcmp(u->init, u->start, g->state_size) == 0;
    char fen[GAME_TEXT_MAX] = "";
    if (!startpos && game_position_to_string(g, u->start, fen, sizeof fen) < 0)
        return engine_error(HOYLE_EUNSUP, "the position has no one-line text to send");
    size_t cap = u->moves_len + sizeof fen + 64;
    char *line = realloc(u->line, cap);
    if (!line) return hoyle_error(HOYLE_ENOMEM, "uci: out of memory");
    u->line = line;
    snprintf(line, cap, "position %s%s%s%s\n", startpos ? "startpos" : "fen ", fen,
             u->moves_len ? " moves" : "", u->moves);
    return HOYLE_OK;
}

/* Fill a->info from one `info ...` line (depth, score, nodes). */
static void read_info(agent_t *a, const char *line)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", line);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *arg = NULL;
        if (!strcmp(w, "depth") && (arg = strtok_r(NULL, " ", &save))) a->info.depth = atoi(arg);
        if (!strcmp(w, "nodes") && (arg = strtok_r(NULL, " ", &save)))
            a->info.nodes = strtoull(arg, NULL, 10);
        if (!strcmp(w, "score") && (w = strtok_r(NULL, " ", &save)) &&
            (arg = strtok_r(NULL, " ", &save))) {
            if (!strcmp(w, "cp")) a->info.value = uci_value_from_cp(atof(arg));
            if (!strcmp(w, "mate")) a->info.value = atoi(arg) > 0 ? 1.0 : -1.0;
        }
        if (!strcmp(w, "pv")) break;
    }
}

/* The `go ...` command and the deadline of its bestmove. */
static void go_command(const uci_agent_t *u, char *buf, size_t cap, long long *deadline_ms)
{
    int movetime = u->movetime_ms, depth = u->depth;
    long long nodes = u->nodes;
    bool infinite = false;
    if (u->has_limits) {
        movetime = (int)u->limits.time_ms;
        depth = u->limits.depth;
        nodes = u->limits.nodes;
        infinite = movetime <= 0 && depth <= 0 && nodes <= 0;
    } else if (movetime <= 0 && depth <= 0 && nodes <= 0) {
        movetime = DEFAULT_MOVE_MS;
    }
    size_t used = (size_t)snprintf(buf, cap, "go");
    if (infinite) used += (size_t)snprintf(buf + used, cap - used, " infinite");
    if (depth > 0) used += (size_t)snprintf(buf + used, cap - used, " depth %d", depth);
    if (nodes > 0) used += (size_t)snprintf(buf + used, cap - used, " nodes %lld", nodes);
    if (movetime > 0) used += (size_t)snprintf(buf + used, cap - used, " movetime %d", movetime);
    snprintf(buf + used, cap - used, "\n");
    long long wait = u->timeout_ms > 0                  ? u->timeout_ms
                     : infinite                         ? (long long)1 << 40 /* until stop */
                     : movetime > 0 && !depth && !nodes ? 2LL * movetime + TIMEOUT_MARGIN_MS
                                                        : DEPTH_TIMEOUT_MS;
    *deadline_ms = child_now_ms() + wait;
}

static int uci_act(agent_t *a, const void *state, int *action)
{
    uci_agent_t *u = a->impl;
    const game_t *g = a->g;
    memset(&a->info, 0, sizeof a->info);
    a->info.kind = a->kind->name;
    if (u->child && child_broken(u->child)) engine_drop(u);
    int rc = u->child ? HOYLE_OK : engine_start(a);
    if (rc) return rc;
    if (u->new_game) {
        char *line;
        rc = child_send(u->child, "ucinewgame\nisready\n", 19);
        long long wait = u->timeout_ms > 0 ? u->timeout_ms : HANDSHAKE_MS;
        if (!rc) rc = wait_for(u, "readyok", child_now_ms() + wait, &line);
        if (rc) goto failed;
        u->new_game = false;
    }
    rc = position_command(a, state);
    if (rc) return rc;
    char go[128];
    long long deadline;
    go_command(u, go, sizeof go, &deadline);
    long long t0 = child_now_ms();
    rc = child_send(u->child, u->line, strlen(u->line));
    if (!rc) rc = child_send(u->child, go, strlen(go));
    if (rc) goto failed;
    /* Wait for bestmove, passing a stop request on (checked every 20 ms);
     * past the deadline the engine is killed. */
    const atomic_int *stop = u->has_limits ? u->limits.stop : NULL;
    bool stop_sent = false;
    char *line = NULL;
    for (;;) {
        long long until = deadline;
        if (stop && !stop_sent && child_now_ms() + 20 < until) until = child_now_ms() + 20;
        int got = child_poll_line(u->child, until, &line);
        if (got < 0) {
            rc = got;
            goto failed;
        }
        if (got == 1) {
            if (!strncmp(line, "bestmove", 8) && (line[8] == ' ' || line[8] == '\0')) break;
            if (!strncmp(line, "info ", 5)) read_info(a, line);
            continue;
        }
        if (stop && !stop_sent && atomic_load_explicit(stop, memory_order_relaxed)) {
            if ((rc = child_send(u->child, "stop\n", 5))) goto failed;
            stop_sent = true;
            deadline = child_now_ms() + STOP_GRACE_MS;
            continue;
        }
        if (child_now_ms() >= deadline) {
            long long waited = child_now_ms() - t0;
            engine_drop(u);
            char why[160];
            snprintf(why, sizeof why, "no bestmove within %lld ms%s, engine killed", waited,
                     stop_sent ? " and stop" : "");
            return engine_error(HOYLE_EIO, why);
        }
    }
    a->info.seconds = (double)(child_now_ms() - t0) / 1000.0;
    char move[GAME_MOVE_MAX];
    if (sscanf(line + 8, " %63s", move) != 1) {
        engine_drop(u);
        return engine_error(HOYLE_EIO, "'bestmove' without a move");
    }
    if (!strcmp(move, "(none)") || !strcmp(move, "0000"))
        return engine_error(HOYLE_ESTATE, "bestmove (none) in a position with legal moves");
    rc = game_action_from_string(g, state, move, action);
    if (rc) {
        char why[HOYLE_ERROR_MAX];
        snprintf(why, sizeof why, "bestmove '%s' is illegal here (%s)", move, hoyle_last_error());
        return engine_error(HOYLE_EINVAL, why);
    }
    return HOYLE_OK;
failed: /* an I/O failure: the engine is gone or out of step */
    if (rc == HOYLE_ENOMEM) return rc;
    {
        char why[HOYLE_ERROR_MAX];
        const char *e = hoyle_last_error();
        snprintf(why, sizeof why, "%s", strncmp(e, "uci: ", 5) ? e : e + 5);
        engine_drop(u);
        return hoyle_error(HOYLE_EIO, "uci: %s; restarted at the next move", why);
    }
}

static void uci_reset(agent_t *a)
{
    uci_agent_t *u = a->impl;
    u->tracking = false;
    u->new_game = true;
}

/* A new game keeps the process: ucinewgame tells it (the engine is not seeded). */
static int uci_reseed(agent_t *a)
{
    uci_reset(a);
    return HOYLE_OK;
}

static int uci_limits(agent_t *a, const agent_limits_t *l)
{
    uci_agent_t *u = a->impl;
    u->has_limits = l != NULL;
    if (l) u->limits = *l;
    return HOYLE_OK;
}

/* Frees the agent's state and stops its engine (if one runs). */
static void uci_free(uci_agent_t *u)
{
    engine_drop(u);
    free(u->start);
    free(u->cur);
    free(u->init);
    free(u->moves);
    free(u->line);
    free(u);
}

static void uci_destroy(agent_t *a)
{
    if (a->impl) uci_free(a->impl);
    a->impl = NULL;
}

static const agent_vt_t uci_vt = {.act = uci_act,
                                  .observe = uci_observe,
                                  .reset = uci_reset,
                                  .reseed = uci_reseed,
                                  .destroy = uci_destroy,
                                  .limits = uci_limits};

static int uci_create(agent_t *a)
{
    const game_t *g = a->g;
    if (g->num_players != 2 || g->max_chance_outcomes > 0)
        return hoyle_error(HOYLE_EINVAL,
                           "uci: plays two-player games without chance (chess), not %s", g->spec);
    uci_agent_t *u = calloc(1, sizeof *u);
    if (!u) return hoyle_error(HOYLE_ENOMEM, "uci: out of memory");
    int n = uci_split_command(params_str(&a->params, "cmd"), u->words, sizeof u->words, u->argv,
                              UCI_MAX_ARGS + 1);
    if (n < 0) {
        free(u);
        return n;
    }
    if (!child_program_exists(u->argv[0])) {
        int rc = hoyle_error(HOYLE_EINVAL, "uci: '%s' is not an executable program", u->argv[0]);
        free(u);
        return rc;
    }
    u->movetime_ms = (int)params_int(&a->params, "movetime");
    u->depth = (int)params_int(&a->params, "depth");
    u->nodes = params_int(&a->params, "nodes");
    u->timeout_ms = (int)params_int(&a->params, "timeout_ms");
    u->moves_cap = 256;
    u->start = malloc(g->state_size);
    u->cur = malloc(g->state_size);
    u->init = malloc(g->state_size);
    u->moves = malloc(u->moves_cap);
    u->line = malloc(1024);
    if (!u->start || !u->cur || !u->init || !u->moves || !u->line) {
        uci_free(u);
        return hoyle_error(HOYLE_ENOMEM, "uci: out of memory");
    }
    u->moves[0] = '\0';
    u->new_game = true;
    a->impl = u;
    a->vt = &uci_vt;
    return HOYLE_OK;
}

static const param_def_t uci_params[] = {
    {.key = "cmd",
     .type = PARAM_STRING,
     .def = "",
     .help = "the engine's command line (words split at blanks; '...' groups), e.g. stockfish"},
    {.key = "movetime",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e8,
     .help = "go movetime, ms per move (with depth and nodes all 0: 1000)"},
    {.key = "depth",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1000,
     .help = "go depth, plies; 0 = none"},
    {.key = "nodes",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e15,
     .help = "go nodes; 0 = none"},
    {.key = "timeout_ms",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e9,
     .help = "kill an engine with no bestmove after this; 0 = 2*movetime+2000, or 60000"},
    {.key = NULL},
};

const agent_kind_t agent_uci_kind = {
    .name = "uci",
    .description = "an external UCI engine (Stockfish, or `hoyle uci`); option.NAME=VALUE sets "
                   "its options",
    .params = uci_params,
    .caps = AGENT_CAP_TWO_PLAYER,
    .create = uci_create,
    .option_prefix = "option.",
};
