/* game.c — the game_*() wrappers that give optional vtable slots their
 * defaults, checked application of untrusted actions, and the generic
 * whole-move enumeration and perft every game shares. Invariant: a wrapper
 * never lets an optional slot's absence reach a caller as a NULL call, and the
 * *_checked / *_from_string paths are the only ones that accept input a game
 * has not validated (game_apply itself trusts its action). */
#include "games/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"

int game_chance_outcomes(const game_t *g, const void *s, int *actions, double *probs)
{
    if (g->vt->chance_outcomes == NULL) return 0;
    return g->vt->chance_outcomes(g, s, actions, probs);
}

/* A terminal state's value is its exact return, whatever the heuristic says;
 * games without a heuristic report 0.0, i.e. "even" on the [-1, 1] scale. */
double game_evaluate(const game_t *g, const void *s, int player)
{
    if (game_is_terminal(g, s)) {
        double r[GAME_MAX_PLAYERS];
        game_returns(g, s, r);
        return r[player];
    }
    return g->vt->evaluate ? g->vt->evaluate(g, s, player) : 0.0;
}

bool game_is_noisy(const game_t *g, const void *s, int action)
{
    return g->vt->is_noisy ? g->vt->is_noisy(g, s, action) : false;
}

int game_noisy_actions(const game_t *g, const void *s, int *out)
{
    if (g->vt->noisy_actions) return g->vt->noisy_actions(g, s, out);
    int n = game_legal_actions(g, s, out), k = 0;
    for (int i = 0; i < n; i++)
        if (game_is_noisy(g, s, out[i])) out[k++] = out[i];
    return k;
}

bool game_is_forcing(const game_t *g, const void *s)
{
    return g->vt->is_forcing ? g->vt->is_forcing(g, s) : false;
}

bool game_null_move(const game_t *g, void *s)
{
    return g->vt->null_move ? g->vt->null_move(g, s) : false;
}

int game_features_size(const game_t *g)
{
    return g->vt->features ? g->vt->features(g, NULL, 0, NULL) : 0;
}

void game_features(const game_t *g, const void *s, int player, float *out)
{
    if (g->vt->features) g->vt->features(g, s, player, out);
}

/* The default heads: win and loss, each the other's from the other side. */
void game_outcome_heads(const game_t *g, game_outcome_heads_t *h)
{
    if (g->vt->outcome_heads) {
        g->vt->outcome_heads(g, h);
        return;
    }
    *h = (game_outcome_heads_t){
        .n = 2, .names = {"win", "loss"}, .other = {1, 0}, .weight = {1, -1}};
}

void game_outcome_targets(const game_t *g, const void *s, int player, float *out)
{
    if (g->vt->outcome_targets) {
        g->vt->outcome_targets(g, s, player, out);
        return;
    }
    double r[GAME_MAX_PLAYERS];
    game_returns(g, s, r);
    out[0] = r[player] > 0;
    out[1] = r[player] < 0;
}

int game_eval_terms(const game_t *g, const void *s, int player, double *out, const char **names,
                    double *weights)
{
    return g->vt->eval_terms ? g->vt->eval_terms(g, s, player, out, names, weights) : 0;
}

double game_eval_dot(const game_t *g, const void *s, int player, const double *w, int n)
{
    if (g->vt->eval_dot) return g->vt->eval_dot(g, s, player, w, n);
    double t[GAME_MAX_TERMS], x = 0;
    int m = game_eval_terms(g, s, player, t, NULL, NULL);
    for (int i = 0; i < n && i < m; i++) x += w[i] * t[i];
    return x;
}

int game_noisy_order(const game_t *g, const void *s, int action)
{
    return g->vt->noisy_order ? g->vt->noisy_order(g, s, action) : 0;
}

void game_threat_hints(const game_t *g, const void *s, const int *actions, int n, int *out)
{
    if (g->vt->threat_hints) {
        g->vt->threat_hints(g, s, actions, n, out);
        return;
    }
    for (int i = 0; i < n; i++) out[i] = GAME_THREAT_MAKES;
}

/* SYM_IDENTITY short-circuits to a copy so that games with one symmetry need
 * no slot at all; game_registry_check enforces the slots for the rest. */
void game_symmetry_state(const game_t *g, sym_t sym, const void *s, void *out)
{
    if (sym != SYM_IDENTITY && g->vt->symmetry_state)
        g->vt->symmetry_state(g, sym, s, out);
    else
        memcpy(out, s, g->state_size);
}

