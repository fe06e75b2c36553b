/* mcts_root.c — one search on several threads as independent trees merged at
 * the root (params.parallel = MCTS_PARALLEL_ROOT): root parallelism
 * (Cazenave & Jouandeau 2007, "On the parallelization of UCT"; Chaslot,
 * Winands & van den Herik 2008, "Parallel Monte-Carlo Tree Search", compare
 * it with leaf and tree parallelism, mcts_thread.c).
 *
 * With threads = N the searcher m is tree 0 and owns N - 1 more searchers
 * (trees 1..N-1), each an ordinary one-thread mcts_t with its own arena (the
 * node cap split N ways, so nodes= and memory_mb= still bound the total), its
 * own evaluator clone and its own random stream (seed salted by k; tree 0
 * keeps the searcher's seed). A search runs tree k on thread k with
 * max_sims / N simulations (the remainder to the first trees) or the time
 * limit; the trees share nothing but the game and the root state, both read
 * only, so the search takes no lock. Then the root statistics are merged into
 * tree 0's result: visits summed per action, Q visit-weighted, a child proven
 * in any tree is proven with that value (proofs are exact), the root proven
 * when any tree proved it (children proven in different trees are not
 * combined into a proof of the root, and a tree that proves it does not stop
 * the others: measured on Go-Bang and nim, the trees prove the root's
 * children in nearly the same order, so neither would act); the best
 * action is then that tree's proven choice, else the most summed visits
 * (proven losses excluded, ties by Q), and the principal variation is read
 * from the tree with the most visits on it.
 *
 * Each tree keeps its own subtree across moves (mcts_advance) and mcts_clear /
 * mcts_reseed reach every tree. The step API and Gumbel root selection drive
 * one tree and are refused (HOYLE_EINVAL); an evaluator that cannot be cloned
 * (a network without a clone slot) refuses root mode at creation. Results are
 * repeatable from a seed when the search is limited by simulations: every
 * tree is, and the merge does not depend on which thread ends first. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "mcts/mcts_internal.h"

#define VALUE_EPS 1e-6 /* as mcts_result.c: proven values are floats */

struct mcts_roots {
    int n;                        /* trees, tree 0 (the searcher itself) included */
    mcts_t **tree;                /* n entries; tree[0] = the searcher */
    evaluator_t **eval;           /* n entries: the clones of trees 1.. (eval[0] unused) */
    const mcts_result_t **result; /* n entries: each tree's result of the last search */
    int *map;                     /* num_actions: root child of tree 0 per action, or -1 */
    double *qsum;                 /* max_legal: sum of visits * Q per root child */
};

/* Tree k's seed: a stream of its own ("root" + k); tree 0 keeps `seed`. */
static uint64_t tree_seed(uint64_t seed, int k)
{
    return k == 0 ? seed : rng_mix(seed ^ (0x726f6f7400000000ull + (uint64_t)k));
}

int mcts_root_split(mcts_params_t *p)
{
    if (p->parallel != MCTS_PARALLEL_ROOT || p->threads <= 1) return HOYLE_OK;
    if (p->gumbel)
        return hoyle_error(HOYLE_EINVAL, "mcts: gumbel needs parallel=tree (Sequential Halving "
                                         "schedules one tree)");
    if (p->max_nodes / (size_t)p->threads < 2)
        return hoyle_error(HOYLE_EINVAL,
                           "mcts: parallel=root splits nodes between %d trees: "
                           "nodes must be >= %d",
                           p->threads, 2 * p->threads);
    p->max_nodes /= (size_t)p->threads;
    return HOYLE_OK;
}

int mcts_root_create(mcts_t *m)
{
    if (m->p.parallel != MCTS_PARALLEL_ROOT || m->p.threads <= 1) return HOYLE_OK;
    const game_t *g = m->g;
    int n = m->p.threads;
    size_t nl = (size_t)(g->max_legal > 0 ? g->max_legal : 1);
    struct mcts_roots *R = calloc(1, sizeof *R);
    if (R == NULL) return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory (parallel=root)");
    m->roots = R;
    R->n = n;
    R->tree = calloc((size_t)n, sizeof *R->tree);
    R->eval = calloc((size_t)n, sizeof *R->eval);
    R->result = calloc((size_t)n, sizeof *R->result);
    R->map = malloc(sizeof *R->map * (size_t)g->num_actions);
    R->qsum = malloc(sizeof *R->qsum * nl);
    if (!R->tree || !R->eval || !R->result || !R->map || !R->qsum)
        return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory (parallel=root)");
    for (int a = 0; a < g->num_actions; a++) R->map[a] = -1;
    R->tree[0] = m;
    for (int k = 1; k < n; k++) {
        mcts_params_t q = m->p; /* max_nodes already split (mcts_root_split) */
        q.threads = 1;
        q.parallel = MCTS_PARALLEL_TREE;
        q.seed = tree_seed(m->p.seed, k);
        if (m->eval) {
            int status = evaluator_clone(m->eval, rng_mix(q.seed), &R->eval[k]);
            if (status == HOYLE_EUNSUP)
                return hoyle_error(HOYLE_EINVAL, "mcts: parallel=root needs an evaluator each "
                                                 "tree can own; this one cannot be copied: use "
                                                 "parallel=tree");
            if (status) return status;
        }
        int status = mcts_create(g, &q, R->eval[k], &R->tree[k]);
        if (status) return status;
    }
    return HOYLE_OK;
}

