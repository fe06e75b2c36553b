/* api_vec.c — the vector environment of api.h: n games of one game stepped
 * in one call for a learner at one seat, the other seat played by an agent
 * per game and the dice by each game's own rng, observations, legal-action
 * masks, rewards and episode ends written into caller arrays, finished games
 * started again at once (auto-reset).
 *
 * Invariant between calls: every game is at a state where the learner is to
 * move (a game never rests at a chance node, the opponent's turn or its
 * end), so obs/mask always describe what the learner acts on. A step checks
 * every action first, so a refused call changes no game. */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "games/playout.h"

#define VEC_ALIGN 16 /* each state starts on this boundary (states are plain structs) */

struct api_vec {
    const game_t *g;
    int n, player, max_moves, illegal_lose;
    size_t stride;        /* bytes between states, state_size rounded up */
    unsigned char *state; /* n states */
    agent_t **opp;        /* n opponents (NULL for a one-player game) */
    rng_t *rng;           /* n streams: dice and opponent seeds */
    int32_t *moves;       /* learner whole moves in each game */
    api_vec_out_t out;    /* the caller's arrays (api_vec_bind) */
    int *legal;           /* scratch: legal actions / chance outcomes */
    double *probs;        /* scratch: chance probabilities */
};

static void *state_at(const api_vec_t *v, int i) { return v->state + (size_t)i * v->stride; }

void api_vec_free(api_vec_t *v)
{
    if (!v) return;
    for (int i = 0; v->opp && i < v->n; i++) agent_free(v->opp[i]);
    free(v->opp), free(v->state), free(v->rng), free(v->moves), free(v->legal), free(v->probs);
    free(v);
}

static int vec_check_args(const game_t *g, int n, const char *opponent, int player, int max_moves)
{
    if (n < 1) return hoyle_error(HOYLE_EINVAL, "vector env: %d games < 1", n);
    if (player < 0 || player >= g->num_players)
        return hoyle_error(HOYLE_EINVAL, "vector env: player %d is not 0..%d", player,
                           g->num_players - 1);
    if (g->num_players > 1 && !opponent)
        return hoyle_error(HOYLE_EINVAL, "vector env: %s has two players: give an opponent",
                           g->spec);
    if (g->num_players == 1 && opponent)
        return hoyle_error(HOYLE_EINVAL, "vector env: %s is a one-player game: no opponent",
                           g->spec);
    if (max_moves < 0) return hoyle_error(HOYLE_EINVAL, "vector env: max_moves %d < 0", max_moves);
    return HOYLE_OK;
}

int api_vec_create(const game_t *g, int n, const char *opponent, int player, int max_moves,
                   int illegal_lose, api_vec_t **out)
{
    int rc = vec_check_args(g, n, opponent, player, max_moves);
    if (rc) return rc;
    api_vec_t *v = calloc(1, sizeof *v);
    if (!v) return hoyle_error(HOYLE_ENOMEM, "vector env: out of memory");
    *v = (api_vec_t){.g = g,
                     .n = n,
                     .player = player,
                     .max_moves = max_moves,
                     .illegal_lose = illegal_lose != 0};
    v->stride = (g->state_size + VEC_ALIGN - 1) / VEC_ALIGN * VEC_ALIGN;
    int scratch = game_scratch_actions(g);
    v->state = aligned_alloc(VEC_ALIGN, v->stride * (size_t)n);
    v->rng = calloc((size_t)n, sizeof *v->rng);
    v->moves = calloc((size_t)n, sizeof *v->moves);
    v->legal = malloc(sizeof *v->legal * (size_t)scratch);
    v->probs = malloc(sizeof *v->probs * (size_t)scratch);
    if (opponent) v->opp = calloc((size_t)n, sizeof *v->opp);
    if (!v->state || !v->rng || !v->moves || !v->legal || !v->probs || (opponent && !v->opp)) {
        api_vec_free(v);
        return hoyle_error(HOYLE_ENOMEM, "vector env: out of memory for %d games", n);
    }
    for (int i = 0; opponent && i < n; i++) {
        rc = api_agent_create(g, opponent, (uint64_t)i, &v->opp[i]);
        if (rc) {
            api_vec_free(v);
            return rc;
        }
    }
    for (int i = 0; i < n; i++) game_init(g, state_at(v, i));
    *out = v;
    return HOYLE_OK;
}

/* Dice and the opponent until the learner is to move or the game ends;
 * returns the actions applied, or a negative status (the opponent failed). */
static int vec_advance(api_vec_t *v, int i)
{
    const game_t *g = v->g;
    void *s = state_at(v, i);
    agent_t *opp = v->opp ? v->opp[i] : NULL;
    int applied = 0;
    for (;;) {
        int p = game_current_player(g, s);
        if (p == PLAYER_TERMINAL || p == v->player) return applied;
        int a;
        if (p == PLAYER_CHANCE) {
            a = game_chance_sample(g, s, &v->rng[i], v->legal, v->probs);
            if (a < 0) return a;
        } else {
            int rc = agent_act(opp, s, &a);
            if (rc) return rc;
        }
        if (opp) agent_observe(opp, s, a);
        game_apply(g, s, a); /* legal: agent_act's contract, or a listed outcome */
        applied++;
    }
}

