/* mcts_search.c — the simulation loop, split in the steps of the batched
 * search (begin / collect / deliver / end) so that an outside driver can
 * pool the leaves of many searches into one evaluator call.
 *
 * One simulation:
 *   1. descend from the root, replaying actions on a copy of the root state,
 *      adding a virtual visit to every node on the path; chance nodes are
 *      expanded on the spot and an outcome is sampled;
 *   2. stop at a terminal node (value = returns, proven), a proven node
 *      (value = proven value), a node already waiting in this batch
 *      (collision: undo the virtual visits, end the batch) or an unexpanded
 *      decision node (a leaf: queued for the evaluator);
 *   3. after the evaluator call: expand each leaf with its priors (or, with
 *      no priors, mark it deferred: it is expanded on its next visit, in step
 *      1) and back its values up the path (mcts_backup.c).
 *
 * Invariant between calls: every node's vloss counts exactly the slots
 * whose path passes through it and that are not yet delivered, so after
 * mcts_search_deliver() (or a collision undo) all vloss are back to 0. */
#include <string.h>

#include "core/check.h"
#include "core/clock.h"
#include "games/playout.h"
#include "mcts/mcts_internal.h"
#include "mcts/mcts_var.h"
#include "mcts/tb_probe.h"

/* The backup of one simulation in batch slot `slot`: the variants' own
 * bookkeeping first (mcts_var.h; nothing when they are off), then the plain one. */
static void backup_slot(mcts_t *m, int slot, const uint32_t *path, int len, const double *v)
{
    if (m->var) mcts_var_backup(m, slot, path, len, v);
    mcts_backup(m, path, len, v);
}

/* Starts a search from `state`. The tree is kept when `state` is the root
 * it already holds (mcts_advance() moved it there), else rebuilt. Root noise
 * or the Gumbel setup is applied here only when the root is already
 * expanded (a reused tree); a fresh root gets it in deliver, right after
 * its expansion, because there are no priors to perturb before that. */
static int search_begin(mcts_t *m, const void *state)
{
    int player = game_current_player(m->g, state);
    if (player < 0)
        return hoyle_error(HOYLE_ESTATE, "mcts: %s: search needs a decision state (%s)", m->g->spec,
                           player == PLAYER_TERMINAL ? "game over" : "chance node");
    /* memcmp, not a hash: states are plain bytes (games/game.h), and a stale
     * tree from another position would silently bias the whole search. */
    if (!m->has_root || m->used == 0 || memcmp(m->root_state, state, m->g->state_size) != 0)
        mcts_reset_root(m, state);
    m->sims = 0;
    m->cur = &m->own;
    m->own.n = 0;
    m->inflight = 0;
    m->calls = 0;
    m->arena_full = false;
    m->stop = false;
    m->t_start = clock_seconds();
    m->g_ready = false;
    /* A kept root that was a deferred leaf (lazy expansion) gets the children
     * the eager tree would have given it at its first visit (uniform priors),
     * so that a reused tree searches as it did before lazy expansion. */
    if ((m->nodes[0].flags & NODE_DEFERRED) && !(m->nodes[0].flags & NODE_EXPANDED)) {
        int status = mcts_expand(m, 0, m->root_state, NULL);
        if (status < 0 && status != HOYLE_EFULL) return status;
    }
    if (m->var) mcts_var_begin(m);
    if (m->nodes[0].flags & NODE_EXPANDED) {
        mcts_prove_root(m);
        if (m->p.gumbel)
            mcts_gumbel_init(m);
        else
            mcts_add_noise(m);
    }
    return HOYLE_OK;
}

/* The step API drives one tree: a root-parallel searcher (mcts_root.c) refuses it. */
int mcts_search_begin(mcts_t *m, const void *state)
{
    if (m->roots)
        return hoyle_error(HOYLE_EINVAL, "mcts: parallel=root runs only as mcts_search (the step "
                                         "API drives one tree): use parallel=tree");
    return search_begin(m, state);
}

int mcts_set_limits(mcts_t *m, long long max_sims, double time_limit_ms, const atomic_int *stop)
{
    if (m->p.gumbel && max_sims <= 0)
        return hoyle_error(HOYLE_EINVAL, "mcts: a Gumbel search needs a simulation limit");
    if (max_sims <= 0 && time_limit_ms <= 0 && stop == NULL)
        return hoyle_error(HOYLE_EINVAL, "mcts: a search without sims or time needs a stop flag");
    m->p.max_sims = max_sims > 0 ? max_sims : 0;
    m->p.time_limit_ms = time_limit_ms > 0 ? time_limit_ms : 0;
    m->stop_flag = stop;
    return HOYLE_OK;
}

