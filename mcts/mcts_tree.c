/* mcts_tree.c — the searcher's lifecycle and its arena: creation with every
 * buffer sized once, edge-block and node allocation (nodes from the front,
 * edges from the back of one block: mcts_internal.h), and tree reuse by
 * compacting the kept subtree (breadth-first, each edge block kept whole). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts/mcts_internal.h"
#include "mcts/mcts_params.h"
#include "mcts/mcts_var.h"

/* Rejects what would break the search later rather than at the first
 * move: a search needs a stop rule, the arena a root plus one child and
 * edge numbers that fit 32 bits, and num_children (uint16_t) must hold
 * every legal action or outcome. */
static int check_params(const game_t *g, const mcts_params_t *p)
{
    if (p->max_sims <= 0 && p->time_limit_ms <= 0)
        return hoyle_error(HOYLE_EINVAL, "mcts: set sims or time_ms (both are 0)");
    if (p->batch < 1) return hoyle_error(HOYLE_EINVAL, "mcts: batch must be >= 1");
    if (p->threads > MCTS_MAX_THREADS)
        return hoyle_error(HOYLE_EINVAL, "mcts: threads must be in [1, %d], got %d",
                           MCTS_MAX_THREADS, p->threads);
    /* the arena's edges (four per node's worth of bytes) are numbered by uint32_t */
    if (p->max_nodes < 2 || p->max_nodes >= MCTS_MAX_NODES)
        return hoyle_error(HOYLE_EINVAL, "mcts: nodes must be in [2, %zu) (memory_mb < %zu)",
                           MCTS_MAX_NODES, (size_t)MCTS_MAX_MEMORY_MB);
    if (g->max_legal > UINT16_MAX || g->max_chance_outcomes > UINT16_MAX)
        return hoyle_error(HOYLE_EUNSUP, "mcts: %s has more than 65535 legal actions", g->spec);
    if (p->dirichlet_eps > 0 && p->dirichlet_alpha <= 0)
        return hoyle_error(HOYLE_EINVAL, "mcts: noise_alpha (the Dirichlet alpha) must be > 0 "
                                         "when noise_eps > 0");
    /* Sequential Halving splits a known simulation budget into phases, so a
     * Gumbel search cannot run on the clock alone. */
    if (p->gumbel && p->max_sims <= 0)
        return hoyle_error(HOYLE_EINVAL, "mcts: gumbel needs a simulation budget (sims > 0)");
    if (p->gumbel && (p->gumbel_m < 1 || p->c_visit < 0 || p->c_scale < 0))
        return hoyle_error(HOYLE_EINVAL, "mcts: gumbel_m must be >= 1, c_visit and c_scale >= 0");
    return mcts_var_check(p);
}

