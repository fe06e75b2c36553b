/* cli_record.c — `--record OUT` (cli_record.h): the games of match, play,
 * sprt and selfplay written as HDF5 game records (data/h5rec.h) when OUT ends in .h5,
 * else in the game's text record format (game_record_to_string).
 * Invariant: exactly one of `h5` and `text` is open while the writer lives. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "apps/cli.h"
#include "apps/cli_record.h"
#include "data/h5rec.h"
#include "mcts/agent.h"

struct cli_record {
    const game_t *g;
    const char *path; /* borrowed from the command line */
    h5rec_t *h5;      /* .h5 */
    FILE *text;       /* any other name */
    char date[16];    /* the text records' date tag, "YYYY.MM.DD" (UTC) */
    char event[32];   /* their event tag, "hoyle CMD" */
    int *acts;        /* the text writer's int copy of a game's actions */
    char *buf;        /* one text record */
    size_t buf_cap;
};

bool cli_record_is_h5(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && strcmp(path + n - 3, ".h5") == 0;
}

static int open_h5(const char *cmd, cli_record_t *r, bool from_position, const char *what)
{
    struct stat st;
    if (from_position)
        return cli_usage_error(cmd,
                               "--record %s: HDF5 records start at the game's start; "
                               "record a game from --position as PGN/PDN",
                               r->path);
    if (stat(r->path, &st) == 0)
        return cli_usage_error(cmd, "--record %s: the file exists (record files are not replaced)",
                               r->path);
    const char *specs[1] = {r->g->spec};
    h5rec_meta_t meta = {.config_text = what, .num_games = 1, .game_specs = specs};
    if (h5rec_create(r->path, &meta, &r->h5)) return cli_fail(cmd, EXIT_USAGE);
    /* one checkpoint at close, unless the run is long (then every 30 s) */
    if (h5rec_set_checkpoint(r->h5, 1 << 20, 30000)) return cli_fail(cmd, EXIT_USAGE);
    return EXIT_OK;
}

static int open_text(const char *cmd, cli_record_t *r)
{
    if (game_record_format(r->g) == NULL)
        return cli_usage_error(cmd, "--record %s: %s has no text record format (use a .h5 name)",
                               r->path, r->g->spec);
    r->buf_cap = 1 << 16;
    r->buf = malloc(r->buf_cap);
    r->acts = malloc(sizeof *r->acts * (size_t)agent_game_capacity(r->g));
    if (!r->buf || !r->acts) return cli_usage_error(cmd, "out of memory");
    r->text = fopen(r->path, "w");
    if (r->text == NULL)
        return cli_usage_error(cmd, "--record: cannot write %s: %s", r->path, strerror(errno));
    time_t now = time(NULL);
    struct tm day;
    if (gmtime_r(&now, &day)) strftime(r->date, sizeof r->date, "%Y.%m.%d", &day);
    return EXIT_OK;
}

int cli_record_open(const char *cmd, const char *path, const game_t *g, bool from_position,
                    const char *what, cli_record_t **out)
{
    *out = NULL;
    if (path[0] == '\0') return cli_usage_error(cmd, "--record: empty file name");
    cli_record_t *r = calloc(1, sizeof *r);
    if (r == NULL) return cli_usage_error(cmd, "out of memory");
    r->g = g;
    r->path = path;
    snprintf(r->event, sizeof r->event, "hoyle %s", cmd);
    int rc = cli_record_is_h5(path) ? open_h5(cmd, r, from_position, what) : open_text(cmd, r);
    if (rc != EXIT_OK) {
        cli_record_close(r);
        return rc;
    }
    *out = r;
    return EXIT_OK;
}

/* Seat 0's score from the returns, as tournaments store it: 1, 0.5 or 0 in
 * a two-player game; a puzzle's return mapped from [-1, 1] to [0, 1]. */
static double seat0_score(const game_t *g, const double *returns)
{
    if (g->num_players != 2) return (returns[0] + 1.0) / 2.0;
    return returns[0] > returns[1] ? 1.0 : returns[0] < returns[1] ? 0.0 : 0.5;
}

static int add_text(cli_record_t *r, const game_record_t *rec, const void *start)
{
    const game_t *g = r->g;
    game_record_tags_t tags = {
        .event = r->event,
        .round = rec->round,
        .players = {rec->agent_spec[0], rec->agent_spec[1]},
        .score = seat0_score(g, rec->returns),
        .opening = rec->opening_name,
        .termination = rec->end == RECORD_END_ERROR ? "forfeit" : record_end_name(rec->end),
        .date = r->date};
    for (int i = 0; i < rec->num_actions; i++) r->acts[i] = rec->actions[i];
    void *init = NULL;
    if (start == NULL) {
        if ((init = malloc(g->state_size)) == NULL)
            return hoyle_error(HOYLE_ENOMEM, "out of memory");
        game_init(g, init);
    }
    int len = game_record_to_string(g, &tags, start ? start : init, r->acts, rec->num_actions,
                                    r->buf, r->buf_cap);
    free(init);
    if (len < 0) return len;
    if (fprintf(r->text, "%s\n", r->buf) < 0)
        return hoyle_error(HOYLE_EIO, "--record %s: write error", r->path);
    return HOYLE_OK;
}

int cli_record_add(cli_record_t *r, const game_record_t *rec, const void *start)
{
    if (r->text) return add_text(r, rec, start);
    game_record_t copy = *rec;
    copy.game_spec = (char *)r->g->spec;
    copy.result = seat0_score(r->g, rec->returns);
    return h5rec_append(r->h5, &copy);
}

int cli_record_close(cli_record_t *r)
{
    if (r == NULL) return HOYLE_OK;
    int status = HOYLE_OK;
    if (r->h5) status = h5rec_close(r->h5);
    /* fclose reports a late write error (a full disk) */
    if (r->text && fclose(r->text))
        status = hoyle_error(HOYLE_EIO, "--record: cannot write %s", r->path);
    free(r->acts);
    free(r->buf);
    free(r);
    return status;
}
