/* mcts_select.c — choosing the child to descend into, and root noise.
 *
 * Decision nodes maximise, for the player to move p,
 *   UCT  (Kocsis & Szepesvári 2006):  Q_p + c_uct * sqrt(ln N / n)
 *   PUCT (Silver et al. 2018):        Q_p + c(N) * P * sqrt(N) / (1 + n),
 *                                      c(N) = log((1 + N + c_base) / c_base) + c_init
 * where n = child visits + in-flight visits, N = the parent's, and
 * Q_p = (value_sum[p] - virtual_loss * vloss) / n: each in-flight visit
 * counts as a loss of size virtual_loss for the chooser, which spreads a
 * batch over different leaves. Unvisited children get the FPU value.
 * MCTS-Solver (Winands et al. 2008): a proven child's Q is its proven value,
 * and proven losses (value -1 for the chooser) are never selected.
 * Chance nodes sample an outcome by its probability (sampled descent).
 * With params.gumbel the root's child is chosen by Sequential Halving over
 * Gumbel-sampled candidates instead (Danihelka et al. 2022; below). */
#include <math.h>
#include <stdlib.h> /* qsort */

#include "mcts/mcts_internal.h"
#include "mcts/mcts_var.h"

#define LOSS_EPS 1e-6

static uint32_t sample_outcome(mcts_t *m, const mcts_node_t *node)
{
    double total = 0;
    for (int c = 0; c < node->num_children; c++) total += mcts_edge(m, node, c)->prior;
    double u = rng_double(&m->rng) * total;
    /* The last outcome takes whatever u is left, so float rounding in the
     * priors can never make the walk fall off the end. */
    for (int c = 0; c < node->num_children - 1; c++) {
        double pr = mcts_edge(m, node, c)->prior;
        if (u < pr) return node->first_edge + (uint32_t)c;
        u -= pr;
    }
    return node->first_edge + (uint32_t)(node->num_children - 1);
}

uint32_t mcts_select_child(mcts_t *m, const mcts_node_t *node, int player)
{
    if (player == PLAYER_CHANCE)
        return m->var && m->p.pw > 0 ? mcts_widen_outcome(m, node) : sample_outcome(m, node);
    const mcts_params_t *p = &m->p;
    /* N counts the visits in flight too, matching n below, so a batch sees
     * the same exploration term it would see with the visits completed. */
    double parent_n = (double)node->visits + node->vloss;
    double fpu;
    /* FPU: +inf visits every child once (classic UCT); VALUE is a fixed Q;
     * PARENT (Leela-style reduction) the parent's mean minus fpu_value, which
     * has no mean before the parent's first visit: the constant then. */
    if (p->fpu == MCTS_FPU_INF)
        fpu = INFINITY;
    else if (p->fpu == MCTS_FPU_VALUE || node->visits == 0)
        fpu = p->fpu_value;
    else
        fpu = node->value_sum[player] / node->visits - p->fpu_value;
    double explore;
    if (p->select == MCTS_PUCT)
        explore = (log((1.0 + parent_n + p->c_base) / p->c_base) + p->c_init) * sqrt(parent_n);
    else
        explore = p->c_uct * sqrt(log(parent_n > 1 ? parent_n : 1));
    /* the variants' tree policy (RAVE/GRAVE, implicit minimax, progressive
     * history and widening: mcts_var.c) */
    if (m->var) return mcts_var_select(m, node, player, fpu, explore);
    uint32_t best = node->first_edge;
    double best_score = -INFINITY;
    for (int c = 0; c < node->num_children; c++) {
        uint32_t index = node->first_edge + (uint32_t)c;
        const mcts_edge_t *e = &m->edges[index];
        const mcts_node_t *ch = mcts_edge_node(m, e);
        double n = (double)ch->visits + ch->vloss, q, score;
        if (p->solver && (ch->flags & NODE_PROVEN)) {
            q = ch->proven_value[player];
            if (q <= -1.0 + LOSS_EPS) continue; /* a proven loss is never worth a visit */
        } else if (n == 0) {
            q = fpu;
        } else {
            q = (ch->value_sum[player] - p->virtual_loss * ch->vloss) / n;
        }
        if (p->select == MCTS_PUCT)
            score = q + explore * e->prior / (1.0 + n);
        else
            score = n == 0 ? q : q + explore / sqrt(n);
        if (score > best_score) {
            best_score = score;
            best = index;
        }
    }
    return best;
}

