/* td.c — TD(λ) over afterstates (td.h): features, the choice of a whole
 * move by the net, and the self-play game that learns. Invariant of
 * td_learn_game: the traces always hold gradients in the view of the player
 * who made the latest afterstate. */
#include "train/td.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "games/playout.h"

int td_features_size(const game_t *g, const char *set)
{
    if (strcmp(set, "raw") == 0) return game_obs_size(g);
    if (strcmp(set, "expert") != 0)
        return hoyle_error(HOYLE_EINVAL, "feature set '%s': not one of raw, expert", set);
    int extra = game_features_size(g);
    if (extra <= 0)
        return hoyle_error(HOYLE_EINVAL, "feature set 'expert': %s has no hand-made features",
                           g->spec);
    return game_obs_size(g) + extra;
}

void td_features(const game_t *g, bool expert, const void *s, int player, float *out)
{
    game_observe(g, s, player, out);
    if (expert) game_features(g, s, player, out + game_obs_size(g));
}

uint64_t td_features_signature(const game_t *g, bool expert)
{
    int n = game_obs_size(g) + (expert ? game_features_size(g) : 0);
    float *x = malloc(sizeof(float) * (size_t)n);
    void *s = malloc(g->state_size);
    int *legal = malloc(sizeof(int) * (size_t)(g->max_legal + g->max_chance_outcomes + 1));
    uint64_t h = 0xcbf29ce484222325ULL;
    if (x && s && legal) {
        game_init(g, s);
        /* a fixed line: the middle legal action (or outcome) of every state, 24 states */
        for (int step = 0; step < 24 && !game_is_terminal(g, s); step++) {
            for (int p = 0; p < g->num_players; p++) {
                td_features(g, expert, s, p, x);
                const unsigned char *b = (const unsigned char *)x;
                for (size_t i = 0; i < sizeof(float) * (size_t)n; i++)
                    h = (h ^ b[i]) * 0x100000001b3ULL;
            }
            int k = game_legal_actions(g, s, legal);
            if (k <= 0) break;
            game_apply(g, s, legal[k / 2]);
        }
    }
    free(x);
    free(s);
    free(legal);
    return h;
}

int td_net_check(const game_t *g, const tdnet_t *n, const char *what)
{
    if (strcmp(n->game, g->spec) != 0)
        return hoyle_error(HOYLE_EINVAL, "%s: a TD net for '%s', not for '%s'", what, n->game,
                           g->spec);
    int size = td_features_size(g, n->features);
    if (size < 0) return hoyle_error_prefix(HOYLE_EINVAL, "%s", what);
    game_outcome_heads_t h;
    game_outcome_heads(g, &h);
    if (size != n->inputs || h.n != n->heads)
        return hoyle_error(HOYLE_EINVAL,
                           "%s: %d inputs and %d heads, but %s with features '%s' has %d and %d",
                           what, n->inputs, n->heads, g->spec, n->features, size, h.n);
    if (td_features_signature(g, strcmp(n->features, "expert") == 0) != n->signature)
        return hoyle_error(HOYLE_EINVAL,
                           "%s: made with another encoding of the '%s' features of %s "
                           "(signature differs); train it again",
                           what, n->features, g->spec);
    return HOYLE_OK;
}

double td_equity(const game_outcome_heads_t *h, const float *y)
{
    double e = h->bias;
    for (int k = 0; k < h->n; k++) e += h->weight[k] * y[k];
    return e;
}

void td_view_other(const game_outcome_heads_t *h, const float *y, float *out)
{
    for (int k = 0; k < h->n; k++) {
        float v = y[h->other[k]];
        out[k] = h->complement[k] ? 1.0f - v : v;
    }
}

int td_scratch_init(td_scratch_t *t, const game_t *g, const tdnet_t *net)
{
    memset(t, 0, sizeof *t);
    t->g = g;
    t->net = net;
    t->expert = strcmp(net->features, "expert") == 0;
    game_outcome_heads(g, &t->heads);
    t->inputs = net->inputs;
    t->x = malloc(sizeof(float) * (size_t)net->inputs);
    t->h = malloc(sizeof(float) * (size_t)net->hidden);
    t->best = malloc(g->state_size);
    t->best_actions = malloc(sizeof(int) * (size_t)(g->max_game_length + 1));
    if (!t->x || !t->h || !t->best || !t->best_actions) {
        td_scratch_done(t);
        return hoyle_error(HOYLE_ENOMEM, "td: out of memory");
    }
    return HOYLE_OK;
}

void td_scratch_done(td_scratch_t *t)
{
    free(t->x);
    free(t->h);
    free(t->best);
    free(t->best_actions);
    t->x = t->h = NULL;
    t->best = NULL;
    t->best_actions = NULL;
}

void td_value(td_scratch_t *t, const void *a, int owner, float *y)
{
    if (game_is_terminal(t->g, a)) {
        game_outcome_targets(t->g, a, owner, y);
        return;
    }
    td_features(t->g, t->expert, a, owner, t->x);
    tdnet_forward(t->net, t->x, t->h, y);
}