int mcts_set_noise(mcts_t *m, double eps)
{
    if (!(eps >= 0 && eps <= 1) || (eps > 0 && m->p.dirichlet_alpha <= 0))
        return hoyle_error(HOYLE_EINVAL, "mcts: noise weight %g needs [0, 1] and alpha > 0", eps);
    m->p.dirichlet_eps = eps;
    return HOYLE_OK;
}

/* The stop rules, checked before every simulation: an explicit stop, a
 * solved root (no simulation can change a proven value), the simulation
 * budget, or the clock. A proven but unexpanded root keeps searching so that
 * the result has children to report. */
bool mcts_search_finished(const mcts_t *m)
{
    if (m->stop) return true;
    /* A stop request ends the search after its first simulation: the root must be
     * expanded for the search to have a move to report. */
    if (m->stop_flag && m->sims > 0 && atomic_load_explicit(m->stop_flag, memory_order_relaxed))
        return true;
    if (m->p.solver && (m->nodes[0].flags & NODE_PROVEN) && (m->nodes[0].flags & NODE_EXPANDED))
        return true;
    if (m->p.max_sims > 0 && m->sims >= m->p.max_sims) return true;
    if (m->p.time_limit_ms > 0 && (clock_seconds() - m->t_start) * 1000.0 >= m->p.time_limit_ms)
        return true;
    return false;
}

/* Steps 1-2 for one simulation into batch slot `slot`. */
/* Contract: on HOYLE_OK, slot `slot` holds the path (root first) and the
 * leaf's state, every node on the path carries one more vloss, and *kind
 * says why the descent stopped. On error the caller abandons the search. */
static int descend(mcts_t *m, int slot, int *kind)
{
    const game_t *g = m->g;
    char *s = m->cur->states + (size_t)slot * g->state_size;
    uint32_t *path = m->cur->paths + (size_t)slot * (size_t)m->path_cap;
    int len = 0;
    uint32_t index = 0;
    memcpy(s, m->root_state, g->state_size);
    path[len++] = 0;
    m->nodes[0].vloss++;
    for (;;) {
        mcts_node_t *node = &m->nodes[index];
        int player = node->player;
        if (m->var) mcts_var_descend(m, slot, len - 1, node, s);
        /* Checked first: a proven node is final even if it is also pending or
         * unexpanded, and its exact value beats an evaluator estimate. */
        if (m->p.solver && (node->flags & NODE_PROVEN)) {
            *kind = LEAF_PROVEN;
            break;
        }
        if (player == PLAYER_TERMINAL) {
            *kind = LEAF_TERMINAL;
            break;
        }
        /* A leaf already queued in this batch: evaluating it twice would count one
         * position two times, so the batch is cut here instead. With threads, a
         * leaf another worker is evaluating is evaluated again (mcts_thread.c). */
        if ((node->flags & NODE_PENDING) && !m->dup_leaves) {
            *kind = LEAF_COLLISION;
            break;
        }
        if (!(node->flags & NODE_EXPANDED)) {
            /* Chance nodes need no evaluator (the game gives the outcome
             * probabilities), so they are expanded inline and the loop samples one
             * of their children next. A full arena falls through to LEAF_EVAL, and
             * collect samples the remaining chance outcomes on the state itself. */
            /* A deferred leaf (lazy expansion, mcts_internal.h) gets its children on
             * this, its second visit, with the uniform priors it would have had. The
             * root is always expanded in deliver (noise, proof search, Gumbel). */
            if (player == PLAYER_CHANCE || (index != 0 && (node->flags & NODE_DEFERRED))) {
                int status = mcts_expand(m, index, s, NULL);
                if (status == HOYLE_OK) continue;
                if (status != HOYLE_EFULL) return status;
            }
            *kind = LEAF_EVAL;
            break;
        }
        uint32_t edge;
        /* Above the root the tree policy is UCT/PUCT (mcts_select.c); at the root
         * a Gumbel search follows its Sequential Halving schedule instead. */
        if (index == 0 && m->g_ready) {
            edge = mcts_gumbel_select(m);
            if (edge == 0) { /* the phase ends once the visits in flight are back */
                *kind = LEAF_COLLISION;
                break;
            }
        } else {
            edge = mcts_select_child(m, node, player);
        }
        /* The child node is made on the edge's first visit. With the arena full
         * this node is evaluated again instead, as a leaf that cannot grow is. */
        uint32_t child = mcts_edge_child(m, edge);
        if (child == 0) {
            *kind = LEAF_EVAL;
            break;
        }
        mcts_node_t *ch = &m->nodes[child];
        game_apply(g, s, ch->action);
        /* A child's player is computed lazily, on its first visit, because it
         * needs the state and only the descent has that state. */
        if (ch->player == NODE_PLAYER_UNKNOWN) ch->player = (int8_t)game_current_player(g, s);
        ch->vloss++;
        /* CHECK, not an error code: a path longer than max_game_length + 2 means
         * the game broke its own declared length bound. */
        CHECK_LT(len, m->path_cap);
        path[len++] = child;
        index = child;
    }
    m->cur->len[slot] = len;
    return HOYLE_OK;
}

