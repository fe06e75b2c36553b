/* mcts_expand.c — giving a leaf its edges. Decision nodes get one edge per
 * legal action with the evaluator's prior renormalised over the legal
 * actions (uniform when the evaluator has none); chance nodes get one edge
 * per outcome with its probability as prior. The child nodes come later, each
 * when its edge is first taken (mcts_edge_child). A full arena leaves the node
 * unexpanded (HOYLE_EFULL, recorded in arena_full): it stays a leaf and is
 * simply evaluated again next time. With `decisive` (and the solver), a decision
 * node's children are tried one move deep as it is expanded (decisive_scan). */
#include <string.h>

#include "mcts/mcts_internal.h"

/* Decisive moves (Teytaud & Teytaud 2010, "On the huge benefit of decisive moves in
 * Monte-Carlo tree search algorithms"): each child whose move ends the game is made a
 * proven terminal node at once, and the first that wins for the mover proves the node
 * itself. A win in one is then never missed however small its prior, and a move that
 * leaves the opponent a win in one is refuted the first time its node is expanded,
 * instead of after enough visits to reach that one child. Costs one game_apply per legal
 * move of each expanded node; no evaluator call. */
static void decisive_scan(mcts_t *m, uint32_t index, const void *state)
{
    const game_t *g = m->g;
    mcts_node_t *node = &m->nodes[index];
    int player = node->player;
    double r[GAME_MAX_PLAYERS];
    for (int i = 0; i < node->num_children; i++) {
        uint32_t e = node->first_edge + (uint32_t)i;
        memcpy(m->state, state, g->state_size);
        if (game_apply_checked(g, m->state, m->edges[e].action)) continue;
        if (!game_is_terminal(g, m->state)) continue;
        game_returns(g, m->state, r);
        /* the terminal child gets its node now (the proof lives there); with the
         * arena full it is found terminal when the descent first takes it */
        uint32_t c = mcts_edge_child(m, e);
        if (c == 0) continue;
        m->nodes[c].player = PLAYER_TERMINAL;
        m->nodes[c].flags |= NODE_EXPANDED;
        mcts_prove_terminal(m, c, r);
        if (r[player] >= 1.0 - 1e-6) { /* nothing does better for the mover */
            mcts_prove_terminal(m, index, r);
            return;
        }
    }
}

/* Contract: `state` is the node's state. On HOYLE_OK the node is
 * NODE_EXPANDED (terminal nodes too, with no children); on HOYLE_EFULL it
 * is untouched apart from its player; any other code is a game error. */
int mcts_expand(mcts_t *m, uint32_t index, const void *state, const float *priors)
{
    const game_t *g = m->g;
    mcts_node_t *node = &m->nodes[index];
    int player = game_current_player(g, state);
    node->player = (int8_t)player;
    if (player == PLAYER_TERMINAL) {
        node->flags |= NODE_EXPANDED;
        return HOYLE_OK;
    }
    int n;
    if (player == PLAYER_CHANCE)
        n = game_chance_outcomes(g, state, m->chance_actions, m->chance_probs);
    else
        n = game_legal_actions(g, state, m->legal);
    /* A live state must have a move or an outcome; zero would leave a
     * live node with nothing for the descent to select. */
    if (n <= 0) return hoyle_error(HOYLE_ESTATE, "mcts: %s: live state without actions", g->spec);
    uint32_t first = mcts_alloc_edges(m, n);
    if (first == 0) return HOYLE_EFULL;
    /* Priors are renormalised over the legal actions only: a network's mass on
     * illegal actions would otherwise shrink every legal prior and distort
     * the PUCT exploration term. */
    double total = 0;
    if (player != PLAYER_CHANCE && priors)
        for (int i = 0; i < n; i++) total += priors[m->legal[i]];
    for (int i = 0; i < n; i++) {
        mcts_edge_t *ch = &m->edges[first + (uint32_t)i];
        if (player == PLAYER_CHANCE) {
            ch->action = m->chance_actions[i];
            ch->prior = (float)m->chance_probs[i];
        } else {
            ch->action = m->legal[i];
            ch->prior = total > 0 ? (float)(priors[m->legal[i]] / total) : 1.0f / (float)n;
        }
    }
    node->first_edge = first;
    node->num_children = (uint16_t)n;
    node->flags = (uint8_t)((node->flags | NODE_EXPANDED) & ~NODE_DEFERRED);
    if (player >= 0 && m->p.decisive && m->p.solver) decisive_scan(m, index, state);
    return HOYLE_OK;
}
