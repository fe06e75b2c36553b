/* toy_games.c — the toy games of toy_games.h. States are small structs
 * zeroed before being filled (no padding garbage), hashed by FNV-1a over
 * their bytes. */
#include "tests/toy_games.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

typedef struct toy_state {
    int8_t a, b;     /* nim/chain: pile, extra_used; dice: score 0, score 1; puzzle: value, moves */
    int8_t player;   /* to move (or PLAYER_CHANCE / PLAYER_TERMINAL) */
    int8_t phase;    /* dice: 0 roll, 1 decide, 2 gamble; chain: extra used */
    int8_t roll;     /* dice */
    int8_t turns;    /* dice: turns played */
    int8_t mover;    /* dice: player whose turn it is */
    int8_t board[9]; /* ttt */
    int8_t winner;   /* ttt: -1 none, 0/1, 2 = draw */
} toy_state_t;

typedef struct toy_impl {
    int kind;
} toy_impl_t;

enum { NIM, CHAIN, DICE, PUZZLE, TTT };

const char *const toy_names[] = {"nim", "chain", "dice", "puzzle", "ttt", NULL};

static int kind_of(const game_t *g) { return ((const toy_impl_t *)g->impl)->kind; }

static uint64_t toy_hash(const game_t *g, const void *s)
{
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *p = s;
    for (size_t i = 0; i < g->state_size; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static void toy_init(const game_t *g, void *sv)
{
    toy_state_t *s = sv;
    memset(s, 0, sizeof *s);
    s->winner = -1;
    switch (kind_of(g)) {
    case NIM: s->a = 15; break;
    case CHAIN: s->a = 13; break;
    case DICE: s->player = PLAYER_CHANCE; break;
    case PUZZLE: s->a = 1; break;
    default: break;
    }
}

static int ttt_line(const int8_t *b)
{
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                    {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int i = 0; i < 8; i++) {
        int v = b[lines[i][0]];
        if (v && v == b[lines[i][1]] && v == b[lines[i][2]]) return v - 1;
    }
    return -1;
}

static int toy_current(const game_t *g, const void *sv)
{
    (void)g;
    return ((const toy_state_t *)sv)->player;
}

static int toy_legal(const game_t *g, const void *sv, int *out)
{
    const toy_state_t *s = sv;
    int n = 0;
    if (s->player == PLAYER_TERMINAL) return 0;
    switch (kind_of(g)) {
    case NIM:
    case CHAIN:
        for (int k = 1; k <= 3 && k <= s->a; k++) out[n++] = k - 1;
        break;
    case DICE:
        if (s->phase == 0)
            for (int k = 0; k < 3; k++) out[n++] = 2 + k;
        else if (s->phase == 1)
            out[n++] = 0, out[n++] = 1;
        else
            out[n++] = 5, out[n++] = 6;
        break;
    case PUZZLE:
        for (int k = 0; k < 3; k++) out[n++] = k;
        break;
    case TTT:
        for (int k = 0; k < 9; k++)
            if (!s->board[k]) out[n++] = k;
        break;
    }
    return n;
}

static int toy_chance(const game_t *g, const void *sv, int *actions, double *probs)
{
    (void)g;
    const toy_state_t *s = sv;
    if (s->player != PLAYER_CHANCE) return 0;
    if (s->phase == 0) {
        static const double p[3] = {0.5, 0.3, 0.2};
        for (int k = 0; k < 3; k++) actions[k] = 2 + k, probs[k] = p[k];
        return 3;
    }
    actions[0] = 5, probs[0] = 0.4;
    actions[1] = 6, probs[1] = 0.6;
    return 2;
}

static void dice_end_turn(toy_state_t *s)
{
    s->turns++;
    s->mover = (int8_t)(1 - s->mover);
    s->phase = 0;
    s->player = s->turns >= 4 ? PLAYER_TERMINAL : PLAYER_CHANCE;
}

static void toy_apply(const game_t *g, void *sv, int action)
{
    toy_state_t *s = sv;
    switch (kind_of(g)) {
    case NIM:
        s->a = (int8_t)(s->a - (action + 1));
        s->winner = s->player;
        s->player = s->a == 0 ? PLAYER_TERMINAL : (int8_t)(1 - s->player);
        break;
    case CHAIN:
        s->a = (int8_t)(s->a - (action + 1));
        s->winner = s->player;
        if (s->a == 0)
            s->player = PLAYER_TERMINAL;
        else if (action == 0 && !s->phase)
            s->phase = 1; /* same player again */
        else
            s->phase = 0, s->player = (int8_t)(1 - s->player);
        break;
    case DICE:
        if (s->phase == 0) {
            s->roll = (int8_t)(action - 1);
            s->phase = 1;
            s->player = s->mover;
        } else if (s->phase == 1) {
            if (action == 0) {
                if (s->mover == 0)
                    s->a = (int8_t)(s->a + s->roll);
                else
                    s->b = (int8_t)(s->b + s->roll);
                dice_end_turn(s);
            } else {
                s->phase = 2;
                s->player = PLAYER_CHANCE;
            }
        } else {
            if (action == 5) {
                if (s->mover == 0)
                    s->a = (int8_t)(s->a + 2 * s->roll);
                else
                    s->b = (int8_t)(s->b + 2 * s->roll);
            }
            dice_end_turn(s);
        }
        break;
    case PUZZLE:
        s->a = (int8_t)(action == 0 ? s->a + 1 : action == 1 ? s->a * 2 : s->a + 3);
        s->b++;
        if (s->a >= 10 || s->b >= 6) s->player = PLAYER_TERMINAL;
        break;
    case TTT:
        s->board[action] = (int8_t)(s->player + 1);
        s->player = (int8_t)(1 - s->player);
        if (ttt_line(s->board) >= 0)
            s->winner = (int8_t)ttt_line(s->board), s->player = PLAYER_TERMINAL;
        else if (toy_legal(g, s, (int[9]){0}) == 0)
            s->winner = 2, s->player = PLAYER_TERMINAL;
        break;
    }
}

static void toy_returns(const game_t *g, const void *sv, double *out)
{
    const toy_state_t *s = sv;
    out[0] = out[1] = 0;
    switch (kind_of(g)) {
    case NIM:
    case CHAIN: out[s->winner] = 1, out[1 - s->winner] = -1; break;
    case DICE:
        out[0] = s->a > s->b ? 1 : s->a < s->b ? -1 : 0;
        out[1] = -out[0];
        break;
    case PUZZLE:
        out[0] = s->a == 10 ? 1.0 - 0.4 * (s->b - 3) : -1.0;
        if (out[0] > 1) out[0] = 1;
        break;
    case TTT:
        if (s->winner == 0 || s->winner == 1) out[s->winner] = 1, out[1 - s->winner] = -1;
        break;
    }
}

static double toy_evaluate(const game_t *g, const void *s, int player)
{
    double v = (double)(rng_mix(toy_hash(g, s)) >> 11) / 9007199254740992.0 * 1.8 - 0.9;
    if (g->num_players == 1) return v;
    return player == 0 ? v : -v;
}

static bool toy_noisy(const game_t *g, const void *s, int action)
{
    (void)s;
    return (kind_of(g) == NIM && action == 2) || (kind_of(g) == TTT && action == 4);
}

static void toy_observe(const game_t *g, const void *s, int player, float *out)
{
    (void)g, (void)player;
    out[0] = ((const toy_state_t *)s)->a;
}

static int toy_state_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const toy_state_t *s = sv;
    int n;
    if (kind_of(g) == TTT) {
        char b[10];
        for (int i = 0; i < 9; i++) b[i] = ".XO"[s->board[i]];
        n = snprintf(buf, cap, "%.3s\n%.3s\n%.3s\nto move: %d\n", b, b + 3, b + 6, s->player);
    } else {
        n = snprintf(buf, cap, "a=%d b=%d phase=%d roll=%d turns=%d to move: %d\n", s->a, s->b,
                     s->phase, s->roll, s->turns, s->player);
    }
    return n < (int)cap ? n : HOYLE_EFULL;
}

static int toy_pos_to(const game_t *g, const void *sv, char *buf, size_t cap)
{
    if (cap < g->state_size * 2 + 1) return HOYLE_EFULL;
    const unsigned char *p = sv;
    for (size_t i = 0; i < g->state_size; i++) snprintf(buf + 2 * i, 3, "%02x", p[i]);
    return (int)(g->state_size * 2);
}

static int toy_pos_from(const game_t *g, const char *text, void *sv)
{
    toy_state_t s;
    if (strlen(text) != g->state_size * 2) return hoyle_error(HOYLE_EINVAL, "toy: bad position");
    unsigned char *p = (unsigned char *)&s;
    for (size_t i = 0; i < g->state_size; i++) {
        unsigned v;
        if (sscanf(text + 2 * i, "%2x", &v) != 1) return hoyle_error(HOYLE_EINVAL, "toy: bad hex");
        p[i] = (unsigned char)v;
    }
    memcpy(sv, &s, sizeof s);
    return HOYLE_OK;
}

static int toy_action_to(const game_t *g, const void *s, int action, char *buf, size_t cap)
{
    (void)g, (void)s;
    int n = snprintf(buf, cap, "%d", action);
    return n < (int)cap ? n : HOYLE_EFULL;
}

static int toy_action_from(const game_t *g, const void *s, const char *text, int *action)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || !game_is_legal(g, s, (int)v))
        return hoyle_error(HOYLE_EINVAL, "toy: '%s' is not a legal action", text);
    *action = (int)v;
    return HOYLE_OK;
}