/* Mix Dirichlet(alpha) noise into the root priors: P' = (1 - eps) P + eps * eta
 * (Silver et al. 2017), eta drawn as normalised Gamma(alpha, 1) variates. */
void mcts_add_noise(mcts_t *m)
{
    mcts_node_t *root = &m->nodes[0];
    if (m->p.dirichlet_eps <= 0 || m->root_noised || root->num_children == 0 || root->player < 0)
        return;
    double total = 0;
    for (int c = 0; c < root->num_children; c++)
        total += m->noise[c] = rng_gamma(&m->rng, m->p.dirichlet_alpha);
    if (total <= 0) return;
    for (int c = 0; c < root->num_children; c++) {
        mcts_edge_t *e = mcts_edge(m, root, c);
        e->prior =
            (float)((1 - m->p.dirichlet_eps) * e->prior + m->p.dirichlet_eps * m->noise[c] / total);
    }
    m->root_noised = true;
}

/* ---- Gumbel root selection (Danihelka, Guez, Schrittwieser &
 * Silver 2022, "Policy improvement by planning with Gumbel"), params.gumbel.
 *
 * Once per search, when the root is expanded:
 *   g(a) ~ Gumbel(0, 1) per root child (the searcher's rng), logit(a) = log P(a);
 *   the m = min(gumbel_m, legal) children with the highest g + logit are the
 *   candidates; the budget n (simulations left in this search when the root
 *   is expanded: the root's own evaluation does not count) is spent by
 *   Sequential Halving over ceil(log2 m) phases: in a phase with k candidates
 *   each gets max(1, floor(n / (ceil(log2 m) * k))) more visits (forced root
 *   selection, the least visited first, visits in flight included), then the
 *   max(2, floor(k / 2)) best by g + logit + sigma(q^) stay (no halving below
 *   two; later phases keep alternating between the last two until n is spent).
 *   sigma(q^) = (c_visit + max_b N(b)) * c_scale * q^, q^ = (q + 1) / 2 in [0, 1].
 * The move is the remaining candidate with the best score among those with
 * the most visits of this search (as in DeepMind's mctx). A phase that is
 * complete while some of its visits are in flight (batching) ends the batch,
 * so that halving always sees backed-up values.
 * Improved policy: softmax(logit + sigma(completed Q)), completed Q = q for
 * visited children and v_mix for unvisited ones,
 *   v_mix = (v + sum_b N(b) * sum_{N(b)>0} P(b) q(b) / sum_{N(b)>0} P(b)) / (1 + sum_b N(b)),
 * v = the root's own evaluation (its mean value when the root came from a
 * reused tree). Below the root, selection is unchanged (PUCT or UCT). */

#define LOGIT_FLOOR (-69.0) /* log of a zero prior: about log(1e-30) */

static double logit_of(const mcts_edge_t *e)
{
    return e->prior > 0 ? log((double)e->prior) : LOGIT_FLOOR;
}

static bool visited(const mcts_t *m, const mcts_node_t *ch)
{
    return ch->visits > 0 || (m->p.solver && (ch->flags & NODE_PROVEN));
}

static double q_of(const mcts_t *m, const mcts_node_t *ch, int player)
{
    if (m->p.solver && (ch->flags & NODE_PROVEN)) return ch->proven_value[player];
    return ch->value_sum[player] / ch->visits;
}

