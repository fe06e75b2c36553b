/* attacks.c — attack tables: leapers, lines, fancy magic bitboards for bishops and
 * kindergarten tables for rooks.
 *
 * Bishop attacks use "fancy" magic bitboards (Pradyumna Kannan's scheme,
 * as in Stockfish): for each square, the relevant occupancy (the ray squares
 * short of the edge) is multiplied by a magic number and shifted down to an
 * index into that square's slice of a shared table. The magics are found at
 * start-up by trial with a fixed-seed generator (sparse random numbers,
 * Stockfish's per-rank seeds), so the tables are the same in every run. Rook attacks are a
 * rank lookup and a file lookup ("kindergarten" bitboards, chess_internal.h): 4.5 KB of
 * tables instead of a rook magic table's 800 KB, which random games missed in cache.
 * Everything is built once per process under pthread_once; the Zobrist keys (board.c) are
 * built there too, so one init call readies the whole module. */
#include <pthread.h>
#include <string.h>

#include "games/chess/chess_internal.h"

ch_magic_t ch_bishop_magic[64];
uint8_t ch_rank_att[8][64];
uint64_t ch_file_att[8][64];
uint64_t ch_knight_att[64], ch_king_att[64], ch_pawn_att[2][64];
uint64_t ch_between[64][64], ch_line[64][64];

static uint64_t bishop_table[0x1480]; /* 5,248 entries: the sum of 2^bits over squares */

void ch_zobrist_build(void); /* board.c */
void ch_rules_build(void);   /* rules.c */

