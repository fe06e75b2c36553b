/* api_game.c — the flat registry, game and state entry points of api.h:
 * each one checks its arguments against the game before it reaches a vtable
 * slot, so a foreign caller's bad input is an error, never a crash. */
#include "api/api.h"

#include <stdlib.h>
#include <string.h>

#include "data/record.h"
#include "games/playout.h"
#include "games/registry.h"
#include "train/samples.h"

const char *api_version(void) { return HOYLE_VERSION; }

size_t api_sizeof(const char *type)
{
    static const struct {
        const char *name;
        size_t size;
    } sizes[] = {
        {"api_game_info_t", sizeof(api_game_info_t)},
        {"game_record_t", sizeof(game_record_t)},
        {"sample_set_t", sizeof(sample_set_t)},
        {"game_random_stats_t", sizeof(game_random_stats_t)},
        {"agent_game_result_t", sizeof(agent_game_result_t)},
        {"api_vec_out_t", sizeof(api_vec_out_t)},
        {"rng_t", sizeof(rng_t)},
    };
    for (size_t i = 0; type && i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(type, sizes[i].name) == 0) return sizes[i].size;
    return 0;
}

int api_registry_size(void)
{
    int n = 0;
    while (game_registry[n]) n++;
    return n;
}

static const game_entry_t *entry_at(int i)
{
    return i >= 0 && i < api_registry_size() ? game_registry[i] : NULL;
}

const char *api_registry_name(int i)
{
    const game_entry_t *e = entry_at(i);
    return e ? e->name : NULL;
}

const char *api_registry_description(int i)
{
    const game_entry_t *e = entry_at(i);
    return e ? e->description : NULL;
}

const char *api_registry_variant(int i, int j)
{
    const game_entry_t *e = entry_at(i);
    if (e == NULL || e->variants == NULL || j < 0) return NULL;
    for (int k = 0; k < j; k++)
        if (e->variants[k] == NULL) return NULL;
    return e->variants[j];
}

void api_game_info(const game_t *g, api_game_info_t *out)
{
    memset(out, 0, sizeof *out);
    out->name = g->entry->name;
    out->spec = g->spec;
    out->num_players = g->num_players;
    out->num_actions = g->num_actions;
    out->max_legal = g->max_legal;
    out->max_chance_outcomes = g->max_chance_outcomes;
    out->max_game_length = g->max_game_length;
    memcpy(out->obs_shape, g->obs_shape, sizeof out->obs_shape);
    out->num_symmetries = g->num_symmetries;
    out->state_size = g->state_size;
    out->num_seats = g->num_seats;
}

/* malloc's alignment covers GAME_STATE_ALIGN; at least one byte so that a
 * NULL always means out of memory. */
void *api_state_new(const game_t *g)
{
    void *s = malloc(g->state_size ? g->state_size : 1);
    if (s == NULL) {
        hoyle_error(HOYLE_ENOMEM, "%s: out of memory for a state", g->spec);
        return NULL;
    }
    game_init(g, s);
    return s;
}

void *api_state_clone(const game_t *g, const void *s)
{
    void *t = malloc(g->state_size ? g->state_size : 1);
    if (t == NULL) {
        hoyle_error(HOYLE_ENOMEM, "%s: out of memory for a state", g->spec);
        return NULL;
    }
    memcpy(t, s, g->state_size);
    return t;
}

void api_state_copy(const game_t *g, void *dst, const void *src)
{
    if (dst != src) memcpy(dst, src, g->state_size);
}

void api_state_free(void *s) { free(s); }

int api_state_current_player(const game_t *g, const void *s) { return game_current_player(g, s); }

int api_state_current_seat(const game_t *g, const void *s)
{
    int p = game_current_player(g, s);
    return p < 0 ? p : game_current_seat(g, s);
}

int api_state_legal_actions(const game_t *g, const void *s, int *out)
{
    return game_legal_actions(g, s, out);
}

