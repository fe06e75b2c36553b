/* mcts_prove.c — a shallow exact win/loss search at the root (params.prove).
 *
 * MCTS finds a forced line only once enough simulations happen to walk down
 * every defence of it; a small net or a short time budget misses three-move
 * threats that a full-width search sees at once (Go-Bang's open three). Like
 * the MCTS-minimax hybrids of Baier & Winands (2015, "MCTS-Minimax Hybrids"),
 * this runs a full-width AND/OR search over the game's own terminal results,
 * with no heuristic, once per new root, and hands what it proves to the
 * solver: a root move that wins within `prove` plies (counting the move)
 * makes a proven win, so the root is proven and the search ends at once; a
 * root move after which the opponent wins within the remaining plies makes a
 * proven loss, which the descent never selects again. Moves proven neither
 * way are left to the search. Only two-player states without chance are
 * searched (a chance node or a one-player game proves nothing here).
 *
 * `threats` = N runs after it a threat-space search (Allis's idea, in the
 * AND/OR form of Thomsen's lambda search) N plies deep: the attacker tries
 * only the actions the game's threat hint calls threats (Go-Bang: fours and
 * open threes; game_threat_hints), the defender every action, the hint's blocks
 * and the last refutation first. Restricting the attacker only loses proofs,
 * so what it proves is as exact as the full-width search, and it reaches
 * the six to eleven plies of a four-three fork that full width cannot. It
 * proves a root move won when it starts a forced win, and lost when the
 * opponent has a forced win after it, but never the last move not proven
 * lost: a position that is lost against perfect play is still played on by
 * the search's choice. A game without the hint gets a full-width attacker.
 *
 * The searches are bounded by PROVE_BUDGET applies per root and, with a
 * time limit, by half of it; an aborted search proves only what it finished. */
#include <string.h>

#include "core/clock.h"
#include "mcts/mcts_internal.h"

#define PROVE_BUDGET (1u << 21) /* game_apply calls per root */
#define WIN_EPS      1e-6

#define PROVE_LEVELS (MCTS_PROVE_MAX + 2)

typedef struct prover {
    mcts_t *m;
    uint64_t applies;
    bool aborted;
    bool threats;             /* threat-space: the attacker tries threats only */
    int killer[PROVE_LEVELS]; /* per level: the action that last won or refuted, or -1 */
} prover_t;

static char *level_state(prover_t *pv, int level)
{
    return pv->m->prove_states + (size_t)level * pv->m->g->state_size;
}

/* Three times max_legal per level: the legal actions, then threat_order's scratch. */
static int *level_legal(prover_t *pv, int level)
{
    return pv->m->prove_legal + (size_t)level * 3 * (size_t)pv->m->g->max_legal;
}

/* Applies action a to s into `out`; false once the budget or the clock ran out. */
static bool step(prover_t *pv, const void *s, int a, void *out)
{
    const game_t *g = pv->m->g;
    if (pv->aborted) return false;
    if (++pv->applies > PROVE_BUDGET) {
        pv->aborted = true;
        return false;
    }
    if ((pv->applies & 1023) == 0 && pv->m->p.time_limit_ms > 0 &&
        (clock_seconds() - pv->m->t_start) * 1000.0 >= 0.5 * pv->m->p.time_limit_ms) {
        pv->aborted = true;
        return false;
    }
    memcpy(out, s, g->state_size);
    game_apply(g, out, a);
    return true;
}

static bool won_by(const game_t *g, const void *s, int p)
{
    double r[GAME_MAX_PLAYERS];
    game_returns(g, s, r);
    return r[p] >= 1.0 - WIN_EPS;
}

static bool all_replies_lose(prover_t *pv, int level, const void *s, int plies, int p);

/* Threat-space order of legal[0..n) at `level`: the killer first, then the
 * actions whose hint carries `want`, then (when `keep_rest`) the others;
 * returns the count kept. */
