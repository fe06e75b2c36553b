/* rules.c — the Thirty-four Game's rules, observation and symmetries.
 * Invariant: tf_state_t's (thirtyfour_internal.h) after every apply: block
 * placed + 1 goes on an empty cell, and the hash follows it. */
#include <string.h>

#include "games/thirtyfour/thirtyfour_internal.h"

uint64_t tf_hash_compute(const tf_impl_t *im, const tf_state_t *s)
{
    uint64_t h = 0;
    for (int c = 0; c < im->lines.cells; c++)
        if (s->cell[c]) h ^= im->zob[s->cell[c]][c];
    return h;
}

void tf_init(const game_t *g, void *sv)
{
    (void)g;
    memset(sv, 0, sizeof(tf_state_t)); /* an empty board hashes to 0 */
}

int tf_current_player(const game_t *g, const void *sv)
{
    return ((const tf_state_t *)sv)->placed < tf_impl(g)->lines.cells ? 0 : PLAYER_TERMINAL;
}

int tf_legal_actions(const game_t *g, const void *sv, int *out)
{
    const tf_state_t *s = sv;
    int n = 0, cells = tf_impl(g)->lines.cells;
    if (s->placed >= cells) return 0;
    for (int c = 0; c < cells; c++)
        if (s->cell[c] == 0) out[n++] = c;
    return n;
}

void tf_apply(const game_t *g, void *sv, int action)
{
    tf_state_t *s = sv;
    uint8_t block = (uint8_t)(s->placed + 1);
    s->cell[action] = block;
    s->placed = block;
    s->hash ^= tf_impl(g)->zob[block][action];
}

/* A magic square is +1; any other arrangement -dev / dev_max, in [-1, 0),
 * dev being the sum over the lines of how far each misses the magic sum. */
void tf_returns(const game_t *g, const void *sv, double *out)
{
    const tf_impl_t *im = tf_impl(g);
    int dev = thirtyfour_deviation(&im->lines, ((const tf_state_t *)sv)->cell);
    out[0] = dev == 0 ? 1.0 : -(double)dev / (double)im->dev_max;
}

uint64_t tf_hash(const game_t *g, const void *sv)
{
    (void)g;
    return ((const tf_state_t *)sv)->hash;
}

uint64_t tf_hash_recompute(const game_t *g, const void *sv)
{
    return tf_hash_compute(tf_impl(g), sv);
}

/* Planes ([3][N][N]): 0 the block on each cell over N*N (0 empty), 1 the
 * empty cells, 2 constant: the blocks placed over N*N (all in [0, 1]). One player, so the
 * point of view changes nothing; each plane maps under the board's
 * symmetries as the cells do. */
void tf_observe(const game_t *g, const void *sv, int player, float *out)
{
    const tf_state_t *s = sv;
    int cells = tf_impl(g)->lines.cells;
    (void)player;
    float placed = (float)s->placed / (float)cells;
    for (int c = 0; c < cells; c++) {
        out[c] = (float)s->cell[c] / (float)cells;
        out[cells + c] = s->cell[c] ? 0.0f : 1.0f;
        out[2 * cells + c] = placed;
    }
}

void tf_symmetry_state(const game_t *g, sym_t sym, const void *sv, void *outv)
{
    const tf_impl_t *im = tf_impl(g);
    const tf_state_t *s = sv;
    tf_state_t o;
    memset(&o, 0, sizeof o);
    o.placed = s->placed;
    for (int c = 0; c < im->lines.cells; c++) o.cell[im->sym_cell[sym][c]] = s->cell[c];
    o.hash = tf_hash_compute(im, &o);
    memcpy(outv, &o, sizeof o);
}

int tf_symmetry_action(const game_t *g, sym_t sym, int action)
{
    return tf_impl(g)->sym_cell[sym][action];
}
