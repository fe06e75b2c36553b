/* symmetry.c — square-board dihedral maps (see symmetry.h). The eight
 * elements of D4 act on (row, col) of an n x n board; each map is a bijection,
 * so sym_planes writes every output cell exactly once. */
#include "games/symmetry.h"

void sym_map(sym_t sym, int n, int r, int c, int *out_r, int *out_c)
{
    /* m is the last index; rotations are clockwise when row 0 is drawn on top. */
    int m = n - 1;
    switch (sym) {
    case SYM_IDENTITY: *out_r = r, *out_c = c; break;
    case SYM_ROT90: *out_r = c, *out_c = m - r; break;
    case SYM_ROT180: *out_r = m - r, *out_c = m - c; break;
    case SYM_ROT270: *out_r = m - c, *out_c = r; break;
    case SYM_FLIP_ROWS: *out_r = m - r, *out_c = c; break;
    case SYM_FLIP_COLS: *out_r = r, *out_c = m - c; break;
    case SYM_TRANSPOSE: *out_r = c, *out_c = r; break;
    case SYM_ANTI_TRANSPOSE: *out_r = m - c, *out_c = m - r; break;
    /* An out-of-range sym acts as the identity rather than trapping. */
    default: *out_r = r, *out_c = c; break;
    }
}

/* Scatter form: out[sym(p)] = in[p] for each plane; `in` and `out` must not
 * alias. */
void sym_planes(sym_t sym, int channels, int n, const float *in, float *out)
{
    for (int ch = 0; ch < channels; ch++) {
        const float *src = in + (size_t)ch * (size_t)(n * n);
        float *dst = out + (size_t)ch * (size_t)(n * n);
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int r2, c2;
                sym_map(sym, n, r, c, &r2, &c2);
                dst[r2 * n + c2] = src[r * n + c];
            }
    }
}

sym_t sym_inverse(sym_t sym)
{
    if (sym == SYM_ROT90) return SYM_ROT270;
    if (sym == SYM_ROT270) return SYM_ROT90;
    return sym; /* the others are involutions */
}

const char *sym_name(sym_t sym)
{
    static const char *const names[SYM_COUNT] = {"identity",  "rot90",         "rot180",
                                                 "rot270",    "flip-rows",     "flip-cols",
                                                 "transpose", "anti-transpose"};
    return (unsigned)sym < SYM_COUNT ? names[sym] : "?";
}
