/* agent_az.c — the `az` agent (agent_az.h): the search agent body
 * (mcts/agent_search.c) with PUCT over a network evaluator with a position
 * cache, on one net loaded from `model`. The search keys are the mcts/
 * fragments with az's defaults (c=1.25, batch 4, vloss 1, fpu 0.2 from the
 * parent: self-play's search), plus time_ms; search=ply is the one-move body
 * (agent_ply_create) over the same evaluator instead. Nets are shared through a cache
 * keyed by path (and the file's size and mtime), so the agents of a match or
 * a tournament load each file once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/models.h"
#include "mcts/agent_kind.h"
#include "train/agent_az.h"
#include "train/net_eval.h"

/* The net cache: every loaded net with the agents using it (refs); up to AZ_KEEP nets no
 * agent uses are kept (the least recently released go first), so a driver that frees an
 * agent and creates it again (a tournament worker switching pairings) does not reload. */
#define AZ_KEEP 4
typedef struct az_net {
    struct az_net *next;
    char *path;
    off_t size;
    struct timespec mtime;
    tch_net_t *net;
    int refs;
    unsigned long long released; /* when refs last fell to 0 (az_clock) */
} az_net_t;

/* search=ply's forward batch: the positions one turn reaches, in few calls */
#define AZ_PLY_BATCH 256

static pthread_mutex_t az_lock = PTHREAD_MUTEX_INITIALIZER;
static az_net_t *az_nets;
static unsigned long long az_clock;
static atomic_llong az_loads;

long long agent_az_loads(void) { return atomic_load(&az_loads); }

static void az_drop_idle(int keep)
{
    for (;;) {
        int idle = 0;
        az_net_t **oldest = NULL;
        for (az_net_t **pp = &az_nets; *pp; pp = &(*pp)->next)
            if ((*pp)->refs == 0) {
                idle++;
                if (!oldest || (*pp)->released < (*oldest)->released) oldest = pp;
            }
        if (idle <= keep) return;
        az_net_t *e = *oldest;
        *oldest = e->next;
        tch_net_free(e->net);
        free(e->path);
        free(e);
    }
}

void agent_az_cache_clear(void)
{
    pthread_mutex_lock(&az_lock);
    az_drop_idle(0);
    pthread_mutex_unlock(&az_lock);
}

/* The net of `path`, shared: a cached one when the file is unchanged, else loaded (the
 * lock is held across tch_load so that two agents of one file never load it twice). */
static int az_net_get(const char *path, az_net_t **out)
{
    struct stat st;
    if (stat(path, &st) != 0) { /* tch_load says what is wrong with the path */
        tch_net_t *none = NULL;
        int status = tch_load(path, &none, NULL);
        tch_net_free(none);
        return status ? status : hoyle_error(HOYLE_EIO, "az: '%s' vanished", path);
    }
    pthread_mutex_lock(&az_lock);
    az_net_t *e = az_nets;
    while (e && !(strcmp(e->path, path) == 0 && e->size == st.st_size &&
                  e->mtime.tv_sec == st.st_mtim.tv_sec && e->mtime.tv_nsec == st.st_mtim.tv_nsec))
        e = e->next;
    int status = HOYLE_OK;
    if (e == NULL) {
        e = calloc(1, sizeof *e);
        char *copy = strdup(path);
        if (e == NULL || copy == NULL) {
            free(e);
            free(copy);
            pthread_mutex_unlock(&az_lock);
            return hoyle_error(HOYLE_ENOMEM, "az: out of memory");
        }
        status = tch_load(path, &e->net, NULL);
        atomic_fetch_add(&az_loads, 1);
        if (status) {
            free(e);
            free(copy);
            pthread_mutex_unlock(&az_lock);
            return status;
        }
        *e = (az_net_t){
            .next = az_nets, .path = copy, .size = st.st_size, .mtime = st.st_mtim, .net = e->net};
        az_nets = e;
    }
    e->refs++;
    pthread_mutex_unlock(&az_lock);
    *out = e;
    return HOYLE_OK;
}

static void az_release(void *owner)
{
    az_net_t *e = owner;
    pthread_mutex_lock(&az_lock);
    if (--e->refs == 0) e->released = ++az_clock;
    az_drop_idle(AZ_KEEP);
    pthread_mutex_unlock(&az_lock);
}

static int az_create(agent_t *a)
{
    const params_t *pp = &a->params;
    const char *model = params_str(pp, "model");
    mcts_params_t p;
    mcts_params_default(&p);
    p.select = MCTS_PUCT;
    if (mcts_params_bind(pp, &p)) return HOYLE_EINVAL;
    bool ply = params_choice(pp, "search") == 1;
    az_net_t *shared = NULL;
    evaluator_t *eval = NULL;
    char path[1024];
    int status = model_find(model, "pt", "az", path, sizeof path);
    if (!status) status = az_net_get(path, &shared);
    if (status) return status;
    status = net_evaluator_create(a->g, shared->net, ply ? AZ_PLY_BATCH : p.batch,
                                  (int)params_int(pp, "cache"), &eval);
    if (status) {
        az_release(shared);
        return status;
    }
    /* the net's value of every position the mover's whole turn reaches, no tree */
    if (ply) return agent_ply_create(a, eval, true, az_release, shared);
    /* tree salt "az" as always; the net evaluator has no random stream (salt unused) */
    return agent_search_create(a, &p, eval, 0x617aULL, 0, az_release, shared);
}

static const param_def_t az_params[] = {
    {.key = "model",
     .type = PARAM_STRING,
     .def = "",
     .help = "network file written by tch_save (hoyle train's net-NNNNNN.pt), or a shipped "
             "model's name"},
    {.key = "search",
     .type = PARAM_CHOICE,
     .def = "mcts",
     .choices = "mcts|ply",
     .help = "mcts: PUCT search; ply: the net's value one whole turn ahead (no tree; the "
             "search keys unused)"},
    {.key = "sims",
     .type = PARAM_INT,
     .def = "200",
     .min = 0,
     .max = 1e8,
     .help = "simulations per move; 0 = unlimited with time_ms (else 1000)"},
    {.key = "time_ms",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e9,
     .help = "time per move in ms, whichever of sims and time_ms comes first; 0 = none"},
    MCTS_PUCT_PARAM_DEFS("1.25"),
    MCTS_FPU_PARENT_PARAM_DEF,
    MCTS_BATCH_PARAM_DEFS("4", "0.3", "0"),
    AGENT_SEARCH_PARAM_DEFS,
    {.key = "cache",
     .type = PARAM_INT,
     .def = "16384",
     .min = 0,
     .max = 1 << 24,
     .help = "network cache entries (0 = none)"},
    MCTS_PARAM_DEFS /* each entry ends with a comma */
    {.key = NULL},
};

/* The net is a function of the position (its cache too); search=ply breaks
 * ties with the agent's rng, so it counts as drawing. */
static bool az_seeded(const agent_t *a)
{
    return agent_search_seeded(a, params_choice(&a->params, "search") == 1);
}

static const agent_kind_t agent_az_kind = {
    .name = "az",
    .description = "AlphaZero: PUCT search with a trained policy/value network",
    .params = az_params,
    .caps = AGENT_CAP_CHANCE | AGENT_CAP_MODEL | AGENT_CAP_SEEDED,
    .model_key = "model",
    .model_ext = "pt",
    .create = az_create,
    .seeded = az_seeded,
};

int train_register_agents(void) { return agent_register_kind(&agent_az_kind); }
