/* retro_internal.h — what the retrograde files of solve/ share: the table
 * file's header (docs/formats.md, "Endgame tables"), the mapped table and
 * the run of a build that both generators go through (retro_run.c).
 *
 * A file is a RETRO_HEADER_BYTES header then `size` little-endian 16-bit
 * codes (retro.h). A finished table's magic is RETRO_MAGIC; the resume file
 * of a build in progress (NAME.tb.part) has RETRO_MAGIC_PART and in `level`
 * the ply levels already complete. `sum` is a checksum of the codes, `hsum`
 * of the header bytes before it. A distance-to-conversion file (NAME.dtc,
 * NAME.dtc.part) has the magic RETRO_MAGIC_DTC (RETRO_MAGIC_DTCP) and is otherwise
 * laid out the same: the magic is what says the metric, so that a reader of
 * one metric refuses the other's files (and older readers refuse DTC ones). */
#ifndef HOYLE_SOLVE_RETRO_INTERNAL_H
#define HOYLE_SOLVE_RETRO_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/progress.h"
#include "solve/retro.h"

#define RETRO_MAGIC        "HOYLETB1"
#define RETRO_MAGIC_PART   "HOYLETBP"
#define RETRO_MAGIC_DTC    "HOYLETC1"
#define RETRO_MAGIC_DTCP   "HOYLETCP"
#define RETRO_METRIC_ANY   (-1) /* retro_table_map: either metric (retro_table_info) */
#define RETRO_VERSION      1
#define RETRO_HEADER_BYTES 1024
#define RETRO_ENDIAN       0x01020304u

typedef struct retro_header {
    char magic[8];
    uint32_t version;
    uint32_t header_bytes;
    uint32_t endian; /* RETRO_ENDIAN as written */
    uint32_t entry_bytes;
    char game[GAME_SPEC_MAX];
    char name[RETRO_CLASS_MAX];
    uint64_t size;
    uint64_t wins, draws, losses, invalid;
    uint64_t longest_win_idx;
    uint32_t longest_win;
    uint32_t level; /* resume file: ply levels complete; table: 0 */
    uint64_t sum;   /* checksum of the codes */
    uint64_t hsum;  /* checksum of the header bytes before this field */
} retro_header_t;

/* The magic of a file of metric `m`, a table or (`part`) a resume file. */
const char *retro_magic(retro_metric_t m, int part);

/* A table mapped read-only: `codes` points into the mapping. */
typedef struct retro_table {
    retro_header_t h;
    retro_metric_t metric; /* by the magic */
    const retro_code_t *codes;
    void *map;
    size_t map_bytes;
} retro_table_t;

/* A child's code seen from the player who moved into it, one ply further
 * (`same_mover`: that player moves again in the child). */
retro_code_t retro_back_up(retro_code_t c, int same_mover);

/* A move's code for its mover when the move converts (leaves the class or
 * ends the game) under RETRO_DTC: its value kept, its distance one ply. */
static inline retro_code_t retro_converted(retro_code_t c)
{
    return retro_is_win(c)    ? (retro_code_t)(RETRO_WIN | 1)
           : retro_is_loss(c) ? (retro_code_t)(RETRO_LOSS | 1)
                              : RETRO_DRAW;
}

/* The checksum of the codes and of the header: FNV-1a-like over 8-byte
 * little-endian words, then over the bytes left (docs/formats.md). */
uint64_t retro_checksum(const void *data, size_t n);

/* The same checksum taken over pieces: init, add each piece in order (any
 * sizes), end; equal to retro_checksum over the pieces joined. */
typedef struct retro_sum {
    uint64_t h;
    uint8_t tail[8]; /* bytes of a word the last piece began */
    size_t ntail;
} retro_sum_t;
void retro_sum_init(retro_sum_t *s);
void retro_sum_add(retro_sum_t *s, const void *data, size_t n);
uint64_t retro_sum_end(const retro_sum_t *s);

/* Open and check `path` (magic, version, sizes, both checksums; `want_game`
 * and `want_name` when not NULL); `part` selects the resume-file magic,
 * `metric` the metric's (RETRO_METRIC_ANY: either; a file of the other
 * metric is refused with a message that says which it holds). A negative
 * status and a message naming the file and the problem. */
int retro_table_map(const char *path, const char *want_game, const char *want_name, int part,
                    int metric, retro_table_t *out);
void retro_table_unmap(retro_table_t *t);

/* Whether mapped table `t` (file `path`) has the size its class has in g's
 * index now: a negative status and a message naming the file when not (a
 * class of like sides built before such classes dropped the side bit). */
int retro_table_fits(const game_t *g, const char *path, const retro_table_t *t);

/* Codes a piece of a table file is written in (2 MB). */
#define RETRO_PIECE_CODES ((size_t)1 << 20)

/* Put codes [first, first + n) of the table into `out` (n <= the piece). */
typedef void (*retro_fill_fn)(void *ctx, uint64_t first, size_t n, retro_code_t *out);

/* Write h->size codes produced by `fill` with header `h` (layout fields,
 * counts, longest win and sums filled here) to `path` atomically (a
 * temporary file, fsync, rename), `piece_codes` codes at a time through one
 * buffer (0: RETRO_PIECE_CODES). The bytes do not depend on the piece. */
int retro_table_stream(const char *path, retro_header_t *h, retro_fill_fn fill, void *ctx,
                       size_t piece_codes);

/* retro_table_stream over the array `codes`. */
int retro_table_write(const char *path, retro_header_t *h, const retro_code_t *codes);