int api_state_step(const game_t *g, void *s, int action, int *legal, int known)
{
    if (known <= 0) {
        int rc = game_apply_checked(g, s, action);
        return rc ? rc : game_legal_actions(g, s, legal);
    }
    int i = 0;
    while (i < known && legal[i] != action) i++;
    if (i == known)
        return hoyle_error(HOYLE_EINVAL, "%s: action %d is not legal here", g->spec, action);
    game_apply(g, s, action);
    return game_legal_actions(g, s, legal);
}

int api_state_settle(const game_t *g, void *s, int *legal, rng_t *dice, double *probs, int *player)
{
    int p = game_current_player(g, s);
    while (p == PLAYER_CHANCE && dice) {
        int a = game_chance_sample(g, s, dice, legal, probs);
        if (a < 0) return a;
        game_apply(g, s, a); /* a listed outcome */
        p = game_current_player(g, s);
    }
    *player = p;
    return p == PLAYER_TERMINAL ? 0 : game_legal_actions(g, s, legal);
}

int api_state_advance(const game_t *g, void *s, int action, int *legal, int known, rng_t *dice,
                      double *probs, int *player)
{
    if (known <= 0) {
        int rc = game_apply_checked(g, s, action);
        if (rc) return rc;
    } else {
        int i = 0;
        while (i < known && legal[i] != action) i++;
        if (i == known)
            return hoyle_error(HOYLE_EINVAL, "%s: action %d is not legal here", g->spec, action);
        game_apply(g, s, action);
    }
    return api_state_settle(g, s, legal, dice, probs, player);
}

void api_state_returns(const game_t *g, const void *s, double *out)
{
    if (game_is_terminal(g, s)) {
        game_returns(g, s, out);
        return;
    }
    for (int p = 0; p < g->num_players; p++) out[p] = 0.0;
}

uint64_t api_state_hash(const game_t *g, const void *s) { return game_hash(g, s); }

int api_state_observe(const game_t *g, const void *s, int player, float *out)
{
    if (player < 0 || player >= g->num_players)
        return hoyle_error(HOYLE_EINVAL, "%s: player %d is not 0..%d", g->spec, player,
                           g->num_players - 1);
    game_observe(g, s, player, out);
    return HOYLE_OK;
}

int api_state_observe_mask(const game_t *g, const void *s, int player, float *obs, int8_t *mask,
                           int *legal, int known)
{
    int rc = api_state_observe(g, s, player, obs);
    if (rc < 0) return rc;
    int n = known > 0 ? known : game_legal_actions(g, s, legal);
    memset(mask, 0, (size_t)g->num_actions);
    for (int i = 0; i < n; i++) mask[legal[i]] = 1;
    return n;
}

int api_state_chance_outcomes(const game_t *g, const void *s, int *actions, double *probs)
{
    return game_is_chance(g, s) ? game_chance_outcomes(g, s, actions, probs) : 0;
}

/* Every action is checked in a copy first: the move writers assume legal
 * actions by one player. */
int api_move_to_string(const game_t *g, const void *s, const int *actions, int n, char *buf,
                       size_t cap)
{
    if (n < 1 || n > GAME_MAX_CHAIN)
        return hoyle_error(HOYLE_EINVAL, "%s: a whole move has 1..%d actions, not %d", g->spec,
                           GAME_MAX_CHAIN, n);
    int player = game_current_player(g, s);
    if (player < 0) return hoyle_error(HOYLE_ESTATE, "%s: no player is to move", g->spec);
    void *t = api_state_clone(g, s);
    if (t == NULL) return HOYLE_ENOMEM;
    int rc = HOYLE_OK;
    for (int i = 0; i < n && rc == HOYLE_OK; i++) {
        if (game_current_player(g, t) != player)
            rc = hoyle_error(HOYLE_EINVAL, "%s: action %d of the move is not by player %d", g->spec,
                             i + 1, player);
        else
            rc = game_apply_checked(g, t, actions[i]);
    }
    free(t);
    return rc ? rc : game_move_to_string(g, s, actions, n, buf, cap);
}
