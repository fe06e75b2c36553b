/* catalog.c — what the server offers: GET /api/version, the registered games with their
 * parameter schemas (/api/games) and the agent kinds usable on a game (/api/agents), and the
 * check of an agent spec a client sends before it is created. */
#include <limits.h>
#include <microhttpd.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/models.h"
#include "games/registry.h"
#include "mcts/agent_kind.h"
#include "serve/serve_internal.h"

/* Kinds a client may not name: they run a program of its choice (uci's
 * `command`) or search with no time limit the server could set. */
static const char *const refused_kinds[] = {"uci", "nmcs", "nrpa", NULL};

static int kind_refused(const agent_kind_t *k)
{
    if (k->human) return 1;
    for (int i = 0; refused_kinds[i]; i++)
        if (strcmp(k->name, refused_kinds[i]) == 0) return 1;
    return 0;
}

static const agent_kind_t *find_kind(const char *name)
{
    for (int i = 0; agent_kind_at(i); i++)
        if (strcmp(agent_kind_at(i)->name, name) == 0) return agent_kind_at(i);
    return NULL;
}

void route_version(const serve_req_t *rq, serve_reply_t *rp)
{
    FILE *f = reply_json_open(rp);
    if (f == NULL) return;
    json_t j;
    json_begin(&j, f);
    json_str(&j, "version", HOYLE_VERSION);
    json_bool(&j, "mpi", rq->srv->opts.mpi);
    json_bool(&j, "torch", rq->srv->opts.torch);
    json_int(&j, "think_ms", rq->srv->opts.think_ms);
    json_int(&j, "max_think_ms", rq->srv->opts.max_think_ms);
    json_end(&j);
    reply_json_done(rp, f);
}

void route_games(const serve_req_t *rq, serve_reply_t *rp)
{
    (void)rq;
    FILE *f = reply_json_open(rp);
    if (f == NULL) return;
    json_t j;
    json_begin_array(&j, f);
    for (int i = 0; game_registry[i]; i++) {
        const game_entry_t *e = game_registry[i];
        json_open(&j, NULL, '{');
        json_str(&j, "name", e->name);
        json_str(&j, "description", e->description);
        const game_t *g = NULL; /* the default variant: its number of players */
        if (game_create(e->name, &g) == 0) json_int(&j, "players", g->num_players);
        game_free(g);
        json_open(&j, "variants", '[');
        for (int v = 0; e->variants && e->variants[v]; v++) json_str(&j, NULL, e->variants[v]);
        json_close(&j);
        params_json(&j, "params", e->params);
        json_close(&j);
    }
    json_end(&j);
    reply_json_done(rp, f);
}

/* One entry of /api/agents: the kind, the spec the page starts from (the kind's name, or
 * the kind with a shipped model) and the model's name. */
static void agent_entry(json_t *j, const agent_kind_t *k, const char *spec, const char *model)
{
    json_open(j, NULL, '{');
    json_str(j, "kind", k->name);
    json_str(j, "spec", spec);
    if (model) json_str(j, "model", model);
    json_str(j, "description", k->description ? k->description : "");
    char caps[128];
    agent_caps_describe(k->caps, caps, sizeof caps);
    json_str(j, "capabilities", caps);
    params_json(j, "params", k->params);
    json_close(j);
}

typedef struct model_offer {
    json_t *j;
    const game_t *g;
    const agent_kind_t *k;
} model_offer_t;

/* models_each's callback: the kind with the shipped model `name`, when it makes an agent
 * for the game (a model for another game, or a damaged file, is left out). */
static int offer_model(const char *name, const char *path, void *ctx)
{
    (void)path;
    model_offer_t *mo = ctx;
    char spec[GAME_SPEC_MAX];
    snprintf(spec, sizeof spec, "%s(%s=%s)", mo->k->name, mo->k->model_key, name);
    agent_t *a = NULL;
    int rc = agent_create(mo->g, spec, 1, &a);
    agent_free(a);
    if (rc == 0) agent_entry(mo->j, mo->k, spec, name);
    return 0;
}

