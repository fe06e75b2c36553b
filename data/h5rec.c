/* h5rec.c — the record-file handle and its append / checkpoint protocol.
 *
 * Invariant: `path` is always a complete, closed HDF5 file holding games
 * [0, h5_count); the journal holds games [h5_count, h5_count + num_pending)
 * (and possibly older ones, which are skipped). The .h5 is only ever
 * replaced by rename(2) of a fully written temp copy, never changed in
 * place, so a kill at any instant leaves a readable file; the journal entry
 * is written before h5rec_append returns, so a kill loses only games whose
 * h5rec_append had not returned. See h5rec.h for the whole story. */
#include "data/h5rec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"
#include "data/h5rec_internal.h"

#ifndef HOYLE_VERSION
#define HOYLE_VERSION "unknown"
#endif

/* A checkpoint rewrites the whole .h5 (copy + append + rename), so it is
 * batched: every 256 games or 30 s, whichever comes first; the journal keeps
 * the games in between safe. */
#define DEFAULT_CHECKPOINT_GAMES 256
#define DEFAULT_CHECKPOINT_MS    30000

/* Monotonic: checkpoint intervals must not jump with the wall clock. */
static int64_t now_ms(void) { return (int64_t)(1e3 * clock_seconds()); }

/* a + b in a new string (NULL when out of memory). */
static char *cat(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = malloc(na + nb + 1);
    if (s) {
        memcpy(s, a, na);
        memcpy(s + na, b, nb + 1);
    }
    return s;
}

/* Frees everything a handle owns, whatever state a failed open left it in
 * (every field starts zeroed and journal_fd at -1). */
void h5h_free(h5rec_t *h)
{
    if (h == NULL) return;
    h5s_reader_close(&h->rd);
    if (h->journal_fd >= 0) close(h->journal_fd);
    pending_clear(h);
    free(h->pending);
    for (int i = 0; i < H5REC_MAX_GAMES; i++) free(h->game_specs[i]);
    free(h->program_version);
    free(h->config_text);
    free(h->config_path);
    free(h->created);
    free(h->path);
    free(h->journal_path);
    free(h->tmp_path);
    free(h);
}

int h5h_new(const char *path, h5rec_t **out)
{
    /* every entry point silences HDF5's own stderr dump: its errors become
     * one hoyle message instead */
    h5s_quiet();
    if (path == NULL || path[0] == '\0') return hoyle_error(HOYLE_EINVAL, "h5rec: empty path");
    h5rec_t *h = calloc(1, sizeof *h);
    if (h == NULL) return hoyle_error(HOYLE_ENOMEM, "h5rec: out of memory");
    h->journal_fd = -1;
    h->checkpoint_games = DEFAULT_CHECKPOINT_GAMES;
    h->checkpoint_ms = DEFAULT_CHECKPOINT_MS;
    h->path = strdup(path);
    h->journal_path = cat(path, ".journal");
    h->tmp_path = cat(path, ".tmp");
    if (!h->path || !h->journal_path || !h->tmp_path) {
        h5h_free(h);
        return hoyle_error(HOYLE_ENOMEM, "h5rec: out of memory");
    }
    *out = h;
    return HOYLE_OK;
}

/* Point h->meta's fields at the owned copies. */
void h5h_meta_view(h5rec_t *h)
{
    h->meta.program_version = h->program_version;
    h->meta.config_text = h->config_text;
    h->meta.config_path = h->config_path;
    h->meta.game_specs = (const char *const *)h->game_specs;
}

/* fsync a file, or a directory when `dir` (directories open read-only).
 * -1 with errno set on failure. */
