/* agent.c — the table of agent kinds and the agent lifecycle (agent.h).
 * Adding a kind: one agent_*.c file and one line in agent_registry[].
 * Kinds that live outside mcts/ (the network agent in train/, the gnubg
 * agent beside backgammon) are added at startup with agent_register_kind()
 * into the short extra_kinds[] table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_kind.h"

/* Order matters: `hoyle agents` lists the kinds in this order, and the
 * "known:" line of an unknown-agent error follows it too. */
static const agent_kind_t *const agent_registry[] = {
    &agent_random_kind,
    &agent_greedy_kind,
    &agent_alphabeta_kind,
    &agent_expectimax_kind,
    &agent_mcts_kind,
    &agent_human_kind,
    &agent_uci_kind,  /* an external engine over UCI (agent_uci.c) */
    &agent_nmcs_kind, /* one-player games: Nested Monte-Carlo Search (agent_nmcs.c) */
    &agent_nrpa_kind, /* one-player games: Nested Rollout Policy Adaptation (agent_nrpa.c) */
    NULL,
};

/* Registered kinds live in a fixed table: registration happens once at
 * startup, so a static array avoids any allocation to free at exit. */
static const agent_kind_t *extra_kinds[AGENT_MAX_EXTRA_KINDS];
static int num_extra_kinds;

/* Kind i of the built-in table followed by the registered ones, or NULL. */
static const agent_kind_t *kind_at(int i)
{
    static const int builtin = (int)(sizeof agent_registry / sizeof agent_registry[0]) - 1;
    if (i < builtin) return agent_registry[i];
    return i - builtin < num_extra_kinds ? extra_kinds[i - builtin] : NULL;
}

const agent_kind_t *agent_kind_at(int i) { return i < 0 ? NULL : kind_at(i); }

/* spec_name_fn over the kinds, for the unknown-agent message. */
static const char *kind_name_at(const void *ctx, int i)
{
    (void)ctx;
    return agent_kind_at(i) ? agent_kind_at(i)->name : NULL;
}

static const agent_kind_t *find_kind(const char *name)
{
    for (int i = 0; kind_at(i); i++)
        if (strcmp(kind_at(i)->name, name) == 0) return kind_at(i);
    return NULL;
}

int agent_register_kind(const agent_kind_t *kind)
{
    if (kind == NULL || kind->name == NULL || kind->create == NULL)
        return hoyle_error(HOYLE_EINVAL, "agent kinds: incomplete kind");
    const agent_kind_t *old = find_kind(kind->name);
    /* Registering the same kind twice is a no-op (startup code may run more
     * than once); a different kind under a taken name is an error, since specs
     * would silently resolve to whichever came first. */
    if (old == kind) return HOYLE_OK;
    if (old)
        return hoyle_error(HOYLE_EINVAL, "agent kinds: '%s' is already registered", kind->name);
    if (num_extra_kinds >= AGENT_MAX_EXTRA_KINDS)
        return hoyle_error(HOYLE_EFULL, "agent kinds: more than %d registered kinds",
                           AGENT_MAX_EXTRA_KINDS);
    extra_kinds[num_extra_kinds++] = kind;
    return HOYLE_OK;
}

/* Moves the keys of `spec` that start with kind->option_prefix to a->options
 * (prefix removed, spec order kept), leaving the others for params_bind. */
static int split_options(const agent_kind_t *kind, spec_t *spec, agent_t *a)
{
    if (kind->option_prefix == NULL) return HOYLE_OK;
    size_t plen = strlen(kind->option_prefix);
    int kept = 0;
    for (int i = 0; i < spec->num_params; i++) {
        const char *key = spec->params[i].key;
        if (strncmp(key, kind->option_prefix, plen) != 0) {
            spec->params[kept++] = spec->params[i];
            continue;
        }
        if (key[plen] == '\0')
            return hoyle_error(HOYLE_EINVAL, "%s: '%s' needs a name after the prefix", kind->name,
                               key);
        if (a->num_options == AGENT_MAX_OPTIONS)
            return hoyle_error(HOYLE_EINVAL, "%s: more than %d '%s' keys", kind->name,
                               AGENT_MAX_OPTIONS, kind->option_prefix);
        agent_option_t *o = &a->options[a->num_options++];
        snprintf(o->name, sizeof o->name, "%s", key + plen);
        snprintf(o->value, sizeof o->value, "%s", spec->params[i].value);
    }
    spec->num_params = kept;
    return HOYLE_OK;
}

