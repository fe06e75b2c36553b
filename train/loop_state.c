/* loop_state.c — the training loop's durable bits: atomic file writes, the
 * state file and the CSV logs. Invariant: every file here changes only by
 * rename(2) of a complete, fsync'ed temporary file. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "core/file.h"
#include "data/config.h"
#include "data/lockfile.h"
#include "train/loop_internal.h"

int loop_write_atomic(const char *path, const char *data, size_t len)
{
    return file_write_atomic(path, data, len);
}

/* One "key value" line per field, doubles with 17 digits so that they read back exactly
 * (a resumed run must continue bit for bit). */
int loop_state_save(const char *path, const loop_state_t *st)
{
    char buf[1024];
    int n = snprintf(buf, sizeof buf,
                     "generation %" PRId64 "\nsteps %" PRId64 "\ngames %" PRId64
                     "\nsamples %" PRId64 "\nseconds %.17g\nstep_carry %.17g\n"
                     "loss_policy %.17g\nloss_value %.17g\nloss_total %.17g\n",
                     st->generation, st->steps, st->games, st->samples, st->seconds, st->step_carry,
                     st->loss_policy, st->loss_value, st->loss_total);
    return loop_write_atomic(path, buf, (size_t)n);
}

int loop_state_load(const char *path, loop_state_t *st)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return errno == ENOENT ? 1 : hoyle_error(HOYLE_EIO, "'%s': %s", path, strerror(errno));
    /* Parse into a temporary; *st changes only when all nine fields were found. Counts are
     * read as doubles: exact below 2^53, far beyond any run. */
    loop_state_t s = {0};
    char key[64];
    double v;
    int found = 0;
    while (fscanf(f, "%63s %lf", key, &v) == 2) {
        found++;
        if (strcmp(key, "generation") == 0)
            s.generation = (int64_t)v;
        else if (strcmp(key, "steps") == 0)
            s.steps = (int64_t)v;
        else if (strcmp(key, "games") == 0)
            s.games = (int64_t)v;
        else if (strcmp(key, "samples") == 0)
            s.samples = (int64_t)v;
        else if (strcmp(key, "seconds") == 0)
            s.seconds = v;
        else if (strcmp(key, "step_carry") == 0)
            s.step_carry = v;
        else if (strcmp(key, "loss_policy") == 0)
            s.loss_policy = v;
        else if (strcmp(key, "loss_value") == 0)
            s.loss_value = v;
        else if (strcmp(key, "loss_total") == 0)
            s.loss_total = v;
        else
            found--; /* an unknown key is ignored, not counted */
    }
    fclose(f);
    if (found != 9) return hoyle_error(HOYLE_EIO, "'%s': damaged state file", path);
    *st = s;
    return HOYLE_OK;
}

/* Room for `more` bytes plus the terminating NUL (text is always a C string). */
static int log_reserve(loop_log_t *log, size_t more)
{
    if (log->len + more + 1 <= log->cap) return HOYLE_OK;
    size_t cap = log->cap ? log->cap : 4096;
    while (cap < log->len + more + 1) cap *= 2;
    char *t = realloc(log->text, cap);
    if (t == NULL) return hoyle_error(HOYLE_ENOMEM, "log: out of memory");
    log->text = t;
    log->cap = cap;
    return HOYLE_OK;
}

static int log_append(loop_log_t *log, const char *line, size_t n)
{
    int status = log_reserve(log, n);
    if (status) return status;
    memcpy(log->text + log->len, line, n);
    log->len += n;
    log->text[log->len] = '\0';
    return HOYLE_OK;
}

int loop_log_open(loop_log_t *log, const char *path, const char *header, int64_t max_gen)
{
    memset(log, 0, sizeof *log);
    snprintf(log->path, sizeof log->path, "%s", path);
    FILE *f = fopen(path, "r");
    char line[4096];
    int status = HOYLE_OK;
    if (f == NULL) return log_append(log, header, strlen(header));
    /* Keep the header and the rows of finished generations: rows a killed run wrote for the
     * generation in flight are dropped and rewritten when it is redone. */
    int first = 1;
    while (status == HOYLE_OK && fgets(line, sizeof line, f)) {
        if (!first && strtoll(line, NULL, 10) > max_gen) continue;
        first = 0;
        status = log_append(log, line, strlen(line));
    }
    fclose(f);
    /* an empty file (killed before its first save) gets the header */
    if (status == HOYLE_OK && log->len == 0) status = log_append(log, header, strlen(header));
    return status;
}

int loop_log_add(loop_log_t *log, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line) return hoyle_error(HOYLE_EINVAL, "log: line too long");
    return log_append(log, line, (size_t)n);
}

int loop_log_save(const loop_log_t *log)
{
    return loop_write_atomic(log->path, log->text, log->len);
}

void loop_log_done(loop_log_t *log)
{
    free(log->text);
    memset(log, 0, sizeof *log);
}

void loop_key_at(const config_t *c, const char *key, char *buf, size_t cap)
{
    const config_node_t *n = config_find(c, key);
    if (n && n->line > 0)
        snprintf(buf, cap, "%s:%d: key '%s'", c->name, n->line, key);
    else
        snprintf(buf, cap, "%s%s: key '%s'", c->name, n ? " (--set)" : "", key);
}

int loop_config_open(const char *path, char *const *sets, int num_sets, const param_def_t *schema,
                     config_t **cfg, char *dir, size_t cap, const game_t **g)
{
    char at[1400];
    int status = config_load(path, cfg);
    for (int i = 0; !status && i < num_sets; i++) status = config_set(*cfg, sets[i]);
    if (!status) status = config_bind(*cfg, schema, NULL); /* check only */
    if (status) return HOYLE_EINVAL;
    snprintf(dir, cap, "%s", config_string(*cfg, "output", ""));
    loop_key_at(*cfg, "output", at, sizeof at);
    if (dir[0] == '\0') return hoyle_error(HOYLE_EINVAL, "%s: empty folder name", at);
    loop_key_at(*cfg, "game", at, sizeof at);
    if (game_create(config_string(*cfg, "game", ""), g))
        return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    return HOYLE_OK;
}

int loop_make_dir(const char *path) { return file_make_folders(path); }

int loop_lock_dir(const char *dir, int *lock_fd)
{
    char path[1200];
    int status = loop_make_dir(dir);
    if (status) return status;
    snprintf(path, sizeof path, "%s/lock", dir);
    *lock_fd = lockfile_open(path, O_RDWR);
    if (*lock_fd == LOCKFILE_BUSY)
        return hoyle_error(HOYLE_EIO,
                           "run folder '%s' is in use by another hoyle train (lock '%s' is held)",
                           dir, path);
    if (*lock_fd < 0) return hoyle_error(HOYLE_EIO, "'%s': %s", path, strerror(errno));
    return HOYLE_OK;
}
