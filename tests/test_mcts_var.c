/* test_mcts_var.c — the MCTS variants (mcts/mcts_var.h): RAVE/GRAVE statistics
 * against a hand count and against an independent recount of every
 * simulation, the MAST and NST tables the same way, the implicit minimax values
 * against a minimax over the tree, progressive widening's bound on the children
 * (and outcomes) visited, each knob changing the search, the agent keys and
 * their errors, and every registered game with each variant. White-box: it reads
 * the searcher's internals (mcts_var.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "games/playout.h"
#include "games/registry.h"
#include "mcts/agent.h"
#include "mcts/mcts_var.h"
#include "tests/harness.h"
#include "tests/toy_games.h"

/* A searcher over `g` with its own playouts (one per leaf), solver off. */
static mcts_t *searcher(const game_t *g, mcts_params_t *p, long long sims, uint64_t seed)
{
    p->max_sims = sims;
    p->seed = seed;
    p->solver = false;
    p->max_nodes = 0; /* sized from sims */
    if (p->playouts == 0) p->playouts = 1;
    mcts_t *m = NULL;
    HARNESS_OK(mcts_create(g, p, NULL, &m));
    return m;
}

/* ---- a hand count: tic-tac-toe with two empty cells ---- */

/*  X O X
 *  X O O     O to move; O on 6 lets X draw on 8, O on 8 lets X win on 6.
 *  . X .                                                                  */
static void ttt_two_empty(const game_t *g, void *s)
{
    static const int moves[] = {0, 1, 2, 4, 3, 5, 7};
    game_init(g, s);
    for (int i = 0; i < 7; i++) game_apply(g, s, moves[i]);
}

static void test_amaf_hand_count(void)
{
    const game_t *g = toy_create("ttt");
    char root[256];
    ttt_two_empty(g, root);
    uint64_t h_root = game_hash(g, root);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        mcts_params_t p;
        mcts_params_default(&p);
        p.rave = true;
        mcts_t *m = searcher(g, &p, 1, seed);
        const mcts_result_t *r;
        /* simulation 1: the root is the leaf; the playout is O on a, X on the other */
        HARNESS_OK(mcts_search(m, root, &r));
        const mcts_var_t *v = m->var;
        CU_ASSERT_EQUAL(v->seq_tree, 0);
        CU_ASSERT_EQUAL(v->seq_len, 2);
        int a = v->seq[0];
        double r_o = a == 8 ? -1 : 0; /* O on 8: X wins on 6; O on 6: a draw */
        uint32_t n;
        double sum;
        /* the root (O to move) counts O's one action, nothing of X's */
        CU_ASSERT(mcts_amaf_stats(m, h_root, a, &n, &sum) && n == 1 && sum == r_o);
        CU_ASSERT(!mcts_amaf_stats(m, h_root, 14 - a, &n, &sum));
        CU_ASSERT_EQUAL(v->amaf_table.used, 1);
        /* simulation 2: the child with AMAF samples is scored by them, the other one by
         * UCT's infinite FPU, so the descent takes b, the cell O did not play, a leaf;
         * its playout is X on a. O on 6 ends in a draw, O on 8 in X's win on 6. */
        HARNESS_OK(mcts_search(m, root, &r));
        int b = 14 - a;
        char child[256];
        memcpy(child, root, g->state_size);
        game_apply(g, child, b);
        CU_ASSERT_EQUAL(v->seq_tree, 1);
        CU_ASSERT(mcts_amaf_stats(m, h_root, 6, &n, &sum) && n == 1 && sum == 0);
        CU_ASSERT(mcts_amaf_stats(m, h_root, 8, &n, &sum) && n == 1 && sum == -1);
        CU_ASSERT(mcts_amaf_stats(m, game_hash(g, child), a, &n, &sum) && n == 1 &&
                  sum == (b == 8 ? 1 : 0));
        CU_ASSERT_EQUAL(v->amaf_table.used, 3);
        mcts_free(m);
    }
    toy_free(g);
}

/* ---- an independent recount of every simulation ---- */

typedef struct ref_entry {
    uint64_t key;
    long long n;
    double sum;
} ref_entry_t;

