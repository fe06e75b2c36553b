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

/* An open read-only file: its datasets and memory types (h5rec_rows.c). */
typedef struct h5s_reader {
    int open;
    hid_t fid, games, actions, action_ms, agents, openings, opening_actions;
    hid_t row_type, opening_type, str_type;
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

typedef struct opening_row {
    char *name;
    int64_t actions_offset;
    int32_t num_actions;
} opening_row_t;

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
void h5s_vlen_free(hid_t memtype, hsize_t n, void *buf);
/* Innermost message of the current HDF5 error stack, for our messages. */
const char *h5s_detail(void);
/* Silence HDF5's automatic error printing (idempotent). */
void h5s_quiet(void);

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

/* FNV-1a 64 of text as 16 hex digits. */
void h5rec_hash_text(const char *text, char out[17]);

#endif
