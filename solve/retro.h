/* retro.h — exact solving by retrograde analysis: endgame tables.
 *
 * A table holds, for every position of one material class of a game (the
 * game's retrograde index, games/retro_index.h), its game-theoretic value
 * for the side to move and the distance in plies to the end of the game
 * under perfect play (win: fastest; loss: slowest), two bytes a position
 * (RETRO_* codes below). Tables are built by retro_generate() from the game
 * contract alone (successors by game_whole_moves; moves that leave the class,
 * captures, are looked up in the smaller classes' tables, which it builds
 * first), written in the file format of docs/formats.md ("Endgame tables"),
 * and read memory-mapped by retro_tables_*.
 *
 * A second metric, distance to conversion (RETRO_DTC, files NAME.dtc),
 * counts instead the plies to the first move that leaves the class (a
 * capture or a promotion: "conversion") or ends the game; the values are
 * the same. It is built by the same generators: a move into a smaller class
 * counts as one ply whatever that class's distance (its value only, from
 * the smaller class's ordinary table).
 *
 * Values are the game's own: chess tables follow the game's rules (dead
 * material is a draw; the fifty-move rule and repetition are ignored, as in
 * every published endgame table, since a table position has no history). */
#ifndef HOYLE_SOLVE_RETRO_H
#define HOYLE_SOLVE_RETRO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "games/game.h"
#include "games/retro_index.h"

/* Value codes: the top two bits the value, the low 14 the distance in plies. */
typedef uint16_t retro_code_t;
#define RETRO_DRAW     ((retro_code_t)0x0000)
#define RETRO_WIN      ((retro_code_t)0x8000) /* | plies: the side to move wins */
#define RETRO_LOSS     ((retro_code_t)0x4000) /* | plies: the side to move loses */
#define RETRO_INVALID  ((retro_code_t)0xFFFF) /* an index that names no position */
#define RETRO_DIST_MAX 0x3FFF

static inline bool retro_is_win(retro_code_t c) { return c != RETRO_INVALID && (c & RETRO_WIN); }
static inline bool retro_is_loss(retro_code_t c)
{
    return c != RETRO_INVALID && (c & 0xC000) == RETRO_LOSS;
}
static inline int retro_dist(retro_code_t c) { return c & RETRO_DIST_MAX; }
/* The code's value for the mover: +1 win, 0 draw, -1 loss. */
static inline int retro_sign(retro_code_t c)
{
    return retro_is_win(c) ? 1 : retro_is_loss(c) ? -1 : 0;
}
/* Write "win in 19 plies" / "draw" / "loss in 0 plies" into buf. */
void retro_code_text(retro_code_t c, char *buf, size_t cap);

/* What a table's distances count (docs/formats.md: the magic says it). */
typedef enum retro_metric {
    RETRO_DTM = 0, /* to the end of the game (chess: to mate); files NAME.tb */
    RETRO_DTC = 1, /* to conversion (a move leaving the class) or the end; NAME.dtc */
} retro_metric_t;

/* "dtm" / "dtc"; the file suffix ".tb" / ".dtc"; a name back to the
 * metric (0, or HOYLE_EINVAL with a message for another word). */
const char *retro_metric_name(retro_metric_t m);
const char *retro_metric_suffix(retro_metric_t m);
int retro_metric_parse(const char *text, retro_metric_t *out);

/* What a table file says about itself (retro_table_info). */
typedef struct retro_info {
    retro_metric_t metric;        /* what its distances count */
    char game[GAME_SPEC_MAX];     /* the canonical spec it was built for */
    char name[RETRO_CLASS_MAX];   /* the class */
    uint64_t size;                /* indices */
    uint64_t wins, draws, losses; /* positions by value for the side to move */
    uint64_t invalid;             /* indices naming no position */
    uint32_t longest_win;         /* plies */
    uint64_t longest_win_idx;     /* one index with that win */
    uint64_t checksum;            /* of the values */
} retro_info_t;

/* ---- generation (retro_gen.c) ---- */