typedef struct ref_table {
    ref_entry_t *e;
    int n, cap;
} ref_table_t;

static void ref_add(ref_table_t *t, uint64_t key, double value)
{
    for (int i = 0; i < t->n; i++)
        if (t->e[i].key == key) {
            t->e[i].n++;
            t->e[i].sum += value;
            return;
        }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->e = realloc(t->e, sizeof *t->e * (size_t)t->cap);
    }
    t->e[t->n++] = (ref_entry_t){.key = key, .n = 1, .sum = value};
}

/* Replays the last simulation (v->seq from `root`) and counts it the plain way:
 * at each tree position i whose mover is p, every distinct action p plays at i or
 * later gets one count of p's return; every (player, action) and (player,
 * previous, action) of the simulation one count of its player's return. */
static void recount(const game_t *g, const mcts_var_t *v, const void *root, ref_table_t *amaf,
                    ref_table_t *hist, ref_table_t *ngram)
{
    char s[256], end[256];
    memcpy(end, root, g->state_size);
    for (int j = 0; j < v->seq_len; j++) game_apply(g, end, v->seq[j]);
    CU_ASSERT_FATAL(game_is_terminal(g, end));
    double ret[GAME_MAX_PLAYERS];
    game_returns(g, end, ret);
    memcpy(s, root, g->state_size);
    for (int i = 0; i <= v->seq_tree; i++) {
        int p = game_current_player(g, s);
        if (p >= 0)
            for (int j = i; j < v->seq_len; j++) {
                if (v->seq_player[j] != p) continue;
                bool first = true;
                for (int k = i; k < j; k++)
                    if (v->seq_player[k] == p && v->seq[k] == v->seq[j]) first = false;
                if (first) ref_add(amaf, mcts_amaf_key(game_hash(g, s), v->seq[j]), ret[p]);
            }
        if (i < v->seq_len) game_apply(g, s, v->seq[i]);
    }
    memcpy(s, root, g->state_size);
    int prev = -1;
    for (int j = 0; j < v->seq_len; j++) {
        int p = game_current_player(g, s);
        CU_ASSERT_EQUAL(p, v->seq_player[j]);
        if (p >= 0) {
            ref_add(hist, ((uint64_t)p << 32) | (uint32_t)v->seq[j], ret[p]);
            ref_add(ngram, mcts_ngram_key(p, prev, v->seq[j]), ret[p]);
        }
        prev = p == PLAYER_CHANCE ? -2 - v->seq[j] : v->seq[j];
        game_apply(g, s, v->seq[j]);
    }
}

/* `sims` simulations one at a time on toy `name`, each recounted; then every
 * recounted entry must be in the searcher's tables with the same count and sum,
 * and the tables must hold nothing else. */