/* Fill h's counts and longest win from the codes. */
void retro_header_count(retro_header_t *h, const retro_code_t *codes);

/* The value of terminal position `state` for its side to move, distance 0
 * (retro_gen.c). */
retro_code_t retro_terminal_code(const game_t *g, const retro_index_t *ix, const void *state);

/* Build the table of class `name` (canonical, `size` indices) into `dir` by
 * un-moves (retro_unmove.c); the smaller classes' tables are in `dir`, and
 * ix->unmove_class() accepts the class. Same file, same resume file and same
 * status as the graph generator of retro_gen.c. */
int retro_unmove_build(const game_t *g, const retro_index_t *ix, const char *name, uint64_t size,
                       const char *dir, const retro_gen_opts_t *o);

/* What both generators (retro_gen.c, retro_unmove.c) run the same way
 * (retro_run.c): the class being built, its index range split among
 * threads, a pass run on every segment with progress, the ply-level loop,
 * the codes written as a table or a resume file, and the resume file read
 * back. */
#define RETRO_MAX_THREADS 16

/* One thread's share of the indices and how its pass went. */
typedef struct retro_seg {
    uint64_t lo, hi;       /* the indices this thread owns */
    _Atomic uint64_t done; /* progress of the pass, 0 .. hi - lo */
    int status;            /* the first failure, 0 if none */
    char error[HOYLE_ERROR_MAX];
} retro_seg_t;

/* One class being built: what both generators' contexts hold. */
typedef struct retro_run {
    const game_t *g;
    const retro_index_t *ix;
    char name[RETRO_CLASS_MAX];  /* the class, canonical */
    uint64_t size;               /* its indices */
    retro_metric_t metric;       /* what the distances count (set before retro_run_init) */
    retro_tables_t *sub;         /* the folder's DTM tables, for values outside the class */
    char path[4096], part[4096]; /* DIR/NAME.tb, DIR/NAME.tb.part (DTC: .dtc, .dtc.part) */
    int threads;                 /* segments in use */
    int level;                   /* ply levels complete */
    retro_seg_t seg[RETRO_MAX_THREADS];
} retro_run_t;

/* With r->g, ix, name, size and metric set: split the indices among `threads`
 * threads (<= 0: 2; at most RETRO_MAX_THREADS); level 0; the table's and
 * the resume file's paths in `dir` (HOYLE_EINVAL when too long); the
 * folder's tables opened (r->sub, closed by retro_run_done). */
int retro_run_init(retro_run_t *r, int threads, const char *dir);
void retro_run_done(retro_run_t *r);

/* Whether position `after` (a move's result) stays in r's class: 1 with its
 * index in *idx; 0 when the game ends there or it is of another class; a
 * negative status when it cannot be located. */
int retro_run_child(const retro_run_t *r, const void *after, uint64_t *idx);

/* The code, for the player who moved from `before`, of a move to `after`
 * that ends the game or leaves r's class (retro_run_child gave 0): read from
 * the returns or the smaller class's table; under RETRO_DTC one ply
 * (retro_converted) whatever that table's distance. */
int retro_run_external(const retro_run_t *r, const void *before, const void *after,
                       retro_code_t *out);

/* Record failure `rc` (and hoyle_last_error()) in s if it is the first. */
int retro_seg_fail(retro_seg_t *s, int rc);

/* Run fn(ctx, t) for every segment t, one thread each (the caller's when a
 * thread cannot start); segment t is done when fn returns. With `p`, report
 * the segments' done counts until all are done. The first failure, if any. */
int retro_run_all(retro_run_t *r, void (*fn)(void *ctx, int t), void *ctx, progress_t *p);

/* Write the class's codes from `fill` to `path`: a table (`part` 0, level
 * 0) or the resume file (`part` 1, r->level). *h gets the header written. */
int retro_run_write(const retro_run_t *r, const char *path, int part, retro_fill_fn fill, void *ctx,
                    retro_header_t *h);

/* Map the resume file r->part into *t if there is one (else t->map is NULL
 * and r->level 0), checked against r's game, class and size; sets r->level
 * and says so on `log`. */
int retro_run_resume(retro_run_t *r, FILE *log, retro_table_t *t);

/* A generator's ply levels, for retro_run_levels. */
typedef struct retro_levels {
    void (*pass)(void *ctx, int t); /* decide level r->level in segment t */
    uint64_t (*collect)(void *ctx); /* after a pass: apply it, return how many it decided */
    retro_fill_fn fill;             /* the codes of the resume file */
    int max_ext;      /* the longest distance an external value brings: levels go on past it */
    int note_seconds; /* progress notes give the seconds spent on levels */
} retro_levels_t;

/* Levels r->level + 1, ... until one decides nothing past lv->max_ext; the
 * resume file r->part written after a level at most every
 * o->checkpoint_seconds (0: 30) and after level o->stop_after_level, where
 * the build stops with HOYLE_ESTATE. */
int retro_run_levels(retro_run_t *r, const retro_gen_opts_t *o, const retro_levels_t *lv,
                     void *ctx);

/* The build's end: the table from `fill` to r->path, the resume file
 * removed, and on `log` the line "[NAME] N positions: W wins, D draws, L
 * losses; longest win P plies; WHAT; S s" (S: seconds since t0). */
int retro_run_finish(const retro_run_t *r, retro_fill_fn fill, void *ctx, FILE *log,
                     const char *what, double t0);

/* `dir`/`name` + `suffix` into buf; HOYLE_EINVAL when it does not fit. */
int retro_path(char *buf, size_t cap, const char *dir, const char *name, const char *suffix);

#endif