/* The visitor of td_choose: value each afterstate, keep the best (or the k-th for an
 * exploring move). */
typedef struct choose_ctx {
    td_scratch_t *t;
    int owner, pick; /* pick >= 0: take move number `pick` whatever its value */
    int count;
    double best;
} choose_ctx_t;

static int choose_visit(const int *actions, int n, const void *after, void *arg)
{
    choose_ctx_t *c = arg;
    td_scratch_t *t = c->t;
    int index = c->count++;
    if (c->pick >= 0 && index != c->pick) return 0;
    float y[GAME_MAX_HEADS];
    td_value(t, after, c->owner, y);
    double e = td_equity(&t->heads, y);
    if (c->pick < 0 && index > 0 && e <= c->best) return 0;
    c->best = e;
    memcpy(t->best, after, t->g->state_size);
    memcpy(t->best_y, y, sizeof y);
    t->best_terminal = game_is_terminal(t->g, after);
    memcpy(t->best_actions, actions, sizeof(int) * (size_t)n);
    t->best_n = n;
    return 0;
}

int td_choose(td_scratch_t *t, const void *s, double explore, rng_t *rng)
{
    choose_ctx_t c = {.t = t, .owner = game_current_player(t->g, s), .pick = -1};
    if (explore > 0 && rng_double(rng) < explore) {
        /* count the moves, then value only the one drawn */
        choose_ctx_t count = c;
        count.pick = 1 << 30;
        int n = game_whole_moves(t->g, s, choose_visit, &count);
        if (n < 0) return n;
        if (n == 0) return hoyle_error(HOYLE_ESTATE, "td: no legal move");
        c.pick = (int)rng_below(rng, (uint32_t)count.count);
    }
    int n = game_whole_moves(t->g, s, choose_visit, &c);
    if (n < 0) return n;
    return c.count > 0 ? c.count : hoyle_error(HOYLE_ESTATE, "td: no legal move");
}

/* Roll the dice (chance nodes) until a player is to move or the game is over. */
static int settle_chance(const game_t *g, void *s, rng_t *rng, int *actions, double *probs)
{
    while (game_is_chance(g, s)) {
        int a = game_chance_sample(g, s, rng, actions, probs);
        if (a < 0) return a;
        game_apply(g, s, a);
    }
    return HOYLE_OK;
}

static void count_result(const game_t *g, const td_scratch_t *t, const void *end,
                         td_learn_stats_t *stats)
{
    double r[GAME_MAX_PLAYERS];
    game_returns(g, end, r);
    stats->games++;
    if (r[0] == r[1]) {
        stats->draws++;
        return;
    }
    int winner = r[0] > r[1] ? 0 : 1;
    stats->first_wins += winner == 0;
    float y[GAME_MAX_HEADS];
    game_outcome_targets(g, end, winner, y);
    bool gammon = false;
    for (int k = 1; k < t->heads.n && t->heads.n > 2; k++) gammon |= y[k] > 0;
    stats->gammons += gammon;
}

int td_learn_game(const game_t *g, tdnet_t *net, const td_learn_params_t *p, rng_t *rng,
                  td_scratch_t *t, tdnet_trace_t *trace, td_learn_stats_t *stats)
{
    const int K = net->heads;
    int width = g->max_chance_outcomes > 0 ? g->max_chance_outcomes : 1;
    int actions[256];
    double probs[256];
    if (width > 256) return hoyle_error(HOYLE_EINVAL, "td: %d chance outcomes", width);
    void *s = malloc(g->state_size);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "td: out of memory");
    game_init(g, s);
    tdnet_trace_clear(trace);
    float prev_y[GAME_MAX_HEADS];
    int prev_owner = -1, status = HOYLE_OK;
    for (;;) {
        if ((status = settle_chance(g, s, rng, actions, probs))) break;
        if (game_is_terminal(g, s)) break; /* only when the game starts over */
        int owner = game_current_player(g, s);
        status = td_choose(t, s, p->explore, rng);
        if (status < 0) break;
        status = HOYLE_OK;
        stats->moves++;
        if (prev_owner >= 0) {
            float z[GAME_MAX_HEADS], delta[GAME_MAX_HEADS];
            if (owner == prev_owner)
                memcpy(z, t->best_y, sizeof z);
            else
                td_view_other(&t->heads, t->best_y, z);
            for (int k = 0; k < K; k++) delta[k] = z[k] - prev_y[k];
            stats->abs_delta += delta[0] < 0 ? -delta[0] : delta[0];
            tdnet_td_step(net, trace, p->alpha, delta, p->lambda);
            if (owner != prev_owner) tdnet_trace_flip(trace, &t->heads);
        }
        memcpy(s, t->best, g->state_size);
        if (t->best_terminal) break;
        /* the gradient of this afterstate's heads, with the weights just updated */
        td_features(g, t->expert, s, owner, t->x);
        tdnet_forward(net, t->x, t->h, prev_y);
        tdnet_trace_add(trace, net, t->x, t->h, prev_y);
        prev_owner = owner;
    }
    if (!status) count_result(g, t, s, stats);
    free(s);
    return status;
}
