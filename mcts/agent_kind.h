/* agent_kind.h — the seam for defining agent kinds, inside mcts/ and out
 * (train/agent_az.c, agents/agent_gnubg.c). A kind is one
 * agent_kind_t: a name, a parameter schema and a create function that fills
 * a->vt and a->impl. The built-in kinds are the table agent_registry[]
 * (agent.c); kinds of other modules are added with agent_register_kind()
 * (agent.h) by an explicit call at startup (apps/main.c). Users of agents
 * need only agent.h. */
#ifndef HOYLE_MCTS_AGENT_KIND_H
#define HOYLE_MCTS_AGENT_KIND_H

#include "core/rng.h"
#include "mcts/agent.h"
#include "mcts/evaluator.h"
#include "mcts/mcts.h"
#include "mcts/mcts_params.h"

/* What a kind does; agent.c calls these through agent_act/observe/reset/free. */
typedef struct agent_vt {
    int (*act)(agent_t *a, const void *state, int *action); /* a decision state; fill a->info */
    void (*observe)(agent_t *a, const void *state_before, int action); /* may be NULL */
    void (*reset)(agent_t *a);                                         /* may be NULL */
    void (*destroy)(agent_t *a); /* frees a->impl; may be NULL */
    /* Restart as if created with a->seed (a->rng is already re-initialised),
     * in place: alpha-beta clears its tables, the search agents reseed their
     * tree and evaluator. NULL = agent_reseed() destroys and re-creates the
     * kind's state (gnubg: a new child process). */
    int (*reseed)(agent_t *a);
    /* agent_set_limits (agent.h): NULL limits = the spec's own. NULL slot =
     * HOYLE_EUNSUP. */
    int (*limits)(agent_t *a, const agent_limits_t *limits);
    /* agent_memory_bytes (agent.h); NULL = 0. */
    size_t (*memory_bytes)(const agent_t *a);
} agent_vt_t;

/* A free-form key of a kind with an option_prefix (below): the key with the
 * prefix removed, and its value as text. */
#define AGENT_MAX_OPTIONS 16
typedef struct agent_option {
    char name[SPEC_NAME_MAX];
    char value[SPEC_VALUE_MAX];
} agent_option_t;

/* An agent as agent_create() builds it; a kind's create() reads the fields
 * above `impl` and sets vt and impl. */
struct agent {
    const agent_vt_t *vt;
    const struct agent_kind *kind;
    const game_t *g;          /* borrowed; outlives the agent */
    char spec[GAME_SPEC_MAX]; /* canonical spec (agent_spec) */
    params_t params;          /* bound against kind->params */
    uint64_t seed;            /* the seed agent_create() was given */
    rng_t rng;                /* seeded from it, for kinds that draw */
    agent_info_t info;        /* the last act's search information */
    int *legal;               /* max_legal scratch for kinds that want it */
    int num_options;          /* the spec's option_prefix keys, in spec order */
    agent_option_t options[AGENT_MAX_OPTIONS];
    agent_iteration_fn on_iteration; /* agent_on_iteration's, or NULL */
    void *on_iteration_ctx;
    void *impl; /* the kind's own state, freed by vt->destroy */
};

/* What a kind can play, declared in its table and checked by agent_create() against the
 * game before the kind's create() runs, so that the CLI, the page, tournaments and Python
 * refuse an unfit agent with the same message before a game starts (agent_fits), and
 * `hoyle agents` lists them. */
enum agent_caps {
    AGENT_CAP_CHANCE = 1 << 0,     /* plays games with chance nodes (else: deterministic only) */
    AGENT_CAP_TWO_PLAYER = 1 << 1, /* two-player games only */
    AGENT_CAP_ONE_PLAYER = 1 << 2, /* one-player games (puzzles) only */
    AGENT_CAP_MODEL = 1 << 3,      /* needs a model file: its `model` key must be set */
    AGENT_CAP_SEEDED = 1 << 4      /* its moves depend on the seed (else: deterministic) */
};

typedef struct agent_kind {
    const char *name;
    const char *description;
    const param_def_t *params; /* the schema, ending with {.key = NULL} */
    unsigned caps;             /* AGENT_CAP_* */
    int human;                 /* reads the terminal */
    /* Not NULL: spec keys starting with this prefix ("option.") are not bound
     * against `params` but passed through, prefix removed, in a->options
     * (at most AGENT_MAX_OPTIONS, names not empty); the canonical spec lists
     * them after the schema keys. The uci agent's engine options. */
    const char *option_prefix;
    /* Not NULL: the key naming a model file (td and az: "model", alphabeta: "eval") and
     * that file's extension ("td", "pt", "eval"); a value that is a name finds a shipped
     * model (core/models.h: model_find), so `hoyle serve` lists those for the page. */
    const char *model_key, *model_ext;
    int (*create)(agent_t *a); /* a->g, params, seed, rng, legal are set; a failed create
                                  frees what it made and leaves a->impl NULL */
    /* Whether this agent's moves depend on its seed, on its game with its parameters
     * (an agent for which it is false plays the same game from the same position
     * whatever its seed); NULL: the kind's AGENT_CAP_SEEDED flag. */
    bool (*seeded)(const agent_t *a);
} agent_kind_t;

