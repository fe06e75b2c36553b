/* session.c — the games the page plays: POST /api/games/new, then per game its STATE, moves
 * and chain steps of the human seats, an agent's move (searched outside the table's lock,
 * bounded by --max-think-ms, stopped when the client goes away), undo, export and DELETE.
 *
 * Locks: the server's table lock guards the slots and each game's `refs`
 * (requests using it); a game's own mutex guards its state. An agent's search
 * runs with the game marked `busy` and its mutex released, so GET still
 * answers while anything that would change the game gets 503. */
#include <cjson/cJSON.h>
#include <math.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"
#include "games/playout.h"
#include "mcts/agent_kind.h"
#include "serve/serve_internal.h"

#define PV_MAX 16 /* principal-variation moves kept per agent move */

typedef struct info {
    char kind[SPEC_NAME_MAX];
    double value, seconds;
    long long visits;
    int depth, proven, pv_len;
    uint64_t nodes;
    char pv[PV_MAX][GAME_MOVE_MAX];
} info_t;

typedef struct hist {
    int player;   /* the seat, or PLAYER_CHANCE */
    int first, n; /* its actions: actions[first .. first + n) */
    char move[GAME_MOVE_MAX];
    info_t *info; /* an agent's search, or NULL */
} hist_t;

struct session {
    char id[24];
    const game_t *g;
    agent_t *agents[GAME_MAX_PLAYERS]; /* NULL for a human seat */
    bool human[GAME_MAX_PLAYERS];
    uint64_t seed;
    void *start, *cur, *chain_start, *tmp;
    int *actions, num_actions, cap_actions;
    hist_t *hist;
    int num_hist;
    int chain_first; /* actions[chain_first ..) are the chain in progress */
    info_t *pending; /* the search of the agent move in progress */
    int *scratch;    /* max(max_legal, max_chance_outcomes, GAME_MAX_CHAIN) */
    double *probs;
    pthread_mutex_t mu;
    int refs;              /* requests holding it (the server's lock) */
    bool dead;             /* deleted or dropped: freed when refs reaches 0 */
    bool busy;             /* an agent is searching */
    size_t tree_bytes;     /* its agents' agent_memory_bytes, counted in srv->tree_bytes */
    const char *data_root; /* the server's --data realpath (borrowed), cut out of agent specs */
    time_t used;
    atomic_int stop;
};

/* ---- life cycle ---- */

static void session_free(session_t *s)
{
    if (s == NULL) return;
    for (int p = 0; p < GAME_MAX_PLAYERS; p++) agent_free(s->agents[p]);
    for (int i = 0; s->hist && i < s->num_hist; i++) free(s->hist[i].info);
    free(s->hist);
    free(s->pending);
    free(s->start), free(s->cur), free(s->chain_start), free(s->tmp);
    free(s->actions), free(s->scratch), free(s->probs);
    if (s->g) {
        pthread_mutex_destroy(&s->mu);
        game_free(s->g);
    }
    free(s);
}

static void *state_alloc(const game_t *g) { return calloc(1, g->state_size + GAME_STATE_ALIGN); }

static int session_alloc(const game_t *g, session_t **out)
{
    session_t *s = calloc(1, sizeof *s);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "out of memory");
    int scratch = g->max_legal;
    if (g->max_chance_outcomes > scratch) scratch = g->max_chance_outcomes;
    if (GAME_MAX_CHAIN > scratch) scratch = GAME_MAX_CHAIN;
    s->g = g;
    pthread_mutex_init(&s->mu, NULL);
    atomic_init(&s->stop, 0);
    s->cap_actions = g->max_game_length + 1;
    s->start = state_alloc(g), s->cur = state_alloc(g);
    s->chain_start = state_alloc(g), s->tmp = state_alloc(g);
    s->actions = malloc((size_t)s->cap_actions * sizeof *s->actions);
    s->hist = calloc((size_t)s->cap_actions, sizeof *s->hist);
    s->scratch = malloc((size_t)scratch * sizeof *s->scratch);
    s->probs = malloc((size_t)scratch * sizeof *s->probs);
    if (!s->start || !s->cur || !s->chain_start || !s->tmp || !s->actions || !s->hist ||
        !s->scratch || !s->probs) {
        session_free(s);
        return hoyle_error(HOYLE_ENOMEM, "out of memory");
    }
    *out = s;
    return 0;
}

/* ---- rules ---- */

/* Play `a` (legal in cur): every agent observes it first. */
static int play_action(session_t *s, int a)
{
    if (s->num_actions >= s->cap_actions)
        return hoyle_error(HOYLE_EFULL, "the game is longer than %d actions", s->cap_actions - 1);
    for (int p = 0; p < s->g->num_players; p++)
        if (s->agents[p]) agent_observe(s->agents[p], s->cur, a);
    s->actions[s->num_actions++] = a;
    game_apply(s->g, s->cur, a);
    return 0;
}