static int sync_fd_path(const char *path, int dir)
{
    int fd = open(path, dir ? O_RDONLY : O_RDWR);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* fsync the directory holding `path`, so that a rename or link into it is
 * itself durable, not only the file's bytes. */
static int sync_dir_of(const char *path)
{
    char *dir = strdup(path);
    if (dir == NULL) return -1;
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    int rc = sync_fd_path(slash ? dir : ".", 1);
    free(dir);
    return rc;
}

/* Byte copy src -> dst (created or truncated). */
/* Loops on short reads and writes and EINTR, because a checkpoint must copy
 * the whole file or fail; a partial copy would be renamed over good data. */
static int copy_file(const char *src, const char *dst)
{
    int in = open(src, O_RDONLY), outfd = -1, rc = -1;
    size_t cap = 1 << 20;
    char *buf = malloc(cap);
    if (in >= 0 && buf) outfd = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (outfd >= 0) {
        rc = 0;
        for (;;) {
            ssize_t n = read(in, buf, cap);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) rc = -1;
            if (n <= 0) break;
            for (ssize_t done = 0; done < n;) {
                ssize_t k = write(outfd, buf + done, (size_t)(n - done));
                if (k < 0 && errno == EINTR) continue;
                if (k <= 0) {
                    rc = -1;
                    break;
                }
                done += k;
            }
            if (rc) break;
        }
        if (close(outfd) != 0) rc = -1;
    }
    if (in >= 0) close(in);
    free(buf);
    return rc;
}

/* Refuses metadata a reader could not use: at least one game spec, at most
 * H5REC_MAX_GAMES, none empty. */
static int check_meta(const h5rec_meta_t *meta)
{
    if (meta == NULL) return hoyle_error(HOYLE_EINVAL, "h5rec: no metadata");
    if (meta->num_games < 1 || meta->num_games > H5REC_MAX_GAMES || meta->game_specs == NULL)
        return hoyle_error(HOYLE_EINVAL, "h5rec: num_games %d is not in [1, %d]", meta->num_games,
                           H5REC_MAX_GAMES);
    for (int i = 0; i < meta->num_games; i++)
        if (meta->game_specs[i] == NULL || meta->game_specs[i][0] == '\0')
            return hoyle_error(HOYLE_EINVAL, "h5rec: game spec %d is empty", i);
    return HOYLE_OK;
}

/* Refuses to overwrite: an existing .h5 or journal is someone's games, and
 * the caller must choose resume (h5rec_open_append) or another name. */
int h5rec_create(const char *path, const h5rec_meta_t *meta, h5rec_t **out)
{
    int rc = check_meta(meta);
    h5rec_t *h = NULL;
    if (rc == 0) rc = h5h_new(path, &h);
    if (rc < 0) return rc;
    struct stat st;
    if (stat(path, &st) == 0 || stat(h->journal_path, &st) == 0) {
        rc = hoyle_error(HOYLE_EIO,
                         "file '%s' (or its journal) already exists; resume it or "
                         "choose another name",
                         path);
        h5h_free(h);
        return rc;
    }
    time_t created = meta->created_unix ? (time_t)meta->created_unix : time(NULL);
    struct tm tm;
    char stamp[32];
    gmtime_r(&created, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    h->program_version = strdup(meta->program_version ? meta->program_version : HOYLE_VERSION);
    h->config_text = strdup(meta->config_text ? meta->config_text : "");
    h->config_path = strdup(meta->config_path ? meta->config_path : "");
    h->created = strdup(stamp);
    for (int i = 0; i < meta->num_games; i++) h->game_specs[i] = strdup(meta->game_specs[i]);
    h->meta.num_games = meta->num_games;
    h->meta.created_unix = (int64_t)created;
    h5rec_hash_text(h->config_text, h->config_hash);
    /* file_id ties a journal to its .h5 (the journal header repeats it), so
     * a journal left by another file of the same name is refused: mixed
     * from time, pid and the handle's address, unique enough, not secret */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    h->file_id = rng_mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                         ((uint64_t)getpid() << 16) ^ (uint64_t)(uintptr_t)h);
    for (int i = 0; i < meta->num_games; i++)
        if (h->game_specs[i] == NULL) rc = HOYLE_ENOMEM;
    if (rc < 0 || !h->program_version || !h->config_text || !h->config_path || !h->created) {
        h5h_free(h);
        return hoyle_error(HOYLE_ENOMEM, "h5rec: out of memory");
    }
    h5h_meta_view(h);
    /* Write a temp file, then link it into place: link() refuses to replace. */
    unlink(h->tmp_path);
    rc = h5s_create(h->tmp_path, h);
    if (rc == 0 && sync_fd_path(h->tmp_path, 0) != 0)
        rc = hoyle_error(HOYLE_EIO, "file '%s': fsync: %s", h->tmp_path, strerror(errno));
    if (rc == 0 && link(h->tmp_path, path) != 0) {
        /* No hard links on this file system: rename (may replace a file
         * created since the check above). */
        if ((errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP) ||
            rename(h->tmp_path, path) != 0)
            rc = hoyle_error(HOYLE_EIO, "file '%s': cannot create: %s", path, strerror(errno));
    }
    unlink(h->tmp_path);
    if (rc == 0) rc = journal_open_writer(h);
    if (rc < 0) {
        h5h_free(h);
        return rc;
    }
    h->writer = 1;
    h->last_checkpoint_ms = now_ms();
    *out = h;
    return HOYLE_OK;
}

