/* board.c — the English board's tables (solitaire.h): holes, jumps, symmetry
 * maps, colour classes and corners, made by sol_geometry_init(); and hole
 * numbers in text. */
#include <stdlib.h>
#include <string.h>

#include "games/solitaire/solitaire.h"
#include "games/symmetry.h"

/* The cross: the middle three columns of every row, and all seven of the
 * middle three rows. */
static int on_board(int r, int c)
{
    if (r < 0 || r >= SOL_SIDE || c < 0 || c >= SOL_SIDE) return 0;
    return (r >= 2 && r <= 4) || (c >= 2 && c <= 4);
}

/* Directions in jump order: up, left, right, down (so that jumps listed by
 * (from, direction) come out in ascending order of `to` for each `from`). */
static const int dirs[4][2] = {{-1, 0}, {0, -1}, {0, 1}, {1, 0}};

void sol_geometry_init(sol_geometry_t *geo)
{
    memset(geo, 0, sizeof *geo);
    memset(geo->hole_at, -1, sizeof geo->hole_at);
    memset(geo->jump_id, -1, sizeof geo->jump_id);
    int n = 0;
    for (int r = 0; r < SOL_SIDE; r++)
        for (int c = 0; c < SOL_SIDE; c++)
            if (on_board(r, c)) {
                geo->row[n] = (int8_t)r, geo->col[n] = (int8_t)c;
                geo->hole_at[r][c] = (int8_t)n++;
            }
    int j = 0;
    uint64_t jumped_over = 0;
    for (int h = 0; h < SOL_HOLES; h++)
        for (int d = 0; d < 4; d++) {
            int r1 = geo->row[h] + dirs[d][0], c1 = geo->col[h] + dirs[d][1];
            int r2 = r1 + dirs[d][0], c2 = c1 + dirs[d][1];
            if (!on_board(r1, c1) || !on_board(r2, c2)) continue;
            sol_jump_t *jp = &geo->jump[j];
            jp->from = (int8_t)h, jp->over = geo->hole_at[r1][c1], jp->to = geo->hole_at[r2][c2];
            jp->from_bit = 1ULL << jp->from, jp->over_bit = 1ULL << jp->over;
            jp->to_bit = 1ULL << jp->to;
            jumped_over |= jp->over_bit;
            geo->jump_id[h][jp->to] = (int8_t)j++;
        }
    geo->corner_mask = SOL_FULL & ~jumped_over;
    for (int s = 0; s < SYM_COUNT; s++) {
        for (int h = 0; h < SOL_HOLES; h++) {
            int r, c;
            sym_map((sym_t)s, SOL_SIDE, geo->row[h], geo->col[h], &r, &c);
            geo->sym_hole[s][h] = geo->hole_at[r][c];
        }
        for (int k = 0; k < SOL_JUMPS; k++) {
            const sol_jump_t *jp = &geo->jump[k];
            geo->sym_jump[s][k] =
                geo->jump_id[geo->sym_hole[s][jp->from]][geo->sym_hole[s][jp->to]];
        }
        for (int byte = 0; byte < 5; byte++)
            for (int v = 0; v < 256; v++) {
                uint64_t m = 0;
                for (int b = 0; b < 8; b++) {
                    int h = byte * 8 + b;
                    if ((v >> b & 1) && h < SOL_HOLES) m |= 1ULL << geo->sym_hole[s][h];
                }
                geo->sym_byte[s][byte][v] = m;
            }
    }
    for (int h = 0; h < SOL_HOLES; h++) {
        int r = geo->row[h], c = geo->col[h];
        geo->colour[0][(r + c) % 3] |= 1ULL << h;
        geo->colour[1][(r - c + 3 * SOL_SIDE) % 3] |= 1ULL << h;
    }
}

int sol_class(const sol_geometry_t *geo, uint64_t pegs)
{
    int cls = 0;
    for (int k = 0; k < 2; k++) {
        int n0 = __builtin_popcountll(pegs & geo->colour[k][0]);
        int n1 = __builtin_popcountll(pegs & geo->colour[k][1]);
        int n2 = __builtin_popcountll(pegs & geo->colour[k][2]);
        cls |= (((n0 + n1) & 1) | ((n1 + n2) & 1) << 1) << (2 * k);
    }
    return cls;
}

int sol_parse_hole(const char *text, const char **end)
{
    int v = 0, digits = 0;
    while (text[digits] >= '0' && text[digits] <= '9' && digits < 3)
        v = v * 10 + (text[digits] - '0'), digits++;
    if (end) *end = text + digits;
    if (digits == 0 || (text[digits] >= '0' && text[digits] <= '9') || v < 1 || v > SOL_HOLES ||
        text[0] == '0')
        return -1;
    return v - 1;
}