/* v_mix of the paper (Appendix D), for `player`. */
static double value_mix(const mcts_t *m, int player)
{
    const mcts_node_t *root = &m->nodes[0];
    double v = m->root_raw_valid  ? m->root_raw[player]
               : root->visits > 0 ? root->value_sum[player] / root->visits
                                  : 0.0;
    double sum_n = 0, sum_p = 0, sum_pq = 0;
    for (int c = 0; c < root->num_children; c++) {
        const mcts_edge_t *e = mcts_edge(m, root, c);
        const mcts_node_t *ch = mcts_edge_node(m, e);
        if (!visited(m, ch)) continue;
        sum_n += ch->visits;
        sum_p += e->prior;
        sum_pq += e->prior * q_of(m, ch, player);
    }
    if (sum_n <= 0 || sum_p <= 0) return v;
    return (v + sum_n * sum_pq / sum_p) / (1.0 + sum_n);
}

/* Per root child: logit + sigma(completed Q), into out[]. */
static void transformed(const mcts_t *m, double *out)
{
    const mcts_node_t *root = &m->nodes[0];
    int player = root->player;
    double vmix = value_mix(m, player), max_n = 0;
    for (int c = 0; c < root->num_children; c++) {
        const mcts_node_t *ch = mcts_child(m, root, c);
        if (ch->visits > max_n) max_n = ch->visits;
    }
    double scale = (m->p.c_visit + max_n) * m->p.c_scale;
    for (int c = 0; c < root->num_children; c++) {
        const mcts_edge_t *e = mcts_edge(m, root, c);
        const mcts_node_t *ch = mcts_edge_node(m, e);
        double q = visited(m, ch) ? q_of(m, ch, player) : vmix;
        double qhat = (q + 1.0) / 2.0;
        qhat = qhat < 0 ? 0 : qhat > 1 ? 1 : qhat;
        out[c] = logit_of(e) + scale * qhat;
    }
}

/* Descending key, then ascending child number: a total order (repeatable). */
static int rec_cmp(const void *pa, const void *pb)
{
    const mcts_gumbel_rec_t *a = pa, *b = pb;
    if (a->key > b->key) return -1;
    if (a->key < b->key) return 1;
    return (a->child > b->child) - (a->child < b->child);
}

static int phase_visits(const mcts_t *m, int k)
{
    long long v = m->g_budget / ((long long)m->g_phases * k);
    /* The cap keeps g_target (a running sum over phases) clear of overflow. */
    return v < 1 ? 1 : v > INT32_MAX / 4 ? INT32_MAX / 4 : (int)v;
}

void mcts_gumbel_init(mcts_t *m)
{
    const mcts_node_t *root = &m->nodes[0];
    int n = root->num_children;
    m->g_ready = false;
    if (n == 0 || root->player < 0) return;
    for (int c = 0; c < n; c++) {
        const mcts_edge_t *e = mcts_edge(m, root, c);
        const mcts_node_t *ch = mcts_edge_node(m, e);
        double u = rng_double(&m->rng);
        /* rng_double can return 0, and -log(-log(0)) is +inf: one child would
         * always be a candidate whatever its prior. */
        if (u <= 0) u = 0x1p-60;
        m->noise[c] = -log(-log(u));
        /* Visits already in a reused subtree do not count for this search's
         * schedule: each candidate's visits are measured from g_base. */
        m->g_base[c] = ch->visits;
        m->g_in[c] = 0;
        m->g_sort[c] = (mcts_gumbel_rec_t){.key = m->noise[c] + logit_of(e), .child = c};
    }
    qsort(m->g_sort, (size_t)n, sizeof *m->g_sort, rec_cmp);
    int k = m->p.gumbel_m < n ? m->p.gumbel_m : n;
    for (int i = 0; i < k; i++) {
        m->g_cand[i] = m->g_sort[i].child;
        /* g_in: 2 = still a candidate, 1 = halved out, 0 = never a candidate. */
        m->g_in[m->g_cand[i]] = 2;
    }
    m->g_m = m->g_k = k;
    m->g_phases = 0;
    while ((1 << m->g_phases) < k) m->g_phases++;
    if (m->g_phases == 0) m->g_phases = 1;
    m->g_ready = true;
    m->g_budget = m->p.max_sims - m->sims;
    m->g_target = phase_visits(m, k);
}