/* A reader sees the .h5's games and the journal's complete entries, and
 * changes nothing: another process may be writing the same file. */
int h5rec_open_read(const char *path, h5rec_t **out)
{
    h5rec_t *h = NULL;
    int rc = h5h_new(path, &h);
    if (rc == 0) rc = h5s_load(path, h);
    if (rc == 0) rc = journal_load_reader(h);
    if (rc < 0) {
        h5h_free(h);
        return rc;
    }
    h5h_meta_view(h);
    *out = h;
    return HOYLE_OK;
}

/* The same config (by hash) and the same games, or the file is refused: a
 * resume with another config would mix incomparable games in one file. */
int h5rec_open_append(const char *path, const h5rec_meta_t *meta, h5rec_t **out)
{
    h5rec_t *h = NULL;
    int rc = meta ? check_meta(meta) : 0;
    if (rc == 0) rc = h5h_new(path, &h);
    if (rc == 0) rc = h5s_load(path, h);
    if (rc == 0 && meta) {
        char hash[17];
        h5rec_hash_text(meta->config_text ? meta->config_text : "", hash);
        if (strcmp(hash, h->config_hash) != 0)
            rc = hoyle_error(HOYLE_EINVAL,
                             "file '%s' was made by another config (config hash "
                             "%s, this config %s)",
                             path, h->config_hash, hash);
        int same = meta->num_games == h->meta.num_games;
        for (int i = 0; same && i < meta->num_games; i++)
            same = strcmp(meta->game_specs[i], h->game_specs[i]) == 0;
        if (rc == 0 && !same)
            rc = hoyle_error(HOYLE_EINVAL,
                             "file '%s' records other games (first: '%s', this "
                             "run: '%s')",
                             path, h->game_specs[0], meta->game_specs[0]);
    }
    if (rc == 0) rc = journal_open_writer(h); /* locks: from here on we are the only writer */
    if (rc < 0) {
        h5h_free(h);
        return rc;
    }
    h5h_meta_view(h);
    unlink(h->tmp_path); /* left by a writer killed during a checkpoint */
    h->writer = 1;
    /* games only in the journal (a writer killed since its last checkpoint)
     * go into the .h5 now, so the new run starts from a clean journal */
    rc = h->num_pending ? h5rec_checkpoint(h) : journal_reset(h);
    if (rc < 0) {
        h5h_free(h);
        return rc;
    }
    h->last_checkpoint_ms = now_ms();
    *out = h;
    return HOYLE_OK;
}

/* Validated before any change, so a bad value leaves the old schedule. */
int h5rec_set_checkpoint(h5rec_t *h, int checkpoint_games, int64_t checkpoint_ms)
{
    if (checkpoint_games < 1 || checkpoint_ms < 0)
        return hoyle_error(HOYLE_EINVAL, "h5rec: checkpoint every %d games / %lld ms is invalid",
                           checkpoint_games, (long long)checkpoint_ms);
    h->checkpoint_games = checkpoint_games;
    h->checkpoint_ms = checkpoint_ms;
    return HOYLE_OK;
}

void h5rec_set_sync(h5rec_t *h, bool sync) { h->sync = sync; }