typedef struct retro_gen_opts {
    int threads;               /* worker threads (default 2 when 0) */
    FILE *progress;            /* progress lines and per-class notes; NULL = silent */
    double checkpoint_seconds; /* write the resume file at most this often (0: 30 s) */
    int stop_after_level;      /* tests: stop (HOYLE_ESTATE) once this ply level is written
                                  to the resume file, as a kill would (0: never) */
    bool graph;                /* the move-graph generator even where the game gives
                                  un-moves (tests compare the two; `--graph`) */
    retro_metric_t metric;     /* RETRO_DTM (default): NAME.tb; RETRO_DTC: NAME.dtc (the
                                  smaller classes it reads are still DTM tables) */
} retro_gen_opts_t;

/* Build the table of class `name` (any spelling the game parses) of game `g`
 * into `dir`/NAME.tb (DTC: NAME.dtc), first building the (DTM) tables of
 * the classes it leads to that `dir` lacks. A class whose table is already there is kept. An
 * interrupted build (kill -9) leaves `dir`/NAME.tb.part, from which the next
 * call resumes and writes the identical file (DTC: NAME.dtc.part). Returns 0, or a negative status
 * and message (a game with no retrograde index, a bad class, an I/O error,
 * HOYLE_ENOMEM). */
int retro_generate(const game_t *g, const char *name, const char *dir,
                   const retro_gen_opts_t *opts);

/* ---- reading (retro_file.c, retro_probe.c) ---- */

/* A folder of tables for one game, opened lazily by class and shared by
 * threads (probes are read-only; opening takes a lock). */
typedef struct retro_tables retro_tables_t;

/* Open the folder `dir` of tables for `g` (no table is read yet). */
int retro_tables_open(const game_t *g, const char *dir, retro_tables_t **out);

/* The same for metric `m`: with RETRO_DTC, probes read the NAME.dtc files,
 * and retro_probe_move gives a move that leaves the class (or ends the
 * game) one ply with the value of the smaller class's NAME.tb. */
int retro_tables_open_metric(const game_t *g, const char *dir, retro_metric_t m,
                             retro_tables_t **out);
void retro_tables_close(retro_tables_t *t); /* NULL: no-op */

/* The value of `state` for its side to move: a terminal state by the game's
 * returns (distance 0), any other by its class's table. HOYLE_EUNSUP when
 * no table covers it, HOYLE_EIO/HOYLE_EINVAL for a missing, corrupt or
 * foreign file (the message names it). */
int retro_probe(retro_tables_t *t, const void *state, retro_code_t *out);

/* Map the table of class `name` (canonical) now rather than at its first
 * probe: 0, or the status and message of a missing, corrupt, foreign or
 * outdated file (0 without looking when as many tables as a folder keeps
 * open, 128, are mapped already). */
int retro_tables_load(retro_tables_t *t, const char *name);

/* The code at index `idx` of class `name` (canonical, as the game's index
 * gives it): retro_probe without the terminal check and the indexing, for
 * search probes that have done both (solve/retro_tb.c). */
int retro_probe_index(retro_tables_t *t, const char *name, uint64_t idx, retro_code_t *out);

/* The value a move leading to `after` has for the player who moved from
 * `before`: the child's code seen from the mover, one ply further. */
int retro_probe_move(retro_tables_t *t, const void *before, const void *after, retro_code_t *out);

/* Ordering of codes for the mover: >0 when `a` is better than `b`
 * (faster wins, slower losses). */
int retro_code_cmp(retro_code_t a, retro_code_t b);

/* Read a table file's header and counts (the checksum is verified). */
int retro_table_info(const char *path, retro_info_t *out);

/* The classes of the DTM tables of `g` in folder `dir` (files NAME.tb built for
 * g's spec), sorted by name, into names[0..max): their count, or -1 when the
 * folder cannot be read. `hoyle accuracy` and a study's accuracy metric draw
 * positions from them. */
int retro_tables_list(const game_t *g, const char *dir, char names[][RETRO_CLASS_MAX], int max);

/* Make these tables the provider of search's `tb=DIR` (mcts/tb_probe.h,
 * solve/retro_tb.c); solve_agents_register() calls it. */
void retro_tb_register(void);

#endif