static void push_hist(session_t *s, int player, int first, const char *move, info_t *info)
{
    hist_t *h = &s->hist[s->num_hist++];
    h->player = player;
    h->first = first;
    h->n = s->num_actions - first;
    snprintf(h->move, sizeof h->move, "%s", move);
    h->info = info;
}

/* The dice: each chance outcome drawn from the game's seed and its index in
 * the game, so an undone and replayed move meets the same roll. */
static int roll_chance(session_t *s)
{
    while (game_is_chance(s->g, s->cur)) {
        rng_t rng;
        rng_init(&rng, rng_mix(s->seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(s->num_actions + 1))));
        int a = game_chance_sample(s->g, s->cur, &rng, s->scratch, s->probs);
        if (a < 0) return a;
        char text[GAME_MOVE_MAX];
        if (game_action_to_string(s->g, s->cur, a, text, sizeof text) < 0)
            snprintf(text, sizeof text, "%d", a);
        int first = s->num_actions, rc = play_action(s, a);
        if (rc) return rc;
        push_hist(s, PLAYER_CHANCE, first, text, NULL);
    }
    return 0;
}

/* After an action of `mover`: when its whole move is complete (the player to
 * move changed, or a puzzle's one action), record it and roll the dice. */
static int after_action(session_t *s, int mover)
{
    int now = game_current_player(s->g, s->cur);
    if (now == mover && s->g->num_players > 1) return 0; /* a chain goes on */
    char text[GAME_MOVE_MAX];
    int n = s->num_actions - s->chain_first;
    if (game_move_to_string(s->g, s->chain_start, s->actions + s->chain_first, n, text,
                            sizeof text) < 0)
        snprintf(text, sizeof text, "?");
    push_hist(s, mover, s->chain_first, text, s->pending);
    s->pending = NULL;
    int rc = roll_chance(s);
    s->chain_first = s->num_actions;
    memcpy(s->chain_start, s->cur, s->g->state_size);
    return rc;
}

/* One step (an action) of the player to move, checked. */
static int play_step(session_t *s, int a)
{
    int mover = game_current_player(s->g, s->cur);
    if (!game_is_legal(s->g, s->cur, a)) return hoyle_error(HOYLE_EINVAL, "not a legal action");
    int rc = play_action(s, a);
    return rc ? rc : after_action(s, mover);
}

/* Back to the first `n` actions: the state replayed from the start, the
 * agents reset and shown the actions again, later history dropped. */
static int truncate_to(session_t *s, int n)
{
    const game_t *g = s->g;
    while (s->num_hist > 0 && s->hist[s->num_hist - 1].first >= n) {
        free(s->hist[s->num_hist - 1].info);
        s->hist[--s->num_hist].info = NULL;
    }
    free(s->pending);
    s->pending = NULL;
    for (int p = 0; p < g->num_players; p++)
        if (s->agents[p]) agent_reset(s->agents[p]);
    memcpy(s->cur, s->start, g->state_size);
    int kept = s->num_actions < n ? s->num_actions : n;
    s->num_actions = 0;
    for (int i = 0; i < kept; i++) {
        int rc = play_action(s, s->actions[i]);
        if (rc) return rc;
    }
    s->chain_first = s->num_actions;
    memcpy(s->chain_start, s->cur, g->state_size);
    return 0;
}

/* ---- the STATE object ---- */

typedef struct legal_ctx {
    session_t *s;
    json_t *j;
    int chain; /* a chain is in progress: collect the distinct first steps */
    char (*firsts)[GAME_MOVE_MAX];
    int num_firsts, cap_firsts;
    void *step;
} legal_ctx_t;

static int visit_legal(const int *actions, int n, const void *after, void *arg)
{
    (void)after;
    legal_ctx_t *c = arg;
    const game_t *g = c->s->g;
    char text[GAME_MOVE_MAX];
    if (game_move_to_string(g, c->s->cur, actions, n, text, sizeof text) < 0) return 0;
    json_open(c->j, NULL, '{');
    json_str(c->j, "move", text);
    json_open(c->j, "steps", '[');
    memcpy(c->step, c->s->cur, g->state_size);
    for (int i = 0; i < n; i++) {
        if (game_action_to_string(g, c->step, actions[i], text, sizeof text) < 0) text[0] = '\0';
        json_str(c->j, NULL, text);
        if (i == 0 && c->chain) {
            int seen = 0;
            for (int k = 0; k < c->num_firsts && !seen; k++) seen = !strcmp(c->firsts[k], text);
            if (!seen && c->num_firsts < c->cap_firsts) strcpy(c->firsts[c->num_firsts++], text);
        }
        game_apply(g, c->step, actions[i]);
    }
    json_close(c->j);
    json_close(c->j);
    return 0;
}