/* The tables' value (params.tb) of the live decision state `s` as returns
 * (two players: +-1 or 0); false when they do not cover it. */
static bool table_value(mcts_t *m, const void *s, double *v)
{
    int sign, plies, mover = game_current_player(m->g, s);
    if (m->p.tb == NULL || mover < 0 || m->g->num_players != 2 ||
        tb_probe(m->p.tb, s, &sign, &plies) < 0)
        return false;
    v[mover] = sign;
    v[1 - mover] = -sign;
    return true;
}

/* Steps 1-2 for up to params.batch simulations. Terminal and proven leaves
 * are backed up at once (they need no evaluator); evaluator leaves are
 * marked NODE_PENDING and returned in `states` (slot order). A collision
 * ends the batch early: more descents would only follow the same virtual
 * visits into the same pending leaf. */
int mcts_search_collect(mcts_t *m, const void **states, int *n)
{
    const game_t *g = m->g;
    bool collision = false;
    m->cur->n = 0;
    while (m->cur->n < m->p.batch && !collision && !mcts_search_finished(m)) {
        /* inflight: the leaves other workers are evaluating (mcts_thread.c) */
        if (m->p.max_sims > 0 && m->sims + m->inflight + m->cur->n >= m->p.max_sims) break;
        int slot = m->cur->n, kind = LEAF_EVAL;
        int status = descend(m, slot, &kind);
        if (status) return status;
        char *s = m->cur->states + (size_t)slot * g->state_size;
        uint32_t *path = m->cur->paths + (size_t)slot * (size_t)m->path_cap;
        int len = m->cur->len[slot];
        mcts_node_t *leaf = &m->nodes[path[len - 1]];
        double v[GAME_MAX_PLAYERS];
        switch (kind) {
        case LEAF_COLLISION:
            mcts_undo_virtual(m, path, len);
            collision = true;
            break;
        case LEAF_PROVEN:
            for (int p = 0; p < g->num_players; p++) v[p] = leaf->proven_value[p];
            backup_slot(m, slot, path, len, v);
            m->sims++;
            break;
        case LEAF_TERMINAL:
            game_returns(g, s, v);
            mcts_prove_terminal(m, path[len - 1], v);
            backup_slot(m, slot, path, len, v);
            m->sims++;
            break;
        default: /* LEAF_EVAL; a chance state here means the arena was full */
            while (game_current_player(g, s) == PLAYER_CHANCE) {
                int a = game_chance_sample(g, s, &m->rng, m->chance_actions, m->chance_probs);
                if (a < 0) return a;
                game_apply(g, s, a);
            }
            if (game_is_terminal(g, s)) {
                game_returns(g, s, v);
                backup_slot(m, slot, path, len, v);
                m->sims++;
            } else if (len > 1 && table_value(m, s, v)) {
                mcts_prove_terminal(m, path[len - 1], v); /* a no-op without the solver */
                backup_slot(m, slot, path, len, v);
                m->sims++;
            } else {
                leaf->flags |= NODE_PENDING;
                m->cur->n++;
            }
        }
    }
    /* Leaves played out by the searcher itself (params.playouts) are delivered
     * here: the caller gets no state to evaluate. */
    if (m->p.playouts > 0 && m->cur->n > 0) {
        int status = mcts_var_playouts(m, m->own.values);
        if (!status) status = mcts_search_deliver(m, m->own.values, NULL);
        if (status) return status;
    }
    *states = m->cur->states;
    *n = m->cur->n;
    return HOYLE_OK;
}

