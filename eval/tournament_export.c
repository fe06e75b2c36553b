/* tournament_export.c — stored games as game records (tournament_export.h):
 * each record of the file is replayed through its game's record writer
 * (game_record_to_string, games/game.h), so the export knows no format of
 * its own; a game family adds one by filling its record_to_string slot. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>

#include "data/config.h"
#include "data/h5rec.h"
#include "eval/tournament_export.h"
#include "games/game.h"

/* The game of one record, made once per spec of the file (meta->game_specs). */
typedef struct export_game {
    const game_t *g;
    void *start;   /* its initial state */
    bool unusable; /* this program cannot make the game (another version's spec): skip */
} export_game_t;

/* One record as text. r->actions begin at the initial position: agent_play
 * stores the opening's actions too, so the writer needs no separate opening.
 * Round is the 1-based job index, which makes each game's tag unique within
 * a tournament. */
static int write_one(const game_t *g, const void *start, const game_record_t *r, const char *event,
                     const char *date, char *text, size_t cap, FILE *out)
{
    game_record_tags_t tags = {
        .event = event,
        .round = r->game_index + 1,
        .players = {r->agent_spec[0], r->agent_spec[1]},
        .score = r->result,
        .opening = r->opening_name,
        .termination = record_end_name(r->end),
        .date = date,
    };
    int len = game_record_to_string(g, &tags, start, r->actions, r->num_actions, text, cap);
    if (len < 0) return len;
    fprintf(out, "%s\n", text);
    return HOYLE_OK;
}

/* The tournament's name as the file records it: the stored config text is the
 * config the tournament ran with, so its `name` key is the name the docs mean.
 * A file whose config text does not parse (another version) falls back. */
static void event_name(const h5rec_meta_t *meta, const char *h5path, char *out, size_t cap)
{
    const char *fallback = meta->config_path && meta->config_path[0] ? meta->config_path : h5path;
    config_t *c = NULL;
    const char *name = NULL;
    if (meta->config_text && meta->config_text[0] &&
        config_parse(meta->config_text, h5path, &c) == HOYLE_OK)
        name = config_string(c, "name", NULL);
    snprintf(out, cap, "%s", name && name[0] ? name : fallback);
    config_free(c);
}

int tournament_export_records(const char *h5path, const char *format, FILE *out, int *written,
                              int *skipped)
{
    int n_written = 0, n_skipped = 0;
    h5rec_t *h;
    int status = h5rec_open_untrusted(h5path, &h); /* a user's file: read in a child */
    if (status) return status;
    const h5rec_meta_t *meta = h5rec_meta(h);
    /* The Event tag names the tournament: the `name` key of the config the file
     * stores (docs/formats.md), else its config path, else the file. */
    char event[256];
    event_name(meta, h5path, event, sizeof event);
    /* The Date tag: the day the file was created (UTC), the games' day for
     * every tournament that ran within one. */
    char date[16] = "";
    time_t created = (time_t)meta->created_unix;
    struct tm day;
    if (meta->created_unix > 0 && gmtime_r(&created, &day))
        strftime(date, sizeof date, "%Y.%m.%d", &day);
    /* 64 KiB per game record: far above the longest game text the writers
     * produce; a longer one fails with HOYLE_EFULL rather than being truncated. */
    size_t cap = 1 << 16;
    char *text = malloc(cap);
    export_game_t games[H5REC_MAX_GAMES];
    memset(games, 0, sizeof games);
    if (!text) status = hoyle_error(HOYLE_ENOMEM, "export: out of memory");
    int64_t n = h5rec_count(h);
    for (int64_t i = 0; i < n && status == 0; i++) {
        game_record_t r;
        if ((status = h5rec_read(h, i, &r))) break;
        int gi = -1;
        /* Match the record to the file's game list, so each game is created once
         * however many records it has; a spec not in the list is skipped. */
        for (int k = 0; k < meta->num_games && k < H5REC_MAX_GAMES; k++)
            if (strcmp(meta->game_specs[k], r.game_spec) == 0) gi = k;
        export_game_t *eg = gi >= 0 ? &games[gi] : NULL;
        if (eg && eg->g == NULL && !eg->unusable) {
            /* A spec this build cannot make (another version's parameters) marks the game
             * unusable once, so its records are counted as skipped, not errors: an
             * export of a mixed file still writes what it can. */
            eg->unusable = game_create(r.game_spec, &eg->g) != 0;
            if (eg->g && (eg->start = malloc(eg->g->state_size)) == NULL)
                status = hoyle_error(HOYLE_ENOMEM, "export: out of memory");
            if (status == 0 && eg->g) game_init(eg->g, eg->start);
        }
        const char *f = status == 0 && eg && eg->g ? game_record_format(eg->g) : NULL;
        /* Only games whose family writes the requested format are exported; the rest
         * (no writer, another format) are counted in *skipped for the caller to report. */
        if (status == 0 && f && strcasecmp(f, format) == 0) {
            status = write_one(eg->g, eg->start, &r, event, date[0] ? date : NULL, text, cap, out);
            if (status == 0) n_written++;
        } else if (status == 0) {
            n_skipped++;
        }
        game_record_free(&r);
    }
    for (int k = 0; k < H5REC_MAX_GAMES; k++) {
        game_free(games[k].g);
        free(games[k].start);
    }
    free(text);
    h5rec_close(h);
    if (status == 0 && ferror(out)) status = hoyle_error(HOYLE_EIO, "export: write error");
    if (written) *written = n_written;
    if (skipped) *skipped = n_skipped;
    return status;
}