int h5rec_append(h5rec_t *h, const game_record_t *r)
{
    h5s_quiet();
    if (!h->writer) return hoyle_error(HOYLE_ESTATE, "file '%s' is open read-only", h->path);
    int rc = record_validate(r);
    if (rc < 0) return rc;
    /* a record for a game the file does not list could not be read back by
     * game: refuse it before it is journalled */
    int known = 0;
    for (int i = 0; i < h->meta.num_games && !known; i++)
        known = strcmp(h->game_specs[i], r->game_spec) == 0;
    if (!known)
        return hoyle_error(HOYLE_EINVAL,
                           "record: game '%s' is not one of file '%s''s games "
                           "(first: '%s')",
                           r->game_spec, h->path, h->game_specs[0]);
    h5rec_blob_t blob;
    if ((rc = rec_encode(r, &blob.bytes, &blob.len)) < 0) return rc;
    if ((rc = pending_reserve(h)) < 0 || (rc = journal_append(h, &blob)) < 0) {
        free(blob.bytes);
        return rc;
    }
    pending_push(h, blob); /* cannot fail after pending_reserve */
    if (h->num_pending >= h->checkpoint_games ||
        (h->checkpoint_ms > 0 && now_ms() - h->last_checkpoint_ms >= h->checkpoint_ms))
        return h5rec_checkpoint(h);
    return HOYLE_OK;
}

/* Copy, append to the copy, then rename over the original: the .h5 at `path`
 * is complete at every instant (see the file comment). */
int h5rec_checkpoint(h5rec_t *h)
{
    h5s_quiet();
    if (!h->writer) return hoyle_error(HOYLE_ESTATE, "file '%s' is open read-only", h->path);
    h->last_checkpoint_ms = now_ms();
    if (h->num_pending == 0) return HOYLE_OK;
    h5s_reader_close(&h->rd); /* reopened on the new file by the next read */
    int rc = HOYLE_OK;
    if (copy_file(h->path, h->tmp_path) != 0)
        rc = hoyle_error(HOYLE_EIO, "file '%s': cannot copy to '%s': %s", h->path, h->tmp_path,
                         strerror(errno));
    if (rc == 0) rc = h5s_append(h->tmp_path, h, h->pending, h->num_pending);
    if (rc == 0 && h->sync && sync_fd_path(h->tmp_path, 0) != 0)
        rc = hoyle_error(HOYLE_EIO, "file '%s': fsync: %s", h->tmp_path, strerror(errno));
    if (rc == 0 && rename(h->tmp_path, h->path) != 0)
        rc = hoyle_error(HOYLE_EIO, "file '%s': cannot replace: %s", h->path, strerror(errno));
    if (rc < 0) {
        unlink(h->tmp_path);
        return rc; /* the games stay in the journal and in h->pending */
    }
    if (h->sync) sync_dir_of(h->path);
    h->h5_count += h->num_pending;
    pending_clear(h);
    return journal_reset(h); /* entries left behind by a failure here are skipped later */
}

int64_t h5rec_count(const h5rec_t *h) { return h->h5_count + h->num_pending; }

/* Games past h5_count are still only in memory (and the journal): decode
 * them from the pending blobs; older ones are read from the .h5 through a
 * reader kept open across calls. */
int h5rec_read(h5rec_t *h, int64_t index, game_record_t *out)
{
    h5s_quiet();
    if (index < 0 || index >= h5rec_count(h))
        return hoyle_error(HOYLE_EINVAL, "file '%s': game %lld does not exist (%lld games)",
                           h->path, (long long)index, (long long)h5rec_count(h));
    if (index >= h->h5_count) {
        const h5rec_blob_t *b = &h->pending[index - h->h5_count];
        return rec_decode(b->bytes, b->len, out);
    }
    int rc = h->rd.open ? 0 : h5s_reader_open(h->path, &h->rd);
    return rc < 0 ? rc : h5s_read(h, &h->rd, index, out);
}

int h5rec_read_path(const char *path, int64_t index, game_record_t *out)
{
    h5rec_t *h = NULL;
    int rc = h5rec_open_read(path, &h);
    if (rc == 0) rc = h5rec_read(h, index, out);
    h5rec_close(h);
    return rc;
}

const h5rec_meta_t *h5rec_meta(const h5rec_t *h) { return &h->meta; }

const char *h5rec_config_hash(const h5rec_t *h) { return h->config_hash; }

uint64_t h5rec_file_id(const h5rec_t *h) { return h->file_id; }

int h5rec_close(h5rec_t *h)
{
    if (h == NULL) return HOYLE_OK;
    int rc = HOYLE_OK;
    if (h->writer) {
        rc = h5rec_checkpoint(h);
        if (rc == 0) unlink(h->journal_path); /* empty: a clean close leaves only the .h5 */
    }
    h5h_free(h);
    return rc;
}