static const int rook_dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dir[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* Attacks of a slider on `sq` along `dir` with occupancy `occ`, by walking. */
static uint64_t slide(int sq, const int dir[4][2], uint64_t occ)
{
    uint64_t att = 0;
    for (int d = 0; d < 4; d++) {
        int r = ch_rank(sq) + dir[d][0], f = ch_file(sq) + dir[d][1];
        while (r >= 0 && r < 8 && f >= 0 && f < 8) {
            att |= ch_bit(r * 8 + f);
            if (occ & ch_bit(r * 8 + f)) break;
            r += dir[d][0], f += dir[d][1];
        }
    }
    return att;
}

/* xorshift64*: the fixed-seed generator the magic search draws from. */
static uint64_t rnd(uint64_t *x)
{
    *x ^= *x >> 12, *x ^= *x << 25, *x ^= *x >> 27;
    return *x * 2685821657736338717ull;
}

/* Per-rank seeds that make the search quick (Stockfish's bitboard.cpp). */
static const uint64_t rank_seed[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};

static void build_magics(ch_magic_t *mg, uint64_t *table, const int dir[4][2])
{
    static uint64_t occ[4096], ref[4096];
    static int epoch[4096];
    int cur = 0;
    uint64_t *slot = table;
    for (int sq = 0; sq < 64; sq++) {
        /* edges do not matter unless the piece stands on them */
        uint64_t edges = ((0xFFull | 0xFF00000000000000ull) & ~(0xFFull << (8 * ch_rank(sq)))) |
                         ((0x0101010101010101ull | 0x8080808080808080ull) &
                          ~(0x0101010101010101ull << ch_file(sq)));
        ch_magic_t *m = &mg[sq];
        m->mask = slide(sq, dir, 0) & ~edges;
        int bits = ch_popcount(m->mask);
        m->shift = 64 - bits;
        m->table = slot;
        /* Carry-Rippler: every subset of the mask */
        int size = 0;
        uint64_t b = 0;
        do {
            occ[size] = b;
            ref[size++] = slide(sq, dir, b);
            b = (b - m->mask) & m->mask;
        } while (b);
        memset(epoch, 0, sizeof epoch);
        uint64_t seed = rank_seed[ch_rank(sq)];
        for (int found = 0; !found;) {
            do m->magic = rnd(&seed) & rnd(&seed) & rnd(&seed);
            while (ch_popcount((m->mask * m->magic) >> 56) < 6);
            cur++;
            found = 1;
            for (int i = 0; i < size; i++) {
                unsigned idx = (unsigned)(((occ[i] & m->mask) * m->magic) >> m->shift);
                if (epoch[idx] < cur) {
                    epoch[idx] = cur;
                    slot[idx] = ref[i];
                } else if (slot[idx] != ref[i]) {
                    found = 0;
                    break;
                }
            }
        }
        slot += (size_t)1 << bits;
    }
}

/* The kindergarten tables of ch_rook_att, from every occupancy of a rank's and a file's six
 * inner squares (the gather multiply maps those of file a one to one onto six bits). */
static void build_rook_tables(void)
{
    for (int line = 0; line < 8; line++)
        for (int inner = 0; inner < 64; inner++) {
            uint64_t on_rank = (uint64_t)inner << 1, on_file = 0;
            for (int i = 0; i < 6; i++)
                if (inner & (1 << i)) on_file |= ch_bit((i + 1) * 8);
            ch_rank_att[line][inner] = (uint8_t)(slide(line, rook_dir, on_rank) & 0xFF);
            ch_file_att[line][(on_file * CH_FILE_GATHER) >> 58] =
                slide(line * 8, rook_dir, on_file) & 0x0101010101010101ull;
        }
}

static void build(void)
{
    for (int sq = 0; sq < 64; sq++) {
        int r = ch_rank(sq), f = ch_file(sq);
        static const int kn[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        for (int i = 0; i < 8; i++) {
            int rr = r + kn[i][0], ff = f + kn[i][1];
            if (rr >= 0 && rr < 8 && ff >= 0 && ff < 8) ch_knight_att[sq] |= ch_bit(rr * 8 + ff);
        }
        for (int dr = -1; dr <= 1; dr++)
            for (int df = -1; df <= 1; df++) {
                int rr = r + dr, ff = f + df;
                if ((dr || df) && rr >= 0 && rr < 8 && ff >= 0 && ff < 8)
                    ch_king_att[sq] |= ch_bit(rr * 8 + ff);
            }
        for (int df = -1; df <= 1; df += 2) {
            if (f + df < 0 || f + df > 7) continue;
            if (r < 7) ch_pawn_att[CH_WHITE][sq] |= ch_bit(sq + 8 + df);
            if (r > 0) ch_pawn_att[CH_BLACK][sq] |= ch_bit(sq - 8 + df);
        }
    }
    build_rook_tables();
    build_magics(ch_bishop_magic, bishop_table, bishop_dir);
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            if (a == b) continue;
            uint64_t bb = ch_bit(b);
            if (slide(a, rook_dir, 0) & bb) {
                ch_between[a][b] = ch_rook_att(a, bb) & ch_rook_att(b, ch_bit(a));
                ch_line[a][b] = (slide(a, rook_dir, 0) & slide(b, rook_dir, 0)) | ch_bit(a) | bb;
            } else if (slide(a, bishop_dir, 0) & bb) {
                ch_between[a][b] = ch_bishop_att(a, bb) & ch_bishop_att(b, ch_bit(a));
                ch_line[a][b] =
                    (slide(a, bishop_dir, 0) & slide(b, bishop_dir, 0)) | ch_bit(a) | bb;
            }
        }
    ch_zobrist_build();
    ch_rules_build();
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

void ch_attacks_init(void) { pthread_once(&once, build); }

uint64_t ch_attackers(const ch_pos_t *p, int sq, uint64_t occ)
{
    uint64_t rq = p->pieces[CH_ROOK] | p->pieces[CH_QUEEN];
    uint64_t bq = p->pieces[CH_BISHOP] | p->pieces[CH_QUEEN];
    return (ch_pawn_att[CH_WHITE][sq] & ch_pieces(p, CH_BLACK, CH_PAWN)) |
           (ch_pawn_att[CH_BLACK][sq] & ch_pieces(p, CH_WHITE, CH_PAWN)) |
           (ch_knight_att[sq] & p->pieces[CH_KNIGHT]) | (ch_king_att[sq] & p->pieces[CH_KING]) |
           (ch_rook_att(sq, occ) & rq) | (ch_bishop_att(sq, occ) & bq);
}

bool ch_attacked(const ch_pos_t *p, int sq, int by, uint64_t occ)
{
    uint64_t them = p->colors[by];
    if (ch_pawn_att[by ^ 1][sq] & p->pieces[CH_PAWN] & them) return true;
    if (ch_knight_att[sq] & p->pieces[CH_KNIGHT] & them) return true;
    if (ch_king_att[sq] & p->pieces[CH_KING] & them) return true;
    if (ch_rook_att(sq, occ) & (p->pieces[CH_ROOK] | p->pieces[CH_QUEEN]) & them) return true;
    return (ch_bishop_att(sq, occ) & (p->pieces[CH_BISHOP] | p->pieces[CH_QUEEN]) & them) != 0;
}