static void write_info(json_t *j, const char *key, const info_t *in)
{
    if (in == NULL) { /* the writer spells a non-finite number as null */
        json_num(j, key, "%g", NAN);
        return;
    }
    json_open(j, key, '{');
    json_str(j, "kind", in->kind);
    json_num(j, "value", "%.4f", in->value);
    json_open(j, "pv", '[');
    for (int i = 0; i < in->pv_len; i++) json_str(j, NULL, in->pv[i]);
    json_close(j);
    json_int(j, "visits", in->visits);
    json_int(j, "depth", in->depth);
    json_u64(j, "nodes", in->nodes);
    json_num(j, "seconds", "%.3f", in->seconds);
    json_bool(j, "proven", in->proven != 0);
    json_close(j);
}

/* Agent p's spec as the client may see it: a `model` file inside --data was
 * rewritten to its real path (catalog_check_agent), which is the server's
 * business, so "ROOT/" is cut out again (issue 36, item 8). */
static void seat_spec(const session_t *s, int p, char *out, size_t cap)
{
    const char *spec = s->agents[p] ? agent_spec(s->agents[p]) : "human";
    size_t rl = s->data_root ? strlen(s->data_root) : 0, n = 0;
    for (const char *c = spec; *c && n + 1 < cap;) {
        if (rl > 1 && strncmp(c, s->data_root, rl) == 0 && c[rl] == '/') {
            c += rl + 1;
            continue;
        }
        out[n++] = *c++;
    }
    out[n] = '\0';
}

static void write_state(session_t *s, json_t *j)
{
    const game_t *g = s->g;
    static const char none[] = "";
    char *text = malloc(GAME_TEXT_MAX);
    json_str(j, "id", s->id);
    json_str(j, "game", g->spec);
    json_open(j, "agents", '[');
    for (int p = 0; p < g->num_players; p++) {
        char spec[GAME_SPEC_MAX];
        seat_spec(s, p, spec, sizeof spec);
        json_str(j, NULL, spec);
    }
    json_close(j);
    if (text && game_position_to_string(g, s->cur, text, GAME_TEXT_MAX) >= 0)
        json_str(j, "position", text);
    else
        json_str(j, "position", none);
    if (text && game_state_to_string(g, s->cur, text, GAME_TEXT_MAX) >= 0)
        json_str(j, "board", text);
    else
        json_str(j, "board", none);
    int player = game_current_player(g, s->cur);
    if (player >= 0)
        json_int(j, "to_move", player);
    else
        json_str(j, "to_move", player == PLAYER_CHANCE ? "chance" : "over");
    /* partnerships: which of the player's seats is at the board */
    if (player >= 0 && g->num_seats > g->num_players)
        json_int(j, "seat", game_current_seat(g, s->cur));
    int last_chance = -1;
    for (int i = 0; i < s->num_hist; i++)
        if (s->hist[i].player == PLAYER_CHANCE) last_chance = i;
    if (last_chance >= 0) {
        json_open(j, "chance", '{');
        json_str(j, "outcome", s->hist[last_chance].move);
        json_close(j);
    } else {
        json_num(j, "chance", "%g", NAN);
    }
    /* legal whole moves, the chain so far and its next steps */
    int chain = s->num_actions > s->chain_first;
    char(*firsts)[GAME_MOVE_MAX] = chain ? calloc((size_t)g->max_legal, GAME_MOVE_MAX) : NULL;
    legal_ctx_t c = {.s = s,
                     .j = j,
                     .chain = chain && firsts,
                     .firsts = firsts,
                     .cap_firsts = firsts ? g->max_legal : 0,
                     .step = s->tmp};
    json_open(j, "legal", '[');
    if (player >= 0) game_whole_moves(g, s->cur, visit_legal, &c);
    json_close(j);
    json_open(j, "chain", '[');
    memcpy(s->tmp, s->chain_start, g->state_size);
    for (int i = s->chain_first; i < s->num_actions; i++) {
        char step[GAME_MOVE_MAX];
        if (game_action_to_string(g, s->tmp, s->actions[i], step, sizeof step) < 0) step[0] = 0;
        json_str(j, NULL, step);
        game_apply(g, s->tmp, s->actions[i]);
    }
    json_close(j);
    json_open(j, "next_steps", '[');
    for (int i = 0; i < c.num_firsts; i++) json_str(j, NULL, c.firsts[i]);
    json_close(j);
    free(firsts);
    json_open(j, "history", '[');
    for (int i = 0; i < s->num_hist; i++) {
        const hist_t *h = &s->hist[i];
        json_open(j, NULL, '{');
        if (h->player == PLAYER_CHANCE)
            json_str(j, "player", "chance");
        else
            json_int(j, "player", h->player);
        json_str(j, "move", h->move);
        write_info(j, "info", h->info);
        json_close(j);
    }
    json_close(j);
    if (player == PLAYER_TERMINAL) {
        double r[GAME_MAX_PLAYERS] = {0};
        game_returns(g, s->cur, r);
        json_open(j, "returns", '[');
        for (int p = 0; p < g->num_players; p++) json_num(j, NULL, "%g", r[p]);
        json_close(j);
        const char *result = g->num_players == 1 ? (r[0] > 0 ? "solved" : "game over")
                             : r[0] > r[1]       ? "first player wins"
                             : r[1] > r[0]       ? "second player wins"
                                                 : "draw";
        json_str(j, "result", result);
    } else {
        json_num(j, "returns", "%g", NAN);
        json_num(j, "result", "%g", NAN);
    }
    json_open(j, "human", '[');
    for (int p = 0; p < g->num_players; p++) json_bool(j, NULL, s->human[p]);
    json_close(j);
    free(text);
}