/* Keep the best half of the candidates (at least two) and schedule the next phase. */
static void next_phase(mcts_t *m)
{
    if (m->g_k > 2) {
        double *score = m->g_score;
        transformed(m, score);
        for (int i = 0; i < m->g_k; i++) {
            int c = m->g_cand[i];
            m->g_sort[i] = (mcts_gumbel_rec_t){.key = m->noise[c] + score[c], .child = c};
        }
        qsort(m->g_sort, (size_t)m->g_k, sizeof *m->g_sort, rec_cmp);
        int keep = m->g_k / 2 > 2 ? m->g_k / 2 : 2;
        for (int i = 0; i < m->g_k; i++) {
            m->g_cand[i] = m->g_sort[i].child;
            m->g_in[m->g_cand[i]] = (signed char)(i < keep ? 2 : 1);
        }
        m->g_k = keep;
    }
    m->g_target += phase_visits(m, m->g_k);
}

/* Contract: returns the m->edges index of the candidate with the fewest
 * visits this search below the phase target, or 0 when the phase is
 * complete but some of its visits are still in flight (descend then ends
 * the batch: halving must wait for their values). */
uint32_t mcts_gumbel_select(mcts_t *m)
{
    const mcts_node_t *root = &m->nodes[0];
    for (;;) {
        int best = -1;
        long long best_used = 0;
        bool in_flight = false;
        for (int i = 0; i < m->g_k; i++) {
            int c = m->g_cand[i];
            const mcts_node_t *ch = mcts_child(m, root, c);
            long long used = (long long)ch->visits - m->g_base[c] + ch->vloss;
            in_flight |= ch->vloss > 0;
            if (used < m->g_target && (best < 0 || used < best_used)) {
                best = c;
                best_used = used;
            }
        }
        if (best >= 0) return root->first_edge + (uint32_t)best;
        if (in_flight) return 0;
        next_phase(m);
    }
}

uint32_t mcts_gumbel_best(mcts_t *m)
{
    const mcts_node_t *root = &m->nodes[0];
    if (!m->g_ready || root->num_children == 0) return 0;
    double *score = m->g_score;
    transformed(m, score);
    /* only the remaining candidates with the most visits of this search (a
     * budget that ends inside a phase leaves some a visit short) */
    int best = m->g_cand[0], most = 0;
    for (int i = 0; i < m->g_k; i++) {
        int c = m->g_cand[i];
        int n = mcts_child(m, root, c)->visits - m->g_base[c];
        if (n > most) most = n;
    }
    double best_score = -INFINITY;
    for (int i = 0; i < m->g_k; i++) {
        int c = m->g_cand[i];
        double s = m->noise[c] + score[c];
        if (mcts_child(m, root, c)->visits - m->g_base[c] < most) continue;
        if (s > best_score) {
            best_score = s;
            best = c;
        }
    }
    return root->first_edge + (uint32_t)best;
}

void mcts_gumbel_policy(mcts_t *m, float *out)
{
    const mcts_node_t *root = &m->nodes[0];
    int n = root->num_children;
    double *x = m->g_score;
    transformed(m, x);
    double max = -INFINITY, total = 0;
    for (int c = 0; c < n; c++)
        if (x[c] > max) max = x[c];
    /* Shifted by the maximum so exp cannot overflow on large sigma(q^) terms. */
    for (int c = 0; c < n; c++) total += x[c] = exp(x[c] - max);
    for (int c = 0; c < n; c++) out[c] = (float)(x[c] / total);
}
