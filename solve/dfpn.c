/* dfpn.c — proof-number search: df-pn with a transposition table and PNS
 * over an arena (see dfpn.h).
 * Invariant: a node's (pn, dn) are the proof and disproof numbers of its
 * subtree as far as it is known: OR node (the attacker to move) pn = the
 * least child pn, dn = the sum of the child dn; AND node the other way round;
 * a won terminal is (0, INF), any other terminal or a repetition (INF, 0).
 * pn = 0 is a proof, dn = 0 a disproof; sums saturate at PN_INF. A frame per
 * level of the current path (state, children, their numbers); frames are
 * added the first time a path goes deeper, up to max_game_length + 3. */
#include "solve/dfpn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/frames.h"
#include "core/error.h"

#define PN_INF ((uint64_t)1 << 40)

enum { CHILD_OPEN = 0, CHILD_FIXED = 1 }; /* FIXED: terminal or repetition, never looked up */

/* One df-pn table entry; a bucket is two slots (replace the one that cost less work,
 * solved entries before unsolved ones). */
typedef struct pn_entry {
    uint64_t key; /* 0 = empty */
    uint64_t pn, dn;
    uint64_t work; /* nodes spent below it */
    uint8_t loops;
} pn_entry_t;

/* PNS's explicit tree: children of a node are one block [first, first + nchild). */
typedef struct pns_node {
    uint64_t pn, dn;
    int32_t parent, first, nchild, action;
    uint8_t loops, expanded;
} pns_node_t;

typedef struct frame {
    void *state;
    uint64_t key;
    int *actions;
    uint64_t *keys, *cpn, *cdn;
    uint8_t *kind, *cloops;
    int n;
} frame_t;

struct pn {
    const game_t *g;
    pn_params_t p;
    pn_entry_t *tt;
    size_t mask;
    pns_node_t *arena;
    size_t arena_cap, arena_used;
    frames_t fs;  /* frame_t per level of the current path; fs.oom: the search fails */
    int attacker; /* whose win the table's entries are about; -1 = none yet */
    uint64_t nodes;
    double t_start;
    bool abort;
};

void pn_params_default(pn_params_t *p)
{
    *p = (pn_params_t){.algorithm = PN_DFPN, .tt_entries = (size_t)1 << 20, .epsilon = 0.25};
}

static uint64_t add_sat(uint64_t a, uint64_t b) { return a + b >= PN_INF ? PN_INF : a + b; }

/* frames_t's fill: a frame's buffers (ctx: the game, for its sizes). */
static bool fill_frame(void *frame, const void *ctx)
{
    const game_t *g = ctx;
    frame_t *f = frame;
    size_t m = (size_t)g->max_legal;
    f->state = malloc(g->state_size);
    f->actions = malloc(sizeof *f->actions * m);
    f->keys = malloc(sizeof *f->keys * m);
    f->cpn = malloc(sizeof *f->cpn * m);
    f->cdn = malloc(sizeof *f->cdn * m);
    f->kind = malloc(m);
    f->cloops = malloc(m);
    return f->state && f->actions && f->keys && f->cpn && f->cdn && f->kind && f->cloops;
}

static void release_frame(void *frame)
{
    frame_t *f = frame;
    free(f->state);
    free(f->actions);
    free(f->keys);
    free(f->cpn);
    free(f->cdn);
    free(f->kind);
    free(f->cloops);
}

#define FRAME(t, i) ((frame_t *)(t)->fs.at[i])

/* Frame `level` exists (doubling the frames the first time a path goes that
 * deep); false past the deepest line or out of memory (then the search aborts). */
static bool frame_ready(pn_t *t, int level)
{
    if (frames_ready(&t->fs, level)) return true;
    if (t->fs.oom) t->abort = true;
    return false;
}

