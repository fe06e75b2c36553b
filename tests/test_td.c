/* test_td.c — TD(λ) (train/td.h, train/tdnet.h): the learning game on a
 * three-move toy equals an independent computation in doubles of the update
 * rule (traces, lambda, the switch of view between players, the terminal
 * target); the move chosen is the afterstate of highest equity (Backgammon);
 * the net's file round-trips and a file for another game, shape or encoding,
 * damaged or truncated, is refused with a one-line error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/rng.h"
#include "games/game.h"
#include "tests/harness.h"
#include "train/td.h"
#include "train/tdnet.h"

/* ---- pick3: players 0, 1, 0 each pick a bit; player 0 wins when the sum is odd ---- */

typedef struct pick_state {
    uint64_t hash;
    int8_t stage, c[3];
} pick_state_t;

static void pick_init(const game_t *g, void *s)
{
    (void)g;
    memset(s, 0, sizeof(pick_state_t));
}
static int pick_player(const game_t *g, const void *sv)
{
    (void)g;
    const pick_state_t *s = sv;
    return s->stage >= 3 ? PLAYER_TERMINAL : s->stage % 2;
}
static int pick_legal(const game_t *g, const void *sv, int *out)
{
    if (pick_player(g, sv) == PLAYER_TERMINAL) return 0;
    out[0] = 0, out[1] = 1;
    return 2;
}
static uint64_t pick_hash(const game_t *g, const void *sv)
{
    (void)g;
    const pick_state_t *s = sv;
    return 1 + (uint64_t)s->stage * 31 + (uint64_t)s->c[0] * 7 + (uint64_t)s->c[1] * 3 +
           (uint64_t)s->c[2] * 1000;
}
static void pick_apply(const game_t *g, void *sv, int a)
{
    pick_state_t *s = sv;
    s->c[s->stage++] = (int8_t)a;
    s->hash = pick_hash(g, s);
}
static void pick_returns(const game_t *g, const void *sv, double *out)
{
    (void)g;
    const pick_state_t *s = sv;
    int odd = (s->c[0] + s->c[1] + s->c[2]) % 2;
    out[0] = odd ? 1 : -1;
    out[1] = -out[0];
}
static void pick_observe(const game_t *g, const void *sv, int player, float *out)
{
    (void)g, (void)player;
    const pick_state_t *s = sv;
    out[0] = (float)s->stage / 3;
    for (int i = 0; i < 3; i++) out[1 + i] = s->c[i];
}
static int pick_text(const game_t *g, const void *s, char *buf, size_t cap)
{
    (void)g, (void)s;
    return snprintf(buf, cap, "pick");
}
static int pick_from(const game_t *g, const char *t, void *s)
{
    (void)g, (void)t, (void)s;
    return HOYLE_EINVAL;
}
static int pick_action_to(const game_t *g, const void *s, int a, char *buf, size_t cap)
{
    (void)g, (void)s;
    return snprintf(buf, cap, "%d", a);
}
static int pick_action_from(const game_t *g, const void *s, const char *t, int *a)
{
    (void)g, (void)s, (void)t, (void)a;
    return HOYLE_EINVAL;
}

static const game_vt_t pick_vt = {
    .init = pick_init,
    .current_player = pick_player,
    .legal_actions = pick_legal,
    .apply = pick_apply,
    .returns = pick_returns,
    .hash = pick_hash,
    .hash_recompute = pick_hash,
    .observe = pick_observe,
    .state_to_string = pick_text,
    .position_to_string = pick_text,
    .position_from_string = pick_from,
    .action_to_string = pick_action_to,
    .action_from_string = pick_action_from,
};

static game_t pick_game = {
    .vt = &pick_vt,
    .spec = "pick3",
    .num_players = 2,
    .state_size = sizeof(pick_state_t),
    .num_actions = 2,
    .max_legal = 2,
    .max_game_length = 3,
    .obs_shape = {4, 1, 1},
    .num_symmetries = 1,
};