static int threat_order(prover_t *pv, int level, const void *s, int *legal, int n, int want,
                        bool keep_rest)
{
    size_t cap = (size_t)pv->m->g->max_legal;
    int *rest = legal + cap, *hint = legal + 2 * cap; /* level_legal's second and third parts */
    game_threat_hints(pv->m->g, s, legal, n, hint);
    int kept = 0, nr = 0, killer = pv->killer[level];
    for (int i = 0; i < n; i++) {
        int a = legal[i];
        if (a == killer) {
            memmove(legal + 1, legal, sizeof *legal * (size_t)kept);
            legal[0] = a, kept++;
        } else if (hint[i] & want) {
            legal[kept++] = a;
        } else if (keep_rest) {
            rest[nr++] = a;
        }
    }
    memmove(legal + kept, rest, sizeof *legal * (size_t)nr);
    return kept + nr;
}

/* Can the player to move at the live decision state `s` force a win within
 * `plies` >= 1 plies (his own action included)? Immediate wins are tried
 * first, over every action (threat-space: every threat), before anything
 * deeper. */
static bool wins(prover_t *pv, int level, const void *s, int plies)
{
    const game_t *g = pv->m->g;
    int p = game_current_player(g, s);
    int *legal = level_legal(pv, level);
    char *t = level_state(pv, level);
    int n = game_legal_actions(g, s, legal);
    if (pv->threats) {
        /* The killer first, before the hints are computed: after a four, the
         * same square wins against nearly every reply. */
        int killer = pv->killer[level];
        for (int i = 0; i < n && killer >= 0; i++)
            if (legal[i] == killer) {
                if (!step(pv, s, killer, t)) return false;
                if (game_is_terminal(g, t) && won_by(g, t, p)) return true;
                break;
            }
        /* an immediate win is a threat too (Go-Bang: a four completed) */
        n = threat_order(pv, level, s, legal, n, GAME_THREAT_MAKES, false);
    }
    for (int i = 0; i < n; i++) {
        if (!step(pv, s, legal[i], t)) return false;
        if (game_is_terminal(g, t) && won_by(g, t, p)) {
            pv->killer[level] = legal[i];
            return true;
        }
    }
    if (plies < 2) return false;
    for (int i = 0; i < n; i++) {
        if (!step(pv, s, legal[i], t)) return false;
        if (game_is_terminal(g, t)) continue;
        int q = game_current_player(g, t);
        if (q == p ? wins(pv, level + 1, t, plies - 1)
                   : q >= 0 && all_replies_lose(pv, level + 1, t, plies - 1, p)) {
            pv->killer[level] = legal[i];
            return true;
        }
    }
    return false;
}

/* Does every action of the player to move at the live state `s` (not `p`)
 * leave `p` a forced win within `plies` >= 1 plies, that action included? */
static bool all_replies_lose(prover_t *pv, int level, const void *s, int plies, int p)
{
    const game_t *g = pv->m->g;
    int q = game_current_player(g, s);
    int *legal = level_legal(pv, level);
    char *t = level_state(pv, level);
    int n = game_legal_actions(g, s, legal);
    if (pv->threats) n = threat_order(pv, level, s, legal, n, GAME_THREAT_BLOCKS, true);
    for (int i = 0; i < n; i++) {
        if (!step(pv, s, legal[i], t)) return false;
        bool lost;
        if (game_is_terminal(g, t)) {
            lost = won_by(g, t, p);
        } else {
            int r = game_current_player(g, t);
            lost =
                plies >= 2 && (r == p ? wins(pv, level + 1, t, plies - 1)
                                      : r == q && all_replies_lose(pv, level + 1, t, plies - 1, p));
        }
        if (!lost) {
            pv->killer[level] = legal[i];
            return false;
        }
    }
    return true;
}

/* The root child along `edge` proven with returns r; the child gets its node
 * now (a proof needs one), and stays unproven when the arena is full. */
static void prove_edge(mcts_t *m, uint32_t edge, const double *r)
{
    uint32_t index = mcts_edge_child(m, edge);
    if (index) mcts_prove_terminal(m, index, r);
}

static void prove_child(mcts_t *m, uint32_t edge, int winner)
{
    double r[GAME_MAX_PLAYERS];
    for (int p = 0; p < m->g->num_players; p++) r[p] = p == winner ? 1.0 : -1.0;
    prove_edge(m, edge, r);
}