static void reply_state(serve_reply_t *rp, session_t *s)
{
    FILE *f = reply_json_open(rp);
    if (f == NULL) return;
    json_t j;
    json_begin(&j, f);
    write_state(s, &j);
    json_end(&j);
    reply_json_done(rp, f);
}

/* ---- the table of games ---- */

/* Drop the games idle for SERVE_IDLE_SECONDS that no request holds (lock held). */
static void sweep_idle(serve_t *srv, time_t now)
{
    for (int i = 0; i < srv->opts.max_games; i++) {
        session_t *s = srv->games[i];
        if (s && s->refs == 0 && now - s->used > SERVE_IDLE_SECONDS) {
            srv->games[i] = NULL;
            srv->num_games--;
            srv->tree_bytes -= s->tree_bytes;
            session_free(s);
        }
    }
}

static session_t *acquire(serve_t *srv, const char *id)
{
    session_t *found = NULL;
    time_t now = time(NULL);
    pthread_mutex_lock(&srv->lock);
    sweep_idle(srv, now);
    for (int i = 0; i < srv->opts.max_games && !found; i++)
        if (srv->games[i] && strcmp(srv->games[i]->id, id) == 0) found = srv->games[i];
    if (found) found->refs++, found->used = now;
    pthread_mutex_unlock(&srv->lock);
    return found;
}

static void release(serve_t *srv, session_t *s)
{
    pthread_mutex_lock(&srv->lock);
    int gone = --s->refs == 0 && s->dead;
    s->used = time(NULL);
    pthread_mutex_unlock(&srv->lock);
    if (gone) session_free(s);
}

void sessions_free_all(serve_t *srv)
{
    for (int i = 0; i < srv->opts.max_games; i++) {
        session_free(srv->games[i]);
        srv->games[i] = NULL;
    }
    srv->num_games = 0;
    srv->tree_bytes = 0;
}

size_t serve_tree_bytes(serve_t *srv)
{
    pthread_mutex_lock(&srv->lock);
    size_t n = srv->tree_bytes;
    pthread_mutex_unlock(&srv->lock);
    return n;
}

/* ---- POST /api/games/new ---- */

