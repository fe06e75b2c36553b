/* frames.c — the per-ply frame stack of state-copying searches (frames.h).
 * Invariant: at[0..num) are allocated frames, each filled or (after a failed fill) released
 * by frames_done; num <= max. */
#include "core/frames.h"

#include <stdlib.h>

void frames_init(frames_t *s, int max, size_t size, bool (*fill)(void *frame, const void *ctx),
                 void (*release)(void *frame), const void *ctx)
{
    *s = (frames_t){.max = max, .size = size, .fill = fill, .release = release, .ctx = ctx};
}

bool frames_add(frames_t *s, int count)
{
    if (count <= s->num) return true;
    void **grown = realloc(s->at, sizeof *grown * (size_t)count);
    if (grown == NULL) return false;
    s->at = grown;
    for (; s->num < count; s->num++) {
        void *f = calloc(1, s->size);
        if (f == NULL) return false;
        s->at[s->num] = f;
        if (!s->fill(f, s->ctx)) {
            s->num++; /* frames_done releases the partial frame */
            return false;
        }
    }
    return true;
}

bool frames_grow(frames_t *s, int level)
{
    if (level < s->num) return true;
    if (level >= s->max || s->oom) return false;
    int count = s->num * 2 > level + 1 ? s->num * 2 : level + 1;
    if (count > s->max) count = s->max;
    if (frames_add(s, count)) return true;
    s->oom = true;
    return false;
}

void frames_done(frames_t *s)
{
    for (int i = 0; s->at && i < s->num; i++) {
        s->release(s->at[i]);
        free(s->at[i]);
    }
    free(s->at);
    s->at = NULL;
    s->num = 0;
}