/* ---- the oracle: the same rule in doubles, written from the formulas of td.h ---- */

typedef struct oracle {
    int I, H, K;
    double *w; /* the parameters, tdnet's layout: W1 (I x H) | b1 | W2 (K x H) | b2 */
    size_t P;
} oracle_t;

static double sig(double x) { return 1 / (1 + exp(-x)); }

static void o_forward(const oracle_t *o, const double *x, double *h, double *y)
{
    const double *w1 = o->w, *b1 = w1 + o->I * o->H, *w2 = b1 + o->H, *b2 = w2 + o->K * o->H;
    for (int j = 0; j < o->H; j++) {
        double s = b1[j];
        for (int i = 0; i < o->I; i++) s += x[i] * w1[i * o->H + j];
        h[j] = sig(s);
    }
    for (int k = 0; k < o->K; k++) {
        double s = b2[k];
        for (int j = 0; j < o->H; j++) s += w2[k * o->H + j] * h[j];
        y[k] = sig(s);
    }
}

/* d y_k / d w for every parameter, added to g (scaled by `scale`). */
static void o_grad_add(const oracle_t *o, const double *x, const double *h, const double *y, int k,
                       double scale, double *g)
{
    const double *w2 = o->w + o->I * o->H + o->H;
    double gk = y[k] * (1 - y[k]);
    for (int j = 0; j < o->H; j++) {
        double dh = gk * w2[k * o->H + j] * h[j] * (1 - h[j]);
        for (int i = 0; i < o->I; i++) g[i * o->H + j] += scale * x[i] * dh;
        g[o->I * o->H + j] += scale * dh;
        g[o->I * o->H + o->H + k * o->H + j] += scale * gk * h[j];
    }
    g[o->I * o->H + o->H + o->K * o->H + k] += scale * gk;
}

/* The net of the hand computation: pick3's 4 inputs, 3 hidden units and the 2 default heads,
 * random weights from `seed` (drawn from *rng, which goes on from there) and nonzero output
 * biases; NULL (a failed assertion) when it cannot be made. */
static tdnet_t *pick_net(uint64_t seed, rng_t *rng)
{
    rng_init(rng, seed);
    tdnet_t *net = NULL;
    HARNESS_OK(tdnet_create(4, 3, 2, 0.8, rng, &net));
    if (net == NULL) return NULL;
    memcpy(net->game, "pick3", 6);
    snprintf(net->features, sizeof net->features, "raw");
    for (int k = 0; k < 2; k++) net->b2[k] = 0.3f * (float)(k + 1); /* nonzero biases too */
    return net;
}

