/* frames.h — a stack of per-ply scratch frames for searches that copy states (alpha-beta,
 * df-pn): frame i is the scratch of the node at depth i (its state, move list, scores...).
 *
 * Each frame is allocated on its own (stable addresses), zeroed, then given its buffers by
 * the owner's `fill`. The stack starts with what the owner expects to need and doubles the
 * first time a search goes deeper than before, up to `max` (a line cannot go deeper), so a
 * steady-state search allocates nothing and searches as if every frame had been there from
 * the start. Running out of memory is a reported condition (`oom`), never a crash. */
#ifndef HOYLE_CORE_FRAMES_H
#define HOYLE_CORE_FRAMES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct frames {
    void **at;    /* [num] frames; borrowed by the owner while the stack lives */
    int num, max; /* frames allocated; the most there may be */
    size_t size;  /* bytes of one frame (calloc'd) */
    bool oom;     /* a frame could not be allocated: the owner's search fails */
    /* Give a new zeroed frame its buffers; false when out of memory (release() still runs). */
    bool (*fill)(void *frame, const void *ctx);
    void (*release)(void *frame); /* free a frame's buffers, also a partly filled frame's */
    const void *ctx;              /* passed to fill: the owner's sizes */
} frames_t;

/* An empty stack of frames of `size` bytes, at most `max` of them. Nothing is allocated. */
void frames_init(frames_t *s, int max, size_t size, bool (*fill)(void *frame, const void *ctx),
                 void (*release)(void *frame), const void *ctx);

/* Grow to `count` frames (count <= max). False when out of memory; the frames made so far stay
 * and frames_done() frees them. */
bool frames_add(frames_t *s, int count);

/* The slow path of frames_ready: double the stack to hold frame `level`; sets oom on failure. */
bool frames_grow(frames_t *s, int level);

/* Whether frame `level` exists, growing the stack when a line goes deeper than before. False
 * past max (a leaf) or out of memory (oom set). */
static inline bool frames_ready(frames_t *s, int level)
{
    return level < s->num || frames_grow(s, level);
}

/* Free every frame (release, then the frame) and the array; the stack is empty after. */
void frames_done(frames_t *s);

#endif