int mcts_create(const game_t *g, const mcts_params_t *params_in, evaluator_t *eval, mcts_t **out)
{
    /* max_nodes = 0 means "size the arena from the budget" (mcts_params.c). */
    mcts_params_t sized = *params_in;
    if (sized.max_nodes == 0) sized.max_nodes = mcts_nodes_for(g, &sized);
    const mcts_params_t *params = &sized;
    if (check_params(g, params)) return HOYLE_EINVAL;
    /* parallel=root: each tree's arena is its share of the cap (mcts_root.c) */
    if (mcts_root_split(&sized)) return HOYLE_EINVAL;
    mcts_t *m = calloc(1, sizeof *m);
    if (m == NULL) return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory");
    m->g = g;
    m->p = *params;
    m->eval = eval;
    rng_init(&m->rng, params->seed);
    /* Every scratch array is sized once for the largest node (legal actions or
     * chance outcomes, whichever is more): the search itself never allocates. */
    size_t nc = g->max_chance_outcomes > 0 ? (size_t)g->max_chance_outcomes : 1;
    size_t nl = (size_t)g->max_legal > nc ? (size_t)g->max_legal : nc;
    /* The root plus one node per ply of the longest game, with one to spare. */
    m->path_cap = g->max_game_length + 2;
    /* One block for nodes and edges: the cap is max_nodes nodes' worth of bytes. */
    m->arena_bytes = sizeof *m->nodes * params->max_nodes;
    m->edge_cap = m->arena_bytes / sizeof(mcts_edge_t);
    m->edge_low = m->edge_cap;
    m->nodes = malloc(m->arena_bytes);
    m->edges = (mcts_edge_t *)(void *)m->nodes;
    m->root_state = malloc(g->state_size);
    m->state = malloc(g->state_size);
    int slots_status = mcts_slots_init(m, &m->own);
    m->cur = &m->own;
    m->legal = malloc(sizeof *m->legal * nl);
    m->chance_actions = malloc(sizeof *m->chance_actions * nc);
    m->chance_probs = malloc(sizeof *m->chance_probs * nc);
    m->noise = malloc(sizeof *m->noise * nl);
    m->r_actions = malloc(sizeof *m->r_actions * nl);
    m->r_visits = malloc(sizeof *m->r_visits * nl);
    m->r_q = malloc(sizeof *m->r_q * nl);
    m->r_priors = malloc(sizeof *m->r_priors * nl);
    m->r_proven = malloc(sizeof *m->r_proven * nl);
    m->r_improved = malloc(sizeof *m->r_improved * nl);
    m->g_cand = malloc(sizeof *m->g_cand * nl);
    m->g_base = malloc(sizeof *m->g_base * nl);
    m->g_in = malloc(sizeof *m->g_in * nl);
    m->g_sort = malloc(sizeof *m->g_sort * nl);
    m->g_score = malloc(sizeof *m->g_score * nl);
    /* The root proof searches keep one state and three legal lists per level. */
    int depth = params->prove > params->threats ? params->prove : params->threats;
    size_t levels = depth > 0 ? (size_t)depth + 2 : 0;
    if (levels) {
        m->prove_states = malloc(g->state_size * levels);
        m->prove_legal = malloc(sizeof *m->prove_legal * 3 * (size_t)g->max_legal * levels);
    }
    if ((levels && (!m->prove_states || !m->prove_legal)) || !m->nodes || !m->root_state ||
        !m->state || slots_status || !m->legal || !m->chance_actions || !m->chance_probs ||
        !m->noise || !m->r_actions || !m->r_visits || !m->r_q || !m->r_priors || !m->r_proven ||
        !m->r_improved || !m->g_cand || !m->g_base || !m->g_in || !m->g_sort || !m->g_score) {
        mcts_free(m);
        return hoyle_error(HOYLE_ENOMEM, "mcts: out of memory (nodes=%zu)", params->max_nodes);
    }
    /* the workers of a tree-parallel search: their slots and evaluator clones */
    int status = mcts_threads_create(m);
    if (!status && mcts_var_create(m))
        status = HOYLE_ENOMEM; /* the variants' tables, when some are on */
    /* parallel=root: the other trees and their evaluator clones */
    if (!status) status = mcts_root_create(m);
    if (status) {
        mcts_free(m);
        return status;
    }
    *out = m;
    return HOYLE_OK;
}

const mcts_node_t mcts_blank_node = {.player = NODE_PLAYER_UNKNOWN};

_Static_assert(sizeof(mcts_node_t) == MCTS_NODE_BYTES, "MCTS_NODE_BYTES is the node's size");

size_t mcts_node_bytes(void) { return sizeof(mcts_node_t); }

size_t mcts_tree_bytes(const mcts_t *m)
{
    return m->used * sizeof(mcts_node_t) + (m->edge_cap - m->edge_low) * sizeof(mcts_edge_t);
}

