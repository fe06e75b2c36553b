/* retro_internal.h — what the retrograde files of solve/ share: the table
 * file's header (docs/formats.md, "Endgame tables") and the mapped table.
 *
 * A file is a RETRO_HEADER_BYTES header then `size` little-endian 16-bit
 * codes (retro.h). A finished table's magic is RETRO_MAGIC; the resume file
 * of a build in progress (NAME.tb.part) has RETRO_MAGIC_PART and in `level`
 * the ply levels already complete. `sum` is a checksum of the codes, `hsum`
 * of the header bytes before it. */
#ifndef HOYLE_SOLVE_RETRO_INTERNAL_H
#define HOYLE_SOLVE_RETRO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "solve/retro.h"

#define RETRO_MAGIC        "HOYLETB1"
#define RETRO_MAGIC_PART   "HOYLETBP"
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

/* A table mapped read-only: `codes` points into the mapping. */
typedef struct retro_table {
    retro_header_t h;
    const retro_code_t *codes;
    void *map;
    size_t map_bytes;
} retro_table_t;

/* A child's code seen from the player who moved into it, one ply further
 * (`same_mover`: that player moves again in the child). */
retro_code_t retro_back_up(retro_code_t c, int same_mover);

uint64_t retro_checksum(const void *data, size_t n);

/* Open and check `path` (magic, version, sizes, both checksums; `want_game`
 * and `want_name` when not NULL); `part` selects the resume-file magic.
 * A negative status and a message naming the file and the problem. */
int retro_table_map(const char *path, const char *want_game, const char *want_name, int part,
                    retro_table_t *out);
void retro_table_unmap(retro_table_t *t);

/* Whether mapped table `t` (file `path`) has the size its class has in g's
 * index now: a negative status and a message naming the file when not (a
 * class of like sides built before such classes dropped the side bit). */
int retro_table_fits(const game_t *g, const char *path, const retro_table_t *t);

/* Write `codes` with header `h` (counts, sums filled here) to `path`
 * atomically (a temporary file, fsync, rename). */
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

/* `dir`/`name` + `suffix` into buf; HOYLE_EINVAL when it does not fit. */
int retro_path(char *buf, size_t cap, const char *dir, const char *name, const char *suffix);

#endif
