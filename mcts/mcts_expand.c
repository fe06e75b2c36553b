/* mcts_expand.c — giving a leaf its children. Decision nodes get one child
 * per legal action with the evaluator's prior renormalised over the legal
 * actions (uniform when the evaluator has none); chance nodes get one child
 * per outcome with its probability as prior. A full arena leaves the node
 * unexpanded (HOYLE_EFULL, recorded in arena_full): it stays a leaf and is
 * simply evaluated again next time. */
#include "mcts/mcts_internal.h"

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
    uint32_t first = mcts_alloc_children(m, n);
    if (first == 0) return HOYLE_EFULL;
    /* Priors are renormalised over the legal actions only: a network's mass on
     * illegal actions would otherwise shrink every legal prior and distort
     * the PUCT exploration term. */
    double total = 0;
    if (player != PLAYER_CHANCE && priors)
        for (int i = 0; i < n; i++) total += priors[m->legal[i]];
    for (int i = 0; i < n; i++) {
        mcts_node_t *ch = &m->nodes[first + (uint32_t)i];
        if (player == PLAYER_CHANCE) {
            ch->action = m->chance_actions[i];
            ch->prior = (float)m->chance_probs[i];
        } else {
            ch->action = m->legal[i];
            ch->prior = total > 0 ? (float)(priors[m->legal[i]] / total) : 1.0f / (float)n;
        }
    }
    node->first_child = first;
    node->num_children = (uint16_t)n;
    node->flags |= NODE_EXPANDED;
    return HOYLE_OK;
}