int pn_create(const game_t *g, const pn_params_t *params, pn_t **out)
{
    if (g->num_players != 2 || g->max_chance_outcomes > 0)
        return hoyle_error(
            HOYLE_EINVAL, "dfpn: %s: proof-number search needs two players and no chance", g->spec);
    if (params->epsilon < 0 || params->tt_entries < 1024)
        return hoyle_error(HOYLE_EINVAL,
                           "dfpn: epsilon must be >= 0 and the table >= 1024 entries");
    pn_t *t = calloc(1, sizeof *t);
    if (t == NULL) return hoyle_error(HOYLE_ENOMEM, "dfpn: out of memory");
    t->g = g;
    t->p = *params;
    t->attacker = -1;
    frames_init(&t->fs, g->max_game_length + 3, sizeof(frame_t), fill_frame, release_frame, g);
    bool ok = frames_add(&t->fs, 64 < t->fs.max ? 64 : t->fs.max);
    if (ok && params->algorithm == PN_PNS) {
        t->arena_cap = params->tt_entries;
        t->arena = malloc(sizeof *t->arena * t->arena_cap);
        ok = t->arena != NULL;
    } else if (ok) {
        size_t n = 1024;
        while (n * 2 <= params->tt_entries) n *= 2;
        t->tt = calloc(n, sizeof *t->tt);
        t->mask = n - 1;
        ok = t->tt != NULL;
    }
    if (!ok) {
        pn_free(t);
        return hoyle_error(HOYLE_ENOMEM, "dfpn: out of memory");
    }
    *out = t;
    return HOYLE_OK;
}

void pn_free(pn_t *t)
{
    if (t == NULL) return;
    frames_done(&t->fs);
    free(t->tt);
    free(t->arena);
    free(t);
}

void pn_clear(pn_t *t)
{
    if (t->tt) memset(t->tt, 0, sizeof *t->tt * (t->mask + 1));
    t->attacker = -1;
}

/* ---- the table ---- */

static pn_entry_t *tt_find(pn_t *t, uint64_t key)
{
    pn_entry_t *b = &t->tt[key & t->mask & ~(size_t)1];
    if (key == 0) return NULL;
    if (b[0].key == key) return &b[0];
    if (b[1].key == key) return &b[1];
    return NULL;
}

/* A solved entry outranks any unsolved one; among equals, more work wins. */
static uint64_t priority(const pn_entry_t *e)
{
    if (e->key == 0) return 0;
    bool solved = e->pn == 0 || e->dn == 0;
    return (solved ? (uint64_t)1 << 62 : 0) + e->work + 1;
}

static void tt_put(pn_t *t, uint64_t key, uint64_t pn, uint64_t dn, uint64_t work, bool loops)
{
    if (key == 0) return;
    pn_entry_t *e = tt_find(t, key);
    if (e == NULL) {
        pn_entry_t *b = &t->tt[key & t->mask & ~(size_t)1];
        e = priority(&b[0]) <= priority(&b[1]) ? &b[0] : &b[1];
    }
    *e = (pn_entry_t){.key = key, .pn = pn, .dn = dn, .work = work, .loops = loops};
}

static bool out_of_budget(pn_t *t)
{
    if (t->abort) return true;
    if (t->p.max_nodes > 0 && t->nodes >= t->p.max_nodes) t->abort = true;
    if (t->p.time_limit_ms > 0 && (t->nodes & 1023) == 0 &&
        (clock_seconds() - t->t_start) * 1000.0 >= t->p.time_limit_ms)
        t->abort = true;
    return t->abort;
}

/* ---- children ---- */

/* Fill frame `level`'s children: terminal ones and repetitions (a hash on
 * the path frames[0..level]) are fixed; the others start at (1, 1) or at
 * what the table (df-pn) knows. The child states are built in frame
 * level + 1, which must exist. */
