/* test_retro.c — the retrograde solver (solve/retro.h) on chess's small
 * classes: the published longest wins (K+Q v K 10 moves, K+R v K 16); every
 * position's value against a one-ply minimax over the tables and the game's
 * own end rules (with distances, this pins every value: by induction on the
 * distance), a sample against a plain minimax search to a horizon; index and
 * unindex round trips over every index, and the same index for the board's 8
 * symmetries and the colour swap; corrupt, truncated and foreign files
 * refused; an interrupted build resumed to the identical file (each generator
 * also resuming the other's); a file written in pieces byte for byte the
 * file written whole; the un-move generator's tables equal to the
 * move graph's, index by index, on six classes (K+P v K among them); bad class
 * names refused; checkers with 2 and 3 pieces and Fox and Geese with 1 to 3
 * geese the same way; tb=DIR in alpha-beta and MCTS (values kept, the
 * fastest win, the draw counter's horizon, a bad folder refused). Pawns: K+P v K
 * (its figures, every position one ply deep, a sample against plain minimax),
 * the mirror-only index with the en-passant code, pawn un-moves against every
 * one-man change tried forward (en-passant rights included), and the classes
 * promotions and captures lead to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "games/checkers/checkers_internal.h"
#include "games/chess/chess_internal.h"
#include "games/foxgeese/foxgeese_internal.h"
#include "games/registry.h"
#include "mcts/agent.h"
#include "mcts/tb_probe.h"
#include "solve/agent_oracle.h"
#include "solve/dfpn.h"
#include "solve/retro.h"
#include "solve/retro_internal.h"
#include "solve/retro_accuracy.h"
#include "tests/harness.h"

#define UNKNOWN ((retro_code_t)0xFFFE) /* the horizon search could not tell */
/* Devil among the Tailors' start, the devil to move (docs/games/checkers.md) */
#define DEVIL_START_CODE ((retro_code_t)(RETRO_LOSS | 44))

static char dir[256];

static const game_t *chess(void)
{
    const game_t *g = NULL;
    CU_ASSERT_FATAL(game_create("chess", &g) == 0);
    return g;
}

static void make_dir(void)
{
    if (dir[0]) return;
    strcpy(dir, "/tmp/hoyle_test_retro_XXXXXX");
    CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
}

static void build(const game_t *g, const char *cls, const char *where, int threads)
{
    retro_gen_opts_t o = {.threads = threads};
    HARNESS_OK(retro_generate(g, cls, where, &o));
}

static retro_info_t info_of(const char *where, const char *cls)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.tb", where, cls);
    retro_info_t in = {0};
    HARNESS_OK(retro_table_info(path, &in));
    return in;
}

static void test_longest_wins(void)
{
    const game_t *g = chess();
    make_dir();
    build(g, "kqvk", dir, 2);
    build(g, "KRvK", dir, 2);
    retro_info_t q = info_of(dir, "KQvK"), r = info_of(dir, "KRvK");
    CU_ASSERT_EQUAL(q.longest_win, 19); /* mate in 10 */
    CU_ASSERT_EQUAL(r.longest_win, 31); /* mate in 16 */
    CU_ASSERT_EQUAL(q.size, 462 * 64 * 2);
    CU_ASSERT(q.wins > 0 && q.losses > 0 && q.draws > 0);
    game_free(g);
}

/* Every position of `cls`: a terminal one has the game's value at distance
 * 0 (checked through its parents' moves); any other the best of its whole
 * moves' values, each read from the tables. */
typedef struct best_ctx {
    retro_tables_t *t;
    const void *before;
    retro_code_t best;
} best_ctx_t;

static int best_move(const int *actions, int n, const void *after, void *vctx)
{
    (void)actions, (void)n;
    best_ctx_t *b = vctx;
    retro_code_t m;
    HARNESS_OK(retro_probe_move(b->t, b->before, after, &m));
    if (b->best == RETRO_INVALID || retro_code_cmp(m, b->best) > 0) b->best = m;
    return 0;
}