static void test_learn_game_by_hand(void)
{
    const game_t *g = &pick_game;
    rng_t rng;
    tdnet_t *net = pick_net(5, &rng);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    oracle_t o = {.I = 4, .H = 3, .K = 2, .P = net->num_params};
    o.w = malloc(sizeof(double) * o.P);
    for (size_t p = 0; p < o.P; p++) o.w[p] = net->params[p];
    const double alpha = 0.5, lambda = 0.6;

    /* the oracle's game: e[k] is head k's trace in the view of the latest mover */
    double *e = calloc(2 * o.P, sizeof *e), *e2 = calloc(2 * o.P, sizeof *e2);
    pick_state_t s, best, after;
    pick_init(g, &s);
    double prev_y[2] = {0, 0};
    int prev_owner = -1, n_chosen = 0;
    while (s.stage < 3) {
        int owner = s.stage % 2;
        double best_e = -1e9, best_y[2] = {0, 0};
        for (int a = 0; a < 2; a++) {
            after = s;
            pick_apply(g, &after, a);
            double y[2], x[4], h[3];
            if (after.stage == 3) {
                double r[2];
                pick_returns(g, &after, r);
                y[0] = r[owner] > 0, y[1] = r[owner] < 0;
            } else {
                float xf[4];
                pick_observe(g, &after, owner, xf);
                for (int i = 0; i < 4; i++) x[i] = xf[i];
                o_forward(&o, x, h, y);
            }
            double eq = y[0] - y[1];
            if (a == 0 || eq > best_e)
                best_e = eq, best = after, best_y[0] = y[0], best_y[1] = y[1];
        }
        n_chosen++;
        if (prev_owner >= 0) {
            /* the default heads (win, loss) seen by the other player swap */
            double z[2] = {owner == prev_owner ? best_y[0] : best_y[1],
                           owner == prev_owner ? best_y[1] : best_y[0]};
            for (int k = 0; k < 2; k++)
                for (size_t p = 0; p < o.P; p++)
                    o.w[p] += alpha * (z[k] - prev_y[k]) * e[k * o.P + p];
            for (size_t p = 0; p < 2 * o.P; p++) e[p] *= lambda;
            if (owner != prev_owner) { /* trace of head k := trace of head other[k] */
                memcpy(e2, e + o.P, sizeof(double) * o.P);
                memcpy(e2 + o.P, e, sizeof(double) * o.P);
                memcpy(e, e2, sizeof(double) * 2 * o.P);
            }
        }
        s = best;
        if (s.stage == 3) break;
        double x[4], h[3];
        float xf[4];
        pick_observe(g, &s, owner, xf);
        for (int i = 0; i < 4; i++) x[i] = xf[i];
        o_forward(&o, x, h, prev_y);
        for (int k = 0; k < 2; k++) o_grad_add(&o, x, h, prev_y, k, 1.0, e + k * o.P);
        prev_owner = owner;
    }
    CU_ASSERT_EQUAL(n_chosen, 3);

    /* the library's game */
    td_scratch_t t;
    tdnet_trace_t trace;
    HARNESS_OK(td_scratch_init(&t, g, net));
    HARNESS_OK(tdnet_trace_init(&trace, net));
    td_learn_params_t lp = {.alpha = alpha, .lambda = lambda, .explore = 0};
    td_learn_stats_t stats = {0};
    HARNESS_OK(td_learn_game(g, net, &lp, &rng, &t, &trace, &stats));
    CU_ASSERT_EQUAL(stats.games, 1);
    CU_ASSERT_EQUAL(stats.moves, 3);
    double worst = 0, moved = 0;
    for (size_t p = 0; p < o.P; p++) {
        double d = fabs(o.w[p] - net->params[p]);
        if (d > worst) worst = d;
    }
    rng_t r0;
    tdnet_t *start = pick_net(5, &r0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(start);
    for (size_t p = 0; p < o.P; p++) moved += fabs(start->params[p] - net->params[p]);
    CU_ASSERT(moved > 1e-3); /* the game did learn something */
    CU_ASSERT(worst < 1e-5);
    if (worst >= 1e-5) printf("\n  largest difference from the hand computation: %g\n", worst);
    tdnet_free(start);
    tdnet_trace_done(&trace);
    td_scratch_done(&t);
    tdnet_free(net);
    free(o.w);
    free(e);
    free(e2);
}

/* The flip of traces: a permutation with signs, as the heads' other/complement say. */
static void test_trace_flip(void)
{
    tdnet_t *net = NULL;
    rng_t rng;
    rng_init(&rng, 1);
    HARNESS_OK(tdnet_create(2, 2, 3, 0.5, &rng, &net));
    tdnet_trace_t t;
    HARNESS_OK(tdnet_trace_init(&t, net));
    for (int k = 0; k < 3; k++) t.blocks[(size_t)k * t.num_params] = (float)(k + 1);
    game_outcome_heads_t h = {.n = 3, .other = {0, 2, 1}, .complement = {true, false, false}};
    tdnet_trace_flip(&t, &h);
    float got[3];
    for (int k = 0; k < 3; k++) got[k] = t.sign[k] * t.blocks[(size_t)t.slot[k] * t.num_params];
    CU_ASSERT_EQUAL(got[0], -1.0f);
    CU_ASSERT_EQUAL(got[1], 3.0f);
    CU_ASSERT_EQUAL(got[2], 2.0f);
    tdnet_trace_flip(&t, &h); /* twice: back where it was */
    for (int k = 0; k < 3; k++)
        CU_ASSERT_EQUAL(t.sign[k] * t.blocks[(size_t)t.slot[k] * t.num_params], (float)(k + 1));
    tdnet_trace_done(&t);
    tdnet_free(net);
}

/* A net for `g` with the given feature set, small random weights. */
static tdnet_t *make_net(const game_t *g, const char *features, uint64_t seed)
{
    rng_t rng;
    rng_init(&rng, seed);
    game_outcome_heads_t h;
    game_outcome_heads(g, &h);
    tdnet_t *n = NULL;
    int inputs = td_features_size(g, features);
    if (inputs <= 0 || tdnet_create(inputs, 16, h.n, 0.5, &rng, &n)) return NULL;
    snprintf(n->game, sizeof n->game, "%s", g->spec);
    snprintf(n->features, sizeof n->features, "%s", features);
    n->signature = td_features_signature(g, strcmp(features, "expert") == 0);
    return n;
}

typedef struct argmax_ctx {
    td_scratch_t *t;
    int owner;
    double best;
    int count;
} argmax_ctx_t;

static int argmax_visit(const int *actions, int n, const void *after, void *arg)
{
    (void)actions, (void)n;
    argmax_ctx_t *c = arg;
    float y[GAME_MAX_HEADS];
    td_value(c->t, after, c->owner, y);
    double e = td_equity(&c->t->heads, y);
    if (c->count++ == 0 || e > c->best) c->best = e;
    return 0;
}

/* td_choose plays the whole move of highest equity, on backgammon positions along a game. */
static void test_choose_argmax(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("backgammon", &g));
    tdnet_t *net = make_net(g, "expert", 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(net);
    td_scratch_t t;
    HARNESS_OK(td_scratch_init(&t, g, net));
    rng_t rng;
    rng_init(&rng, 9);
    char *s = malloc(g->state_size);
    int actions[64];
    double probs[64];
    game_init(g, s);
    int checked = 0;
    for (int turn = 0; turn < 60 && !game_is_terminal(g, s); turn++) {
        while (game_is_chance(g, s)) {
            int n = game_chance_outcomes(g, s, actions, probs);
            game_apply(g, s, actions[rng_below(&rng, (uint32_t)n)]);
        }
        if (game_is_terminal(g, s)) break;
        argmax_ctx_t c = {.t = &t, .owner = game_current_player(g, s)};
        game_whole_moves(g, s, argmax_visit, &c);
        int n = td_choose(&t, s, 0, &rng);
        CU_ASSERT_EQUAL(n, c.count);
        CU_ASSERT_DOUBLE_EQUAL(td_equity(&t.heads, t.best_y), c.best, 1e-12);
        /* the move's actions lead from s to the afterstate kept */
        char *check = malloc(g->state_size);
        memcpy(check, s, g->state_size);
        for (int i = 0; i < t.best_n; i++)
            HARNESS_OK(game_apply_checked(g, check, t.best_actions[i]));
        CU_ASSERT_EQUAL(game_hash(g, check), game_hash(g, t.best));
        free(check);
        memcpy(s, t.best, g->state_size);
        checked++;
    }
    CU_ASSERT(checked > 20);
    free(s);
    td_scratch_done(&t);
    tdnet_free(net);
    game_free(g);
}

/* Backgammon's heads: targets of a finished game and the equity's scoring. */
static void test_backgammon_heads(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("backgammon", &g));
    game_outcome_heads_t h;
    game_outcome_heads(g, &h);
    CU_ASSERT_EQUAL(h.n, 5);
    float y[5] = {1, 0, 0, 0, 0}, o[5];
    CU_ASSERT_DOUBLE_EQUAL(td_equity(&h, y), 1.0, 1e-12); /* a sure single win: +1 */
    td_view_other(&h, y, o);
    CU_ASSERT_DOUBLE_EQUAL(td_equity(&h, o), -1.0, 1e-12);
    float gam[5] = {1, 1, 0, 0, 0};
    td_view_other(&h, gam, o);
    CU_ASSERT_EQUAL(o[0], 0.0f);
    CU_ASSERT_EQUAL(o[3], 1.0f); /* the other side loses a gammon */
    game_free(g);
    HARNESS_OK(game_create("backgammon(scoring=points)", &g));
    game_outcome_heads(g, &h);
    CU_ASSERT_DOUBLE_EQUAL(td_equity(&h, gam), 2.0 / 3, 1e-12); /* a gammon: 2 points of 3 */
    game_free(g);
}