static int new_session(serve_t *srv, const cJSON *body, session_t **out, int *status)
{
    static const char *const known[] = {"game", "agents", "seed", "position", NULL};
    const char *spec = NULL, *position = NULL, *agents[GAME_MAX_PLAYERS + 1];
    int num_agents = 0;
    long long seed = 1;
    *status = MHD_HTTP_BAD_REQUEST;
    if (jin_known(body, known) || jin_string(body, "game", 1, GAME_SPEC_MAX - 1, &spec) < 0 ||
        jin_strings(body, "agents", 1, GAME_MAX_PLAYERS, GAME_SPEC_MAX - 1, agents, &num_agents) ||
        jin_int(body, "seed", 0, 0, (long long)1 << 53, &seed) < 0 ||
        jin_string(body, "position", 0, GAME_TEXT_MAX - 1, &position) < 0)
        return HOYLE_EINVAL;
    const game_t *g = NULL;
    if (game_create(spec, &g)) return hoyle_error_prefix(HOYLE_EINVAL, "bad spec");
    if (num_agents != g->num_players) {
        int rc = hoyle_error(HOYLE_EINVAL, "field 'agents' needs %d entries for %s, not %d",
                             g->num_players, g->spec, num_agents);
        game_free(g);
        return rc;
    }
    session_t *s = NULL;
    int rc = session_alloc(g, &s);
    if (rc) {
        game_free(g);
        *status = MHD_HTTP_INTERNAL_SERVER_ERROR;
        return rc;
    }
    s->seed = (uint64_t)seed;
    s->data_root = srv->data_real;
    if (position && *position) {
        if ((rc = game_position_from_string(g, position, s->start)))
            rc = hoyle_error_prefix(rc, "bad position");
    } else {
        game_init(g, s->start);
    }
    for (int p = 0; rc == 0 && p < g->num_players; p++) {
        if (strcmp(agents[p], "human") == 0) {
            s->human[p] = true;
            continue;
        }
        char checked[GAME_SPEC_MAX];
        int st = MHD_HTTP_BAD_REQUEST;
        rc = catalog_check_agent(srv, agents[p], checked, sizeof checked, &st);
        if (rc == 0 &&
            (rc = agent_create(g, checked, rng_mix(s->seed ^ (uint64_t)(p + 1)), &s->agents[p])))
            rc = hoyle_error_prefix(rc, "agents[%d]", p);
        if (rc) *status = st;
    }
    if (rc == 0) {
        memcpy(s->cur, s->start, g->state_size);
        memcpy(s->chain_start, s->start, g->state_size);
        rc = roll_chance(s); /* backgammon's opening roll */
        memcpy(s->chain_start, s->cur, g->state_size);
        s->chain_first = s->num_actions;
        if (rc) *status = MHD_HTTP_INTERNAL_SERVER_ERROR;
    }
    if (rc) {
        session_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void route_new(const serve_req_t *rq, serve_reply_t *rp)
{
    serve_t *srv = rq->srv;
    cJSON *body = NULL;
    if (jin_parse(rq->body, rq->body_len, 0, &body)) {
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, NULL);
        return;
    }
    /* the cap first: a full server does not build games to throw away */
    pthread_mutex_lock(&srv->lock);
    sweep_idle(srv, time(NULL));
    int full = srv->num_games >= srv->opts.max_games;
    pthread_mutex_unlock(&srv->lock);
    if (full) {
        cJSON_Delete(body);
        reply_error(rp, MHD_HTTP_TOO_MANY_REQUESTS, "the server already holds %d games",
                    srv->opts.max_games);
        return;
    }
    session_t *s = NULL;
    int status = MHD_HTTP_BAD_REQUEST;
    int rc = new_session(srv, body, &s, &status);
    cJSON_Delete(body);
    if (rc) {
        reply_last_error(rp, status, NULL);
        return;
    }
    /* the memory budget: a game whose agents alone exceed a quarter of it
     * can never be served (400); one that does not fit now may later (503) */
    size_t budget = (size_t)srv->opts.tree_budget_mb << 20, bytes = 0;
    for (int p = 0; p < s->g->num_players; p++) bytes += agent_memory_bytes(s->agents[p]);
    s->tree_bytes = bytes;
    if (bytes > budget / 4) {
        session_free(s);
        reply_error(rp, MHD_HTTP_BAD_REQUEST,
                    "the agents need %zu MiB of search memory; a game may use at most %zu MiB "
                    "(a quarter of the server's %d MiB)",
                    (bytes + (1 << 20) - 1) >> 20, budget / 4 >> 20, srv->opts.tree_budget_mb);
        return;
    }
    pthread_mutex_lock(&srv->lock);
    int slot = -1, over = srv->tree_bytes + bytes > budget;
    size_t held = srv->tree_bytes;
    for (int i = 0; i < srv->opts.max_games && slot < 0 && !over; i++)
        if (srv->games[i] == NULL) slot = i;
    if (slot >= 0) {
        snprintf(s->id, sizeof s->id, "g%lu", ++srv->next_id);
        s->used = time(NULL);
        s->refs = 1;
        srv->games[slot] = s;
        srv->num_games++;
        srv->tree_bytes += bytes;
    }
    pthread_mutex_unlock(&srv->lock);
    if (over) {
        session_free(s);
        reply_error(rp, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "the server's search memory is in use (%zu of %d MiB; this game needs %zu "
                    "MiB): try again when a game ends",
                    held >> 20, srv->opts.tree_budget_mb, (bytes + (1 << 20) - 1) >> 20);
        return;
    }
    if (slot < 0) { /* another request took the last slot meanwhile */
        session_free(s);
        reply_error(rp, MHD_HTTP_TOO_MANY_REQUESTS, "the server already holds %d games",
                    srv->opts.max_games);
        return;
    }
    pthread_mutex_lock(&s->mu);
    reply_state(rp, s);
    pthread_mutex_unlock(&s->mu);
    release(srv, s);
}

/* ---- POST /api/games/ID/move ---- */

static void do_move(const serve_req_t *rq, serve_reply_t *rp, session_t *s)
{
    static const char *const known[] = {"move", "step", NULL};
    cJSON *body = NULL;
    const char *move = NULL, *step = NULL;
    if (jin_parse(rq->body, rq->body_len, 0, &body) || jin_known(body, known) ||
        jin_string(body, "move", 0, GAME_TEXT_MAX, &move) < 0 ||
        jin_string(body, "step", 0, GAME_TEXT_MAX, &step) < 0) {
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, NULL);
        cJSON_Delete(body);
        return;
    }
    if ((move == NULL) == (step == NULL)) {
        cJSON_Delete(body);
        reply_error(rp, MHD_HTTP_BAD_REQUEST, "give one of 'move' and 'step'");
        return;
    }
    const game_t *g = s->g;
    pthread_mutex_lock(&s->mu);
    int player = game_current_player(g, s->cur);
    if (s->busy) {
        reply_error(rp, MHD_HTTP_SERVICE_UNAVAILABLE, "an agent is searching in this game");
    } else if (player == PLAYER_TERMINAL) {
        reply_error(rp, MHD_HTTP_CONFLICT, "the game is over");
    } else if (player < 0 || !s->human[player]) {
        reply_error(rp, MHD_HTTP_CONFLICT, "player %d is not a human seat: ask its agent", player);
    } else if (step) {
        int a = 0;
        if (game_action_from_string(g, s->cur, step, &a) < 0)
            reply_error(rp, MHD_HTTP_BAD_REQUEST, "illegal step '%s': %s", step,
                        hoyle_last_error());
        else if (play_step(s, a) < 0)
            reply_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", hoyle_last_error());
        else
            reply_state(rp, s);
    } else {
        /* the whole move checked on a copy first: all of it is legal, all by
         * the player to move, or nothing is played */
        int n = game_move_from_string(g, s->cur, move, s->scratch, GAME_MAX_CHAIN);
        int ok = n > 0;
        if (n < 0)
            reply_error(rp, MHD_HTTP_BAD_REQUEST, "illegal move '%s': %s", move,
                        hoyle_last_error());
        else if (n == 0)
            reply_error(rp, MHD_HTTP_BAD_REQUEST, "illegal move '%s': no action", move);
        memcpy(s->tmp, s->cur, g->state_size);
        for (int i = 0; ok && i < n; i++) {
            ok =
                game_current_player(g, s->tmp) == player && game_is_legal(g, s->tmp, s->scratch[i]);
            if (ok) game_apply(g, s->tmp, s->scratch[i]);
            if (!ok)
                reply_error(rp, MHD_HTTP_BAD_REQUEST, "illegal move '%s': step %d is not legal",
                            move, i + 1);
        }
        int actions[GAME_MAX_CHAIN];
        if (ok) memcpy(actions, s->scratch, (size_t)n * sizeof *actions);
        for (int i = 0; ok && i < n; i++)
            if (play_step(s, actions[i]) < 0) {
                reply_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", hoyle_last_error());
                ok = 0;
            }
        if (ok) reply_state(rp, s);
    }
    pthread_mutex_unlock(&s->mu);
    cJSON_Delete(body);
}