static void check_recount(const char *name, int grave, long long sims)
{
    const game_t *g = toy_create(name);
    char root[256];
    game_init(g, root);
    rng_t dice;
    rng_init(&dice, 3);
    while (game_is_chance(g, root)) game_apply(g, root, game_chance_sample_alloc(g, root, &dice));
    mcts_params_t p;
    mcts_params_default(&p);
    p.rave = true;
    p.grave = grave;
    p.nst = 0.5; /* the (player, action) and 2-gram tables, and a non-uniform playout */
    mcts_t *m = searcher(g, &p, 1, 17);
    ref_table_t amaf = {0}, hist = {0}, ngram = {0};
    for (long long i = 0; i < sims; i++) {
        const mcts_result_t *r;
        HARNESS_OK(mcts_search(m, root, &r));
        recount(g, m->var, root, &amaf, &hist, &ngram);
    }
    const mcts_var_t *v = m->var;
    int bad = 0;
    for (int i = 0; i < amaf.n; i++) {
        const mcts_stat_t *e = mcts_stat_find(&v->amaf_table, amaf.e[i].key);
        if (!e || e->n != amaf.e[i].n || fabs(e->sum - amaf.e[i].sum) > 1e-6) bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL((int)v->amaf_table.used, amaf.n);
    bad = 0;
    long long hist_total = 0, ref_total = 0;
    for (int i = 0; i < hist.n; i++) {
        int player = (int)(hist.e[i].key >> 32), action = (int)(uint32_t)hist.e[i].key;
        size_t k = (size_t)player * (size_t)v->na + (size_t)action;
        if (v->hist_n[k] != hist.e[i].n || fabs(v->hist_sum[k] - hist.e[i].sum) > 1e-9) bad++;
        ref_total += hist.e[i].n;
    }
    for (size_t k = 0; k < (size_t)v->np * (size_t)v->na; k++) hist_total += v->hist_n[k];
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(hist_total, ref_total);
    bad = 0;
    for (int i = 0; i < ngram.n; i++) {
        const mcts_stat_t *e = mcts_stat_find(&v->ngram_table, ngram.e[i].key);
        if (!e || e->n != ngram.e[i].n || fabs(e->sum - ngram.e[i].sum) > 1e-6) bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL((int)v->ngram_table.used, ngram.n);
    CU_ASSERT(amaf.n > 20);
    free(amaf.e);
    free(hist.e);
    free(ngram.e);
    mcts_free(m);
    toy_free(g);
}

static void test_amaf_recount(void)
{
    check_recount("ttt", 0, 300);   /* RAVE */
    check_recount("ttt", 4, 300);   /* GRAVE: the same statistics, read elsewhere */
    check_recount("chain", 0, 200); /* the same player several times in a row */
    check_recount("dice", 3, 200);  /* chance nodes: outcomes are nobody's move */
}

/* ---- implicit minimax values against a minimax over the tree ---- */

static int bad_implicit;

/* Checks node `index` (state s) and below: a node with a value whose children
 * have some takes the best of them for its mover; without, a leaf's own heuristic. */
static void check_implicit(const mcts_t *m, uint32_t index, const void *s)
{
    const game_t *g = m->g;
    const mcts_var_t *v = m->var;
    const mcts_node_t *node = &m->nodes[index];
    if (!(node->flags & NODE_IMPLICIT)) return;
    const float *val = v->imp + (size_t)index * (size_t)v->np;
    const float *best = NULL;
    for (int c = 0; c < node->num_children; c++) {
        uint32_t k = mcts_edge(m, node, c)->node;
        if (k == 0) continue; /* never visited: no node, no value */
        char t[256];
        memcpy(t, s, g->state_size);
        game_apply(g, t, m->nodes[k].action);
        check_implicit(m, k, t);
        if (!(m->nodes[k].flags & NODE_IMPLICIT)) continue;
        const float *cv = v->imp + (size_t)k * (size_t)v->np;
        if (!best || cv[node->player] > best[node->player]) best = cv;
    }
    for (int p = 0; p < v->np; p++) {
        double want = best ? best[p] : game_evaluate(g, s, p);
        if (fabs(val[p] - want) > 1e-6) bad_implicit++;
    }
}

static void test_implicit_minimax(void)
{
    const game_t *g = toy_create("ttt");
    char root[256];
    game_init(g, root);
    evaluator_t *e;
    HARNESS_OK(evaluator_create_named(g, "rollout", 1, 5, &e));
    mcts_params_t p;
    mcts_params_default(&p);
    p.implicit = 0.5;
    p.max_sims = 500;
    p.max_nodes = 0;
    p.solver = false;
    mcts_t *m;
    HARNESS_OK(mcts_create(g, &p, e, &m));
    CU_ASSERT(m->var->implicit_heuristic);
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(m, root, &r));
    bad_implicit = 0;
    check_implicit(m, 0, root);
    CU_ASSERT_EQUAL(bad_implicit, 0);
    CU_ASSERT(m->nodes[0].flags & NODE_IMPLICIT);
    /* after tree reuse the values moved with their nodes */
    mcts_advance(m, root, r->best_action);
    game_apply(g, root, r->best_action);
    bad_implicit = 0;
    check_implicit(m, 0, root);
    CU_ASSERT_EQUAL(bad_implicit, 0);
    HARNESS_OK(mcts_search(m, root, &r));
    bad_implicit = 0;
    check_implicit(m, 0, root);
    CU_ASSERT_EQUAL(bad_implicit, 0);
    mcts_free(m);
    evaluator_free(e);
    toy_free(g);
}

/* ---- progressive widening ---- */

static void test_widening(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("gobang(board=8,men=12)", &g));
    char *s = malloc(g->state_size);
    game_init(g, s);
    mcts_params_t p;
    mcts_params_default(&p);
    p.pw = 1;
    p.pw_alpha = 0.5;
    mcts_t *m = searcher(g, &p, 400, 7);
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(m, s, &r));
    int visited = 0;
    for (int c = 0; c < r->num_children; c++) visited += r->visits[c] > 0;
    /* k(400) = ceil(1 * 400^0.5) = 20 of the 64 cells; all of them, since FPU is infinite */
    CU_ASSERT_EQUAL(visited, 20);
    mcts_free(m);
    free(s);
    game_free(g);

    /* chance nodes: the dice toy's rolls (3 outcomes), one outcome until N = 4 */
    g = toy_create("dice");
    char st[256];
    game_init(g, st);
    game_apply(g, st, 0);
    mcts_params_default(&p);
    p.pw = 0.5;
    p.pw_alpha = 0.5; /* k(N) = ceil(N^0.5 / 2): 1 outcome below N = 5 */
    m = searcher(g, &p, 200, 3);
    HARNESS_OK(mcts_search(m, st, &r));
    /* every chance node with N <= 4 visits has at most one visited outcome */
    int over = 0, checked = 0;
    for (size_t i = 0; i < m->used; i++) {
        const mcts_node_t *n = &m->nodes[i];
        if (n->player != PLAYER_CHANCE || n->num_children == 0) continue;
        int seen = 0;
        for (int c = 0; c < n->num_children; c++) seen += mcts_child(m, n, c)->visits > 0;
        int k = (int)ceil(0.5 * sqrt((double)n->visits)); /* k at its last selection */
        if (k < 1) k = 1;
        checked++;
        if (seen > k) over++;
    }
    CU_ASSERT(checked > 10);
    CU_ASSERT_EQUAL(over, 0);
    mcts_free(m);
    toy_free(g);
}