/* Appends a->options to the canonical spec: `kind(k=v,...,PREFIXname=value)`. */
static int format_options(const agent_kind_t *kind, agent_t *a)
{
    if (a->num_options == 0) return HOYLE_OK;
    size_t used = strlen(a->spec);
    int reopen = used > 0 && a->spec[used - 1] == ')';
    if (reopen) used--; /* reopen the list */
    for (int i = 0; i < a->num_options && used < sizeof a->spec; i++)
        used += (size_t)snprintf(a->spec + used, sizeof a->spec - used, "%s%s%s=%s",
                                 reopen || i ? "," : "(", kind->option_prefix, a->options[i].name,
                                 a->options[i].value);
    if (used < sizeof a->spec) used += (size_t)snprintf(a->spec + used, sizeof a->spec - used, ")");
    if (used >= sizeof a->spec)
        return hoyle_error(HOYLE_EFULL, "spec '%s': formatted text too long", kind->name);
    return HOYLE_OK;
}

int agent_fits(const agent_kind_t *k, const game_t *g, const params_t *p)
{
    const char *n = k->name;
    if ((k->caps & AGENT_CAP_ONE_PLAYER) && g->num_players != 1)
        return hoyle_error(HOYLE_EINVAL, "%s: %s has %d players; %s plays one-player games only", n,
                           g->spec, g->num_players, n);
    if ((k->caps & AGENT_CAP_TWO_PLAYER) && g->num_players != 2)
        return hoyle_error(HOYLE_EINVAL, "%s: %s has %d player%s; %s plays two-player games only",
                           n, g->spec, g->num_players, g->num_players == 1 ? "" : "s", n);
    if (!(k->caps & AGENT_CAP_CHANCE) && g->max_chance_outcomes > 0)
        return hoyle_error(HOYLE_EINVAL, "%s: %s has chance; %s plays deterministic games only", n,
                           g->spec, n);
    if ((k->caps & AGENT_CAP_MODEL) && p && params_str(p, "model")[0] == '\0')
        return k->model_ext
                   ? hoyle_error(HOYLE_EINVAL,
                                 "%s: needs a model (%s(model=FILE.%s) or a shipped "
                                 "model's name: models/README.md)",
                                 n, n, k->model_ext)
                   : hoyle_error(HOYLE_EINVAL, "%s: needs a model (%s(model=FILE.pt))", n, n);
    return HOYLE_OK;
}

bool agent_is_seeded(const agent_t *a)
{
    return a->kind->seeded ? a->kind->seeded(a) : (a->kind->caps & AGENT_CAP_SEEDED) != 0;
}

void agent_caps_describe(unsigned caps, char *buf, size_t cap)
{
    const char *players = caps & AGENT_CAP_ONE_PLAYER   ? "one-player"
                          : caps & AGENT_CAP_TWO_PLAYER ? "two-player"
                                                        : "any players";
    snprintf(buf, cap, "%s, %s%s, %s", players, caps & AGENT_CAP_CHANCE ? "chance" : "no chance",
             caps & AGENT_CAP_MODEL ? ", needs a model" : "",
             caps & AGENT_CAP_SEEDED ? "seeded" : "deterministic");
}