static const game_vt_t toy_vt = {
    .init = toy_init,
    .current_player = toy_current,
    .legal_actions = toy_legal,
    .apply = toy_apply,
    .returns = toy_returns,
    .hash = toy_hash,
    .hash_recompute = toy_hash,
    .observe = toy_observe,
    .state_to_string = toy_state_string,
    .position_to_string = toy_pos_to,
    .position_from_string = toy_pos_from,
    .action_to_string = toy_action_to,
    .action_from_string = toy_action_from,
    .chance_outcomes = toy_chance,
    .evaluate = toy_evaluate,
    .is_noisy = toy_noisy,
};

const game_t *toy_create(const char *name)
{
    int kind = -1;
    for (int i = 0; toy_names[i]; i++)
        if (strcmp(name, toy_names[i]) == 0) kind = i;
    if (kind < 0) return NULL;
    game_t *g = calloc(1, sizeof *g);
    toy_impl_t *impl = calloc(1, sizeof *impl);
    impl->kind = kind;
    g->vt = &toy_vt;
    g->impl = impl;
    snprintf(g->spec, sizeof g->spec, "toy_%s", name);
    g->num_players = kind == PUZZLE ? 1 : 2;
    g->state_size = sizeof(toy_state_t);
    static const int actions[] = {3, 3, 7, 3, 9}, lengths[] = {15, 13, 12, 6, 9};
    g->num_actions = actions[kind];
    g->max_legal = kind == TTT ? 9 : 3;
    g->max_chance_outcomes = kind == DICE ? 3 : 0;
    g->max_game_length = lengths[kind];
    g->obs_shape[0] = g->obs_shape[1] = g->obs_shape[2] = 1;
    g->num_symmetries = 1;
    return g;
}

