/* tournament_play.c — one tournament game with adjudication and timing
 * (tournament_play, tournament.h): the game driver agent_play()
 * (mcts/agent_game.c, its forfeit rule included) with the seeds, the
 * opening and the record layout of tournaments, sprt and the training
 * evaluation. A forfeit is stored as end ERROR with its message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "eval/tournament.h"
#include "games/playout.h"
#include "mcts/agent.h"

void tour_game_result_done(tour_game_result_t *r)
{
    if (r == NULL) return;
    free(r->actions);
    free(r->action_ms);
    memset(r, 0, sizeof *r);
}

/* Each seat's agent gets its own stream from the game seed (0xa9e47 is an
 * arbitrary domain tag), so the two agents never share random numbers. */
uint64_t tournament_agent_seed(uint64_t seed, int seat)
{
    return rng_mix(seed ^ (0xa9e47ULL + (uint64_t)seat));
}

int tournament_play_agents(const game_t *g, agent_t *const agents[2],
                           const char *const seat_spec[2], const opening_t *opening, uint64_t seed,
                           int max_moves, tour_game_result_t *out)
{
    memset(out, 0, sizeof *out);
    /* The action and timing buffers are sized for the longest game agent_play
     * can produce (opening plus max_game_length), so they never grow mid-game. */
    int cap = agent_game_capacity(g);
    out->actions = malloc(sizeof(int32_t) * (size_t)cap);
    out->action_ms = malloc(sizeof(float) * (size_t)cap);
    if (!out->actions || !out->action_ms) {
        tour_game_result_done(out);
        return hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
    }
    agent_game_opts_t opts = {.opening = opening ? opening->actions : NULL,
                              .opening_len = opening ? opening->num_actions : 0,
                              .opening_name = opening ? opening->name : NULL,
                              .max_moves = max_moves,
                              /* Dice and other chance events draw from a third stream,
                               * independent of both agents, so a change in how an agent uses its
                               * rng does not change the dice the two sides see. */
                              .chance_seed = rng_mix(seed ^ 0xc4a9ceULL),
                              .names = seat_spec,
                              .actions = out->actions,
                              .action_ms = out->action_ms};
    agent_game_result_t res;
    int status = agent_play(g, agents, &opts, &res);
    if (status) {
        tour_game_result_done(out);
        return status;
    }
    /* Map the driver's end reason onto the record file's: a forfeit (illegal
     * move, agent error) is stored as ERROR, its message in out->error. */
    static const record_end_t end_of[] = {[AGENT_GAME_RULES] = RECORD_END_RULES,
                                          [AGENT_GAME_MOVE_LIMIT] = RECORD_END_MOVE_LIMIT,
                                          [AGENT_GAME_FORFEIT] = RECORD_END_ERROR};
    out->returns[0] = res.returns[0];
    out->returns[1] = res.returns[1];
    out->end = end_of[res.end];
    out->num_actions = res.num_actions;
    snprintf(out->error, sizeof out->error, "%s", res.error);
    return HOYLE_OK;
}

/* Fresh-agent form: identical results to tournament_play_agents with agents
 * reseeded by tournament_agent_seed, which is what lets tournament_run reuse
 * agents across games. */
int tournament_play(const game_t *g, const char *const seat_spec[2], const opening_t *opening,
                    uint64_t seed, int max_moves, tour_game_result_t *out)
{
    memset(out, 0, sizeof *out);
    agent_t *ag[2] = {NULL, NULL};
    int status = HOYLE_OK;
    for (int p = 0; p < 2 && status == 0; p++)
        status = agent_create(g, seat_spec[p], tournament_agent_seed(seed, p), &ag[p]);
    if (status == 0)
        status = tournament_play_agents(g, ag, seat_spec, opening, seed, max_moves, out);
    for (int p = 0; p < 2; p++) agent_free(ag[p]);
    return status;
}