static void expect_refused(const char *path, const game_t *g, const char *words)
{
    tdnet_t *n = NULL;
    int rc = tdnet_load(path, g, &n);
    if (rc == 0) rc = td_net_check(g, n, path);
    CU_ASSERT(rc < 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), words));
    CU_ASSERT_PTR_NULL(strchr(hoyle_last_error(), '\n'));
    if (rc == 0 || !strstr(hoyle_last_error(), words))
        printf("\n  %s: got '%s', wanted '%s'\n", path, hoyle_last_error(), words);
    tdnet_free(n);
}

static void test_files(void)
{
    const game_t *bg = NULL, *ck = NULL;
    HARNESS_OK(game_create("backgammon", &bg));
    HARNESS_OK(game_create("checkers", &ck));
    char dir[] = "/tmp/hoyle-test-td-XXXXXX", path[256], bad[256];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/net.td", dir);
    snprintf(bad, sizeof bad, "%s/bad.td", dir);
    tdnet_t *n = make_net(bg, "expert", 4), *back = NULL;
    HARNESS_OK(tdnet_save(n, path));
    HARNESS_OK(tdnet_load(path, bg, &back));
    HARNESS_OK(td_net_check(bg, back, path));
    CU_ASSERT_EQUAL(back->num_params, n->num_params);
    CU_ASSERT(memcmp(back->params, n->params, sizeof(float) * n->num_params) == 0);
    tdnet_free(back);
    expect_refused(path, ck, "not for 'checkers");
    expect_refused("/nonexistent/x.td", bg, "/nonexistent/x.td");
    /* read the file's bytes, then write damaged copies */
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *bytes = malloc((size_t)len);
    CU_ASSERT_EQUAL(fread(bytes, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    struct {
        long cut, flip;
        const char *words;
    } cases[] = {{len - 7, -1, "truncated"}, {len, len - 100, "checksum"}, {5, -1, "not a hoyle"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        FILE *w = fopen(bad, "wb");
        if (cases[i].flip >= 0) bytes[cases[i].flip] ^= 0x40;
        fwrite(bytes, 1, (size_t)cases[i].cut, w);
        fclose(w);
        if (cases[i].flip >= 0) bytes[cases[i].flip] ^= 0x40;
        expect_refused(bad, bg, cases[i].words);
    }
    /* another shape declared for the same game, and another encoding of the features */
    tdnet_t *raw = make_net(bg, "raw", 5);
    snprintf(raw->features, sizeof raw->features, "expert"); /* claims expert, has raw's size */
    HARNESS_OK(tdnet_save(raw, bad));
    expect_refused(bad, bg, "inputs");
    tdnet_t *sig = make_net(bg, "expert", 6);
    sig->signature ^= 1;
    HARNESS_OK(tdnet_save(sig, bad));
    expect_refused(bad, bg, "signature");
    tdnet_free(raw);
    tdnet_free(sig);
    free(bytes);
    tdnet_free(n);
    unlink(path);
    unlink(bad);
    rmdir(dir);
    game_free(bg);
    game_free(ck);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"learning game equals the rule computed by hand", test_learn_game_by_hand},
        {"trace flip", test_trace_flip},
        {"choice is the argmax (backgammon)", test_choose_argmax},
        {"backgammon heads", test_backgammon_heads},
        {"net files: round trip and refusals", test_files},
        {NULL, NULL},
    };
    return harness_run("td", tests);
}
