/* agent_gnubg.c — GNU Backgammon as an agent, `gnubg(plies=0|1|2)`, so that
 * hoyle's agents can be rated against a world-class program.
 *
 * At the first step of each of its plays the agent asks gnubg (a child
 * process, games/backgammon/gnubg_client.h) for its play of the roll at the
 * given plies, finds the canonical play that reaches the same position, and
 * then plays that play's steps one per act. Money game, cubeless, gammons
 * counting (see gnubg_client_best). Backgammon only. It lives beside the
 * rules because it reads bg_state_t; registered by game_agents_register(). */
#include <stdlib.h>
#include <string.h>

#include "games/backgammon/bg_internal.h"
#include "games/backgammon/gnubg_client.h"
#include "games/game_agents.h"
#include "games/registry.h"
#include "mcts/agent_kind.h"

typedef struct gnubg_agent {
    gnubg_client_t *client;
    int plies;
    bool planned;     /* plan holds gnubg's play of the roll below */
    bg_board_t start; /* the board, mover and dice the plan is for */
    uint8_t mover, dice[2];
    bg_play_t plan;
} gnubg_agent_t;

static bool plan_fits(const gnubg_agent_t *ga, const bg_state_t *s)
{
    return ga->planned && ga->mover == s->to_move && ga->dice[0] == s->dice[0] &&
           ga->dice[1] == s->dice[1] && memcmp(&ga->start, &s->start, sizeof ga->start) == 0 &&
           memcmp(ga->plan.steps, s->steps, s->nsteps) == 0 && s->nsteps < ga->plan.n;
}

static int gnubg_act(agent_t *a, const void *state, int *action)
{
    gnubg_agent_t *ga = a->impl;
    const bg_state_t *s = state;
    if (s->phase != BG_PLAY) return hoyle_error(HOYLE_ESTATE, "gnubg: not a decision state");
    if (s->need == 0) {
        *action = BG_PASS;
        return HOYLE_OK;
    }
    if (!plan_fits(ga, s)) {
        char id[BG_ID_LEN + 1], best[GNUBG_ID_LEN];
        bg_position_id(&s->start, s->to_move, id);
        int st = gnubg_client_best(ga->client, id, s->dice[0], s->dice[1], ga->plies, best);
        if (st) return st;
        int n;
        const bg_play_t *plays = bg_state_plays(s, &n);
        ga->planned = false;
        for (int i = 0; i < n && !ga->planned; i++) {
            char after[BG_ID_LEN + 1];
            bg_position_id(&plays[i].after, s->to_move, after);
            if (strcmp(after, best) != 0) continue;
            ga->plan = plays[i];
            ga->planned = true;
        }
        if (!ga->planned)
            return hoyle_error(HOYLE_ESTATE,
                               "gnubg: its play of %d%d in %s (to %s) is not one of hoyle's",
                               s->dice[0], s->dice[1], id, best);
        ga->start = s->start;
        ga->mover = s->to_move;
        ga->dice[0] = s->dice[0];
        ga->dice[1] = s->dice[1];
        if (!plan_fits(ga, s))
            return hoyle_error(HOYLE_ESTATE,
                               "gnubg: another agent began this play (%s, %d%d) and gnubg's play "
                               "does not continue it",
                               id, s->dice[0], s->dice[1]);
    }
    *action = ga->plan.steps[s->nsteps];
    return HOYLE_OK;
}

static void gnubg_reset(agent_t *a) { ((gnubg_agent_t *)a->impl)->planned = false; }

static void gnubg_destroy(agent_t *a)
{
    gnubg_agent_t *ga = a->impl;
    if (ga == NULL) return;
    gnubg_client_close(ga->client);
    free(ga);
}

static const agent_vt_t gnubg_vt = {
    .act = gnubg_act, .reset = gnubg_reset, .destroy = gnubg_destroy};

static int gnubg_create(agent_t *a)
{
    if (strcmp(a->g->entry->name, "backgammon") != 0)
        return hoyle_error(HOYLE_EINVAL, "gnubg: plays only backgammon, not %s", a->g->spec);
    gnubg_agent_t *ga = calloc(1, sizeof *ga);
    if (ga == NULL) return hoyle_error(HOYLE_ENOMEM, "gnubg: out of memory");
    a->impl = ga;
    a->vt = &gnubg_vt;
    ga->plies = (int)params_int(&a->params, "plies");
    const char *path = params_str(&a->params, "path");
    int status = gnubg_client_open(path[0] ? path : NULL, &ga->client);
    if (status) { /* a failed create cleans up after itself (agent.c frees only the agent) */
        free(ga);
        a->impl = NULL;
    }
    return status;
}

static const param_def_t gnubg_params[] = {
    {.key = "plies",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = GNUBG_CLIENT_MAX_PLIES,
     .help = "gnubg's search depth: 0 (its network alone), 1, 2 (strong, ~50 ms a play)"},
    {.key = "path",
     .type = PARAM_STRING,
     .def = "",
     .help = "the gnubg program (empty: $HOYLE_GNUBG, else " GNUBG_DEFAULT_PATH ")"},
    {.key = NULL},
};

const agent_kind_t agent_gnubg_kind = {
    .name = "gnubg",
    .description = "GNU Backgammon's own play (backgammon only; needs the gnubg package)",
    .params = gnubg_params,
    .create = gnubg_create,
};