size_t mcts_memory_bytes(const mcts_t *m)
{
    const game_t *g = m->g;
    size_t batch = (size_t)m->p.batch;
    size_t nl =
        (size_t)(g->max_legal > g->max_chance_outcomes ? g->max_legal : g->max_chance_outcomes);
    int depth = m->p.prove > m->p.threats ? m->p.prove : m->p.threats;
    size_t levels = depth > 0 ? (size_t)depth + 2 : 0;
    return sizeof *m + sizeof *m->nodes * m->p.max_nodes + g->state_size * (2 + batch + levels) +
           batch * ((size_t)m->path_cap * sizeof *m->own.paths +
                    (size_t)g->num_players * sizeof *m->own.values +
                    (size_t)g->num_actions * sizeof *m->own.priors) +
           mcts_threads_memory_bytes(m) + mcts_root_memory_bytes(m) + nl * 16 * sizeof(double) +
           levels * 3 * (size_t)g->max_legal * sizeof(int) + mcts_var_memory_bytes(m);
}

void mcts_free(mcts_t *m)
{
    if (m == NULL) return;
    mcts_root_free(m);
    mcts_var_free(m);
    free(m->nodes);
    free(m->root_state);
    free(m->state);
    mcts_threads_free(m);
    mcts_slots_done(&m->own);
    free(m->legal);
    free(m->chance_actions);
    free(m->chance_probs);
    free(m->noise);
    free(m->r_actions);
    free(m->r_visits);
    free(m->r_q);
    free(m->r_priors);
    free(m->r_proven);
    free(m->r_improved);
    free(m->g_cand);
    free(m->g_base);
    free(m->g_in);
    free(m->g_sort);
    free(m->g_score);
    free(m->prove_states);
    free(m->prove_legal);
    free(m);
}

/* Would `nodes` nodes and `edges` edges (in use) fit the arena? */
static bool arena_fits(const mcts_t *m, size_t nodes, size_t edges)
{
    return edges <= m->edge_cap &&
           nodes * sizeof(mcts_node_t) <= (m->edge_cap - edges) * sizeof(mcts_edge_t);
}

/* Returns the first index of a block of n zeroed edges, or 0 (which is never
 * an edge: the root node lies over it) when the arena cannot hold them;
 * arena_full then tells the result that the tree stopped growing. */
uint32_t mcts_alloc_edges(mcts_t *m, int n)
{
    size_t in_use = m->edge_cap - m->edge_low;
    if (n <= 0 || !arena_fits(m, m->used, in_use + (size_t)n)) {
        if (n > 0) m->arena_full = true;
        return 0;
    }
    m->edge_low -= (size_t)n;
    memset(&m->edges[m->edge_low], 0, sizeof(mcts_edge_t) * (size_t)n);
    return (uint32_t)m->edge_low;
}

uint32_t mcts_edge_child(mcts_t *m, uint32_t e)
{
    mcts_edge_t *edge = &m->edges[e];
    if (edge->node) return edge->node;
    if (!arena_fits(m, m->used + 1, m->edge_cap - m->edge_low)) {
        m->arena_full = true;
        return 0;
    }
    uint32_t index = (uint32_t)m->used++;
    m->nodes[index] = mcts_blank_node;
    m->nodes[index].action = edge->action;
    edge->node = index;
    return index;
}

/* A fresh one-node tree at `state`; action -1 because the root has no
 * parent edge. */
void mcts_reset_root(mcts_t *m, const void *state)
{
    if (state != m->root_state) memcpy(m->root_state, state, m->g->state_size);
    m->has_root = true;
    m->root_noised = false;
    m->root_raw_valid = false;
    m->root_proved = false;
    m->g_ready = false;
    m->used = 1;
    m->edge_low = m->edge_cap;
    memset(&m->nodes[0], 0, sizeof m->nodes[0]);
    m->nodes[0].player = (int8_t)game_current_player(m->g, state);
    m->nodes[0].action = -1;
}

/* Forgets the tree but keeps every buffer: the next search starts fresh. */
void mcts_clear(mcts_t *m)
{
    m->has_root = false;
    m->used = 0;
    m->edge_low = m->edge_cap;
    mcts_var_clear(m); /* the variants' tables belong to one game */
    mcts_root_clear(m);
}

/* Everything else in m is per-search state that mcts_search_begin() sets
 * before use, so the tree and the stream are all a new seed has to reset. */