void toy_free(const game_t *g)
{
    if (g == NULL) return;
    free(g->impl);
    free((game_t *)g);
}

double toy_solve(const game_t *g, const void *s, int player)
{
    int q = game_current_player(g, s);
    double r[GAME_MAX_PLAYERS];
    if (q == PLAYER_TERMINAL) {
        game_returns(g, s, r);
        return r[player];
    }
    char c[256];
    int actions[16];
    double probs[16], best = -INFINITY, sum = 0;
    if (q == PLAYER_CHANCE) {
        int n = game_chance_outcomes(g, s, actions, probs);
        for (int i = 0; i < n; i++) {
            memcpy(c, s, g->state_size);
            game_apply(g, c, actions[i]);
            sum += probs[i] * toy_solve(g, c, player);
        }
        return sum;
    }
    int n = game_legal_actions(g, s, actions);
    for (int i = 0; i < n; i++) {
        memcpy(c, s, g->state_size);
        game_apply(g, c, actions[i]);
        double v = toy_solve(g, c, q);
        if (v > best) best = v;
    }
    return q == player ? best : -best;
}

static const struct {
    const char *toy;
    int moves[8], n;
} toy_positions[TOY_POSITIONS] = {
    {"nim", {0}, 0},
    {"ttt", {0, 3, 1, 4}, 4},
    {"ttt", {4, 0}, 2},
    {"chain", {0}, 0},
    {"dice", {3, 0, 4, 1, 6, 2, 0, 4}, 8},
    {"puzzle", {0}, 0},
};

const game_t *toy_position(int i, void **state, int *player, const char **name)
{
    const game_t *g = toy_create(toy_positions[i].toy);
    void *s = malloc(g->state_size);
    game_init(g, s);
    for (int k = 0; k < toy_positions[i].n; k++) game_apply(g, s, toy_positions[i].moves[k]);
    *state = s;
    *player = game_current_player(g, s);
    *name = toy_positions[i].toy;
    return g;
}