static void gen_children(pn_t *t, int level)
{
    const game_t *g = t->g;
    frame_t *f = FRAME(t, level);
    void *c = FRAME(t, level + 1)->state;
    f->n = game_legal_actions(g, f->state, f->actions);
    for (int i = 0; i < f->n; i++) {
        memcpy(c, f->state, g->state_size);
        game_apply(g, c, f->actions[i]);
        f->cloops[i] = 0;
        f->kind[i] = CHILD_FIXED;
        if (game_current_player(g, c) == PLAYER_TERMINAL) {
            double r[GAME_MAX_PLAYERS];
            game_returns(g, c, r);
            f->keys[i] = 0;
            f->cpn[i] = r[t->attacker] > 0 ? 0 : PN_INF;
            f->cdn[i] = r[t->attacker] > 0 ? PN_INF : 0;
            continue;
        }
        uint64_t key = game_hash(g, c);
        f->keys[i] = key;
        bool repeated = false;
        for (int k = 0; k <= level && !repeated; k++) repeated = FRAME(t, k)->key == key;
        if (repeated) {
            f->cpn[i] = PN_INF, f->cdn[i] = 0, f->cloops[i] = 1;
            continue;
        }
        f->kind[i] = CHILD_OPEN;
        f->cpn[i] = f->cdn[i] = 1;
        const pn_entry_t *e = t->tt ? tt_find(t, key) : NULL;
        if (e) f->cpn[i] = e->pn, f->cdn[i] = e->dn, f->cloops[i] = e->loops;
    }
}

/* The node's numbers from its children's; `loops` says whether a disproof
 * used a repetition. `best` and `second` (either may be NULL): the child to
 * search next (least pn at OR, least dn at AND) and the runner-up number. */
static void combine(const frame_t *f, bool or_node, uint64_t *pn, uint64_t *dn, bool *loops,
                    int *best, uint64_t *second)
{
    uint64_t *lead = or_node ? f->cpn : f->cdn, *other = or_node ? f->cdn : f->cpn;
    uint64_t least = PN_INF, runner = PN_INF, sum = 0;
    int arg = -1;
    bool any_loop = false, clean_zero = false;
    for (int i = 0; i < f->n; i++) {
        sum = add_sat(sum, other[i]);
        if (lead[i] < least || arg < 0) {
            runner = least;
            least = lead[i];
            arg = i;
        } else if (lead[i] < runner) {
            runner = lead[i];
        }
        any_loop |= f->cloops[i] != 0;
        if (f->cdn[i] == 0 && !f->cloops[i]) clean_zero = true;
    }
    if (f->n == 0) least = PN_INF; /* no move: a state the game should have ended; no win */
    *pn = or_node ? least : sum;
    *dn = or_node ? sum : least;
    /* OR disproven: every child failed, any with a loop taints it; AND
     * disproven: one failing child suffices, a clean one if there is one */
    *loops = or_node ? any_loop : !clean_zero && any_loop;
    if (best) *best = arg;
    if (second) *second = runner;
}

/* The 1+ε threshold for the chosen child: max(second + 1, ceil(second (1 + ε))),
 * capped by the node's own threshold. */
static uint64_t child_threshold(const pn_t *t, uint64_t th, uint64_t second)
{
    if (second >= PN_INF) return th;
    uint64_t a = second + 1, b = (uint64_t)ceil((double)second * (1.0 + t->p.epsilon));
    uint64_t want = a > b ? a : b;
    return want < th ? want : th;
}

/* ---- df-pn ---- */

/* Nagai's MID: search frame `level` (state and key set by the caller) until
 * its pn reaches thpn or its dn reaches thdn; its final numbers go to the
 * table and to *pn, *dn, *loops. */
