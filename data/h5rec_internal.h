/* h5rec_internal.h — what h5rec.c, h5rec_schema.c and h5rec_journal.c share.
 *
 * h5rec.c     the handle, the append / checkpoint protocol (see h5rec.h)
 * h5rec_schema.c  the HDF5 layout: types, attributes, create, check
 * h5rec_rows.c    append rows, read rows
 * h5rec_journal.c the journal file and the record codec (bytes <-> record) */
#ifndef HOYLE_DATA_H5REC_INTERNAL_H
#define HOYLE_DATA_H5REC_INTERNAL_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "data/h5attr.h"
#include "data/h5rec.h"

/* One journal entry held in memory: an encoded record (rec_encode). */
typedef struct h5rec_blob {
    uint8_t *bytes;
    size_t len;
} h5rec_blob_t;

typedef struct opening_row {
    char *name;
    int64_t actions_offset;
    int32_t num_actions;
} opening_row_t;

/* The distinct agents and openings of a file, in memory (h5rec_rows.c):
 * loaded whole by a checkpoint (to reuse entries) and by a reader (to check
 * their checksum once and read games without reopening them). */
typedef struct h5s_tables {
    char **agents;
    /* old_*: how many rows the file already has; only [old, num) is written */
    int64_t num_agents, old_agents, cap_agents;
    opening_row_t *openings;
    int64_t num_openings, old_openings, cap_openings;
    int32_t *opening_actions; /* every opening's actions, old and new */
    int64_t num_opening_actions, old_opening_actions, cap_opening_actions;
} h5s_tables_t;

/* An open read-only file: its datasets, memory types and tables (h5rec_rows.c). */
typedef struct h5s_reader {
    int open;
    hid_t fid, games, actions, action_ms;
    hid_t row_type;
    int64_t actions_len; /* elements of /actions (and /action_ms) */
    h5s_tables_t tables;
} h5s_reader_t;

struct h5rec {
    char *path, *journal_path, *tmp_path;
    int writer; /* 1: opened by create / open_append */
    /* stored metadata (owned copies) */
    h5rec_meta_t meta;
    char *program_version, *config_text, *config_path, *created;
    char *game_specs[H5REC_MAX_GAMES];
    char config_hash[17];
    uint64_t file_id; /* random id binding the journal to this file */
    /* games in the .h5 file, then the pending ones (journal, not yet in .h5) */
    int64_t h5_count;
    h5rec_blob_t *pending;
    int64_t num_pending, cap_pending;
    /* writer state */
    int journal_fd; /* -1 when not open */
    int sync;
    int checkpoint_games;
    int64_t checkpoint_ms, last_checkpoint_ms;
    h5s_reader_t rd; /* the .h5 opened read-only for h5rec_read, lazily */
};

/* ---- h5rec.c ---- */

/* A zeroed handle for `path` (journal_fd -1, default checkpoints), HDF5's
 * error printing silenced; h5h_free releases whatever a failed open left. */
int h5h_new(const char *path, h5rec_t **out);
void h5h_free(h5rec_t *h);
/* Point h->meta's fields at the handle's owned copies. */
void h5h_meta_view(h5rec_t *h);

/* ---- h5rec_schema.c ---- */

/* One /games row in memory. The file type is the packed copy. */
typedef struct row {
    int32_t game; /* index into the root attribute `games` */
    int32_t pairing, round, game_index;
    int32_t agent[RECORD_MAX_PLAYERS]; /* index into /agents, -1 = seat unused */
    int32_t opening;                   /* index into /openings, -1 = none */
    uint64_t seed;
    double result; /* player 0's score: 1, 0.5, 0 */
    double returns[RECORD_MAX_PLAYERS];
    int8_t end; /* enum termination */
    int32_t num_actions;
    int64_t actions_offset; /* into /actions and /action_ms */
} row_t;

#define H5S_FAIL(path, what)                                                                       \
    hoyle_error(HOYLE_EIO, "file '%s': %s (%s)", (path), (what), h5s_detail())