int agent_create(const game_t *g, const char *text, uint64_t seed, agent_t **out)
{
    spec_t spec;
    if (spec_parse(text, &spec)) return HOYLE_EINVAL;
    const agent_kind_t *kind = find_kind(spec.name);
    if (kind == NULL) return spec_unknown("unknown agent", spec.name, kind_name_at, NULL);
    agent_t *a = calloc(1, sizeof *a);
    if (a == NULL) return hoyle_error(HOYLE_ENOMEM, "agent: out of memory");
    a->kind = kind;
    a->g = g;
    a->seed = seed;
    rng_init(&a->rng, seed);
    a->info.kind = kind->name;
    /* The spec is normalised (params_format) once, here: agent_spec() then
     * names the agent the same way whatever spelling the user typed. */
    if (split_options(kind, &spec, a) || params_bind(kind->params, &spec, kind->name, &a->params) ||
        agent_fits(kind, g, &a->params) ||
        params_format(&a->params, kind->name, a->spec, sizeof a->spec) < 0 ||
        format_options(kind, a)) {
        free(a);
        return HOYLE_EINVAL;
    }
    a->legal = malloc(sizeof *a->legal * (size_t)g->max_legal);
    if (a->legal == NULL) {
        free(a);
        return hoyle_error(HOYLE_ENOMEM, "agent: out of memory");
    }
    int status = kind->create(a);
    if (status) {
        free(a->legal);
        free(a);
        return status;
    }
    *out = a;
    return HOYLE_OK;
}

int agent_act(agent_t *a, const void *state, int *action)
{
    /* Agents are only asked at decision states; the driver resolves chance
     * nodes itself, so reaching here without a player is a driver bug. */
    int player = game_current_player(a->g, state);
    if (player < 0)
        return hoyle_error(HOYLE_ESTATE, "agent %s: no player to move (%s)", a->kind->name,
                           player == PLAYER_TERMINAL ? "game over" : "chance node");
    return a->vt->act(a, state, action);
}

void agent_observe(agent_t *a, const void *state_before, int action)
{
    if (a->vt->observe) a->vt->observe(a, state_before, action);
}

int agent_set_limits(agent_t *a, const agent_limits_t *limits)
{
    if (a->vt->limits == NULL)
        return hoyle_error(HOYLE_EUNSUP, "agent %s: its moves take no search limits",
                           a->kind->name);
    return a->vt->limits(a, limits);
}

void agent_on_iteration(agent_t *a, agent_iteration_fn fn, void *ctx)
{
    a->on_iteration = fn;
    a->on_iteration_ctx = ctx;
}

void agent_reset(agent_t *a)
{
    if (a->vt->reset) a->vt->reset(a);
}

int agent_reseed(agent_t *a, uint64_t seed)
{
    a->seed = seed;
    rng_init(&a->rng, seed);
    /* Kinds with a reseed hook keep their buffers (tree arena, loaded net)
     * across games; the others are rebuilt, which gives the same streams. */
    if (a->vt->reseed) return a->vt->reseed(a);
    /* rebuild: the kind's create reads a->seed (trees, evaluators) */
    if (a->vt->destroy) a->vt->destroy(a);
    a->impl = NULL;
    a->vt = NULL;
    memset(&a->info, 0, sizeof a->info);
    a->info.kind = a->kind->name;
    return a->kind->create(a);
}

void agent_free(agent_t *a)
{
    if (a == NULL) return;
    if (a->vt && a->vt->destroy) a->vt->destroy(a);
    free(a->legal);
    free(a);
}

size_t agent_memory_bytes(const agent_t *a)
{
    return a && a->vt && a->vt->memory_bytes ? a->vt->memory_bytes(a) : 0;
}

const char *agent_spec(const agent_t *a) { return a->spec; }
const agent_info_t *agent_info(const agent_t *a) { return &a->info; }
int agent_is_human(const agent_t *a) { return a->kind->human; }

int agent_describe_kinds(char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; kind_at(i) && used < cap; i++) {
        const agent_kind_t *k = kind_at(i);
        used += (size_t)snprintf(buf + used, cap - used, "%s — %s\n", k->name, k->description);
        if (used < cap && k->params && k->params[0].key) {
            int n = params_describe(k->params, buf + used, cap - used);
            if (n < 0) return n;
            used += (size_t)n;
        }
    }
    if (used >= cap) return hoyle_error(HOYLE_EFULL, "agent kinds: description too long");
    return (int)used;
}
