/* test_mcts_parallel.c — the MCTS tree's memory and one search on several
 * threads: lazy expansion makes the same choices with a smaller tree, the node
 * cap is reported (result, agent_info, nodes= and memory_mb=), and threads=2
 * proves the same values as threads=1 on solved toy positions (chance nodes
 * and chains included), runs exactly its simulation budget and keeps the
 * vloss invariant. scripts/tsan runs this suite under ThreadSanitizer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "games/playout.h"
#include "games/registry.h"
#include "mcts/agent.h"
#include "mcts/bench.h"
#include "mcts/evaluator.h"
#include "mcts/mcts.h"
#include "tests/harness.h"
#include "tests/toy_games.h"

/* One UCT search from `g`'s start (after `moves`), copying what it found. */
typedef struct outcome {
    int n, visits[512], best;
    double q[512];
    size_t nodes, edges, tree_bytes;
    long long sims;
    bool proven;
    double proven_value[GAME_MAX_PLAYERS];
} outcome_t;

static void search_once(const game_t *g, const int *moves, int nmoves, const mcts_params_t *p,
                        bool eager, outcome_t *o)
{
    evaluator_t *e = NULL;
    mcts_t *m = NULL;
    HARNESS_OK(evaluator_rollout_create(g, 1, 77, &e));
    /* Asking the rollouts for their (uniform) priors makes every leaf expanded at
     * once, as before lazy expansion: the reference tree. UCT never reads priors. */
    if (eager) e->has_priors = true;
    HARNESS_OK(mcts_create(g, p, e, &m));
    void *s = malloc(g->state_size);
    HARNESS_OK(bench_start(g, s));
    for (int i = 0; i < nmoves; i++) game_apply(g, s, moves[i]);
    const mcts_result_t *r = NULL;
    memset(o, 0, sizeof *o);
    if (m) HARNESS_OK(mcts_search(m, s, &r));
    if (r) {
        o->n = r->num_children;
        for (int c = 0; c < r->num_children && c < 512; c++) {
            o->visits[c] = r->visits[c];
            o->q[c] = r->q[c];
        }
        o->best = r->best_action;
        o->nodes = r->nodes_used;
        o->edges = r->edges_used;
        o->tree_bytes = r->tree_bytes;
        o->sims = r->sims;
        o->proven = r->root_proven;
        memcpy(o->proven_value, r->proven_value, sizeof o->proven_value);
    }
    free(s);
    mcts_free(m);
    evaluator_free(e);
}

/* The game `spec` (NULL, with a failed assertion counted, when it cannot be made) and default
 * search parameters with `sims` simulations in *p. */
static const game_t *game_and_params(const char *spec, long long sims, mcts_params_t *p)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    mcts_params_default(p);
    p->max_sims = sims;
    return g;
}

/* Lazy expansion changes the tree's size, never the search: the same visits,
 * Q and move as the eager tree, seeded, on several games (chance nodes in
 * backgammon, chains in checkers), with the solver on and off. */
static void test_lazy_same_choices(void)
{
    const char *specs[] = {"checkers", "chess",   "backgammon", "gobang(board=9,men=0)",
                           "fanorona", "foxgeese"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        mcts_params_t p;
        const game_t *g = game_and_params(specs[i], 1500, &p);
        if (!g) continue;
        for (int solver = 0; solver < 2; solver++) {
            p.solver = solver;
            p.seed = 3 + (uint64_t)i;
            outcome_t lazy, eager;
            search_once(g, NULL, 0, &p, false, &lazy);
            search_once(g, NULL, 0, &p, true, &eager);
            CU_ASSERT_EQUAL(lazy.n, eager.n);
            CU_ASSERT_EQUAL(lazy.best, eager.best);
            CU_ASSERT_EQUAL(lazy.sims, eager.sims);
            CU_ASSERT(memcmp(lazy.visits, eager.visits, sizeof lazy.visits) == 0);
            CU_ASSERT(memcmp(lazy.q, eager.q, sizeof lazy.q) == 0);
            /* the point of it: most leaves are visited once and keep no edges
             * (chance nodes still get their outcomes at once: backgammon gains less);
             * nodes are made on first visit either way, so both trees have as many */
            size_t factor = g->max_chance_outcomes > 0 ? 1 : 2;
            CU_ASSERT(lazy.edges * factor < eager.edges);
            CU_ASSERT_EQUAL(lazy.nodes, eager.nodes);
            if (lazy.edges * factor >= eager.edges)
                fprintf(stderr, "%s: lazy %zu edges, eager %zu\n", specs[i], lazy.edges,
                        eager.edges);
        }
        game_free(g);
    }
}

