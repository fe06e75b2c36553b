/* tournament_play.c — one tournament game with adjudication and timing
 * (tournament_play, tournament.h).
 *
 * Like agent_play_game (mcts/agent_game.c) but it records every action with
 * its thinking time, starts from an opening that both agents observe, stops
 * at the move limit (a draw, end MOVE_LIMIT), and scores an agent failure
 * or illegal action as a loss for that agent (end ERROR) instead of
 * aborting the tournament. A whole move is a maximal run of actions by one
 * player; chance outcomes are not moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rng.h"
#include "eval/tournament.h"
#include "games/playout.h"
#include "mcts/agent.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void tour_game_result_done(tour_game_result_t *r)
{
    if (r == NULL) return;
    free(r->actions);
    free(r->action_ms);
    memset(r, 0, sizeof *r);
}

/* Score a failure of `player`: it loses. */
static void forfeit(tour_game_result_t *out, int player, const char *why)
{
    out->returns[player] = -1;
    out->returns[1 - player] = 1;
    out->end = RECORD_END_ERROR;
    snprintf(out->error, sizeof out->error, "%s", why);
}

int tournament_play(const game_t *g, const char *const seat_spec[2], const opening_t *opening,
                    uint64_t seed, int max_moves, tour_game_result_t *out)
{
    memset(out, 0, sizeof *out);
    int cap = g->max_game_length + 2;
    size_t nc = g->max_chance_outcomes > 0 ? (size_t)g->max_chance_outcomes : 1;
    void *s = malloc(g->state_size);
    int *chance_a = malloc(sizeof(int) * nc);
    double *chance_p = malloc(sizeof(double) * nc);
    out->actions = malloc(sizeof(int32_t) * (size_t)cap);
    out->action_ms = malloc(sizeof(float) * (size_t)cap);
    agent_t *ag[2] = {NULL, NULL};
    int status = HOYLE_OK;
    if (!s || !chance_a || !chance_p || !out->actions || !out->action_ms) {
        status = hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
        goto done;
    }
    for (int p = 0; p < 2 && status == 0; p++)
        status = agent_create(g, seat_spec[p], rng_mix(seed ^ (0xa9e47ULL + (uint64_t)p)), &ag[p]);
    if (status) goto done;
    rng_t rng;
    rng_init(&rng, rng_mix(seed ^ 0xc4a9ceULL));
    game_init(g, s);
    int moves = 0, n = 0;
    /* 1. the opening, observed by both agents */
    for (int i = 0; opening && i < opening->num_actions; i++) {
        int before = game_current_player(g, s), a = opening->actions[i];
        if (game_is_terminal(g, s) || !game_is_legal(g, s, a)) {
            status = hoyle_error(HOYLE_EINVAL, "opening '%s': action %d is not legal",
                                 opening->name, i + 1);
            goto done;
        }
        for (int p = 0; p < 2; p++) agent_observe(ag[p], s, a);
        game_apply(g, s, a);
        out->actions[n] = a;
        out->action_ms[n++] = 0;
        if (before >= 0 && game_current_player(g, s) != before) moves++;
    }
    /* 2. the game: act, check, observe, apply; count whole moves */
    out->end = RECORD_END_RULES;
    while (!game_is_terminal(g, s)) {
        if (max_moves > 0 && moves >= max_moves) {
            out->end = RECORD_END_MOVE_LIMIT;
            break;
        }
        if (n >= cap) {
            status = hoyle_error(HOYLE_ESTATE, "%s: game exceeded max_game_length", g->spec);
            goto done;
        }
        int player = game_current_player(g, s), a;
        double ms = 0;
        if (player == PLAYER_CHANCE) {
            a = game_chance_sample(g, s, &rng, chance_a, chance_p);
            if (a < 0) {
                status = a;
                goto done;
            }
        } else {
            double t0 = now_ms();
            int r = agent_act(ag[player], s, &a);
            ms = now_ms() - t0;
            if (r || !game_is_legal(g, s, a)) {
                char why[160];
                if (r)
                    snprintf(why, sizeof why, "%s: %s", seat_spec[player], hoyle_last_error());
                else
                    snprintf(why, sizeof why, "%s played illegal action %d", seat_spec[player], a);
                forfeit(out, player, why);
                out->num_actions = n;
                goto done;
            }
        }
        for (int p = 0; p < 2; p++) agent_observe(ag[p], s, a);
        game_apply(g, s, a);
        out->actions[n] = a;
        out->action_ms[n++] = (float)ms;
        if (player >= 0 && game_current_player(g, s) != player) moves++;
    }
    if (out->end == RECORD_END_RULES)
        game_returns(g, s, out->returns);
    else
        out->returns[0] = out->returns[1] = 0;
    out->num_actions = n;
done:
    for (int p = 0; p < 2; p++) agent_free(ag[p]);
    free(s);
    free(chance_a);
    free(chance_p);
    if (status) tour_game_result_done(out);
    return status;
}