/* ---- POST /api/games/ID/agent ---- */

static void fill_info(const session_t *s, const agent_t *a, const void *before, void *scratch,
                      info_t *out)
{
    const agent_info_t *in = agent_info(a);
    memset(out, 0, sizeof *out);
    snprintf(out->kind, sizeof out->kind, "%s", in->kind ? in->kind : a->kind->name);
    out->value = in->value;
    out->visits = in->root_visits;
    out->depth = in->depth;
    out->nodes = in->nodes;
    out->seconds = in->seconds;
    out->proven = in->proven;
    memcpy(scratch, before, s->g->state_size);
    for (int i = 0; i < in->pv_len && i < PV_MAX; i++) {
        int act = in->pv[i];
        if (game_is_terminal(s->g, scratch) || !game_is_legal(s->g, scratch, act)) break;
        if (game_action_to_string(s->g, scratch, act, out->pv[i], GAME_MOVE_MAX) < 0) break;
        game_apply(s->g, scratch, act);
        out->pv_len = i + 1;
    }
}

static double now_ms(void) { return 1e3 * clock_seconds(); }

/* The limits of one act: the request's time alone, or the spec's own
 * simulations, nodes, depth and time; a spec that sets none of them (the
 * kinds' defaults: `mcts`, `alphabeta`) thinks `think_ms`, not until the
 * cap, so a default agent answers in about a second. Never longer than
 * `left_ms`. */
static void act_limits(const agent_t *a, double req_ms, double think_ms, double left_ms,
                       const atomic_int *stop, agent_limits_t *l)
{
    memset(l, 0, sizeof *l);
    l->stop = stop;
    double t = left_ms;
    if (req_ms <= 0) {
        /* a search agent's budget is `sims` (its `nodes` caps the tree, not the search) */
        if (params_has(&a->params, "sims"))
            l->nodes = params_int(&a->params, "sims");
        else if (params_has(&a->params, "nodes"))
            l->nodes = params_int(&a->params, "nodes");
        if (params_has(&a->params, "depth")) l->depth = (int)params_int(&a->params, "depth");
        double spec = params_has(&a->params, "time_ms") ? params_double(&a->params, "time_ms") : 0;
        if (spec <= 0 && l->nodes <= 0 && l->depth <= 0) spec = think_ms;
        if (spec > 0 && spec < t) t = spec;
    } else if (req_ms < t) {
        t = req_ms;
    }
    l->time_ms = t < 1 ? 1 : t;
}