/* Compact edges (issue 35): a node exists only for a position the search
 * visited, so a tree holds at most one node per simulation (two with dice) and the root;
 * the unvisited moves are 12-byte edges, and the reported bytes count both. */
static void test_nodes_on_first_visit(void)
{
    const char *specs[] = {"chess", "checkers", "backgammon"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        mcts_params_t p;
        const game_t *g = game_and_params(specs[i], 3000, &p);
        if (!g) continue;
        p.seed = 5;
        outcome_t o;
        search_once(g, NULL, 0, &p, false, &o);
        /* a simulation adds its leaf, and with dice the chance node it passed first */
        size_t per_sim = g->max_chance_outcomes > 0 ? 2 : 1;
        CU_ASSERT(o.nodes >= 2 && o.nodes <= per_sim * (size_t)o.sims + 1);
        CU_ASSERT(o.edges > o.nodes); /* most moves of an expanded node are never taken */
        CU_ASSERT_EQUAL(o.tree_bytes, o.nodes * mcts_node_bytes() + o.edges * 12);
        if (o.nodes > per_sim * (size_t)o.sims + 1 || o.edges <= o.nodes)
            fprintf(stderr, "%s: %zu nodes, %zu edges, %lld sims\n", specs[i], o.nodes, o.edges,
                    o.sims);
        game_free(g);
    }
    /* nodes and edges share the cap, counted in bytes: a full tree stays within it */
    const game_t *g = toy_create("ttt");
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_sims = 3000;
    p.max_nodes = 40;
    p.solver = false;
    outcome_t o;
    search_once(g, NULL, 0, &p, false, &o);
    CU_ASSERT(o.tree_bytes <= 40 * mcts_node_bytes());
    CU_ASSERT(o.tree_bytes > 40 * mcts_node_bytes() - 9 * 12); /* the refused block did not fit */
    CU_ASSERT(o.nodes > 2 && o.edges > 9);
    CU_ASSERT_EQUAL(o.sims, 3000);
    toy_free(g);
}

/* A search that reaches its cap says so (result and agent_info), keeps
 * running its budget, and nodes= / memory_mb= set the cap. */
static void test_node_cap(void)
{
    const game_t *g = toy_create("ttt");
    void *s = malloc(g->state_size);
    game_init(g, s);
    agent_t *a = NULL;
    HARNESS_OK(agent_create(g, "mcts(sims=3000,nodes=40,solver=false)", 1, &a));
    int action = -1;
    if (a) HARNESS_OK(agent_act(a, s, &action));
    const agent_info_t *info = a ? agent_info(a) : NULL;
    CU_ASSERT(info && info->arena_full);
    CU_ASSERT(info && info->node_cap == 40);
    CU_ASSERT(info && info->nodes <= 40);
    CU_ASSERT(info && info->sims == 3000);
    CU_ASSERT(game_is_legal(g, s, action));
    agent_free(a);
    /* a budget that fits: no cap reached */
    HARNESS_OK(agent_create(g, "mcts(sims=300)", 1, &a));
    if (a) HARNESS_OK(agent_act(a, s, &action));
    CU_ASSERT(a && !agent_info(a)->arena_full);
    agent_free(a);
    /* memory_mb: the cap in megabytes of nodes */
    HARNESS_OK(agent_create(g, "mcts(sims=300,memory_mb=1)", 1, &a));
    if (a) HARNESS_OK(agent_act(a, s, &action));
    CU_ASSERT(a && agent_info(a)->node_cap == 1048576 / mcts_node_bytes());
    agent_free(a);
    a = NULL;
    /* edges are numbered in 32 bits: four per node's worth, so under 2^30 nodes; the
     * schema's bounds are that cap (one line naming the key), and so is mcts_create's */
    CU_ASSERT_EQUAL(MCTS_MAX_MEMORY_MB, 49152);
    CU_ASSERT(agent_create(g, "mcts(memory_mb=49152)", 1, &a) == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "memory_mb: 49152 is out of range [0, 49151]") != NULL);
    CU_ASSERT(strchr(hoyle_last_error(), '\n') == NULL);
    CU_ASSERT(agent_create(g, "mcts(nodes=1073741824)", 1, &a) == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "nodes: 1073741824 is out of range") != NULL);
    mcts_params_t p;
    mcts_params_default(&p);
    p.max_nodes = MCTS_MAX_NODES;
    mcts_t *m = NULL;
    CU_ASSERT(mcts_create(g, &p, NULL, &m) == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "[2, 1073741824) (memory_mb < 49152)") != NULL);
    a = NULL;
    CU_ASSERT(agent_create(g, "mcts(nodes=100,memory_mb=1)", 1, &a) == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "memory_mb") != NULL);
    agent_free(a);
    free(s);
    toy_free(g);
}

