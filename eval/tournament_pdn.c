/* tournament_pdn.c — export the checkers games of a record file as PDN
 * (tournament_export_pdn, tournament_pdn.h), through the checkers PDN
 * writer (games/checkers/checkers.h). Tags: Event, Round (the job index),
 * Black and White (seat 0, who moves first, and seat 1), Result, Opening,
 * Termination. Result "1-0" is a win of the first player (Black in English
 * checkers), "0-1" of the second, as in the Open Checker Archive. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/h5rec.h"
#include "eval/tournament_pdn.h"
#include "games/checkers/checkers.h"

static void tag(checkers_pdn_game_t *pg, const char *key, const char *value)
{
    if (pg->num_tags >= CHECKERS_PDN_TAGS) return;
    snprintf(pg->tags[pg->num_tags].key, sizeof pg->tags[0].key, "%s", key);
    snprintf(pg->tags[pg->num_tags].value, sizeof pg->tags[0].value, "%s", value);
    pg->num_tags++;
}

/* Fill pg from a record of game g; HOYLE_EINVAL if an action is illegal. */
static int fill(const game_t *g, const game_record_t *r, const char *event, checkers_pdn_game_t *pg,
                void *s)
{
    memset(pg, 0, sizeof *pg);
    char buf[64];
    tag(pg, "Event", event);
    snprintf(buf, sizeof buf, "%d", r->game_index + 1);
    tag(pg, "Round", buf);
    tag(pg, "Black", r->agent_spec[0] ? r->agent_spec[0] : "?");
    tag(pg, "White", r->agent_spec[1] ? r->agent_spec[1] : "?");
    const char *res = r->result == 1 ? "1-0" : r->result == 0 ? "0-1" : "1/2-1/2";
    tag(pg, "Result", res);
    if (r->opening_name && r->opening_name[0]) tag(pg, "Opening", r->opening_name);
    tag(pg, "Termination", record_end_name(r->end));
    game_init(g, s);
    if (game_position_to_string(g, s, pg->start, sizeof pg->start) < 0) return HOYLE_EINVAL;
    if (r->num_actions > CHECKERS_PDN_ACTIONS)
        return hoyle_error(HOYLE_EINVAL, "pdn: game %d has too many actions", r->game_index);
    for (int i = 0; i < r->num_actions; i++) {
        int p = game_current_player(g, s);
        if (game_apply_checked(g, s, r->actions[i])) return HOYLE_EINVAL;
        pg->actions[i] = r->actions[i];
        if (game_current_player(g, s) != p || i + 1 == r->num_actions) {
            if (pg->num_moves >= CHECKERS_PDN_MOVES)
                return hoyle_error(HOYLE_EINVAL, "pdn: game %d has too many moves", r->game_index);
            pg->move_end[pg->num_moves++] = i + 1;
        }
    }
    pg->num_actions = r->num_actions;
    snprintf(pg->result, sizeof pg->result, "%s", res);
    return HOYLE_OK;
}

int tournament_export_pdn(const char *h5path, FILE *out, int *written)
{
    h5rec_t *h;
    *written = 0;
    int status = h5rec_open_read(h5path, &h);
    if (status) return status;
    const h5rec_meta_t *meta = h5rec_meta(h);
    const char *event = meta->config_path && meta->config_path[0] ? meta->config_path : h5path;
    checkers_pdn_game_t *pg = malloc(sizeof *pg);
    size_t cap = 1 << 16;
    char *text = malloc(cap);
    const game_t *games[H5REC_MAX_GAMES] = {NULL};
    void *states[H5REC_MAX_GAMES] = {NULL};
    if (!pg || !text) status = hoyle_error(HOYLE_ENOMEM, "pdn: out of memory");
    int64_t n = h5rec_count(h);
    for (int64_t i = 0; i < n && status == 0; i++) {
        game_record_t r;
        if ((status = h5rec_read(h, i, &r))) break;
        int gi = -1;
        for (int k = 0; k < meta->num_games && k < H5REC_MAX_GAMES; k++)
            if (strcmp(meta->game_specs[k], r.game_spec) == 0) gi = k;
        if (gi >= 0 && strncmp(r.game_spec, "checkers", 8) == 0) {
            if (games[gi] == NULL) {
                status = game_create(r.game_spec, &games[gi]);
                if (status == 0 && (states[gi] = malloc(games[gi]->state_size)) == NULL)
                    status = hoyle_error(HOYLE_ENOMEM, "pdn: out of memory");
            }
            if (status == 0) status = fill(games[gi], &r, event, pg, states[gi]);
            int len = status ? status : checkers_pdn_write(games[gi], pg, text, cap);
            if (len < 0)
                status = len;
            else {
                fprintf(out, "%s\n", text);
                (*written)++;
            }
        }
        game_record_free(&r);
    }
    for (int k = 0; k < H5REC_MAX_GAMES; k++) {
        game_free(games[k]);
        free(states[k]);
    }
    free(pg);
    free(text);
    h5rec_close(h);
    if (status == 0 && ferror(out)) status = hoyle_error(HOYLE_EIO, "pdn: write error");
    return status;
}
