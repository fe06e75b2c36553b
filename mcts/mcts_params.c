/* mcts_params.c — the search parameters' defaults, their binding from spec
 * keys (mcts_params.h) and the one tree-size formula. The binder works on a
 * copy and commits it only when every key has been read (a failed bind
 * changes nothing). */
#include "mcts/mcts_params.h"

#include <stdlib.h>
#include <string.h>

void mcts_params_default(mcts_params_t *p)
{
    *p = (mcts_params_t){
        /* UCT with c = 1.4 (about sqrt 2, the UCB1
         * constant); c_init 1.25 and c_base 19652 are AlphaZero's
         * published PUCT constants (Silver et al. 2018, pseudocode). */
        .select = MCTS_UCT,
        .c_uct = 1.4,
        .c_init = 1.25,
        .c_base = 19652,
        .fpu = MCTS_FPU_INF,
        .fpu_value = 0.0,
        .max_sims = 1000,
        .time_limit_ms = 0,
        .batch = 1,
        .virtual_loss = 1.0,
        .solver = true,
        /* 0.3 is AlphaZero's chess alpha; eps 0 keeps noise off outside self-play. */
        .dirichlet_alpha = 0.3,
        .dirichlet_eps = 0.0,
        .max_nodes = 1u << 20,
        .threads = 1,
        .parallel = MCTS_PARALLEL_TREE,
        .reuse = true,
        .seed = 0,
    };
#define MCTS_KNOB_DEFAULT_(ctype, name, type, dflt, lo, hi, help) p->name = dflt;
    MCTS_KNOBS(MCTS_KNOB_DEFAULT_)
#undef MCTS_KNOB_DEFAULT_
}

/* fpu=inf | fpu=parent | fpu=parent-R | fpu=<value in [-1, 1]>; "auto" is
 * resolved by the caller (it depends on select). */
static int parse_fpu(const char *text, mcts_params_t *p)
{
    char *end;
    if (strcmp(text, "inf") == 0) {
        p->fpu = MCTS_FPU_INF;
        return HOYLE_OK;
    }
    if (strncmp(text, "parent", 6) == 0) {
        p->fpu = MCTS_FPU_PARENT;
        p->fpu_value = 0;
        if (text[6] == '\0') return HOYLE_OK;
        double r = strtod(text + 6, &end);
        /* "parent-R" reads as a negative number after "parent": R in [0, 2], the
         * width of the return range, stored as the positive reduction. */
        if (text[6] == '-' && *end == '\0' && r <= 0 && r >= -2) {
            p->fpu_value = -r;
            return HOYLE_OK;
        }
    } else {
        double v = strtod(text, &end);
        if (end != text && *end == '\0' && v >= -1 && v <= 1) {
            p->fpu = MCTS_FPU_VALUE;
            p->fpu_value = v;
            return HOYLE_OK;
        }
    }
    return hoyle_error(HOYLE_EINVAL,
                       "mcts: fpu: '%s' is not inf, parent, parent-R or a value in [-1, 1]", text);
}

/* The schema's definition of `key`, or NULL when the schema lacks it. */
static const param_def_t *def_of(const params_t *pp, const char *key)
{
    for (int j = 0; j < pp->num; j++)
        if (strcmp(pp->defs[j].key, key) == 0) return &pp->defs[j];
    return NULL;
}

/* Whether p's schema has `key` as a choice. The search's `parallel` (tree|root) is a
 * choice; self-play's schema has its own `parallel`, the games in flight, an integer,
 * which is not the search's and must not be read as one. */
static bool has_choice(const params_t *p, const char *key)
{
    for (int j = 0; j < p->num; j++)
        if (strcmp(p->defs[j].key, key) == 0) return p->defs[j].type == PARAM_CHOICE;
    return false;
}