void route_agents(const serve_req_t *rq, serve_reply_t *rp)
{
    const char *spec = req_arg(rq, "game");
    const game_t *g = NULL;
    if (spec == NULL || !*spec) {
        reply_error(rp, MHD_HTTP_BAD_REQUEST, "missing argument game=SPEC");
        return;
    }
    if (strlen(spec) >= GAME_SPEC_MAX) {
        reply_error(rp, MHD_HTTP_BAD_REQUEST, "game spec longer than %d bytes", GAME_SPEC_MAX - 1);
        return;
    }
    if (game_create(spec, &g)) {
        reply_last_error(rp, MHD_HTTP_BAD_REQUEST, "bad spec");
        return;
    }
    FILE *f = reply_json_open(rp);
    if (f == NULL) {
        game_free(g);
        return;
    }
    json_t j;
    json_begin_array(&j, f);
    json_open(&j, NULL, '{');
    json_str(&j, "kind", "human");
    json_str(&j, "description", "a seat the page plays");
    json_open(&j, "params", '[');
    json_close(&j);
    json_close(&j);
    for (int i = 0; agent_kind_at(i); i++) {
        const agent_kind_t *k = agent_kind_at(i);
        if (kind_refused(k)) continue;
        /* Offered bare when the kind's defaults make an agent for this game: a kind that
         * needs a model (az, td) is offered only with a shipped model that fits (below). */
        agent_t *a = NULL;
        int rc = (k->caps & AGENT_CAP_MODEL) ? HOYLE_EINVAL : agent_create(g, k->name, 1, &a);
        agent_free(a);
        if (rc == 0) agent_entry(&j, k, k->name, NULL);
        if (k->model_key == NULL) continue;
        model_offer_t mo = {.j = &j, .g = g, .k = k};
        models_each(k->model_ext, offer_model, &mo);
    }
    json_end(&j);
    reply_json_done(rp, f);
    game_free(g);
}

/* Whether `value` names a shipped model of kind k (models/README.md). */
static bool shipped(const agent_kind_t *k, const char *value)
{
    char path[PATH_MAX];
    return k->model_ext && model_is_name(value) &&
           model_find(value, k->model_ext, k->name, path, sizeof path) == 0;
}

int catalog_check_agent(serve_t *srv, const char *text, char *out, size_t cap, int *status)
{
    spec_t spec;
    *status = MHD_HTTP_BAD_REQUEST;
    int rc = spec_parse(text, &spec);
    const agent_kind_t *k = rc ? NULL : find_kind(spec.name);
    if (rc == 0 && k == NULL) rc = hoyle_error(HOYLE_EINVAL, "unknown agent kind '%s'", spec.name);
    if (rc == 0 && kind_refused(k))
        rc = hoyle_error(HOYLE_EINVAL, "agent kind '%s' is not offered by the server%s", k->name,
                         k->human ? " (use \"human\" for a seat the page plays)" : "");
    size_t len = 0;
    if (rc == 0) len = (size_t)snprintf(out, cap, "%s", spec.name);
    for (int i = 0; rc == 0 && i < spec.num_params; i++) {
        const char *key = spec.params[i].key, *value = spec.params[i].value;
        char real[PATH_MAX];
        if (strcmp(key, "path") == 0 && value[0]) {
            rc = hoyle_error(HOYLE_EINVAL,
                             "%s: key 'path' (a program to run) is not accepted by the server",
                             k->name);
        } else if ((strcmp(key, "model") == 0 ||
                    (k->model_key && strcmp(key, k->model_key) == 0)) &&
                   value[0] && !shipped(k, value)) {
            /* a file: inside --data only (a shipped model's name stays as it is) */
            const char *why = NULL;
            int st = files_resolve(srv->data_real, value, real, &why);
            if (st) {
                *status = st;
                rc = hoyle_error(HOYLE_EINVAL, "%s: %s: %s", k->name, key, why);
            }
            value = real;
        }
        if (rc == 0)
            len += (size_t)snprintf(out + (len < cap ? len : cap), len < cap ? cap - len : 0,
                                    "%s%s=%s", i ? "," : "(", key, value);
    }
    if (rc == 0 && spec.num_params)
        len += (size_t)snprintf(out + (len < cap ? len : cap), len < cap ? cap - len : 0, ")");
    if (rc == 0 && len >= cap) rc = hoyle_error(HOYLE_EINVAL, "agent spec too long");
    return rc;
}