/* threads=2 proves what threads=1 proves, the exact value, on solved toy
 * positions: nim, tic-tac-toe (a win, a draw), the chain toy, the dice toy
 * (chance nodes), the one-player puzzle; with batch 1 and 4 per thread. */
static void test_threads_prove_same(void)
{
    for (int i = 0; i < TOY_POSITIONS; i++) {
        void *s = NULL;
        int player = 0;
        const char *toy = NULL;
        const game_t *g = toy_position(i, &s, &player, &toy);
        double want = toy_solve(g, s, player);
        for (int batch = 1; batch <= 4; batch += 3) {
            outcome_t o[2];
            for (int t = 0; t < 2; t++) {
                mcts_params_t p;
                mcts_params_default(&p);
                p.max_sims = 400000;
                p.threads = t + 1;
                p.batch = batch;
                p.seed = 9;
                evaluator_t *e = NULL;
                mcts_t *m = NULL;
                HARNESS_OK(evaluator_rollout_create(g, 1, 5, &e));
                HARNESS_OK(mcts_create(g, &p, e, &m));
                const mcts_result_t *r = NULL;
                if (m) HARNESS_OK(mcts_search(m, s, &r));
                o[t].proven = r && r->root_proven;
                o[t].proven_value[0] = r ? r->proven_value[player] : 99;
                mcts_free(m);
                evaluator_free(e);
            }
            CU_ASSERT(o[0].proven && o[1].proven);
            if (!(o[0].proven && o[1].proven) || fabs(o[1].proven_value[0] - want) > 1e-5)
                fprintf(stderr, "%s batch %d: proven %d %d, values %g %g, want %g\n", toy, batch,
                        o[0].proven, o[1].proven, o[0].proven_value[0], o[1].proven_value[0], want);
            CU_ASSERT_DOUBLE_EQUAL(o[0].proven_value[0], want, 1e-5);
            CU_ASSERT_DOUBLE_EQUAL(o[1].proven_value[0], want, 1e-5);
        }
        free(s);
        toy_free(g);
    }
}

/* Without the solver a threaded search runs exactly its budget, leaves no
 * visit in flight (a second search on the reused tree would see it), and its
 * root visits add up; with a net-like evaluator (priors) as well as rollouts;
 * and on backgammon (chance nodes inside the tree). */
static void test_threads_budget(void)
{
    const char *specs[] = {"checkers", "backgammon", "gobang(board=9,men=0)"};
    const char *evals[] = {"rollout", "fake", "heuristic"};
    for (size_t i = 0; i < 3; i++) {
        mcts_params_t p;
        const game_t *g = game_and_params(specs[i], 3000, &p);
        if (!g) continue;
        p.solver = false;
        p.threads = 3;
        p.batch = i == 1 ? 2 : 1;
        if (i == 1) p.select = MCTS_PUCT;
        evaluator_t *e = NULL;
        mcts_t *m = NULL;
        HARNESS_OK(evaluator_create_named(g, evals[i], 1, 5, &e));
        HARNESS_OK(mcts_create(g, &p, e, &m));
        void *s = malloc(g->state_size);
        HARNESS_OK(bench_start(g, s));
        const mcts_result_t *r = NULL;
        for (int round = 0; round < 2 && m; round++) {
            HARNESS_OK(mcts_search(m, s, &r));
            CU_ASSERT_EQUAL(r->sims, 3000);
            long long sum = 0;
            for (int c = 0; c < r->num_children; c++) sum += r->visits[c];
            /* the root's own first visit has no child; the rest went through one */
            CU_ASSERT_EQUAL(r->root_visits, 3000 * (round + 1));
            CU_ASSERT(sum >= r->root_visits - p.threads * p.batch && sum <= r->root_visits);
            CU_ASSERT(game_is_legal(g, s, r->best_action));
        }
        free(s);
        mcts_free(m);
        evaluator_free(e);
        game_free(g);
    }
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"lazy expansion: same choices, smaller tree", test_lazy_same_choices},
        {"compact edges: a node per visited position", test_nodes_on_first_visit},
        {"node cap: reported, nodes= and memory_mb=", test_node_cap},
        {"threads=2 proves the values threads=1 proves", test_threads_prove_same},
        {"threads: exact budget, no visit left in flight", test_threads_budget},
        {NULL, NULL},
    };
    return harness_run("mcts_parallel", tests);
}