static void mid(pn_t *t, int level, uint64_t thpn, uint64_t thdn, uint64_t *pn, uint64_t *dn,
                uint8_t *loops)
{
    const game_t *g = t->g;
    frame_t *f = FRAME(t, level);
    const pn_entry_t *e = tt_find(t, f->key);
    /* never from the table at the root: its children must be generated so that
     * pn_prove finds the winning move among them */
    if (e && level > 0 && (e->pn >= thpn || e->dn >= thdn)) {
        *pn = e->pn, *dn = e->dn, *loops = e->loops;
        return;
    }
    if (out_of_budget(t) || !frame_ready(t, level + 1)) {
        t->abort = true;
        if (e) *pn = e->pn, *dn = e->dn, *loops = e->loops;
        return;
    }
    t->nodes++;
    uint64_t work0 = t->nodes;
    bool or_node = game_current_player(g, f->state) == t->attacker;
    gen_children(t, level);
    frame_t *cf = FRAME(t, level + 1);
    uint64_t npn, ndn;
    bool nloops;
    for (;;) {
        /* refresh from the table: transpositions may have moved a sibling */
        for (int i = 0; i < f->n; i++) {
            if (f->kind[i] != CHILD_OPEN) continue;
            const pn_entry_t *ce = tt_find(t, f->keys[i]);
            if (ce) f->cpn[i] = ce->pn, f->cdn[i] = ce->dn, f->cloops[i] = ce->loops;
        }
        int best;
        uint64_t second;
        combine(f, or_node, &npn, &ndn, &nloops, &best, &second);
        if (npn >= thpn || ndn >= thdn || t->abort || best < 0) break;
        uint64_t cth_pn, cth_dn;
        if (or_node) {
            cth_pn = child_threshold(t, thpn, second);
            cth_dn = thdn >= PN_INF ? PN_INF : thdn - ndn + f->cdn[best];
        } else {
            cth_dn = child_threshold(t, thdn, second);
            cth_pn = thpn >= PN_INF ? PN_INF : thpn - npn + f->cpn[best];
        }
        memcpy(cf->state, f->state, g->state_size);
        game_apply(g, cf->state, f->actions[best]);
        cf->key = f->keys[best];
        mid(t, level + 1, cth_pn, cth_dn, &f->cpn[best], &f->cdn[best], &f->cloops[best]);
    }
    tt_put(t, f->key, npn, ndn, t->nodes - work0, nloops);
    *pn = npn, *dn = ndn, *loops = nloops;
}

/* ---- PNS ---- */

/* Numbers of an expanded arena node from its children. */
static void pns_update(const pn_t *t, pns_node_t *x, bool or_node)
{
    uint64_t least = PN_INF, sum = 0;
    bool any_loop = false, clean_zero = false;
    for (int i = 0; i < x->nchild; i++) {
        const pns_node_t *c = &t->arena[x->first + i];
        uint64_t lead = or_node ? c->pn : c->dn, other = or_node ? c->dn : c->pn;
        if (lead < least) least = lead;
        sum = add_sat(sum, other);
        any_loop |= c->loops != 0;
        if (c->dn == 0 && !c->loops) clean_zero = true;
    }
    x->pn = or_node ? least : sum;
    x->dn = or_node ? sum : least;
    x->loops = or_node ? any_loop : !clean_zero && any_loop;
}

/* Allis's loop: descend to the most-proving node (least pn at OR, least dn
 * at AND), expand it, update its ancestors; until the root is solved or a
 * limit is met (the arena full counts as one). Frame k holds the state of
 * the k-th node of the path, so repetitions are seen as in df-pn. */
static void pns_run(pn_t *t)
{
    const game_t *g = t->g;
    t->arena[0] = (pns_node_t){.pn = 1, .dn = 1, .parent = -1, .action = -1};
    t->arena_used = 1;
    while (t->arena[0].pn != 0 && t->arena[0].dn != 0 && !out_of_budget(t)) {
        /* 1. descend */
        int x = 0, level = 0;
        while (t->arena[x].expanded) {
            pns_node_t *n = &t->arena[x];
            if (n->nchild == 0) break; /* a fixed child: never most-proving while unsolved */
            bool or_node = game_current_player(g, FRAME(t, level)->state) == t->attacker;
            int best = n->first;
            for (int i = 1; i < n->nchild; i++) {
                const pns_node_t *c = &t->arena[n->first + i], *b = &t->arena[best];
                if (or_node ? c->pn < b->pn : c->dn < b->dn) best = n->first + i;
            }
            if (!frame_ready(t, level + 1)) break;
            frame_t *cf = FRAME(t, level + 1);
            memcpy(cf->state, FRAME(t, level)->state, g->state_size);
            game_apply(g, cf->state, t->arena[best].action);
            cf->key = game_hash(g, cf->state);
            x = best;
            level++;
        }
        if (t->abort || t->arena[x].expanded || !frame_ready(t, level + 1)) {
            t->abort = true;
            break;
        }
        /* 2. expand: the children block, each valued as in df-pn */
        frame_t *f = FRAME(t, level);
        gen_children(t, level);
        if (t->arena_used + (size_t)f->n > t->arena_cap) {
            t->abort = true;
            break;
        }
        t->nodes++;
        pns_node_t *n = &t->arena[x];
        n->first = (int32_t)t->arena_used;
        n->nchild = f->n;
        n->expanded = 1;
        for (int i = 0; i < f->n; i++) {
            pns_node_t *c = &t->arena[t->arena_used++];
            *c = (pns_node_t){.pn = f->cpn[i],
                              .dn = f->cdn[i],
                              .parent = x,
                              .action = f->actions[i],
                              .loops = f->cloops[i],
                              .expanded = f->kind[i] == CHILD_FIXED};
            c->nchild = 0; /* a fixed child is "expanded" with no children: never descended */
        }
        /* 3. back up to the root */
        for (; x >= 0; x = t->arena[x].parent, level--)
            pns_update(t, &t->arena[x],
                       game_current_player(g, FRAME(t, level)->state) == t->attacker);
    }
}