int game_symmetry_action(const game_t *g, sym_t sym, int action)
{
    if (sym != SYM_IDENTITY && g->vt->symmetry_action)
        return g->vt->symmetry_action(g, sym, action);
    return action;
}

/* Membership in legal_actions() is the one definition of legality: a game's
 * action_from_string may parse actions that are well-formed but illegal now.
 * The bounds and terminal checks come first so that the O(max_legal) scan runs
 * only for actions that could be legal. */
bool game_has_legal_count(const game_t *g) { return g->vt->legal_count != NULL; }

int game_current_seat(const game_t *g, const void *s)
{
    return g->vt->current_seat ? g->vt->current_seat(g, s) : g->vt->current_player(g, s);
}

int game_legal_count(const game_t *g, const void *s, int *scratch)
{
    if (g->vt->legal_count) return g->vt->legal_count(g, s);
    return game_legal_actions(g, s, scratch);
}

bool game_is_legal(const game_t *g, const void *s, int action)
{
    if (action < 0 || action >= g->num_actions || game_is_terminal(g, s)) return false;
    int *legal = malloc(sizeof *legal * (size_t)g->max_legal);
    CHECK(legal != NULL);
    int n = game_legal_actions(g, s, legal), found = 0;
    for (int i = 0; i < n && !found; i++) found = legal[i] == action;
    free(legal);
    return found;
}

/* The entry point for untrusted actions (CLI, protocols, tests): game_apply
 * is unchecked and may corrupt the state on an illegal action. */
int game_apply_checked(const game_t *g, void *s, int action)
{
    if (game_is_terminal(g, s)) return hoyle_error(HOYLE_ESTATE, "%s: the game is over", g->spec);
    if (!game_is_legal(g, s, action))
        return hoyle_error(HOYLE_EINVAL, "%s: action %d is not legal here", g->spec, action);
    game_apply(g, s, action);
    return HOYLE_OK;
}

int game_state_to_string(const game_t *g, const void *s, char *buf, size_t cap)
{
    return g->vt->state_to_string(g, s, buf, cap);
}

int game_position_to_string(const game_t *g, const void *s, char *buf, size_t cap)
{
    return g->vt->position_to_string(g, s, buf, cap);
}

int game_position_from_string(const game_t *g, const char *text, void *s)
{
    return g->vt->position_from_string(g, text, s);
}

int game_action_to_string(const game_t *g, const void *s, int action, char *buf, size_t cap)
{
    if (action < 0 || action >= g->num_actions)
        return hoyle_error(HOYLE_EINVAL, "%s: action %d out of range", g->spec, action);
    return g->vt->action_to_string(g, s, action, buf, cap);
}

int game_action_from_string(const game_t *g, const void *s, const char *text, int *action)
{
    if (game_is_terminal(g, s)) return hoyle_error(HOYLE_ESTATE, "%s: the game is over", g->spec);
    return g->vt->action_from_string(g, s, text, action);
}

int game_move_from_string(const game_t *g, const void *s, const char *text, int *actions, int cap)
{
    if (game_is_terminal(g, s)) return hoyle_error(HOYLE_ESTATE, "%s: the game is over", g->spec);
    if (g->vt->move_from_string) return g->vt->move_from_string(g, s, text, actions, cap);
    return game_move_from_string_default(g, s, text, actions, cap);
}

/* Games without multi-action moves: a move is one action, so the parse result
 * (0 on success) becomes a count of 1. */
int game_move_from_string_default(const game_t *g, const void *s, const char *text, int *actions,
                                  int cap)
{
    if (cap < 1) return hoyle_error(HOYLE_EFULL, "move: no room");
    int status = g->vt->action_from_string(g, s, text, &actions[0]);
    return status ? status : 1;
}

int game_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                        size_t cap)
{
    if (g->vt->move_to_string) return g->vt->move_to_string(g, s, actions, n, buf, cap);
    return game_move_to_string_default(g, s, actions, n, buf, cap);
}

int game_move_to_display(const game_t *g, const void *s, const int *actions, int n, char *buf,
                         size_t cap)
{
    if (g->vt->move_to_display) return g->vt->move_to_display(g, s, actions, n, buf, cap);
    return game_move_to_string(g, s, actions, n, buf, cap);
}

/* Each action is written from the state it is played in (a copy, `t`), since
 * notation may depend on the position; the actions are space-separated. The
 * copy is still advanced after an error so the loop stays simple; `status`
 * keeps the first error. */