void mcts_root_free(mcts_t *m)
{
    struct mcts_roots *R = m->roots;
    if (R == NULL) return;
    for (int k = 1; R->tree && k < R->n; k++) {
        mcts_free(R->tree[k]);
        if (R->eval) evaluator_free(R->eval[k]);
    }
    free(R->tree);
    free(R->eval);
    free(R->result);
    free(R->map);
    free(R->qsum);
    free(R);
    m->roots = NULL;
}

void mcts_root_clear(mcts_t *m)
{
    for (int k = 1; m->roots && k < m->roots->n; k++) mcts_clear(m->roots->tree[k]);
}

void mcts_root_reseed(mcts_t *m, uint64_t seed)
{
    for (int k = 1; m->roots && k < m->roots->n; k++) {
        mcts_reseed(m->roots->tree[k], tree_seed(seed, k));
        if (m->roots->eval[k]) evaluator_reseed(m->roots->eval[k], rng_mix(tree_seed(seed, k)));
    }
}

void mcts_root_advance(mcts_t *m, const void *state_before, int action)
{
    for (int k = 1; m->roots && k < m->roots->n; k++)
        mcts_advance(m->roots->tree[k], state_before, action);
}

size_t mcts_root_memory_bytes(const mcts_t *m)
{
    const struct mcts_roots *R = m->roots;
    if (R == NULL) return 0;
    size_t bytes =
        sizeof *R + (size_t)R->n * (sizeof *R->tree + sizeof *R->eval + sizeof *R->result) +
        sizeof *R->map * (size_t)m->g->num_actions + sizeof *R->qsum * (size_t)m->g->max_legal;
    for (int k = 1; k < R->n; k++) bytes += mcts_memory_bytes(R->tree[k]);
    return bytes;
}

/* One tree's search on its own thread. */
typedef struct root_job {
    mcts_t *tree;
    const void *state;
    const mcts_result_t *result;
    int status;
    char *msg; /* the thread's error message (thread-local), for the caller */
} root_job_t;

static void *job_run(void *arg)
{
    root_job_t *job = arg;
    job->status = mcts_search_tree(job->tree, job->state, &job->result);
    if (job->status) job->msg = strdup(hoyle_last_error());
    return NULL;
}

/* Adds tree k's root children into the merged arrays of tree 0's result. */
static void merge_tree(struct mcts_roots *R, mcts_t *m, const mcts_result_t *rk)
{
    int *visits = m->r_visits; /* the arrays behind m->result */
    double *q = m->r_q;
    signed char *proven = m->r_proven;
    for (int j = 0; j < rk->num_children; j++) {
        int c = R->map[rk->actions[j]];
        if (c < 0) continue; /* not a root child of tree 0 (its root is unexpanded) */
        visits[c] += rk->visits[j];
        if (rk->proven[j] && !proven[c]) {
            proven[c] = 1;
            q[c] = rk->q[j];
        }
        if (!rk->proven[j]) R->qsum[c] += rk->visits[j] * rk->q[j];
    }
}

/* The merged best action of an unproven root: the most summed visits among
 * the children that are not proven losses, ties broken by Q (the rule of
 * mcts_result.c's best_child); the first child when every move loses. */
static int merged_best(const mcts_result_t *r)
{
    int best = -1;
    for (int c = 0; c < r->num_children; c++) {
        if (r->proven[c] && r->q[c] <= -1.0 + VALUE_EPS) continue;
        if (best < 0 || r->visits[c] > r->visits[best] ||
            (r->visits[c] == r->visits[best] && r->q[c] > r->q[best]))
            best = c;
    }
    return r->actions[best < 0 ? 0 : best];
}

/* Tree 0's result (m->result, filled by its search) becomes the merge of the
 * `ran` trees' results (mcts_root.c's header says what each field becomes). */