/* Root children not proven yet, highest prior first, into m->g_cand; returns the count. */
static int unproven_by_prior(mcts_t *m)
{
    const mcts_node_t *root = &m->nodes[0];
    int n = 0;
    for (int c = 0; c < root->num_children; c++) {
        const mcts_edge_t *e = mcts_edge(m, root, c);
        if (mcts_edge_node(m, e)->flags & NODE_PROVEN) continue;
        int j = n++;
        for (; j > 0 && mcts_edge(m, root, m->g_cand[j - 1])->prior < e->prior; j--)
            m->g_cand[j] = m->g_cand[j - 1];
        m->g_cand[j] = c;
    }
    return n;
}

/* One pass of `plies`-deep searches (the prover's mode as set) over the root
 * children not proven yet, highest prior first: `pass` 0 settles immediate
 * results only, 1 looks for a forced win (which proves the root and ends the
 * pass) and for forced losses, 2 (threat-space) for wins starting with a
 * threat, 3 (threat-space) for losses, never the last child left. */
static void root_pass(prover_t *pv, int pass, int plies)
{
    mcts_t *m = pv->m;
    const game_t *g = m->g;
    const mcts_node_t *root = &m->nodes[0];
    int p = root->player, n = unproven_by_prior(m), left = n;
    char *t = level_state(pv, 0);
    for (int k = 0; k < n && !pv->aborted; k++) {
        uint32_t edge = root->first_edge + (uint32_t)m->g_cand[k];
        int a = m->edges[edge].action;
        if (pass == 2) {
            int hint;
            game_threat_hints(g, m->root_state, &a, 1, &hint);
            if (!(hint & GAME_THREAT_MAKES)) continue;
        }
        if (!step(pv, m->root_state, a, t)) break;
        if (game_is_terminal(g, t)) {
            double r[GAME_MAX_PLAYERS];
            game_returns(g, t, r);
            prove_edge(m, edge, r);
            if (r[p] >= 1.0 - WIN_EPS) return;
            continue;
        }
        int q = game_current_player(g, t);
        if (pass == 0 || q < 0 || plies < 2) continue;
        if (pass != 3) {
            bool win =
                q == p ? wins(pv, 1, t, plies - 1) : all_replies_lose(pv, 1, t, plies - 1, p);
            if (pv->aborted) return;
            if (win) {
                prove_child(m, edge, p);
                return;
            }
        }
        if (pass == 2 || q == p || (pass == 3 && left == 1)) continue;
        if (wins(pv, 1, t, plies - 1)) {
            prove_child(m, edge, q);
            left--;
        }
    }
}

void mcts_prove_root(mcts_t *m)
{
    const game_t *g = m->g;
    mcts_node_t *root = &m->nodes[0];
    if (m->root_proved || (m->p.prove <= 0 && m->p.threats <= 0) || !m->p.solver ||
        g->num_players != 2 || root->player < 0 || !(root->flags & NODE_EXPANDED) ||
        (root->flags & NODE_PROVEN))
        return;
    m->root_proved = true;
    prover_t pv = {.m = m};
    for (int l = 0; l < PROVE_LEVELS; l++) pv.killer[l] = -1;
    /* The quick pass settles immediate results, then the full-width search
     * (prove) and the threat-space one (threats, wins before losses); a
     * proven root ends them. */
    for (int pass = 0; pass < 4 && !pv.aborted && !(root->flags & NODE_PROVEN); pass++) {
        int plies = pass < 2 ? m->p.prove : m->p.threats;
        if (pass > 0 && plies < 2) continue;
        pv.threats = pass >= 2;
        /* The threat-space passes deepen two plies at a time (a move and its
         * answer), so that short proofs are not starved by a deep first line. */
        int first = pass == 2 ? 3 : 2; /* a win line has odd length: ours, or theirs after ours */
        for (int d = pass < 2 || plies < first ? plies : first;;
             d = d + 2 < plies ? d + 2 : plies) {
            root_pass(&pv, pass, d);
            mcts_try_prove(m, 0);
            if (d == plies || pv.aborted || (root->flags & NODE_PROVEN)) break;
        }
    }
}