void mcts_reseed(mcts_t *m, uint64_t seed)
{
    mcts_clear(m);
    m->p.seed = seed;
    rng_init(&m->rng, seed);
    mcts_threads_reseed(m, seed);
    mcts_root_reseed(m, seed);
}

/* Copy the subtree rooted at `keep` to the front of the arena (its nodes)
 * and to the back (its edges). Allocates one temporary block per move (not
 * per simulation). Falls back to a fresh root if that allocation fails. */
static void compact(mcts_t *m, uint32_t keep)
{
    size_t count = 1, head = 0, nedges = 0, edges_in_use = m->edge_cap - m->edge_low;
    mcts_node_t *copy = malloc(sizeof *copy * m->used);
    mcts_edge_t *ecopy = malloc(sizeof *ecopy * (edges_in_use ? edges_in_use : 1));
    /* the old index of each copied node, for the variants' per-node values */
    uint32_t *from = m->var ? malloc(sizeof *from * m->used) : NULL;
    if (copy == NULL || ecopy == NULL || (m->var && from == NULL)) {
        free(copy);
        free(ecopy);
        free(from);
        mcts_reset_root(m, m->root_state);
        return;
    }
    /* Breadth-first: copy[head]'s edges are appended to ecopy as one block
     * (first_edge holds the block's offset there until the fix-up below), and
     * the nodes behind them to copy, each edge rewritten to its node's new index. */
    copy[0] = m->nodes[keep];
    if (from) from[0] = keep;
    while (head < count) {
        mcts_node_t *n = &copy[head];
        if (n->first_edge) {
            uint32_t old = n->first_edge;
            n->first_edge = (uint32_t)nedges;
            for (int c = 0; c < n->num_children; c++) {
                mcts_edge_t e = m->edges[old + (uint32_t)c];
                if (e.node) {
                    if (from) from[count] = e.node;
                    copy[count] = m->nodes[e.node];
                    e.node = (uint32_t)count++;
                }
                ecopy[nedges++] = e;
            }
        }
        head++;
    }
    /* The kept edges end the arena; their block offsets become indices. */
    m->edge_low = m->edge_cap - nedges;
    for (size_t i = 0; i < count; i++)
        if (copy[i].num_children) copy[i].first_edge += (uint32_t)m->edge_low;
    /* A search that ended on an error can leave visits in flight at the
     * kept node; the new root starts with none. */
    memcpy(m->nodes, copy, sizeof *copy * count);
    memcpy(&m->edges[m->edge_low], ecopy, sizeof *ecopy * nedges);
    m->used = count;
    m->nodes[0].vloss = 0;
    free(copy);
    free(ecopy);
    mcts_var_compact(m, from, count);
    free(from);
}

/* Moves the root along `action` after the move is played. The tree is
 * kept only when it was built from `state_before` (another caller may
 * have moved the game elsewhere) and the played child has been visited. */
void mcts_advance(mcts_t *m, const void *state_before, int action)
{
    mcts_root_advance(m, state_before, action); /* the other trees of parallel=root */
    if (!m->has_root || m->used == 0 ||
        memcmp(m->root_state, state_before, m->g->state_size) != 0) {
        m->has_root = false;
        return;
    }
    game_apply(m->g, m->root_state, action);
    mcts_node_t *root = &m->nodes[0];
    uint32_t keep = 0;
    if (m->p.reuse && root->first_edge)
        for (int c = 0; c < root->num_children; c++)
            if (mcts_edge(m, root, c)->action == action) keep = mcts_edge(m, root, c)->node;
    /* An unvisited child has no node, or no computed player or subtree: nothing to keep. */
    if (keep == 0 || m->nodes[keep].player == NODE_PLAYER_UNKNOWN) {
        mcts_reset_root(m, m->root_state);
        return;
    }
    compact(m, keep);
    /* The new root's priors came from its old parent, so noise, the stored
     * raw value and the Gumbel schedule all belong to the previous search. */
    m->root_noised = false;
    m->root_raw_valid = false;
    m->root_proved = false;
    m->g_ready = false;
    m->nodes[0].action = -1;
}
