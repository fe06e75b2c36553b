/* mcts_thread.c — one search on several threads (params.threads > 1): tree
 * parallelism with virtual loss (Chaslot, Winands & van den Herik 2008,
 * "Parallel Monte-Carlo Tree Search"; Enzenberger & Müller 2009).
 *
 * Every worker runs the batched step loop of mcts_search.c on the one shared
 * tree: collect (descent, expansion of chance and deferred nodes, backups of
 * terminal and proven leaves) and deliver (expansion, backup, proofs) run
 * under the tree's one mutex; the evaluation of the collected leaves, which
 * is most of a simulation's time with rollouts or a network, runs outside it,
 * each worker with its own evaluator clone (evaluator.h: clone) and its own
 * batch slots. The in-flight visits of the other workers' leaves are virtual
 * losses in selection (mcts_select.c), which spreads the workers over the
 * tree. A leaf another worker is still evaluating is evaluated again rather
 * than ending the batch (dup_leaves): two rollouts of one leaf are two samples.
 *
 * Invariants: the tree, the searcher's counters and its random stream (chance
 * sampling, root noise) are touched only under `lock`; a worker's slots and
 * evaluator only by that worker; the sum of all workers' undelivered leaves is
 * m->inflight, and a search stops collecting when sims + inflight reaches
 * max_sims, so it runs exactly max_sims simulations. Every worker delivers
 * what it collected before it returns, so all vloss are 0 after the search.
 * An evaluator without a clone slot (a network) is shared under `eval_lock`.
 * Results are not repeatable from a seed with threads > 1 (the order in which
 * workers take the lock varies); with threads = 1 this file is not used. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "mcts/mcts_internal.h"

int mcts_slots_init(mcts_t *m, mcts_slots_t *s)
{
    const game_t *g = m->g;
    size_t batch = (size_t)m->p.batch;
    memset(s, 0, sizeof *s);
    s->states = malloc(g->state_size * batch);
    s->paths = malloc(sizeof *s->paths * batch * (size_t)m->path_cap);
    s->len = malloc(sizeof *s->len * batch);
    s->values = malloc(sizeof *s->values * batch * (size_t)g->num_players);
    s->priors = malloc(sizeof *s->priors * batch * (size_t)g->num_actions);
    if (!s->states || !s->paths || !s->len || !s->values || !s->priors) {
        mcts_slots_done(s);
        return HOYLE_ENOMEM;
    }
    return HOYLE_OK;
}

void mcts_slots_done(mcts_slots_t *s)
{
    free(s->states);
    free(s->paths);
    free(s->len);
    free(s->values);
    free(s->priors);
    memset(s, 0, sizeof *s);
}

/* The seed of worker k's evaluator clone: a stream of its own per worker. */
static uint64_t worker_seed(uint64_t seed, int k)
{
    return rng_mix(seed ^ (0x7468726561640000ull + (uint64_t)k)); /* "thread" */
}

int mcts_threads_create(mcts_t *m)
{
    /* parallel=root runs each of its trees on one thread (mcts_root.c) */
    int t = m->p.threads > 1 && m->p.parallel == MCTS_PARALLEL_TREE ? m->p.threads : 1;
    m->threads = t;
    if (t == 1) return HOYLE_OK;
    m->workers = calloc((size_t)t, sizeof *m->workers);
    m->lock = malloc(sizeof(pthread_mutex_t));
    if (!m->workers || !m->lock) {
        free(m->lock);
        m->lock = NULL;
        return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory (threads=%d)", t);
    }
    pthread_mutex_init(m->lock, NULL);
    for (int k = 0; k < t; k++) {
        mcts_worker_t *w = &m->workers[k];
        w->m = m;
        w->slots = k == 0 ? &m->own : &w->own;
        w->eval = m->eval;
        if (k == 0) continue;
        if (mcts_slots_init(m, &w->own))
            return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory (threads=%d)", t);
        if (m->eval == NULL || m->eval_lock) continue;
        evaluator_t *copy = NULL;
        int status = evaluator_clone(m->eval, worker_seed(m->p.seed, k), &copy);
        if (status == HOYLE_OK) {
            w->eval = copy;
        } else if (status == HOYLE_EUNSUP) {
            /* one evaluator for all: the workers take turns at it */
            m->eval_lock = malloc(sizeof(pthread_mutex_t));
            if (!m->eval_lock) return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory");
            pthread_mutex_init(m->eval_lock, NULL);
        } else {
            return status;
        }
    }
    /* workers created before a shared evaluator was found to be uncopyable
     * cannot exist: the first clone attempt (worker 1) decides for all */
    return HOYLE_OK;
}

void mcts_threads_free(mcts_t *m)
{
    if (m->workers) {
        for (int k = 1; k < m->threads; k++) {
            mcts_worker_t *w = &m->workers[k];
            mcts_slots_done(&w->own);
            if (w->eval != m->eval) evaluator_free(w->eval);
        }
        free(m->workers);
        m->workers = NULL;
    }
    if (m->lock) {
        pthread_mutex_destroy(m->lock);
        free(m->lock);
        m->lock = NULL;
    }
    if (m->eval_lock) {
        pthread_mutex_destroy(m->eval_lock);
        free(m->eval_lock);
        m->eval_lock = NULL;
    }
}