/* Memory types (native layout; packed = the file layout). Close with H5Tclose. */
hid_t h5s_row_type(int packed); /* row_t */
hid_t h5s_opening_type(int packed);
/* 1-D dataset helpers; -1 on HDF5 failure. */
int64_t h5s_dset_len(hid_t fid, const char *name);
int h5s_dset_append(hid_t fid, const char *name, hid_t memtype, hsize_t n, const void *data);
int h5s_dset_read(hid_t fid, const char *name, hid_t memtype, hsize_t start, hsize_t n, void *buf);
int h5s_dset_read_id(hid_t dset, hid_t memtype, hsize_t start, hsize_t n, void *buf);
/* Innermost message of the current HDF5 error stack, for our messages. */
const char *h5s_detail(void);
/* Silence HDF5's automatic error printing (idempotent). */
void h5s_quiet(void);

/* The stored creation time ("2026-01-02T03:04:05Z") as unix seconds. */
int64_t h5s_created_unix(const char *created);
/* Checksums of what Fletcher-32 does not cover (docs/formats.md,
 * "Checksums"): the strings live in HDF5's global heap, which carries none.
 * strings_crc32 (root attribute): the run's string attributes;
 * tables_crc32 (root attribute): /agents and /openings, rewritten by every
 * checkpoint. Files without them (older hoyle) are read unchecked. */
uint32_t h5s_root_crc(const h5rec_t *h);
uint32_t h5s_tables_crc(const h5s_tables_t *t);
/* Scalar little-endian u32 root attribute: write (create or overwrite), read
 * (1 read, 0 absent, -1 unreadable). */
int h5s_attr_put_u32(hid_t loc, const char *name, uint32_t value);
int h5s_attr_get_u32(hid_t loc, const char *name, uint32_t *value);
/* Write a fresh file with empty tables and h's metadata as attributes. */
int h5s_create(const char *path, const h5rec_t *h);
/* Open `path` read-only, check it is ours (hoyle_schema attributes), load
 * the metadata and game count into h. The file is closed again. */
int h5s_load(const char *path, h5rec_t *h);

/* ---- h5rec_rows.c ---- */

/* Append the blobs to the file at `path` (opened read-write). */
int h5s_append(const char *path, const h5rec_t *h, const h5rec_blob_t *blobs, int64_t n);
/* Read row `index` through an open reader into *out (allocating). */
int h5s_read(const h5rec_t *h, const h5s_reader_t *rd, int64_t index, game_record_t *out);
/* Open the file read-only with its datasets and memory types, kept open so
 * that chunk caches survive between reads. Close with h5s_reader_close. */
int h5s_reader_open(const char *path, h5s_reader_t *rd);
void h5s_reader_close(h5s_reader_t *rd);

/* ---- h5rec_journal.c ---- */

/* Encode a validated record into one new buffer (native byte order). */
int rec_encode(const game_record_t *r, uint8_t **bytes, size_t *len);
/* Decode into *out (allocating; game_record_free releases). */
int rec_decode(const uint8_t *bytes, size_t len, game_record_t *out);

/* Writer: open (creating if absent) and lock the journal, check its header
 * against h->file_id, load the entries with index >= h->h5_count into
 * h->pending and cut off a torn tail. */
int journal_open_writer(h5rec_t *h);
/* Reader: load the journal's valid entries (if the file exists) into
 * h->pending without modifying anything. */
int journal_load_reader(h5rec_t *h);
/* Append entry number h->h5_count + h->num_pending (payload = blob). */
int journal_append(h5rec_t *h, const h5rec_blob_t *blob);
/* Empty the journal after a checkpoint (keeps the header). */
int journal_reset(h5rec_t *h);
/* Make room for one more pending blob, so that pending_push cannot fail. */
int pending_reserve(h5rec_t *h);
/* Add a blob (taking ownership of its bytes) to h->pending. */
int pending_push(h5rec_t *h, h5rec_blob_t blob);
void pending_clear(h5rec_t *h);

/* CRC-32 (IEEE) of n bytes, continuing `crc` (start with 0). */
uint32_t h5rec_crc32(uint32_t crc, const void *data, size_t n);

/* FNV-1a 64 of text as 16 hex digits. */
void h5rec_hash_text(const char *text, char out[17]);

#endif