static void do_agent(const serve_req_t *rq, serve_reply_t *rp, session_t *s)
{
    static const char *const known[] = {"time_ms", NULL};
    serve_t *srv = rq->srv;
    cJSON *body = NULL;
    long long req_ms = 0;
    if (jin_parse(rq->body, rq->body_len, 1, &body) || jin_known(body, known) ||
        jin_int(body, "time_ms", 0, 1, 3600 * 1000, &req_ms) < 0) {
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, NULL);
        cJSON_Delete(body);
        return;
    }
    cJSON_Delete(body);
    const game_t *g = s->g;
    pthread_mutex_lock(&s->mu);
    int player = game_current_player(g, s->cur), go = 0;
    if (s->busy)
        reply_error(rp, MHD_HTTP_SERVICE_UNAVAILABLE, "an agent is already searching in this game");
    else if (player == PLAYER_TERMINAL)
        reply_error(rp, MHD_HTTP_CONFLICT, "the game is over");
    else if (player < 0 || s->human[player])
        reply_error(rp, MHD_HTTP_CONFLICT, "player %d is a human seat", player);
    else
        go = 1;
    if (!go) {
        pthread_mutex_unlock(&s->mu);
        return;
    }
    agent_t *a = s->agents[player];
    void *before = state_alloc(g), *pvbuf = state_alloc(g);
    if (before == NULL || pvbuf == NULL) {
        free(before), free(pvbuf);
        reply_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
        pthread_mutex_unlock(&s->mu);
        return;
    }
    s->busy = true;
    atomic_store(&s->stop, 0);
    memcpy(before, s->cur, g->state_size);
    int moves_before = s->num_hist;
    pthread_mutex_unlock(&s->mu);

    watch_t *w = watch_begin(rq, &s->stop);
    double deadline = now_ms() + srv->opts.max_think_ms;
    int status = 0, first = 1;
    char msg[HOYLE_ERROR_MAX] = "";
    for (;;) {
        agent_limits_t lim;
        double left = deadline - now_ms();
        act_limits(a, (double)req_ms, srv->opts.think_ms, left, &s->stop, &lim);
        int rc = agent_set_limits(a, &lim);
        int action = -1;
        if (rc == 0 || rc == HOYLE_EUNSUP) rc = agent_act(a, before, &action);
        pthread_mutex_lock(&s->mu);
        if (rc == 0 && first) {
            info_t *in = malloc(sizeof *in);
            if (in) fill_info(s, a, before, pvbuf, in);
            free(s->pending);
            s->pending = in;
            first = 0;
        }
        if (rc == 0 && !game_is_legal(g, s->cur, action))
            rc = hoyle_error(HOYLE_EINVAL, "the agent played an illegal action %d", action);
        if (rc == 0) rc = play_step(s, action);
        if (rc) {
            status = MHD_HTTP_INTERNAL_SERVER_ERROR;
            snprintf(msg, sizeof msg, "agent %s: %s", agent_spec(a), hoyle_last_error());
        }
        /* the whole move is done when a history entry of this seat appeared */
        int done = rc != 0 || s->dead;
        for (int i = moves_before; i < s->num_hist && !done; i++)
            done = s->hist[i].player == player;
        memcpy(before, s->cur, g->state_size);
        pthread_mutex_unlock(&s->mu);
        if (done) break;
    }
    watch_end(w);
    agent_set_limits(a, NULL);
    pthread_mutex_lock(&s->mu);
    s->busy = false;
    if (status)
        reply_error(rp, status, "%s", msg);
    else
        reply_state(rp, s);
    pthread_mutex_unlock(&s->mu);
    free(before), free(pvbuf);
}

/* ---- POST /api/games/ID/undo ---- */

static void do_undo(const serve_req_t *rq, serve_reply_t *rp, session_t *s)
{
    cJSON *body = NULL;
    static const char *const known[] = {NULL};
    if (jin_parse(rq->body, rq->body_len, 1, &body) || jin_known(body, known)) {
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, NULL);
        cJSON_Delete(body);
        return;
    }
    cJSON_Delete(body);
    pthread_mutex_lock(&s->mu);
    int to = -1;
    if (s->num_actions > s->chain_first) {
        to = s->chain_first; /* the chain in progress */
    } else {
        for (int i = s->num_hist - 1; i >= 0 && to < 0; i--)
            if (s->hist[i].player != PLAYER_CHANCE) to = s->hist[i].first;
    }
    if (s->busy)
        reply_error(rp, MHD_HTTP_SERVICE_UNAVAILABLE, "an agent is searching in this game");
    else if (to < 0)
        reply_error(rp, MHD_HTTP_CONFLICT, "nothing to undo: no move played yet");
    else if (truncate_to(s, to) < 0)
        reply_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s", hoyle_last_error());
    else
        reply_state(rp, s);
    pthread_mutex_unlock(&s->mu);
}