/* ---- each knob changes the search ---- */

/* The root visits of a search of `sims` on `g` from `s`. */
static void root_visits(const game_t *g, const void *s, const mcts_params_t *p_in, int *out, int *n)
{
    mcts_params_t p = *p_in;
    mcts_t *m = searcher(g, &p, p.max_sims, 11);
    const mcts_result_t *r;
    HARNESS_OK(mcts_search(m, s, &r));
    *n = r->num_children;
    memcpy(out, r->visits, sizeof *out * (size_t)r->num_children);
    mcts_free(m);
}

static void test_each_knob_changes_search(void)
{
    static const struct {
        const char *game;
        const char *knob;
    } cases[] = {
        {"gobang(board=6,men=0)", "rave"},  {"gobang(board=6,men=0)", "grave"},
        {"gobang(board=6,men=0)", "mast"},  {"gobang(board=6,men=0)", "nst"},
        {"gobang(board=6,men=0)", "phist"}, {"gobang(board=6,men=0)", "implicit"},
        {"gobang(board=6,men=0)", "pw"},    {"backgammon", "pw"},
        {"backgammon", "implicit"},         {"backgammon", "rave"},
        {"checkers", "rave_bias"},          {"gobang(board=6,men=0)", "pw_alpha"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const game_t *g = NULL;
        HARNESS_OK(game_create(cases[i].game, &g));
        void *s = malloc(g->state_size);
        game_init(g, s);
        rng_t dice;
        rng_init(&dice, 1);
        while (game_is_chance(g, s)) game_apply(g, s, game_chance_sample_alloc(g, s, &dice));
        mcts_params_t base, var;
        mcts_params_default(&base);
        base.max_sims = 300;
        var = base;
        const char *k = cases[i].knob;
        if (strcmp(k, "rave") == 0) var.rave = true;
        if (strcmp(k, "grave") == 0) base.rave = true, var.rave = true, var.grave = 20;
        if (strcmp(k, "rave_bias") == 0) base.rave = true, var.rave = true, var.rave_bias = 0.1;
        if (strcmp(k, "mast") == 0) var.mast = 0.3;
        if (strcmp(k, "nst") == 0) var.nst = 0.3;
        if (strcmp(k, "phist") == 0) var.phist = 3;
        if (strcmp(k, "implicit") == 0) var.implicit = 0.5;
        if (strcmp(k, "pw") == 0) var.pw = 2;
        if (strcmp(k, "pw_alpha") == 0) base.pw = 2, var.pw = 2, var.pw_alpha = 0.3;
        int a[1024], b[1024], na, nb;
        root_visits(g, s, &base, a, &na);
        root_visits(g, s, &var, b, &nb);
        CU_ASSERT_EQUAL(na, nb);
        bool same = na == nb && memcmp(a, b, sizeof *a * (size_t)na) == 0;
        if (same) fprintf(stderr, "\n%s: %s changed nothing\n", cases[i].game, k);
        CU_ASSERT(!same);
        free(s);
        game_free(g);
    }
}

/* ---- the agent keys, errors, and every registered game ---- */

static void test_agent_keys_and_games(void)
{
    static const char *const specs[] = {
        "mcts(sims=60,rave=true)",
        "mcts(sims=60,grave=10,rave_bias=0.001)",
        "mcts(sims=60,mast=0.5)",
        "mcts(sims=60,nst=0.5)",
        "mcts(sims=60,phist=2)",
        "mcts(sims=60,implicit=0.3,batch=4)",
        "mcts(sims=60,pw=1.5,pw_alpha=0.4)",
        "mcts(sims=60,select=puct,eval=heuristic,rave=true,implicit=0.5,pw=1)",
        NULL,
    };
    for (int i = 0; game_registry[i]; i++) {
        const game_t *g = NULL;
        HARNESS_OK(game_create(game_registry[i]->variants[0], &g));
        if (g == NULL) continue;
        void *s = malloc(g->state_size);
        for (int k = 0; specs[k]; k++) {
            agent_t *a;
            HARNESS_OK(agent_create(g, specs[k], 5, &a));
            game_init(g, s);
            rng_t dice;
            rng_init(&dice, 2);
            /* a few moves, tree reuse included */
            for (int ply = 0; ply < 3 && !game_is_terminal(g, s); ply++) {
                int action;
                if (game_is_chance(g, s))
                    action = game_chance_sample_alloc(g, s, &dice);
                else
                    HARNESS_OK(agent_act(a, s, &action));
                CU_ASSERT_FATAL(game_is_legal(g, s, action));
                agent_observe(a, s, action);
                game_apply(g, s, action);
            }
            agent_free(a);
        }
        free(s);
        game_free(g);
    }
    const game_t *g = toy_create("ttt");
    agent_t *a;
    CU_ASSERT_EQUAL(agent_create(g, "mcts(mast=0.5,eval=heuristic)", 1, &a), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "eval=rollout") != NULL);
    CU_ASSERT_EQUAL(agent_create(g, "mcts(mast=0.5,nst=0.5)", 1, &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(agent_create(g, "mcts(pw_alpha=2)", 1, &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(agent_create(g, "mcts(grave=-1)", 1, &a), HOYLE_EINVAL);
    /* seeded: the same spec and seed play the same moves */
    int first[2];
    for (int run = 0; run < 2; run++) {
        char s[256];
        game_init(g, s);
        HARNESS_OK(agent_create(g, "mcts(sims=200,grave=5,nst=0.3,implicit=0.2,pw=2)", 9, &a));
        HARNESS_OK(agent_act(a, s, &first[run]));
        agent_free(a);
    }
    CU_ASSERT_EQUAL(first[0], first[1]);
    toy_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"AMAF: a hand count on tic-tac-toe", test_amaf_hand_count},
        {"AMAF, MAST, NST tables equal a recount of every simulation", test_amaf_recount},
        {"implicit minimax values are the tree's minimax", test_implicit_minimax},
        {"progressive widening bounds children and outcomes", test_widening},
        {"each knob changes the search", test_each_knob_changes_search},
        {"agent keys, errors, every registered game", test_agent_keys_and_games},
        {NULL, NULL},
    };
    return harness_run("mcts_var", tests);
}