static void check_one_ply_in(const game_t *g, const char *where, const char *cls, int min_positions)
{
    const retro_index_t *ix = retro_index_find(g);
    retro_tables_t *t;
    HARNESS_OK(retro_tables_open(g, where, &t));
    char name[RETRO_CLASS_MAX];
    uint64_t size;
    HARNESS_OK(ix->class_parse(g, cls, name, &size));
    void *s = aligned_alloc(GAME_STATE_ALIGN, 2048);
    CU_ASSERT_FATAL(s != NULL && g->state_size <= 2048);
    int bad = 0, checked = 0;
    for (uint64_t i = 0; i < size && bad < 5; i++) {
        if (!ix->unindex(g, name, i, s)) continue;
        checked++;
        if (game_is_terminal(g, s)) continue;
        retro_code_t v;
        HARNESS_OK(retro_probe(t, s, &v));
        best_ctx_t b = {t, s, RETRO_INVALID};
        game_whole_moves(g, s, best_move, &b);
        if (b.best != v)
            bad++, fprintf(stderr, "%s %llu: %04x, moves say %04x\n", name, (unsigned long long)i,
                           v, b.best);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(checked >= min_positions);
    free(s);
    retro_tables_close(t);
}

static void check_one_ply(const game_t *g, const char *cls, int min_positions)
{
    check_one_ply_in(g, dir, cls, min_positions);
}

/* Plain minimax to `h` plies, no tables: the exact code when the game ends
 * within the horizon under best play, else UNKNOWN. */
static retro_code_t minimax(const game_t *g, const ch_state_t *s, int h)
{
    int acts[CH_MAX_MOVES], n = game_legal_actions(g, s, acts);
    retro_code_t best = RETRO_INVALID;
    bool unknown = false;
    for (int k = 0; k < n; k++) {
        ch_state_t c = *s;
        game_apply(g, &c, acts[k]);
        retro_code_t m;
        if (game_is_terminal(g, &c)) {
            double r[2];
            game_returns(g, &c, r);
            int me = s->pos.side;
            m = r[me] > 0 ? (RETRO_WIN | 1) : r[me] < 0 ? (RETRO_LOSS | 1) : RETRO_DRAW;
        } else {
            retro_code_t cv = h > 1 ? minimax(g, &c, h - 1) : UNKNOWN;
            if (cv == UNKNOWN) {
                unknown = true;
                continue;
            }
            int d = retro_dist(cv) + 1;
            m = retro_is_win(cv)    ? (RETRO_LOSS | d)
                : retro_is_loss(cv) ? (RETRO_WIN | d)
                                    : RETRO_DRAW;
        }
        if (best == RETRO_INVALID || retro_code_cmp(m, best) > 0) best = m;
    }
    if (best != RETRO_INVALID && retro_is_win(best)) return best;
    return unknown ? UNKNOWN : best;
}

/* Positions of `cls` (every `stride`-th, at most `max`, then every one
 * within two plies of the end) against minimax to `h` plies, which knows
 * nothing of tables: a value within the horizon must be equal, one beyond
 * it unknown or equal. Returns how many agreed exactly. */
static int sample_minimax(const game_t *g, const char *cls, uint64_t stride, int max, int h)
{
    const retro_index_t *ix = retro_index_find(g);
    retro_tables_t *t;
    HARNESS_OK(retro_tables_open(g, dir, &t));
    char name[RETRO_CLASS_MAX];
    uint64_t size;
    HARNESS_OK(ix->class_parse(g, cls, name, &size));
    int sampled = 0, exact = 0, bad = 0;
    for (uint64_t i = 0; i < size && sampled < max; i += stride) {
        ch_state_t s;
        if (!ix->unindex(g, name, i, &s) || game_is_terminal(g, &s)) continue;
        retro_code_t v, m = minimax(g, &s, h);
        HARNESS_OK(retro_probe(t, &s, &v));
        sampled++;
        bool within = v != RETRO_DRAW && retro_dist(v) <= h;
        if (within ? m != v : m != UNKNOWN && m != v) bad++;
        exact += m == v;
    }
    for (uint64_t i = 0; i < size; i++) {
        ch_state_t s;
        retro_code_t v;
        if (!ix->unindex(g, name, i, &s) || game_is_terminal(g, &s)) continue;
        HARNESS_OK(retro_probe(t, &s, &v));
        if (retro_dist(v) > 2 || v == RETRO_DRAW) continue;
        sampled++;
        retro_code_t m = minimax(g, &s, 3);
        bad += m != v;
        exact += m == v;
    }
    CU_ASSERT_EQUAL(bad, 0);
    fprintf(stderr, "%s: %d sampled, %d exact\n", name, sampled, exact);
    retro_tables_close(t);
    return exact;
}

static void test_against_minimax(void)
{
    const game_t *g = chess();
    make_dir();
    build(g, "KQvK", dir, 2);
    check_one_ply(g, "KQvK", 40000);
    build(g, "KRvK", dir, 2);
    check_one_ply(g, "KRvK", 40000);
    int exact = sample_minimax(g, "KQvK", 373, 160, 4);
    CU_ASSERT(exact > 400);
    game_free(g);
}

/* Square under symmetry t (bit 0 files, bit 1 ranks, bit 2 the diagonal). */
static int sym(int t, int sq)
{
    int f = sq & 7, r = sq >> 3;
    if (t & 1) f = 7 - f;
    if (t & 2) r = 7 - r;
    return t & 4 ? f * 8 + r : r * 8 + f;
}

static void transformed(const ch_state_t *s, int t, int swap, ch_state_t *out)
{
    memset(out, 0, sizeof *out);
    ch_pos_clear(&out->pos);
    for (int sq = 0; sq < 64; sq++) {
        int pc = s->pos.board[sq];
        if (pc == CH_EMPTY) continue;
        int to = sym(t, sq);
        if (swap) pc = (pc + 6) % 12, to ^= 56;
        ch_pos_put(&out->pos, pc, to);
    }
    out->pos.side = (uint8_t)(s->pos.side ^ swap);
    if (s->pos.ep != CH_NO_SQ) out->pos.ep = (uint8_t)(sym(t, s->pos.ep) ^ (swap ? 56 : 0));
    out->pos.key = ch_key_compute(&out->pos);
}

/* Every `stride`-th index of `cls` unindexed, then indexed back under each of
 * the board's symmetries that the class keeps (8 pawnless, the left-right
 * mirror with pawns), with and without the colour swap (unless both sides
 * have the same men: then both colourings have their own indices). Returns how many
 * valid positions held an en-passant right. */
static int round_trip(const game_t *g, const char *cls, uint64_t stride)
{
    const retro_index_t *ix = retro_index_find(g);
    char name[RETRO_CLASS_MAX], got[RETRO_CLASS_MAX];
    uint64_t size, idx;
    HARNESS_OK(ix->class_parse(g, cls, name, &size));
    int bad = 0, valid = 0, ep = 0, syms = strchr(name, 'P') ? 2 : 8;
    int swaps = 2; /* like sides too: a position and its colour swap have one index */
    for (uint64_t i = 0; i < size && bad < 5; i += stride) {
        ch_state_t s, x;
        if (!ix->unindex(g, name, i, &s)) continue;
        valid++;
        ep += s.pos.ep != CH_NO_SQ;
        for (int t = 0; t < swaps * syms; t++) {
            transformed(&s, t % syms, t / syms, &x);
            if (ix->index(g, &x, got, &idx) < 0 || strcmp(got, name) || idx != i)
                bad++, fprintf(stderr, "%s %llu: symmetry %d gives %s %llu\n", name,
                               (unsigned long long)i, t, got, (unsigned long long)idx);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(valid > 0);
    return ep;
}

static void test_index_round_trip(void)
{
    const game_t *g = chess();
    round_trip(g, "KQvK", 1);
    round_trip(g, "KBBvK", 7);
    round_trip(g, "KRvKN", 97);
    round_trip(g, "KQvKR", 101);
    round_trip(g, "KRvKR", 89); /* like sides: no side bit, half the indices */
    uint64_t size;
    HARNESS_OK(retro_index_find(g)->class_parse(g, "KRvKR", NULL, &size));
    CU_ASSERT_EQUAL(size, 462ull * 64 * 64);
    /* both kings on the diagonal: a position and its reflection, one index */
    const retro_index_t *ix = retro_index_find(g);
    ch_state_t s;
    char name[RETRO_CLASS_MAX];
    uint64_t a, b;
    HARNESS_OK(game_position_from_string(g, "8/8/8/8/3k4/8/8/K1Q5 w - - 0 1", &s));
    HARNESS_OK(ix->index(g, &s, name, &a));
    HARNESS_OK(game_position_from_string(g, "8/8/8/8/3k4/Q7/8/K7 w - - 0 1", &s));
    HARNESS_OK(ix->index(g, &s, name, &b));
    CU_ASSERT_EQUAL(a, b);
    HARNESS_OK(game_position_from_string(g, "8/8/8/8/3k4/8/8/K6Q w - - 0 1", &s));
    HARNESS_OK(ix->index(g, &s, name, &a));
    HARNESS_OK(game_position_from_string(g, "Q7/8/8/8/3k4/8/8/K7 w - - 0 1", &s));
    HARNESS_OK(ix->index(g, &s, name, &b));
    CU_ASSERT_EQUAL(a, b);
    game_free(g);
}

static int read_file(const char *path, unsigned char **buf, long *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return -1;
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *buf = malloc((size_t)*n);
    size_t got = fread(*buf, 1, (size_t)*n, f);
    fclose(f);
    return got == (size_t)*n ? 0 : -1;
}

static void write_file(const char *path, const unsigned char *buf, long n)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    fwrite(buf, 1, (size_t)n, f);
    fclose(f);
}

/* Probing the K+Q v K position of `bad` (a folder holding a damaged
 * KQvK.tb) fails with a message that contains `why`. */
static void expect_refused(const game_t *g, const char *bad, const char *why)
{
    retro_tables_t *t;
    HARNESS_OK(retro_tables_open(g, bad, &t));
    ch_state_t s;
    HARNESS_OK(game_position_from_string(g, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", &s));
    retro_code_t v;
    CU_ASSERT(retro_probe(t, &s, &v) < 0);
    if (strstr(hoyle_last_error(), why) == NULL)
        fprintf(stderr, "want '%s', got '%s'\n", why, hoyle_last_error());
    CU_ASSERT(strstr(hoyle_last_error(), why) != NULL);
    retro_tables_close(t);
}

static void test_bad_files(void)
{
    const game_t *g = chess();
    make_dir();
    build(g, "KQvK", dir, 2);
    build(g, "KRvK", dir, 2);
    char path[512], bad[512], badpath[600];
    snprintf(path, sizeof path, "%s/KQvK.tb", dir);
    snprintf(bad, sizeof bad, "%s/bad", dir);
    snprintf(badpath, sizeof badpath, "%s/KQvK.tb", bad);
    mkdir(bad, 0755);
    unsigned char *buf;
    long n;
    CU_ASSERT_FATAL(read_file(path, &buf, &n) == 0);
    buf[n / 2] ^= 1; /* one flipped bit in the values */
    write_file(badpath, buf, n);
    expect_refused(g, bad, "checksum mismatch");
    buf[n / 2] ^= 1;
    buf[40] ^= 1; /* in the header */
    write_file(badpath, buf, n);
    expect_refused(g, bad, "corrupt header");
    buf[40] ^= 1;
    write_file(badpath, buf, n - 2); /* truncated */
    expect_refused(g, bad, "truncated");
    memcpy(buf, "GIF89a..", 8);
    write_file(badpath, buf, n);
    expect_refused(g, bad, "not a hoyle endgame table");
    free(buf);
    snprintf(path, sizeof path, "%s/KRvK.tb", dir);
    CU_ASSERT_FATAL(read_file(path, &buf, &n) == 0);
    write_file(badpath, buf, n); /* another class under this name */
    expect_refused(g, bad, "not of");
    free(buf);
    const game_t *g2 = NULL;
    HARNESS_OK(game_create("chess(insufficient=play)", &g2));
    expect_refused(g2, dir, "not of"); /* another game's rules */
    unlink(badpath);
    expect_refused(g, bad, "No such file");
    rmdir(bad);
    game_free(g2);
    game_free(g);
}

static void test_resume(void)
{
    const game_t *g = chess();
    make_dir();
    char a[512], b[512], pa[600], pb[600], part[600], cmd[1400];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    retro_gen_opts_t stop = {.threads = 2, .stop_after_level = 12};
    /* the first build stops after ply level 12, as if killed after its checkpoint */
    CU_ASSERT_EQUAL(retro_generate(g, "KRvK", a, &stop), HOYLE_ESTATE);
    snprintf(part, sizeof part, "%s/KRvK.tb.part", a);
    CU_ASSERT(access(part, F_OK) == 0);
    snprintf(pa, sizeof pa, "%s/KRvK.tb", a);
    CU_ASSERT(access(pa, F_OK) != 0);
    build(g, "KRvK", a, 2); /* resumes */
    CU_ASSERT(access(part, F_OK) != 0);
    build(g, "KRvK", b, 1); /* never interrupted, one thread */
    snprintf(pb, sizeof pb, "%s/KRvK.tb", b);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", pa, pb);
    CU_ASSERT_EQUAL(system(cmd), 0);
    /* the move-graph generator the same way (the builds above are un-moves) */
    retro_gen_opts_t gstop = stop, graph = {.threads = 2, .graph = true};
    gstop.graph = true;
    char c[512], pc[600];
    snprintf(c, sizeof c, "%s/c", dir);
    CU_ASSERT_EQUAL(retro_generate(g, "KRvK", c, &gstop), HOYLE_ESTATE);
    HARNESS_OK(retro_generate(g, "KRvK", c, &graph));
    snprintf(pc, sizeof pc, "%s/KRvK.tb", c);
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", pc, pb);
    CU_ASSERT_EQUAL(system(cmd), 0);
    /* each generator resumes the other's file (docs/formats.md) */
    for (int cross = 0; cross < 2; cross++) {
        snprintf(c, sizeof c, "%s/cross%d", dir, cross);
        gstop.graph = cross == 0, graph.graph = cross == 1;
        CU_ASSERT_EQUAL(retro_generate(g, "KRvK", c, &gstop), HOYLE_ESTATE);
        HARNESS_OK(retro_generate(g, "KRvK", c, &graph));
        snprintf(pc, sizeof pc, "%s/KRvK.tb", c);
        snprintf(cmd, sizeof cmd, "cmp -s %s %s", pc, pb);
        CU_ASSERT_EQUAL(system(cmd), 0);
    }
    game_free(g);
}

/* A fill of retro_table_stream over an array. */
static void fill_from(void *ctx, uint64_t first, size_t n, retro_code_t *out)
{
    memcpy(out, (const retro_code_t *)ctx + first, n * sizeof *out);
}

/* A table file written in pieces (streamed through a small buffer, the
 * checksum taken piece by piece, the header last) is byte for byte the file
 * of format version 1 as written whole before streaming: header fields and
 * counts, the checksum's value (pinned), any piece size. */
static void test_pieces(void)
{
    enum { N = 1001 };
    retro_code_t codes[N];
    for (int i = 0; i < N; i++) codes[i] = (retro_code_t)(i * 40503u);
    /* the checksum of these codes before it was taken in pieces */
    CU_ASSERT_EQUAL(retro_checksum(codes, sizeof codes), 0x0eb848ee6ee09216ULL);
    for (size_t piece = 1; piece <= 17; piece += 2) {
        retro_sum_t s;
        retro_sum_init(&s);
        for (size_t at = 0; at < sizeof codes; at += piece)
            retro_sum_add(&s, (const uint8_t *)codes + at,
                          sizeof codes - at < piece ? sizeof codes - at : piece);
        CU_ASSERT_EQUAL(retro_sum_end(&s), 0x0eb848ee6ee09216ULL);
    }
    /* the file as written whole: header with counts and both sums, then the codes */
    retro_header_t h = {0};
    memcpy(h.magic, RETRO_MAGIC_PART, 8);
    snprintf(h.game, sizeof h.game, "chess");
    snprintf(h.name, sizeof h.name, "KQvK");
    h.size = N, h.level = 7;
    h.version = RETRO_VERSION, h.header_bytes = RETRO_HEADER_BYTES, h.endian = RETRO_ENDIAN;
    h.entry_bytes = sizeof(retro_code_t);
    retro_header_count(&h, codes);
    CU_ASSERT(h.wins > 0 && h.losses > 0 && h.draws > 0 && h.longest_win_idx > 0);
    h.sum = retro_checksum(codes, sizeof codes);
    h.hsum = retro_checksum(&h, offsetof(retro_header_t, hsum));
    static unsigned char want[RETRO_HEADER_BYTES + sizeof codes];
    memcpy(want, &h, sizeof h);
    memcpy(want + RETRO_HEADER_BYTES, codes, sizeof codes);
    make_dir();
    char path[400];
    snprintf(path, sizeof path, "%s/pieces.tb.part", dir);
    const size_t pieces[] = {3, 64, N, 0};
    for (int k = 0; k < 4; k++) {
        retro_header_t w = {0};
        memcpy(w.magic, RETRO_MAGIC_PART, 8);
        snprintf(w.game, sizeof w.game, "chess");
        snprintf(w.name, sizeof w.name, "KQvK");
        w.size = N, w.level = 7;
        HARNESS_OK(retro_table_stream(path, &w, fill_from, codes, pieces[k]));
        CU_ASSERT(memcmp(&w, &h, sizeof h) == 0);
        unsigned char *got;
        long n;
        CU_ASSERT_FATAL(read_file(path, &got, &n) == 0);
        CU_ASSERT_EQUAL(n, (long)sizeof want);
        if (n == (long)sizeof want && memcmp(got, want, sizeof want) != 0)
            fprintf(stderr, "piece %zu: the file differs from the one written whole\n", pieces[k]);
        CU_ASSERT(n == (long)sizeof want && memcmp(got, want, sizeof want) == 0);
        free(got);
        retro_table_t t;
        HARNESS_OK(retro_table_map(path, "chess", "KQvK", 1, RETRO_DTM, &t));
        retro_table_unmap(&t);
    }
    unlink(path);
}

/* Class `cls` built by the move graph into where/graph and by un-moves into
 * where/unmove (the smaller classes each way too): the same code at every
 * index, and the same file. Returns the positions compared. */
static uint64_t same_both_ways(const game_t *g, const char *cls, const char *where)
{
    char gd[600], ud[600], gp[700], up[700];
    snprintf(gd, sizeof gd, "%s/graph", where);
    snprintf(ud, sizeof ud, "%s/unmove", where);
    retro_gen_opts_t graph = {.threads = 2, .graph = true}, unmove = {.threads = 2};
    HARNESS_OK(retro_generate(g, cls, gd, &graph));
    HARNESS_OK(retro_generate(g, cls, ud, &unmove));
    snprintf(gp, sizeof gp, "%s/%s.tb", gd, cls);
    snprintf(up, sizeof up, "%s/%s.tb", ud, cls);
    retro_table_t a, b;
    HARNESS_OK(retro_table_map(gp, g->spec, cls, 0, RETRO_DTM, &a));
    HARNESS_OK(retro_table_map(up, g->spec, cls, 0, RETRO_DTM, &b));
    CU_ASSERT_EQUAL_FATAL(a.h.size, b.h.size);
    uint64_t differ = 0, first = 0;
    for (uint64_t i = 0; i < a.h.size; i++)
        if (a.codes[i] != b.codes[i] && differ++ == 0) first = i;
    if (differ)
        fprintf(stderr, "%s: %llu indices differ, the first %llu: graph %04x, un-moves %04x\n", cls,
                (unsigned long long)differ, (unsigned long long)first, a.codes[first],
                b.codes[first]);
    CU_ASSERT_EQUAL(differ, 0);
    uint64_t n = a.h.size;
    retro_table_unmap(&a);
    retro_table_unmap(&b);
    char cmd[1500];
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", gp, up);
    CU_ASSERT_EQUAL(system(cmd), 0);
    return n;
}

/* The un-move generator (solve/retro_unmove.c, games/chess/retro_unmove.c)
 * and the move-graph one give the same tables: classes with every piece's
 * retractions, like pieces, a class of like sides and captures into the
 * smaller classes, and K+P v K (pawn steps and double steps; K+P v K+P, whose
 * sub-tables take minutes, is left to the slow test). tests/cli/tb_unmove.sh
 * compares every class of 3 and 4 men (HOYLE_SLOW_TESTS). */
static void test_unmove_same(void)
{
    const game_t *g = chess();
    make_dir();
    char where[512];
    snprintf(where, sizeof where, "%s/both", dir);
    mkdir(where, 0755);
    static const char *const classes[] = {"KQvK", "KRvK", "KNNvK", "KRvKN", "KBvKN", "KPvK"};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        CU_ASSERT(same_both_ways(g, classes[i], where) > 0);
    game_free(g);
}

static void test_bad_classes(void)
{
    const game_t *g = chess();
    const retro_index_t *ix = retro_index_find(g);
    char name[RETRO_CLASS_MAX];
    uint64_t size;
    const char *bad[] = {"KQK", "KPPPvKP", "KQRBvKN", "XvK", "QvKK", "KQvKvK", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (ix->class_parse(g, bad[i], name, &size) >= 0) {
            fprintf(stderr, "accepted '%s'\n", bad[i]);
            CU_FAIL("a bad class name accepted");
        }
    HARNESS_OK(ix->class_parse(g, "krvkq", name, &size));
    CU_ASSERT_STRING_EQUAL(name, "KQvKR");
    HARNESS_OK(ix->class_parse(g, "KNvKBB", name, &size));
    CU_ASSERT_STRING_EQUAL(name, "KBBvKN");
    HARNESS_OK(ix->class_parse(g, "kpvkr", name, &size));
    CU_ASSERT_STRING_EQUAL(name, "KRvKP");
    make_dir();
    CU_ASSERT_EQUAL(retro_generate(g, "KQRBvKN", dir, NULL), HOYLE_EUNSUP);
    const game_t *gb = NULL;
    HARNESS_OK(game_create("gobang", &gb));
    CU_ASSERT(retro_index_find(gb) == NULL);
    CU_ASSERT(retro_generate(gb, "x", dir, NULL) == HOYLE_EUNSUP);
    game_free(gb);
    game_free(g);
}

/* A table of like sides in the layout before the side bit was dropped
 * (twice the indices) is refused by probes and by tb=, with a message. */
static void old_layout_refused(const game_t *g, const char *cls, const char *pos)
{
    char old[400];
    snprintf(old, sizeof old, "%s/old_%s", dir, cls);
    mkdir(old, 0755);
    uint64_t size;
    HARNESS_OK(retro_index_find(g)->class_parse(g, cls, NULL, &size));
    retro_header_t h = {0};
    memcpy(h.magic, RETRO_MAGIC, 8);
    snprintf(h.game, sizeof h.game, "%s", g->spec);
    snprintf(h.name, sizeof h.name, "%s", cls);
    h.size = 2 * size;
    retro_code_t *codes = calloc(h.size, sizeof *codes);
    retro_header_count(&h, codes);
    char path[500];
    snprintf(path, sizeof path, "%s/%s.tb", old, cls);
    HARNESS_OK(retro_table_write(path, &h, codes));
    free(codes);
    void *s = aligned_alloc(GAME_STATE_ALIGN, 2048);
    HARNESS_OK(game_position_from_string(g, pos, s));
    retro_tables_t *t;
    retro_code_t v;
    HARNESS_OK(retro_tables_open(g, old, &t));
    CU_ASSERT(retro_probe(t, s, &v) < 0);
    CU_ASSERT(strstr(hoyle_last_error(), "older layout") != NULL);
    retro_tables_close(t);
    tb_t *tb = NULL;
    retro_tb_register();
    CU_ASSERT(tb_open(g, old, &tb) < 0);
    CU_ASSERT(strstr(hoyle_last_error(), "older layout") != NULL);
    free(s);
}

/* Checkers with 2 and 3 pieces: every position against one-ply minimax,
 * index round trips over every index (and the half-turned board with the
 * colours swapped). */
static void test_checkers(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("checkers", &g));
    make_dir();
    const char *classes[] = {"KvK", "MvM", "KvM", "KKvK", "KMvK", "MMvK"};
    for (int i = 0; i < 6; i++) {
        build(g, classes[i], dir, 2);
        check_one_ply(g, classes[i], 400);
    }
    retro_info_t kk = info_of(dir, "KKvK");
    CU_ASSERT(kk.wins > 0 && kk.losses > 0);
    const retro_index_t *ix = retro_index_find(g);
    ck_state_t s, x;
    char name[RETRO_CLASS_MAX], got[RETRO_CLASS_MAX];
    uint64_t size, idx;
    int bad = 0, valid = 0;
    for (int c = 0; c < 6; c++) {
        HARNESS_OK(ix->class_parse(g, classes[c], name, &size));
        for (uint64_t i = 0; i < size && bad < 5; i++) {
            if (!ix->unindex(g, name, i, &s)) continue;
            valid++;
            x = s; /* the same position, board half-turned and colours swapped */
            x.bb[0] = x.bb[1] = x.kings = 0;
            for (int sq = 0; sq < 32; sq++)
                for (int col = 0; col < 2; col++)
                    if (s.bb[col] >> sq & 1) {
                        x.bb[col ^ 1] |= 1u << (31 - sq);
                        if (s.kings >> sq & 1) x.kings |= 1u << (31 - sq);
                    }
            x.side ^= 1;
            HARNESS_OK(ix->index(g, &s, got, &idx));
            bad += strcmp(got, name) != 0 || idx != i;
            HARNESS_OK(ix->index(g, &x, got, &idx)); /* like sides too: one index */
            bad += strcmp(got, name) != 0 || idx != i;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(valid > 50000);
    CU_ASSERT(ix->class_parse(g, "KvKvK", name, &size) < 0);
    CU_ASSERT(ix->class_parse(g, "KKKKvKKK", name, &size) == HOYLE_EUNSUP);
    CU_ASSERT(ix->class_parse(g, "vK", name, &size) < 0);
    HARNESS_OK(ix->class_parse(g, "KvK", name, &size));
    CU_ASSERT_EQUAL(size, 32 * 32); /* like sides: no side bit */
    old_layout_refused(g, "KvK", "B:WK32:BK1");
    game_free(g);
}

/* Devil among the Tailors: its own index (the colours kept, tailors allowed
 * on row 0), every position of the 1- to 3-tailor classes against one-ply
 * minimax over the tables, index round trips over every index, and the
 * start's value (the seed's "a certainty for the white men") against df-pn
 * from the start, which reads no table. */
static void test_devil(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("checkers(variant=devil)", &g));
    make_dir();
    char where[300], name[RETRO_CLASS_MAX], got[RETRO_CLASS_MAX];
    snprintf(where, sizeof where, "%s/devil", dir); /* its KvM is not English checkers' KvM */
    const retro_index_t *ix = retro_index_find(g);
    uint64_t size, idx;
    HARNESS_OK(ix->class_parse(g, "mmmmvk", name, &size));
    CU_ASSERT_STRING_EQUAL(name, "KvMMMM");
    CU_ASSERT_EQUAL(size, 2 * 32 * 35960);
    const char *bad[] = {"KvK", "KKvMM", "KvMMMMM", "MvM", "KMvM"};
    for (int i = 0; i < 5; i++) CU_ASSERT(ix->class_parse(g, bad[i], name, &size) == HOYLE_EINVAL);
    const char *classes[] = {"KvM", "KvMM", "KvMMM", "KvMMMM"};
    ck_state_t s;
    int mismatched = 0, valid = 0, row0 = 0;
    for (int c = 0; c < 4; c++) {
        build(g, classes[c], where, 2);
        if (c < 3) check_one_ply_in(g, where, classes[c], 100);
        HARNESS_OK(ix->class_parse(g, classes[c], name, &size));
        for (uint64_t i = 0; i < size; i += c < 3 ? 1 : 7) {
            if (!ix->unindex(g, name, i, &s)) continue;
            valid++;
            row0 += (s.bb[1] & CK_ROW0) != 0;
            mismatched += ix->index(g, &s, got, &idx) < 0 || strcmp(got, name) || idx != i;
        }
    }
    CU_ASSERT_EQUAL(mismatched, 0);
    CU_ASSERT(valid > 300000 && row0 > 0);
    retro_info_t four = info_of(where, "KvMMMM");
    CU_ASSERT_EQUAL(four.draws, 0); /* every game ends: the tailors run out of moves */
    game_init(g, &s);
    retro_tables_t *t;
    retro_code_t v;
    HARNESS_OK(retro_tables_open(g, where, &t));
    HARNESS_OK(retro_probe(t, &s, &v));
    CU_ASSERT_EQUAL(v, DEVIL_START_CODE);
    pn_params_t p;
    pn_params_default(&p);
    pn_t *pn;
    pn_result_t r;
    HARNESS_OK(pn_create(g, &p, &pn));
    HARNESS_OK(pn_prove(pn, &s, 1, &r)); /* do the tailors (White) win? */
    CU_ASSERT_EQUAL(r.status, retro_is_loss(v) ? PN_PROVEN : PN_DISPROVEN);
    pn_free(pn);
    retro_tables_close(t);
    game_free(g);
}

/* K+P v K: every position one ply deep against the tables (with the KQvK
 * and KRvK tables its promotions reach), a sample against plain minimax, and
 * its figures: the longest win, 28 moves, as published; 81,664 positions with
 * the pawn's side to move (163,328 without the mirror), 76.5% of them won. */
static void test_pawns_kpk(void)
{
    const game_t *g = chess();
    make_dir();
    build(g, "KPvK", dir, 2);
    retro_info_t in = info_of(dir, "KPvK");
    CU_ASSERT_EQUAL(in.size, 32 * 64 * 64 * 2);
    CU_ASSERT_EQUAL(in.longest_win, 55); /* mate in 28 */
    CU_ASSERT_EQUAL(in.wins, 62480);
    CU_ASSERT_EQUAL(in.draws, 54394);
    CU_ASSERT_EQUAL(in.losses, 48802);
    check_one_ply(g, "KPvK", 165676);
    CU_ASSERT(sample_minimax(g, "KPvK", 1009, 200, 4) > 40);
    game_free(g);
}

/* The en-passant right is part of the index: a position with it and the
 * same board without it have two indices, each unindexed back to itself. */
static void test_pawn_index(void)
{
    const game_t *g = chess();
    const retro_index_t *ix = retro_index_find(g);
    round_trip(g, "KPvK", 1);
    CU_ASSERT(round_trip(g, "KPvKP", 61) > 10);
    CU_ASSERT(round_trip(g, "KBvKP", 997) == 0);
    round_trip(g, "KRPvKR", 100003);
    const char *fens[] = {"8/8/8/3pP3/8/8/8/K6k w - d6 0 1", "8/8/8/3pP3/8/8/8/K6k w - - 0 1",
                          "7k/8/8/8/4pP2/8/8/K7 b - f3 0 1", "7k/8/8/8/4pP2/8/8/K7 b - - 0 1"};
    uint64_t idx[4];
    for (int i = 0; i < 4; i++) {
        ch_state_t s, back;
        char name[RETRO_CLASS_MAX];
        HARNESS_OK(game_position_from_string(g, fens[i], &s));
        HARNESS_OK(ix->index(g, &s, name, &idx[i]));
        CU_ASSERT_STRING_EQUAL(name, "KPvKP");
        CU_ASSERT_FATAL(ix->unindex(g, name, idx[i], &back));
        /* like sides: the mover is the first side, so Black to move comes back
         * as the colour swap (ranks mirrored, White to move; files too here) */
        CU_ASSERT_EQUAL(back.pos.side, CH_WHITE);
        uint64_t again;
        if (s.pos.side == CH_WHITE) CU_ASSERT_EQUAL(back.pos.key, s.pos.key);
        CU_ASSERT_EQUAL(back.pos.ep == CH_NO_SQ, s.pos.ep == CH_NO_SQ);
        HARNESS_OK(ix->index(g, &back, name, &again));
        CU_ASSERT_EQUAL(again, idx[i]);
    }
    CU_ASSERT(idx[0] != idx[1] && idx[2] != idx[3]);
    game_free(g);
}

/* The distinct predecessor indices of one position, from un-moves or tried. */
typedef struct preds {
    const game_t *g;
    const retro_index_t *ix;
    const char *cls;
    uint64_t want; /* the position's index: what a forward move must reach */
    bool hit;
    int n;
    uint64_t idx[256];
} preds_t;

static void add_pred(preds_t *ps, uint64_t idx)
{
    for (int i = 0; i < ps->n; i++)
        if (ps->idx[i] == idx) return;
    CU_ASSERT_FATAL(ps->n < 256);
    ps->idx[ps->n++] = idx;
}

static int unmoved(const void *pred, void *ctx)
{
    preds_t *ps = ctx;
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    HARNESS_OK(ps->ix->index(ps->g, pred, name, &idx));
    CU_ASSERT_STRING_EQUAL(name, ps->cls);
    add_pred(ps, idx);
    return 0;
}

static int reaches(const int *actions, int n, const void *after, void *ctx)
{
    (void)actions, (void)n;
    preds_t *ps = ctx;
    char name[RETRO_CLASS_MAX];
    uint64_t idx;
    if (ps->ix->index(ps->g, after, name, &idx) == 0 && strcmp(name, ps->cls) == 0 &&
        idx == ps->want)
        ps->hit = true;
    return 0;
}

/* Every predecessor of `s` found the long way: each man of the side that
 * moved last put on each empty square, with no en-passant right and with
 * each one the side to move could hold, kept when the index takes it back
 * (a legal position of the class) and one of its moves leads to `want`. */
static void tried_preds(const ch_state_t *s, preds_t *ps)
{
    const ch_pos_t *p = &s->pos;
    int m = p->side ^ 1;
    for (uint64_t men = p->colors[m]; men; men &= men - 1) {
        int to = ch_lsb(men), piece = p->board[to];
        for (int from = 0; from < 64; from++) {
            bool pawn = piece % 6 == CH_PAWN;
            if (p->board[from] != CH_EMPTY || (pawn && (ch_rank(from) % 7 == 0))) continue;
            for (int e = -1; e < 16; e++) {
                ch_state_t q;
                memcpy(&q, s, sizeof q);
                uint64_t swap = ch_bit(to) | ch_bit(from);
                q.pos.pieces[piece % 6] ^= swap, q.pos.colors[m] ^= swap;
                q.pos.board[to] = CH_EMPTY, q.pos.board[from] = (uint8_t)piece;
                q.pos.side = (uint8_t)m;
                q.pos.ep = e < 0 ? CH_NO_SQ : e < 8 ? (uint8_t)(16 + e) : (uint8_t)(32 + e);
                int victim = e < 0 ? 0 : e < 8 ? 24 + e : 32 + e - 8;
                if (e >= 0 && q.pos.board[victim] != (m ^ 1) * 6 + CH_PAWN) continue;
                q.pos.key = ch_key_compute(&q.pos);
                char name[RETRO_CLASS_MAX];
                uint64_t idx;
                ch_state_t canon;
                if (ps->ix->index(ps->g, &q, name, &idx) < 0 || strcmp(name, ps->cls) != 0 ||
                    !ps->ix->unindex(ps->g, name, idx, &canon))
                    continue;
                ps->hit = false;
                game_whole_moves(ps->g, &canon, reaches, ps);
                if (ps->hit) add_pred(ps, idx);
            }
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Un-moves of `s` against tried_preds: the same indices. Returns how many. */
static int same_preds(const game_t *g, const char *cls, const ch_state_t *s)
{
    const retro_index_t *ix = retro_index_find(g);
    preds_t *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    CU_ASSERT_FATAL(a && b);
    a->g = b->g = g, a->ix = b->ix = ix, a->cls = b->cls = cls;
    char name[RETRO_CLASS_MAX];
    HARNESS_OK(ix->index(g, s, name, &a->want));
    b->want = a->want;
    HARNESS_OK(ix->unmoves(g, s, unmoved, a));
    tried_preds(s, b);
    qsort(a->idx, (size_t)a->n, sizeof a->idx[0], cmp_u64);
    qsort(b->idx, (size_t)b->n, sizeof b->idx[0], cmp_u64);
    bool same = a->n == b->n && memcmp(a->idx, b->idx, (size_t)a->n * sizeof a->idx[0]) == 0;
    if (!same) {
        char fen[128];
        game_position_to_string(g, s, fen, sizeof fen);
        fprintf(stderr, "%s %s: %d un-moves, %d predecessors tried\n", cls, fen, a->n, b->n);
    }
    CU_ASSERT(same);
    int n = a->n;
    free(a), free(b);
    return n;
}

/* Pawn retractions (games/chess/retro_unmove.c) against every one-man change
 * tried forward: sampled positions of pawn classes, and positions where the
 * en-passant right decides (the right in the position, a double step the
 * right would have followed, a capture en passant pinned, predecessors that
 * may hold the right or not). */
static void test_unmove_pawns(void)
{
    const game_t *g = chess();
    const retro_index_t *ix = retro_index_find(g);
    static const struct {
        const char *cls;
        uint64_t stride;
    } sample[] = {{"KPvK", 1013}, {"KPvKP", 40009}, {"KPPvK", 40009}, {"KRPvKR", 9000011}};
    for (size_t c = 0; c < sizeof sample / sizeof sample[0]; c++) {
        uint64_t size;
        int seen = 0, preds = 0;
        HARNESS_OK(ix->class_parse(g, sample[c].cls, NULL, &size));
        for (uint64_t i = 0; i < size; i += sample[c].stride) {
            ch_state_t s;
            if (!ix->unindex(g, sample[c].cls, i, &s)) continue;
            seen++, preds += same_preds(g, sample[c].cls, &s);
        }
        CU_ASSERT(seen > 50 && preds > seen);
    }
    static const struct {
        const char *fen, *cls;
        int preds;
    } fens[] = {
        /* the right to take on d6: d7-d5 the only un-move */
        {"8/8/8/3pP3/8/8/8/K6k w - d6 0 1", "KPvKP", 1},
        /* no right, yet the capture would be legal: no double step */
        {"8/8/8/3pP3/8/8/8/K6k w - - 0 1", "KPvKP", 4},
        /* the capture would expose the king to the rook: d7-d5 gave no right */
        {"8/8/8/K2pP2r/8/8/8/7k w - - 0 1", "KRPvKP", 13},
        /* Black's predecessors may hold the right to take on e3 */
        {"k7/8/8/8/3pP3/8/8/1K6 w - - 0 1", "KPvKP", 7},
        /* White's double steps, with and without a black pawn beside */
        {"8/8/8/8/3P4/8/8/K6k b - - 0 1", "KPvK", 5},
        {"8/8/8/8/3Pp3/8/8/K6k b - - 0 1", "KPvKP", 4},
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        ch_state_t s;
        HARNESS_OK(game_position_from_string(g, fens[i].fen, &s));
        int n = same_preds(g, fens[i].cls, &s);
        if (n != fens[i].preds) fprintf(stderr, "%s: %d predecessors\n", fens[i].fen, n);
        CU_ASSERT_EQUAL(n, fens[i].preds);
    }
    game_free(g);
}

static bool has_class(char out[][RETRO_CLASS_MAX], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(out[i], name) == 0) return true;
    return false;
}

/* Captures and promotions (to Q, R, B, N; with a capture on the last rank)
 * lead to these classes, which a build makes first; dead material none.
 * Every class of up to N men, the smaller first (`--all N`). */
static void test_pawn_subclasses(void)
{
    const game_t *g = chess();
    const retro_index_t *ix = retro_index_find(g);
    char out[RETRO_SUBCLASSES][RETRO_CLASS_MAX];
    int n = ix->subclasses(g, "KPvK", out);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT(has_class(out, n, "KQvK") && has_class(out, n, "KRvK"));
    n = ix->subclasses(g, "KPvKP", out);
    const char *kpkp[] = {"KPvK", "KQvKP", "KRvKP", "KBvKP", "KNvKP", "KQvK", "KRvK"};
    CU_ASSERT_EQUAL(n, 7);
    for (int i = 0; i < 7; i++) CU_ASSERT(has_class(out, n, kpkp[i]));
    n = ix->subclasses(g, "KRPvKR", out);
    const char *krpkr[] = {"KRvKP",  "KRvKR", "KRPvK", "KQRvKR", "KRRvKR", "KRBvKR",
                           "KRNvKR", "KQRvK", "KRRvK", "KRBvK",  "KRNvK"};
    CU_ASSERT_EQUAL(n, 11);
    for (int i = 0; i < 11; i++) CU_ASSERT(has_class(out, n, krpkr[i]));
    /* --all: 3 live 3-man classes, then 30 of 4 men, then 110 of 5 */
    static char all[512][RETRO_CLASS_MAX];
    CU_ASSERT_EQUAL(ix->classes(g, 3, all, 512), 3);
    CU_ASSERT(has_class(all, 3, "KQvK") && has_class(all, 3, "KPvK") && !has_class(all, 3, "KBvK"));
    CU_ASSERT_EQUAL(ix->classes(g, 4, all, 512), 33);
    CU_ASSERT(has_class(all, 33, "KPvKP") && has_class(all, 33, "KBBvK"));
    CU_ASSERT_EQUAL(ix->classes(g, 5, all, 512), 143);
    CU_ASSERT(has_class(all, 143, "KRPvKR") && has_class(all, 143, "KRRvKQ"));
    CU_ASSERT(!has_class(all + 3, 30, "KQvK") && has_class(all + 3, 30, "KQvKP"));
    CU_ASSERT(ix->classes(g, 5, all, 100) == HOYLE_EFULL);
    CU_ASSERT(ix->classes(g, 6, all, 512) == HOYLE_EINVAL);
    game_free(g);
}

/* Plain minimax over Fox and Geese's whole moves to `h` plies, no tables:
 * the exact code when the game ends within the horizon under best play,
 * else UNKNOWN (the chess minimax above, over game_whole_moves). */
typedef struct fg_mm {
    const game_t *g;
    const fg_state_t *before;
    int h;
    retro_code_t best;
    bool unknown;
} fg_mm_t;

static retro_code_t fg_minimax(const game_t *g, const fg_state_t *s, int h);

static int fg_mm_move(const int *actions, int n, const void *after, void *vctx)
{
    (void)actions, (void)n;
    fg_mm_t *m = vctx;
    const fg_state_t *c = after;
    retro_code_t v;
    if (game_is_terminal(m->g, c)) {
        double r[2];
        game_returns(m->g, c, r);
        int me = m->before->side;
        v = r[me] > 0 ? (RETRO_WIN | 1) : r[me] < 0 ? (RETRO_LOSS | 1) : RETRO_DRAW;
    } else {
        retro_code_t cv = m->h > 1 ? fg_minimax(m->g, c, m->h - 1) : UNKNOWN;
        if (cv == UNKNOWN) {
            m->unknown = true;
            return 0;
        }
        int d = retro_dist(cv) + 1;
        v = retro_is_win(cv) ? (RETRO_LOSS | d) : retro_is_loss(cv) ? (RETRO_WIN | d) : RETRO_DRAW;
    }
    if (m->best == RETRO_INVALID || retro_code_cmp(v, m->best) > 0) m->best = v;
    return 0;
}

static retro_code_t fg_minimax(const game_t *g, const fg_state_t *s, int h)
{
    fg_mm_t m = {g, s, h, RETRO_INVALID, false};
    game_whole_moves(g, s, fg_mm_move, &m);
    if (m.best != RETRO_INVALID && retro_is_win(m.best)) return m.best;
    return m.unknown ? UNKNOWN : m.best;
}

/* Fox and Geese, the fox catching every goose (fox_wins_at=0), 1 to 3 geese:
 * every position against one-ply minimax over the tables, every position of
 * 1 and 2 geese (a sample of 3) against plain minimax to 5 plies (a value
 * decided within the horizon must agree exactly, any other must not be
 * contradicted), index round trips with the mirror image; the draw counter
 * (the horizon) and bad class names. */
static void test_foxgeese(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("foxgeese(fox_wins_at=0)", &g));
    make_dir();
    const char *classes[] = {"G1", "2", "g3"};
    for (int i = 0; i < 3; i++) {
        build(g, classes[i], dir, 2);
        check_one_ply(g, classes[i], 1000);
    }
    const retro_index_t *ix = retro_index_find(g);
    retro_tables_t *t;
    HARNESS_OK(retro_tables_open(g, dir, &t));
    int bad = 0, valid = 0, exact = 0;
    for (int n = 1; n <= 3; n++) {
        char name[RETRO_CLASS_MAX], got[RETRO_CLASS_MAX];
        uint64_t size, idx;
        HARNESS_OK(ix->class_parse(g, classes[n - 1], name, &size));
        for (uint64_t i = 0; i < size && bad < 5; i++) {
            fg_state_t s, x;
            if (!ix->unindex(g, name, i, &s)) continue;
            valid++;
            game_symmetry_state(g, SYM_FLIP_COLS, &s, &x);
            HARNESS_OK(ix->index(g, &s, got, &idx));
            bad += strcmp(got, name) != 0 || idx != i;
            HARNESS_OK(ix->index(g, &x, got, &idx));
            bad += strcmp(got, name) != 0 || idx != i;
            if (game_is_terminal(g, &s) || (n == 3 && i % 61 != 0)) continue;
            retro_code_t v, m = fg_minimax(g, &s, 5);
            HARNESS_OK(retro_probe(t, &s, &v));
            bool within = v != RETRO_DRAW && retro_dist(v) <= 5;
            if (within ? m != v : m != UNKNOWN && m != v)
                bad++, fprintf(stderr, "%s %llu: table %04x, minimax %04x\n", name,
                               (unsigned long long)i, v, m);
            exact += m == v;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(valid > 150000);
    fprintf(stderr, "foxgeese: %d positions, %d decided by minimax within 5 plies\n", valid, exact);
    CU_ASSERT(exact > 250); /* 282 */
    retro_info_t one = info_of(dir, "G1");
    CU_ASSERT(one.wins > 0 && one.losses > 0 && one.draws > 0);
    /* the horizon: the plies the draw counter leaves */
    fg_state_t s;
    game_init(g, &s);
    s.quiet = 7;
    CU_ASSERT_EQUAL(ix->horizon(g, &s), 50 - 7);
    /* search's probe uses a win only within the counter's horizon */
    HARNESS_OK(solve_agents_register());
    retro_info_t three = info_of(dir, "G3");
    CU_ASSERT_FATAL(ix->unindex(g, "G3", three.longest_win_idx, &s));
    tb_t *tb = NULL;
    int sign = 0, plies = 0;
    HARNESS_OK(tb_open(g, dir, &tb));
    HARNESS_OK(tb_probe(tb, &s, &sign, &plies));
    CU_ASSERT(sign == 1 && plies == (int)three.longest_win);
    s.quiet = (uint16_t)(50 - three.longest_win);
    HARNESS_OK(tb_probe(tb, &s, &sign, &plies)); /* exactly within */
    s.quiet++;
    CU_ASSERT_EQUAL(tb_probe(tb, &s, &sign, &plies), HOYLE_EUNSUP);
    tb_close(tb);
    char name[RETRO_CLASS_MAX];
    uint64_t size;
    CU_ASSERT(ix->class_parse(g, "G0", name, &size) < 0);
    CU_ASSERT(ix->class_parse(g, "G18", name, &size) < 0);
    CU_ASSERT(ix->class_parse(g, "7x", name, &size) < 0);
    CU_ASSERT(ix->class_parse(g, "", name, &size) < 0);
    const game_t *dflt = NULL;
    HARNESS_OK(game_create("foxgeese", &dflt));
    CU_ASSERT(ix->class_parse(dflt, "G6", name, &size) < 0); /* six geese: the fox has won */
    HARNESS_OK(ix->class_parse(dflt, "7", name, &size));
    CU_ASSERT_STRING_EQUAL(name, "G7");
    CU_ASSERT_EQUAL(size, 20ull * 3365856 * 2);
    game_free(dflt);
    retro_tables_close(t);
    game_free(g);
}

/* The tallies of agent `spec` over `n` positions of K+Q v K (seed 5). */
static retro_acc_t kqk_accuracy(const game_t *g, retro_tables_t *t, const char *spec, int n)
{
    const char *cls[] = {"KQvK"};
    rng_t rng;
    rng_init(&rng, 5);
    retro_acc_t acc = {0};
    agent_t *a = NULL;
    HARNESS_OK(agent_create(g, spec, 1, &a));
    for (int i = 0; i < n; i++) {
        ch_state_t s;
        HARNESS_OK(retro_sample(g, cls, 1, &rng, &s));
        HARNESS_OK(retro_accuracy_one(t, a, &s, &acc));
    }
    agent_free(a);
    return acc;
}

/* tb=DIR in search: with the tables alpha-beta and MCTS keep every value of
 * K+Q v K at a budget where without them they throw some away, alpha-beta
 * plays the fastest win (its distance scores); a bad path is one error. */
static void test_search_probes(void)
{
    HARNESS_OK(solve_agents_register());
    const game_t *g = chess();
    make_dir();
    build(g, "KQvK", dir, 2);
    retro_tables_t *t;
    HARNESS_OK(retro_tables_open(g, dir, &t));
    char spec[512];
    const int n = 120;
    retro_acc_t ab0 = kqk_accuracy(g, t, "alphabeta(depth=1)", n);
    snprintf(spec, sizeof spec, "alphabeta(depth=1,tb=%s)", dir);
    retro_acc_t ab1 = kqk_accuracy(g, t, spec, n);
    retro_acc_t mc0 = kqk_accuracy(g, t, "mcts(sims=8)", n);
    snprintf(spec, sizeof spec, "mcts(sims=8,tb=%s)", dir);
    retro_acc_t mc1 = kqk_accuracy(g, t, spec, n);
    fprintf(stderr,
            "blunders: alphabeta %llu -> %llu, mcts %llu -> %llu; best %llu -> %llu of %d\n",
            (unsigned long long)ab0.blunders, (unsigned long long)ab1.blunders,
            (unsigned long long)mc0.blunders, (unsigned long long)mc1.blunders,
            (unsigned long long)ab0.optimal, (unsigned long long)ab1.optimal, n);
    CU_ASSERT(mc0.blunders > 0);          /* mcts(sims=8) throws wins away (10 of 120) */
    CU_ASSERT(ab0.optimal < (uint64_t)n); /* depth 1 keeps them, but not the fastest */
    CU_ASSERT_EQUAL(ab1.blunders, 0);
    CU_ASSERT_EQUAL(mc1.blunders, 0);
    CU_ASSERT(ab1.by_value[2] > 20);           /* won positions among them */
    CU_ASSERT_EQUAL(ab1.optimal, (uint64_t)n); /* the fastest win, the slowest loss */
    agent_t *a = NULL;
    CU_ASSERT(agent_create(g, "alphabeta(tb=/nonexistent/tables)", 1, &a) < 0);
    CU_ASSERT(strstr(hoyle_last_error(), "/nonexistent/tables") != NULL);
    CU_ASSERT(strchr(hoyle_last_error(), '\n') == NULL);
    CU_ASSERT(agent_create(g, "mcts(tb=/nonexistent/tables)", 1, &a) < 0);
    retro_tables_close(t);
    game_free(g);
}

static void cleanup(void) { CU_ASSERT_EQUAL(harness_remove_tree(dir), 0); }

int main(void)
{
    static const harness_test_t tests[] = {
        {"longest wins: K+Q v K 10 moves, K+R v K 16", test_longest_wins},
        {"every position against minimax", test_against_minimax},
        {"index round trips, symmetries, colour swap", test_index_round_trip},
        {"corrupt, truncated and foreign files refused", test_bad_files},
        {"an interrupted build resumes to the same file", test_resume},
        {"a file written in pieces: the bytes written whole", test_pieces},
        {"un-moves and the move graph: the same tables", test_unmove_same},
        {"bad class names refused", test_bad_classes},
        {"checkers: 2 and 3 pieces", test_checkers},
        {"devil among the tailors: solved from the start", test_devil},
        {"pawns: K+P v K, every position", test_pawns_kpk},
        {"pawns: the mirror-only index, en passant", test_pawn_index},
        {"pawns: un-moves against every one-man change", test_unmove_pawns},
        {"pawns: promotions and captures lead to; --all", test_pawn_subclasses},
        {"foxgeese: 1 to 3 geese", test_foxgeese},
        {"tb= in alphabeta and mcts keeps the win", test_search_probes},
        {"cleanup", cleanup},
        {NULL, NULL},
    };
    return harness_run("retro", tests);
}