/* ---- GET /api/games/ID/export ---- */

static void do_export(const serve_req_t *rq, serve_reply_t *rp, session_t *s)
{
    const game_t *g = s->g;
    const char *format = req_arg(rq, "format");
    const char *own = game_record_format(g);
    if (format == NULL || !*format) format = own ? own : "hoyle";
    size_t cap = 1 << 20;
    char *text = malloc(cap);
    if (text == NULL) {
        reply_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
        return;
    }
    pthread_mutex_lock(&s->mu);
    if (strcasecmp(format, "hoyle") == 0) {
        size_t len = 0;
        char line[GAME_TEXT_MAX];
        if (game_position_to_string(g, s->start, line, sizeof line) < 0) line[0] = '\0';
        len += (size_t)snprintf(text + len, cap - len, "game: %s\nposition: %s\nmoves: ", g->spec,
                                line);
        for (int i = 0; i < s->num_hist && len < cap; i++)
            len += (size_t)snprintf(text + len, cap - len, "%s%s", i ? ";" : "", s->hist[i].move);
        if (len < cap) snprintf(text + len, cap - len, "\n");
        reply_text(rp, "text/plain; charset=utf-8", text);
    } else if (strcasecmp(format, "pgn") != 0 && strcasecmp(format, "pdn") != 0) {
        reply_error(rp, MHD_HTTP_BAD_REQUEST, "unknown format '%s' (pgn, pdn or hoyle)", format);
    } else if (own == NULL || strcasecmp(own, format) != 0) {
        reply_error(rp, MHD_HTTP_BAD_REQUEST, "%s has no %s writer (its record format: %s)",
                    g->spec, format, own ? own : "none; use format=hoyle");
    } else {
        double score = -1;
        if (game_is_terminal(g, s->cur) && g->num_players == 2) {
            double r[GAME_MAX_PLAYERS];
            game_returns(g, s->cur, r);
            score = (r[0] + 1) / 2;
        }
        char date[16];
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
        char seat0[GAME_SPEC_MAX], seat1[GAME_SPEC_MAX] = "human";
        seat_spec(s, 0, seat0, sizeof seat0);
        if (g->num_players > 1) seat_spec(s, 1, seat1, sizeof seat1);
        game_record_tags_t tags = {
            .event = "hoyle serve",
            .players = {seat0, seat1},
            .score = score,
            .termination = game_is_terminal(g, s->cur) ? "rules" : NULL,
            .date = date,
        };
        int len = game_record_to_string(g, &tags, s->start, s->actions, s->num_actions, text, cap);
        if (len < 0)
            reply_last_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "export");
        else
            reply_text(rp, "text/plain; charset=utf-8", text);
    }
    pthread_mutex_unlock(&s->mu);
    free(text);
}

/* ---- /api/games/ID ---- */

static void do_delete(serve_t *srv, serve_reply_t *rp, session_t *s)
{
    pthread_mutex_lock(&srv->lock);
    for (int i = 0; i < srv->opts.max_games; i++)
        if (srv->games[i] == s) {
            srv->games[i] = NULL;
            srv->num_games--;
            srv->tree_bytes -= s->tree_bytes;
            s->dead = true;
        }
    pthread_mutex_unlock(&srv->lock);
    atomic_store(&s->stop, 1); /* a search in progress ends now */
    reply_text(rp, "application/json", "{}\n");
}

void route_game(const serve_req_t *rq, serve_reply_t *rp, const char *id, const char *action)
{
    static const struct {
        const char *action, *method;
    } routes[] = {{"", "GET"},       {"", "DELETE"},   {"move", "POST"},
                  {"agent", "POST"}, {"undo", "POST"}, {"export", "GET"}};
    int known = 0, allowed = -1;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(action, routes[i].action) == 0) {
            known = 1;
            if (strcmp(rq->method, routes[i].method) == 0) allowed = (int)i;
        }
    if (!known) {
        reply_error(rp, MHD_HTTP_NOT_FOUND, "unknown route %s", rq->path);
        return;
    }
    if (allowed < 0) {
        reply_error(rp, MHD_HTTP_METHOD_NOT_ALLOWED, "%s not allowed on %s", rq->method, rq->path);
        return;
    }
    session_t *s = acquire(rq->srv, id);
    if (s == NULL) {
        reply_error(rp, MHD_HTTP_NOT_FOUND, "no game '%s'", id);
        return;
    }
    switch (allowed) {
    case 0:
        pthread_mutex_lock(&s->mu);
        reply_state(rp, s);
        pthread_mutex_unlock(&s->mu);
        break;
    case 1: do_delete(rq->srv, rp, s); break;
    case 2: do_move(rq, rp, s); break;
    case 3: do_agent(rq, rp, s); break;
    case 4: do_undo(rq, rp, s); break;
    default: do_export(rq, rp, s); break;
    }
    release(rq->srv, s);
}
