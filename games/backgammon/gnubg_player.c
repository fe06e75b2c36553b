/* gnubg_player.c — GNU Backgammon's play, step by step (gnubg_player.h).
 * Invariant: when `planned`, plan is gnubg's play of the roll in start/mover/
 * dice, and the steps played so far at that roll are a prefix of it. */
#include "games/backgammon/gnubg_player.h"

#include <stdlib.h>
#include <string.h>

#include "games/backgammon/bg_internal.h"

struct gnubg_player {
    gnubg_client_t *client;
    int plies;
    bool planned;     /* plan holds gnubg's play of the roll below */
    bg_board_t start; /* the board, mover and dice the plan is for */
    uint8_t mover, dice[2];
    bg_play_t plan;
};

static bool plan_fits(const gnubg_player_t *ga, const bg_state_t *s)
{
    return ga->planned && ga->mover == s->to_move && ga->dice[0] == s->dice[0] &&
           ga->dice[1] == s->dice[1] && memcmp(&ga->start, &s->start, sizeof ga->start) == 0 &&
           memcmp(ga->plan.steps, s->steps, s->nsteps) == 0 && s->nsteps < ga->plan.n;
}

int gnubg_player_open(const char *path, int plies, gnubg_player_t **out)
{
    gnubg_player_t *ga = calloc(1, sizeof *ga);
    if (ga == NULL) return hoyle_error(HOYLE_ENOMEM, "gnubg: out of memory");
    ga->plies = plies;
    int status = gnubg_client_open(path && path[0] ? path : NULL, &ga->client);
    if (status) {
        free(ga);
        return status;
    }
    *out = ga;
    return HOYLE_OK;
}

void gnubg_player_close(gnubg_player_t *ga)
{
    if (ga == NULL) return;
    gnubg_client_close(ga->client);
    free(ga);
}

void gnubg_player_reset(gnubg_player_t *ga) { ga->planned = false; }

int gnubg_player_step(gnubg_player_t *ga, const void *state, int *action)
{
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
