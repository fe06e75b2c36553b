/* h5rec.h — game records in an HDF5 file that survives `kill -9`.
 *
 * A record file `x.h5` holds finished games (data/record.h) in the schema
 * of docs/formats.md, readable by h5py with no custom code. Next to it, a
 * writer keeps an append-only journal `x.h5.journal`:
 *
 *   - h5rec_append() writes the game to the journal with one write() and
 *     returns: from then on the game survives a kill of the process (add
 *     h5rec_set_sync() to survive a power loss too).
 *   - A checkpoint copies x.h5 to x.h5.tmp, adds the journal's games there,
 *     closes it and renames it over x.h5, then empties the journal. x.h5 is
 *     therefore always a complete, closed HDF5 file; it is never modified
 *     in place. Checkpoints run every `checkpoint_games` appends or
 *     `checkpoint_ms` milliseconds (checked at append time), on
 *     h5rec_checkpoint() and on h5rec_close().
 *   - After a kill, x.h5 is readable as it was at the last checkpoint and
 *     the journal holds the rest; h5rec_open_read() shows both, and
 *     h5rec_open_append() folds the journal into x.h5 first. Journal
 *     entries carry their game index and a CRC, so a torn last entry (the
 *     game in flight) is dropped and a crash between rename and emptying
 *     replays nothing twice.
 *
 * Threads: the Debian HDF5 is not thread-safe; use a handle from one
 * thread at a time and do not run other HDF5 code concurrently.
 * Two writers on one file are refused (a POSIX lock on the journal). */
#ifndef HOYLE_DATA_H5REC_H
#define HOYLE_DATA_H5REC_H

#include <stdbool.h>
#include <stdint.h>

#include "data/record.h"

#define H5REC_SCHEMA_NAME    "hoyle.game_records" /* root attribute hoyle_schema */
#define H5REC_SCHEMA_VERSION 1                    /* root attribute hoyle_schema_version */
#define H5REC_MAX_GAMES      64                   /* game specs one file may list */

/* What made the file; stored as root attributes at creation. */
typedef struct h5rec_meta {
    const char *program_version;   /* NULL = this build's HOYLE_VERSION */
    const char *config_text;       /* the YAML config (after --set), NULL = "" */
    const char *config_path;       /* where it came from (informational), NULL = "" */
    int num_games;                 /* entries in game_specs, 1..H5REC_MAX_GAMES */
    const char *const *game_specs; /* canonical specs; every record's game_spec is one */
    int64_t created_unix;          /* creation time, seconds since 1970; 0 = now */
} h5rec_meta_t;

typedef struct h5rec h5rec_t;

/* Create a new record file at `path` (written to a temp file and renamed,
 * so it appears complete or not at all). Refuses to overwrite an existing
 * file or journal (HOYLE_EIO). On success *out is a writer handle. */
int h5rec_create(const char *path, const h5rec_meta_t *meta, h5rec_t **out);

/* Open an existing record file to append more games (resume). Checks that
 * the file is a hoyle record file of this schema version and, when `meta`
 * is not NULL, that its config hash and game specs equal meta's; then
 * folds any journal left by a killed writer into the file. Foreign,
 * truncated or mismatched files give HOYLE_EIO / HOYLE_EINVAL with a
 * message naming the file, and are left byte-for-byte untouched. */
int h5rec_open_append(const char *path, const h5rec_meta_t *meta, h5rec_t **out);

/* Open for reading only: the file plus any journal a killed writer left
 * (nothing is modified). Same checks as h5rec_open_append without meta. */
int h5rec_open_read(const char *path, h5rec_t **out);

/* Open a file this process did not just write (given by a user, found in a
 * served folder): everything is read in a child process (core/sandbox.h)
 * with h5rec_open_read + h5rec_read of every game, so a damaged file that
 * crashes the HDF5 library, or one that runs past the child's limits, is
 * an HOYLE_EIO error naming the file ("file 'x.h5': reading it: crashed
 * (signal 11, ...)"), never the end of this process. The handle holds every
 * game in memory; read it as any other (it is not a writer). */
int h5rec_open_untrusted(const char *path, h5rec_t **out);

/* The `hoyle_schema` root attribute of any file (H5REC_SCHEMA_NAME for a
 * record file, "hoyle.samples" for a sample shard), read in a child process
 * like h5rec_open_untrusted: *out is a new string the caller frees, or NULL
 * when the file is no HDF5 file or has no such attribute. HOYLE_EIO when the
 * reader crashed or ran past its limits. */
int h5rec_probe_schema(const char *path, char **out);

/* Writer tuning. checkpoint_games >= 1 (default 256), checkpoint_ms >= 0
 * (default 30000; 0 = only by count). */
int h5rec_set_checkpoint(h5rec_t *h, int checkpoint_games, int64_t checkpoint_ms);
/* sync = true: fdatasync the journal after each append and fsync the new
 * file and its folder at each checkpoint (power-loss safe; costs a disk
 * flush per append). Default false: everything survives a killed process,
 * not necessarily a power loss. */
void h5rec_set_sync(h5rec_t *h, bool sync);

/* Append one finished game (validated with record_validate(); its
 * game_spec must be one of the file's). Durable against a process kill
 * when it returns 0. May run a checkpoint. A bad record or a failed journal
 * write stores nothing; if only the checkpoint that follows fails, the
 * error is returned but the game is kept (in the journal, counted by
 * h5rec_count) and the next checkpoint retries. */
int h5rec_append(h5rec_t *h, const game_record_t *r);

/* Fold the journal into the .h5 file now (no-op when nothing is pending). */
int h5rec_checkpoint(h5rec_t *h);

/* Games in the file, journal included. */
int64_t h5rec_count(const h5rec_t *h);

/* Read game `index` (0-based, in append order) into *out, whose pointer
 * fields are allocated anew: release them with game_record_free(). */
int h5rec_read(h5rec_t *h, int64_t index, game_record_t *out);

/* One-shot read by path: h5rec_open_read + h5rec_read + h5rec_close. */
int h5rec_read_path(const char *path, int64_t index, game_record_t *out);

/* The file's metadata, as stored (strings owned by the handle, valid until
 * h5rec_close). created_unix is parsed back from the stored time. */
const h5rec_meta_t *h5rec_meta(const h5rec_t *h);

/* The config hash stored in the file (16 hex digits of FNV-1a 64 of the
 * config text), owned by the handle. */
const char *h5rec_config_hash(const h5rec_t *h);

/* The file's identity (the `file_id` root attribute: random per created
 * file, kept by copies), so a reader can tell one file given twice. */
uint64_t h5rec_file_id(const h5rec_t *h);

/* Checkpoint (writers) and release the handle. Returns the checkpoint's
 * status; the handle is freed either way (games left in the journal are
 * folded in by the next h5rec_open_append). h5rec_close(NULL) returns 0. */
int h5rec_close(h5rec_t *h);

#endif