/* Whether kind k, with the bound parameters p (NULL: skip the model check), can play g:
 * 0, or HOYLE_EINVAL with the one message every caller shows, e.g.
 * `nmcs: chess has 2 players; nmcs plays one-player games only`. */
int agent_fits(const agent_kind_t *k, const game_t *g, const params_t *p);

/* The capabilities as words for `hoyle agents`: "chance, seeded" ("deterministic games,
 * deterministic" for none). */
void agent_caps_describe(unsigned caps, char *buf, size_t cap);

/* Kind i (from 0) of those agent_create() knows: the built-in table, then the
 * registered kinds; NULL past the last (the fuzz suite loops over them). */
const agent_kind_t *agent_kind_at(int i);

/* The keys of the search agent body (agent_search_create): temperature for
 * its own moves, then the search's `reuse`. A search agent's schema is its
 * own keys, the mcts_params.h fragments and these, e.g. the mcts agent's:
 * sims, time_ms, select, MCTS_PUCT_PARAM_DEFS("1.4"), fpu, eval, rollouts,
 * solver, MCTS_BATCH_PARAM_DEFS(...), AGENT_SEARCH_PARAM_DEFS, nodes,
 * MCTS_PARAM_DEFS. */
#define AGENT_SEARCH_PARAM_DEFS                                                                    \
    {.key = "temp",                                                                                \
     .type = PARAM_DOUBLE,                                                                         \
     .def = "0",                                                                                   \
     .min = 0,                                                                                     \
     .max = 100,                                                                                   \
     .help = "move choice temperature (0 = most visits)"},                                         \
        {.key = "temp_moves",                                                                      \
         .type = PARAM_INT,                                                                        \
         .def = "0",                                                                               \
         .min = 0,                                                                                 \
         .max = 1e6,                                                                               \
         .help = "own moves chosen with temperature (0 = all)"},                                   \
        MCTS_REUSE_PARAM_DEF

/* Make `a` an agent that plays by one MCTS search per act (the body of the
 * mcts and az kinds): a tree of `p` (max_nodes 0 = mcts_nodes_for) over
 * `eval`, the tree kept through agent_observe (mcts_advance), moves chosen
 * with a->params' temp for the first temp_moves own moves (0 = all), and
 * a->info filled from each search. Takes ownership of `eval` and of `owner`,
 * even on failure: at destroy (or on failure) the tree and `eval` are freed,
 * then release(owner) is called when release is not NULL (the az agent's
 * network, which its evaluator uses). Returns 0 or the mcts_create status.
 * Seeds: the tree gets rng_mix(a->seed ^ tree_salt) (p->seed is ignored) and
 * the evaluator is expected to have been created with rng_mix(a->seed ^
 * eval_salt); agent_reseed() restarts both that way, with no allocation. */
int agent_search_create(agent_t *a, const mcts_params_t *p, evaluator_t *eval, uint64_t tree_salt,
                        uint64_t eval_salt, void (*release)(void *owner), void *owner);

/* The `seeded` test (agent_kind_t) of a search agent: whether its moves depend on its
 * seed, given whether its evaluator draws from it (`eval_draws`: random rollouts, the
 * fake network). Besides the evaluator, the seed reaches the moves through dice, root
 * noise (PUCT only: UCT reads no priors; a schema without `select` is PUCT), a
 * temperature, Gumbel sampling or several threads; with none of these the search is a
 * function of the position, and so are its moves. */
bool agent_search_seeded(const agent_t *a, bool eval_draws);

/* Make `a` an agent that plays the move `eval` likes best one move ahead (the body of the
 * greedy kind and of az(search=ply), mcts/agent_ply.c): every legal action, or with `whole`
 * the mover's whole turn (his chain of actions until another player or chance moves; one
 * action in one-player games), valued by the evaluator at the states it reaches, chance
 * nodes on the way by the expectation over their outcomes, terminal states by their
 * returns. Distinct states are evaluated once, in batches of eval->max_batch. Ties are
 * broken by a->rng. Takes ownership of `eval` and `owner` as agent_search_create does;
 * agent_reseed() reseeds the evaluator. a->info: value, q per root action (visits NULL),
 * sims (positions evaluated), nodes (distinct states walked), seconds. */
int agent_ply_create(agent_t *a, evaluator_t *eval, bool whole, void (*release)(void *owner),
                     void *owner);

extern const agent_kind_t agent_random_kind;
extern const agent_kind_t agent_greedy_kind;
extern const agent_kind_t agent_alphabeta_kind;
extern const agent_kind_t agent_expectimax_kind;
extern const agent_kind_t agent_mcts_kind;
extern const agent_kind_t agent_human_kind;
extern const agent_kind_t agent_uci_kind;
extern const agent_kind_t agent_nmcs_kind;
extern const agent_kind_t agent_nrpa_kind;

#endif