static void merge_results(mcts_t *m, const bool *ran, double seconds)
{
    struct mcts_roots *R = m->roots;
    mcts_result_t *r = &m->result;
    const game_t *g = m->g;
    for (int c = 0; c < r->num_children; c++) {
        R->map[r->actions[c]] = c;
        R->qsum[c] = r->proven[c] ? 0 : r->visits[c] * r->q[c];
    }
    double vsum[GAME_MAX_PLAYERS];
    for (int p = 0; p < g->num_players; p++) vsum[p] = r->value[p] * (double)r->root_visits;
    int proven_by = r->root_proven ? 0 : -1;
    for (int k = 1; k < R->n; k++) {
        const mcts_result_t *rk = R->result[k];
        if (!ran[k]) continue;
        merge_tree(R, m, rk);
        for (int p = 0; p < g->num_players; p++) vsum[p] += rk->value[p] * (double)rk->root_visits;
        if (rk->root_proven && proven_by < 0) proven_by = k;
        r->sims += rk->sims;
        r->root_visits += rk->root_visits;
        r->nodes_used += rk->nodes_used;
        r->edges_used += rk->edges_used;
        r->tree_bytes += rk->tree_bytes;
        r->max_nodes += rk->max_nodes;
        r->arena_full = r->arena_full || rk->arena_full;
        r->evaluator_calls += rk->evaluator_calls;
    }
    double *q = m->r_q;
    for (int c = 0; c < r->num_children; c++) {
        if (!r->proven[c]) q[c] = r->visits[c] > 0 ? R->qsum[c] / r->visits[c] : 0.0;
        R->map[r->actions[c]] = -1;
    }
    for (int p = 0; p < g->num_players; p++)
        r->value[p] = r->root_visits > 0 ? vsum[p] / (double)r->root_visits : 0.0;
    if (proven_by >= 0) {
        const mcts_result_t *rp = R->result[proven_by];
        r->root_proven = true;
        memcpy(r->proven_value, rp->proven_value, sizeof r->proven_value);
        r->best_action = rp->best_action; /* the proving tree's proven-best move */
    } else if (r->num_children > 0) {
        r->best_action = merged_best(r);
    }
    /* the principal variation of the tree that searched the chosen move most */
    int from = 0, most = -1;
    for (int k = 0; k < R->n; k++) {
        if (!ran[k]) continue;
        const mcts_result_t *rk = R->result[k];
        for (int j = 0; j < rk->num_children; j++)
            if (rk->actions[j] == r->best_action && rk->visits[j] > most)
                most = rk->visits[j], from = k;
    }
    r->pv_len = r->num_children > 0 ? mcts_pv_under(R->tree[from], r->best_action, r->pv) : 0;
    r->threads = R->n;
    r->seconds = seconds;
}

int mcts_root_search(mcts_t *m, const void *state, const mcts_result_t **out)
{
    struct mcts_roots *R = m->roots;
    root_job_t jobs[MCTS_MAX_THREADS];
    pthread_t tid[MCTS_MAX_THREADS];
    bool ran[MCTS_MAX_THREADS] = {false}, started[MCTS_MAX_THREADS] = {false};
    long long total = m->p.max_sims;
    double t0 = clock_seconds();
    for (int k = 0; k < R->n; k++) {
        /* max_sims / n each, the remainder to the first trees; the other limits as tree 0's */
        long long share = total / R->n + (k < total % R->n ? 1 : 0);
        mcts_t *t = R->tree[k];
        t->p.max_sims = share;
        t->p.time_limit_ms = m->p.time_limit_ms;
        t->p.dirichlet_eps = m->p.dirichlet_eps;
        t->stop_flag = m->stop_flag;
        jobs[k] = (root_job_t){.tree = t, .state = state};
        /* a budget smaller than the trees leaves the last ones idle */
        ran[k] = total <= 0 || share > 0;
    }
    for (int k = 1; k < R->n; k++)
        if (ran[k]) started[k] = pthread_create(&tid[k], NULL, job_run, &jobs[k]) == 0;
    job_run(&jobs[0]);
    m->p.max_sims = total;
    int status = HOYLE_OK;
    char *msg = NULL;
    for (int k = 0; k < R->n; k++) {
        if (k > 0 && ran[k] && started[k]) pthread_join(tid[k], NULL);
        if (k > 0 && ran[k] && !started[k]) job_run(&jobs[k]); /* no thread: run it here */
        R->result[k] = jobs[k].result;
        if (jobs[k].status && status == HOYLE_OK)
            status = jobs[k].status, msg = jobs[k].msg;
        else
            free(jobs[k].msg);
    }
    if (status) {
        hoyle_error(status, "%s", msg ? msg : "mcts: a search tree failed");
        free(msg);
        return status;
    }
    merge_results(m, ran, clock_seconds() - t0);
    *out = &m->result;
    return HOYLE_OK;
}