int mcts_params_bind(const params_t *pp, mcts_params_t *p)
{
    mcts_params_t q = *p;
    /* 1. the kinds' own keys, where the schema has them */
    if (params_has(pp, "select"))
        q.select = params_choice(pp, "select") == 1 ? MCTS_PUCT : MCTS_UCT;
    if (params_has(pp, "sims")) q.max_sims = params_int(pp, "sims");
    if (params_has(pp, "time_ms")) q.time_limit_ms = (double)params_int(pp, "time_ms");
    /* A spec that sets neither budget still gets a search, not a check_params
     * error: the kinds' default budget. */
    if (q.max_sims == 0 && q.time_limit_ms == 0) q.max_sims = 1000;
    if (params_has(pp, "solver")) q.solver = params_bool(pp, "solver");
    q.max_nodes = params_has(pp, "nodes") ? (size_t)params_int(pp, "nodes") : 0;
    /* memory_mb is the same cap in megabytes (2^20 bytes) of nodes and edges */
    long long mb = params_has(pp, "memory_mb") ? params_int(pp, "memory_mb") : 0;
    if (mb > 0 && q.max_nodes > 0)
        return hoyle_error(HOYLE_EINVAL, "mcts: set nodes or memory_mb, not both");
    if (mb > 0) q.max_nodes = (size_t)mb * 1048576u / mcts_node_bytes();
    if (params_has(pp, "threads")) q.threads = (int)params_int(pp, "threads");
    if (has_choice(pp, "parallel"))
        q.parallel = params_choice(pp, "parallel") == 1 ? MCTS_PARALLEL_ROOT : MCTS_PARALLEL_TREE;
    /* 2. the fragments: every search schema has these */
    /* One "c" serves both formulas: the kind picks UCT or PUCT, and only the
     * matching constant is read by the search. */
    q.c_uct = q.c_init = params_double(pp, "c");
    q.c_base = params_double(pp, "c_base");
    q.batch = (int)params_int(pp, "batch");
    q.virtual_loss = params_double(pp, "vloss");
    q.dirichlet_alpha = params_double(pp, "noise_alpha");
    q.dirichlet_eps = params_double(pp, "noise_eps");
    q.reuse = params_bool(pp, "reuse");
#define MCTS_KNOB_BIND_(ctype, name, type, dflt, lo, hi, help)                                     \
    q.name = (ctype)params_double(pp, #name);
    MCTS_KNOBS(MCTS_KNOB_BIND_)
#undef MCTS_KNOB_BIND_
    /* 3. fpu, after select ("auto" follows it) */
    const param_def_t *fpu = def_of(pp, "fpu");
    /* A schema that declares fpu as a number (the PUCT kinds) means a parent
     * reduction of that size, not a fixed value (mcts_params.h). */
    if (fpu && fpu->type == PARAM_DOUBLE) {
        q.fpu = MCTS_FPU_PARENT;
        q.fpu_value = params_double(pp, "fpu");
    } else if (fpu && strcmp(params_str(pp, "fpu"), "auto") == 0) {
        q.fpu = q.select == MCTS_PUCT ? MCTS_FPU_PARENT : MCTS_FPU_INF;
        q.fpu_value = 0;
    } else if (fpu && parse_fpu(params_str(pp, "fpu"), &q)) {
        return HOYLE_EINVAL;
    }
    *p = q;
    return HOYLE_OK;
}

size_t mcts_nodes_for(const game_t *g, const mcts_params_t *p)
{
    if (p->max_sims <= 0) return (size_t)1 << 20;
    /* the mcts agent's and bench's sizing before it was shared, kept to the node:
     * a tree that fills (gobang 15x15: 225 children per expansion) searches
     * differently in a larger arena, and seeded results must not move */
    long long branch = g->max_legal < 64 ? g->max_legal : 64;
    long long nodes = 2 * (p->max_sims + 16) * branch + 4096;
    return nodes > (1LL << 22) ? (size_t)1 << 22 : (size_t)nodes;
}