/* Game i from the start: the opponent reseeded from the game's stream. */
static int vec_new_game(api_vec_t *v, int i)
{
    game_init(v->g, state_at(v, i));
    v->moves[i] = 0;
    if (v->opp) {
        int rc = agent_reseed(v->opp[i], rng_next(&v->rng[i]));
        if (rc) return rc;
    }
    return vec_advance(v, i);
}

void api_vec_bind(api_vec_t *v, const api_vec_out_t *out) { v->out = *out; }

static size_t obs_size(const game_t *g)
{
    return (size_t)g->obs_shape[0] * g->obs_shape[1] * g->obs_shape[2];
}

/* The learner's observation, mask and legal list of game i (none at the end). */
static void vec_write(const api_vec_t *v, int i)
{
    const game_t *g = v->g;
    const void *s = state_at(v, i);
    const api_vec_out_t *o = &v->out;
    if (o->obs) game_observe(g, s, v->player, o->obs + (size_t)i * obs_size(g));
    int k = game_is_terminal(g, s) ? 0 : game_legal_actions(g, s, v->legal);
    if (o->mask) {
        int8_t *m = o->mask + (size_t)i * g->num_actions;
        memset(m, 0, (size_t)g->num_actions);
        for (int j = 0; j < k; j++) m[v->legal[j]] = 1;
    }
    if (o->legal) {
        int32_t *l = o->legal + (size_t)i * g->max_legal;
        for (int j = 0; j < k; j++) l[j] = v->legal[j];
    }
    if (o->num_legal) o->num_legal[i] = k;
}

int api_vec_reset(api_vec_t *v, const uint64_t *seeds)
{
    for (int i = 0; i < v->n; i++) {
        rng_init(&v->rng[i], seeds[i]);
        int rc = vec_new_game(v, i);
        if (rc < 0) return rc;
        vec_write(v, i);
    }
    return HOYLE_OK;
}

/* Every action checked before any game moves: in the action space always,
 * legal too unless illegal actions lose. */
static int vec_check_actions(const api_vec_t *v, const int32_t *actions)
{
    for (int i = 0; i < v->n; i++) {
        int a = actions[i];
        if (a < 0 || a >= v->g->num_actions)
            return hoyle_error(HOYLE_EINVAL, "vector env: game %d: action %d is outside 0..%d", i,
                               a, v->g->num_actions - 1);
        if (!v->illegal_lose && !game_is_legal(v->g, state_at(v, i), a))
            return hoyle_error(HOYLE_EINVAL, "vector env: game %d: action %d is not legal here", i,
                               a);
    }
    return HOYLE_OK;
}

/* One game's step; fills its reward and ends, returns actions applied. */
static int vec_step_one(api_vec_t *v, int i, int a, float *reward, int8_t *term, int8_t *trunc)
{
    const game_t *g = v->g;
    void *s = state_at(v, i);
    *reward = 0.0f, *term = 0, *trunc = 0;
    if (v->illegal_lose && !game_is_legal(g, s, a)) { /* otherwise checked before */
        *reward = -1.0f, *term = 1;
        return 0;
    }
    if (v->opp) agent_observe(v->opp[i], s, a);
    game_apply(g, s, a);
    if (game_current_player(g, s) != v->player) v->moves[i]++;
    int applied = vec_advance(v, i);
    if (applied < 0) return applied;
    if (game_is_terminal(g, s)) {
        double ret[GAME_MAX_PLAYERS];
        game_returns(g, s, ret);
        *reward = (float)ret[v->player], *term = 1;
    } else if (v->max_moves && v->moves[i] >= v->max_moves) {
        *trunc = 1;
    }
    return 1 + applied;
}

int api_vec_step(api_vec_t *v, const int32_t *actions)
{
    int rc = vec_check_actions(v, actions);
    if (rc) return rc;
    const api_vec_out_t *o = &v->out;
    int applied = 0;
    for (int i = 0; i < v->n; i++) {
        float reward;
        int8_t term, trunc;
        int k = vec_step_one(v, i, actions[i], &reward, &term, &trunc);
        if (k < 0) return k;
        applied += k;
        if (o->rewards) o->rewards[i] = reward;
        if (o->terminated) o->terminated[i] = term;
        if (o->truncated) o->truncated[i] = trunc;
        if (term || trunc) {
            if (o->final_obs)
                game_observe(v->g, state_at(v, i), v->player,
                             o->final_obs + (size_t)i * obs_size(v->g));
            k = vec_new_game(v, i);
            if (k < 0) return k;
            applied += k;
        }
        vec_write(v, i);
    }
    return applied;
}

int api_vec_state(const api_vec_t *v, int i, void *out)
{
    if (i < 0 || i >= v->n)
        return hoyle_error(HOYLE_EINVAL, "vector env: game %d is not 0..%d", i, v->n - 1);
    memcpy(out, state_at(v, i), v->g->state_size);
    return HOYLE_OK;
}