/* ---- the two questions ---- */

int pn_prove(pn_t *t, const void *state, int attacker, pn_result_t *out)
{
    const game_t *g = t->g;
    if (attacker < 0 || attacker > 1)
        return hoyle_error(HOYLE_EINVAL, "dfpn: attacker must be 0 or 1");
    if (t->attacker != attacker) pn_clear(t);
    t->attacker = attacker;
    memset(out, 0, sizeof *out);
    out->best_action = -1;
    t->nodes = 0;
    t->abort = t->fs.oom = false;
    t->t_start = clock_seconds();
    frame_t *f = FRAME(t, 0);
    memcpy(f->state, state, g->state_size);
    f->key = game_hash(g, state);
    uint64_t pn = 1, dn = 1;
    uint8_t loops = 0;
    int player = game_current_player(g, state);
    if (player == PLAYER_CHANCE) return hoyle_error(HOYLE_ESTATE, "dfpn: a chance state");
    if (player == PLAYER_TERMINAL) {
        double r[GAME_MAX_PLAYERS];
        game_returns(g, state, r);
        pn = r[attacker] > 0 ? 0 : PN_INF;
        dn = r[attacker] > 0 ? PN_INF : 0;
    } else if (t->p.algorithm == PN_PNS) {
        pns_run(t);
        pn = t->arena[0].pn, dn = t->arena[0].dn, loops = t->arena[0].loops;
        /* the root's children are the first block */
        if (pn == 0 && player == attacker)
            for (int i = 0; i < t->arena[0].nchild; i++)
                if (t->arena[t->arena[0].first + i].pn == 0) {
                    out->best_action = t->arena[t->arena[0].first + i].action;
                    break;
                }
    } else {
        mid(t, 0, PN_INF, PN_INF, &pn, &dn, &loops);
        if (pn == 0 && player == attacker)
            for (int i = 0; i < f->n; i++)
                if (f->cpn[i] == 0) {
                    out->best_action = f->actions[i];
                    break;
                }
    }
    if (t->fs.oom) return hoyle_error(HOYLE_ENOMEM, "dfpn: out of memory (search frames)");
    out->pn = pn, out->dn = dn;
    out->loops = loops != 0 && pn != 0; /* a proof never rests on a repetition */
    out->exhausted = t->abort;
    out->status = pn == 0 ? PN_PROVEN : dn == 0 && !loops ? PN_DISPROVEN : PN_UNKNOWN;
    out->nodes = t->nodes;
    out->seconds = clock_seconds() - t->t_start;
    return HOYLE_OK;
}

int pn_solve(pn_t *t, const void *state, int *value, bool *known, pn_result_t *mover,
             pn_result_t *opponent)
{
    const game_t *g = t->g;
    int me = game_current_player(g, state);
    memset(opponent, 0, sizeof *opponent);
    opponent->best_action = -1;
    if (me < 0) return hoyle_error(HOYLE_ESTATE, "dfpn: %s: the game is over", g->spec);
    int status = pn_prove(t, state, me, mover);
    if (status) return status;
    *value = 1, *known = mover->status == PN_PROVEN;
    if (*known) return HOYLE_OK;
    status = pn_prove(t, state, 1 - me, opponent);
    if (status) return status;
    *value = opponent->status == PN_PROVEN ? -1 : 0;
    *known = opponent->status == PN_PROVEN ||
             (mover->status == PN_DISPROVEN && opponent->status == PN_DISPROVEN);
    return HOYLE_OK;
}