int game_move_to_string_default(const game_t *g, const void *s, const int *actions, int n,
                                char *buf, size_t cap)
{
    void *t = malloc(g->state_size);
    if (t == NULL) return hoyle_error(HOYLE_ENOMEM, "move_to_string: out of memory");
    memcpy(t, s, g->state_size);
    size_t used = 0;
    int status = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && status >= 0; i++) {
        if (i > 0) {
            if (used + 1 >= cap)
                status = hoyle_error(HOYLE_EFULL, "move_to_string: buffer full");
            else
                buf[used++] = ' ', buf[used] = '\0';
        }
        if (status >= 0) status = g->vt->action_to_string(g, t, actions[i], buf + used, cap - used);
        if (status >= 0) used += (size_t)status;
        game_apply(g, t, actions[i]);
    }
    free(t);
    return status < 0 ? status : (int)used;
}

/* A record format name without a writer would advertise what cannot be written. */
const char *game_record_format(const game_t *g)
{
    return g->vt->record_to_string ? g->vt->record_format : NULL;
}

int game_record_to_string(const game_t *g, const game_record_tags_t *tags, const void *start,
                          const int *actions, int n, char *buf, size_t cap)
{
    if (g->vt->record_to_string == NULL)
        return hoyle_error(HOYLE_EUNSUP, "%s: no game record format", g->spec);
    return g->vt->record_to_string(g, tags, start, actions, n, buf, cap);
}

/* All-or-nothing: the move is played on a copy and written back only if every
 * action is legal and the mover keeps the turn across the chain, so a bad
 * move string leaves `s` untouched. */
int game_apply_move_string(const game_t *g, void *s, const char *text)
{
    int actions[GAME_MAX_CHAIN];
    int n = game_move_from_string(g, s, text, actions, GAME_MAX_CHAIN);
    if (n < 0) return n;
    void *t = malloc(g->state_size);
    if (t == NULL) return hoyle_error(HOYLE_ENOMEM, "apply_move: out of memory");
    memcpy(t, s, g->state_size);
    int player = game_current_player(g, t);
    for (int i = 0; i < n; i++) {
        if (game_current_player(g, t) != player || !game_is_legal(g, t, actions[i])) {
            free(t);
            return hoyle_error(HOYLE_EINVAL, "%s: move '%s' is not legal here", g->spec, text);
        }
        game_apply(g, t, actions[i]);
    }
    memcpy(s, t, g->state_size);
    free(t);
    return n;
}

/* ---- whole moves and perft ---- */

/* Scratch for the recursions below: one state and one legal-action list per
 * frame, allocated once per top-level call. */
typedef struct frames {
    const game_t *g;
    char *states;
    int *legal;
    int count;
} frames_t;

static int frames_init(frames_t *f, const game_t *g, int count)
{
    f->g = g;
    f->count = count;
    f->states = malloc(g->state_size * (size_t)count);
    f->legal = malloc(sizeof(int) * (size_t)g->max_legal * (size_t)count);
    if (!f->states || !f->legal) {
        free(f->states);
        free(f->legal);
        return hoyle_error(HOYLE_ENOMEM, "perft: out of memory");
    }
    return HOYLE_OK;
}

static void frames_done(frames_t *f)
{
    free(f->states);
    free(f->legal);
}

/* State of one whole-move enumeration: `actions` is the chain being built,
 * `stop` the first nonzero return of `visit`, which ends the walk. */
typedef struct walk {
    frames_t *f;
    int actions[GAME_MAX_CHAIN];
    game_move_visit_fn visit;
    void *ctx;
    int count;
    int stop;
} walk_t;

/* Extend the move in progress (actions[0..len)) from state `s` by `player`. */
static void walk_chain(walk_t *w, const void *s, int player, int len, int frame)
{
    const game_t *g = w->f->g;
    CHECK_LT(frame, w->f->count);
    int *legal = w->f->legal + (size_t)frame * (size_t)g->max_legal;
    void *t = w->f->states + (size_t)frame * g->state_size;
    int n = game_legal_actions(g, s, legal);
    for (int i = 0; i < n && !w->stop; i++) {
        memcpy(t, s, g->state_size);
        game_apply(g, t, legal[i]);
        CHECK_LT(len, GAME_MAX_CHAIN);
        w->actions[len] = legal[i];
        /* A chain continues while the same player keeps the turn (multi-jumps,
         * one backgammon roll's checker moves); chance nodes always end a move because each
         * outcome is its own branch. In a one-player game every action is a whole move:
         * the player always keeps the turn, so the rule above would make the whole game
         * one move. */
        int next = game_current_player(g, t);
        if (player != PLAYER_CHANCE && next == player && g->num_players > 1) {
            walk_chain(w, t, player, len + 1, frame + 1);
        } else {
            w->count++;
            if (w->visit) {
                int r = w->visit(w->actions, len + 1, t, w->ctx);
                if (r) w->stop = r;
            }
        }
    }
}