/* Step 3: `values` is slots x num_players and `priors` slots x num_actions
 * (or NULL for evaluators without a policy), both in the order collect
 * returned the states. */
int mcts_search_deliver(mcts_t *m, const double *values, const float *priors)
{
    const game_t *g = m->g;
    for (int i = 0; i < m->cur->n; i++) {
        uint32_t *path = m->cur->paths + (size_t)i * (size_t)m->path_cap;
        int len = m->cur->len[i];
        uint32_t index = path[len - 1];
        mcts_node_t *leaf = &m->nodes[index];
        leaf->flags &= (uint8_t)~NODE_PENDING;
        /* Lazy expansion: a leaf evaluated without priors waits for its second
         * visit (the descent expands it then); see mcts_internal.h. */
        bool defer = priors == NULL && index != 0 && !(m->p.decisive && m->p.solver);
        if (defer && !(leaf->flags & NODE_EXPANDED)) leaf->flags |= NODE_DEFERRED;
        /* Never expand a node twice: a second child block would orphan the first. */
        else if (!(leaf->flags & NODE_EXPANDED)) {
            const char *s = m->cur->states + (size_t)i * g->state_size;
            const float *pr = priors ? priors + (size_t)i * (size_t)g->num_actions : NULL;
            int status = mcts_expand(m, index, s, pr);
            /* HOYLE_EFULL is not an error: the leaf stays unexpanded and its value is
             * still backed up, so the search degrades to re-evaluating leaves. */
            if (status < 0 && status != HOYLE_EFULL) return status;
            if (index == 0) mcts_prove_root(m);
            /* The root's own evaluation is kept for Gumbel: the completed Q of an
             * unvisited candidate uses it (v_mix, Danihelka et al. 2022, Appendix D). */
            if (index == 0 && m->p.gumbel) {
                for (int p = 0; p < g->num_players; p++)
                    m->root_raw[p] = values[(size_t)i * (size_t)g->num_players + (size_t)p];
                m->root_raw_valid = true;
                if (leaf->flags & NODE_EXPANDED) mcts_gumbel_init(m);
            } else if (index == 0) {
                mcts_add_noise(m);
            }
        }
        const double *v = values + (size_t)i * (size_t)g->num_players;
        double proven[GAME_MAX_PLAYERS];
        /* a leaf its expansion proved (decisive moves) backs up its exact value */
        if (m->p.solver && (leaf->flags & NODE_PROVEN)) {
            for (int p = 0; p < g->num_players; p++) proven[p] = leaf->proven_value[p];
            v = proven;
        }
        backup_slot(m, i, path, len, v);
        m->sims++;
    }
    if (m->cur->n > 0 && m->p.playouts == 0) m->calls++;
    m->cur->n = 0;
    return HOYLE_OK;
}

const mcts_result_t *mcts_search_end(mcts_t *m)
{
    mcts_fill_result(m);
    return &m->result;
}

/* The one-call form: collect, evaluate with the searcher's own evaluator,
 * deliver, until a stop rule fires. Drivers that pool leaves across
 * searches call the three steps themselves. */
int mcts_search(mcts_t *m, const void *state, const mcts_result_t **out)
{
    if (m->eval == NULL && m->p.playouts == 0)
        return hoyle_error(HOYLE_EINVAL, "mcts: no evaluator (use the step API)");
    if (m->roots) return mcts_root_search(m, state, out); /* one tree per thread */
    return mcts_search_tree(m, state, out);
}

int mcts_search_tree(mcts_t *m, const void *state, const mcts_result_t **out)
{
    int status = search_begin(m, state);
    if (status) return status;
    if (m->threads > 1) {
        if ((status = mcts_search_threads(m))) return status;
        *out = mcts_search_end(m);
        return HOYLE_OK;
    }
    float *priors = m->eval && m->eval->has_priors ? m->own.priors : NULL;
    while (!mcts_search_finished(m)) {
        const void *states;
        int n;
        if ((status = mcts_search_collect(m, &states, &n))) return status;
        if (n > 0 && (status = evaluator_evaluate(m->eval, states, n, m->own.values, priors)))
            return status;
        if ((status = mcts_search_deliver(m, m->own.values, priors))) return status;
    }
    *out = mcts_search_end(m);
    return HOYLE_OK;
}