void mcts_threads_reseed(mcts_t *m, uint64_t seed)
{
    for (int k = 1; m->workers && k < m->threads; k++)
        if (m->workers[k].eval != m->eval)
            evaluator_reseed(m->workers[k].eval, worker_seed(seed, k));
}

size_t mcts_threads_memory_bytes(const mcts_t *m)
{
    if (m->threads <= 1) return 0;
    const game_t *g = m->g;
    size_t per = (size_t)m->p.batch *
                 (g->state_size + (size_t)m->path_cap * sizeof(uint32_t) + sizeof(int) +
                  (size_t)g->num_players * sizeof(double) + (size_t)g->num_actions * sizeof(float));
    return (size_t)m->threads * sizeof(mcts_worker_t) + (size_t)(m->threads - 1) * per;
}

/* Nothing left for a worker to start: the search is over, or every
 * simulation of the budget is done or in flight. */
static bool nothing_to_start(const mcts_t *m)
{
    if (mcts_search_finished(m)) return true;
    return m->p.max_sims > 0 && m->sims + m->inflight >= m->p.max_sims;
}

/* One step of a worker: 1. under the lock, collect a batch into its slots;
 * 2. evaluate it outside the lock; 3. under the lock, deliver it. *more is
 * false when there was nothing left to start. */
static int worker_step(mcts_worker_t *w, bool *more)
{
    mcts_t *m = w->m;
    float *priors = w->eval->has_priors ? w->slots->priors : NULL;
    /* 1. collect */
    pthread_mutex_lock(m->lock);
    *more = !nothing_to_start(m);
    if (!*more) {
        pthread_mutex_unlock(m->lock);
        return HOYLE_OK;
    }
    const void *states;
    int n = 0;
    long long before = m->sims;
    m->cur = w->slots;
    int status = mcts_search_collect(m, &states, &n);
    m->inflight += n;
    bool idle = n == 0 && m->sims == before;
    if (status) m->stop = true;
    pthread_mutex_unlock(m->lock);
    if (status) return status;
    /* A batch that got nothing (a Gumbel phase waiting for other workers'
     * visits) lets the others run before trying again. */
    if (idle) sched_yield();
    /* 2. evaluate */
    if (n > 0) {
        if (m->eval_lock) pthread_mutex_lock(m->eval_lock);
        status = evaluator_evaluate(w->eval, states, n, w->slots->values, priors);
        if (m->eval_lock) pthread_mutex_unlock(m->eval_lock);
    }
    /* 3. deliver (after an evaluator error the slots are dropped, not
     * delivered, and the search stops) */
    pthread_mutex_lock(m->lock);
    m->cur = w->slots;
    if (status == HOYLE_OK)
        status = mcts_search_deliver(m, w->slots->values, priors);
    else
        w->slots->n = 0;
    m->inflight -= n;
    if (status) m->stop = true;
    pthread_mutex_unlock(m->lock);
    return status;
}

static void *worker_run(void *arg)
{
    mcts_worker_t *w = arg;
    bool more = true;
    int status = HOYLE_OK;
    while (status == HOYLE_OK && more) status = worker_step(w, &more);
    w->status = status;
    /* A worker thread's message is its own (thread-local): keep it for the caller. */
    return status ? strdup(hoyle_last_error()) : NULL;
}

int mcts_search_threads(mcts_t *m)
{
    pthread_t tid[MCTS_MAX_THREADS];
    int started = 0, status = HOYLE_OK;
    /* The first step on the caller's thread alone, as the one-thread loop
     * would take it: the root gets its first visit (and a move to report)
     * even when starting the threads takes longer than a tiny time limit. */
    bool more = true;
    if ((status = worker_step(&m->workers[0], &more))) return status;
    m->dup_leaves = true;
    for (int k = 1; k < m->threads; k++) {
        m->workers[k].status = HOYLE_OK;
        if (pthread_create(&tid[k], NULL, worker_run, &m->workers[k]) != 0) break;
        started = k;
    }
    /* the caller is worker 0 (and the only one if no thread could start) */
    m->workers[0].status = HOYLE_OK;
    char *msg0 = worker_run(&m->workers[0]);
    char *msg = NULL;
    if (m->workers[0].status) status = m->workers[0].status, msg = msg0;
    for (int k = 1; k <= started; k++) {
        void *ret = NULL;
        pthread_join(tid[k], &ret);
        if (m->workers[k].status && status == HOYLE_OK)
            status = m->workers[k].status, msg = ret;
        else
            free(ret);
    }
    m->cur = &m->own;
    m->dup_leaves = false;
    /* every worker delivered what it collected: nothing is left in flight */
    if (status == HOYLE_OK) {
        CHECK_EQ(m->inflight, 0);
        CHECK_EQ(m->nodes[0].vloss, 0);
    }
    if (status) hoyle_error(status, "%s", msg ? msg : "mcts: a search thread failed");
    if (msg != msg0) free(msg0);
    free(msg);
    return status;
}