int game_whole_moves(const game_t *g, const void *s, game_move_visit_fn visit, void *ctx)
{
    frames_t f;
    /* One frame per chain link plus the root: recursion depth is bounded by
     * GAME_MAX_CHAIN (walk_chain CHECKs it). */
    if (frames_init(&f, g, GAME_MAX_CHAIN + 1)) return HOYLE_ENOMEM;
    walk_t w = {.f = &f, .visit = visit, .ctx = ctx};
    if (!game_is_terminal(g, s)) walk_chain(&w, s, game_current_player(g, s), 0, 0);
    frames_done(&f);
    return w.stop ? w.stop : w.count;
}

/* The generic perft allocates its scratch once per call: for each level of
 * the recursion one frames_t (one frame in a game whose actions are whole
 * moves, a chain's worth otherwise), made when the level is first reached. */
typedef struct perft_run {
    const game_t *g;
    bool flat; /* every action is a whole move: no chain walk */
    frames_t levels[64 + 1];
    bool made[64 + 1];
} perft_run_t;

static uint64_t perft_node(perft_run_t *r, const void *s, int depth);

typedef struct perft_ctx {
    perft_run_t *r;
    int depth;
    uint64_t nodes;
} perft_ctx_t;

/* Each whole move counts as one ply: recurse one level shallower from the
 * position it reaches. */
static int perft_visit(const int *actions, int n, const void *after, void *ctx)
{
    (void)actions;
    (void)n;
    perft_ctx_t *p = ctx;
    p->nodes += perft_node(p->r, after, p->depth - 1);
    return 0;
}

static uint64_t perft_node(perft_run_t *r, const void *s, int depth)
{
    const game_t *g = r->g;
    if (depth == 0) return 1;
    if (game_is_terminal(g, s)) return 0;
    CHECK_LT(depth, 64 + 1);
    frames_t *f = &r->levels[depth];
    if (!r->made[depth]) {
        CHECK_EQ(frames_init(f, g, r->flat ? 1 : GAME_MAX_CHAIN + 1), HOYLE_OK);
        r->made[depth] = true;
    }
    if (r->flat) {
        /* Bulk counting at the leaves: one whole move per legal action. */
        if (depth == 1) return (uint64_t)game_legal_count(g, s, f->legal);
        int n = game_legal_actions(g, s, f->legal);
        uint64_t nodes = 0;
        for (int i = 0; i < n; i++) {
            memcpy(f->states, s, g->state_size);
            game_apply(g, f->states, f->legal[i]);
            nodes += perft_node(r, f->states, depth - 1);
        }
        return nodes;
    }
    /* Whole moves may be chains of actions: walk them. At the last ply the
     * number of whole moves is the count, no need to visit each child. */
    perft_ctx_t p = {.r = r, .depth = depth};
    walk_t w = {.f = f, .visit = depth == 1 ? NULL : perft_visit, .ctx = &p};
    walk_chain(&w, s, game_current_player(g, s), 0, 0);
    return depth == 1 ? (uint64_t)w.count : p.nodes;
}

uint64_t game_perft_generic(const game_t *g, const void *s, int depth)
{
    if (depth <= 0) return 1;
    /* deeper than any count could finish; the CLI caps DEPTH at 64 */
    CHECK_LE(depth, 64);
    perft_run_t r = {.g = g, .flat = g->one_action_moves || g->num_players == 1};
    uint64_t nodes = perft_node(&r, s, depth);
    for (int d = 0; d <= depth; d++)
        if (r.made[d]) frames_done(&r.levels[d]);
    return nodes;
}

bool game_has_fast_perft(const game_t *g) { return g->vt->perft != NULL; }

/* A game's own perft must agree with game_perft_generic; the conformance tests
 * compare the two at small depths. */
uint64_t game_perft(const game_t *g, const void *s, int depth)
{
    if (g->vt->perft) return g->vt->perft(g, s, depth);
    return game_perft_generic(g, s, depth);
}
