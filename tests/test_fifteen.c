/* test_fifteen.c — the Fifteen puzzle (games/fifteen/) and its solver
 * (solve/fifteen*.c).
 *
 * Rules: the goal is terminal with +1, the move cap ends an unsolved game
 * with the Manhattan shaping, move text (letters, words, tile numbers) and
 * bad input (one-line messages, nothing changed), start positions solvable.
 * Solver: a breadth-first oracle over every 3 x 3 position (181,440 per
 * goal) checks that md <= lc, md <= pdb and both <= the true distance
 * everywhere, and that IDA* with each heuristic finds the true distance on
 * seeded random instances, its moves replaying to the goal; the pattern
 * database cache is detected when corrupt, truncated, foreign or too long
 * and rebuilt with a message; Korf's instances with small optimal lengths
 * solve to their published lengths (linear conflicts, and the 5-5-5 tables;
 * the 6-6-3 tables take ~15 s to build, so `hoyle solve fifteen --korf` is
 * their benchmark instead). HOYLE_SLOW_TESTS=0 checks fewer instances. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/fifteen/fifteen.h"
#include "games/registry.h"
#include "solve/fifteen.h"
#include "tests/harness.h"

static bool slow(void)
{
    const char *v = getenv("HOYLE_SLOW_TESTS");
    return !(v && strcmp(v, "0") == 0);
}

static const game_t *make(const char *spec)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create(spec, &g));
    return g;
}

/* ---- rules ---- */

static void test_goal_and_cap(void)
{
    const game_t *g = make("fifteen(start=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0)");
    void *s = malloc(g->state_size);
    game_init(g, s);
    double r = 0;
    CU_ASSERT(game_is_terminal(g, s));
    game_returns(g, s, &r);
    CU_ASSERT_EQUAL(r, 1.0);
    game_free(g);
    free(s);

    g = make("fifteen(blank=first,start=0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)");
    s = malloc(g->state_size);
    game_init(g, s);
    CU_ASSERT(game_is_terminal(g, s));
    game_free(g);

    /* one move from the goal; sliding it back solves, a cap of 3 moves
     * spent elsewhere ends the game with -dist / dist_max */
    g = make("fifteen(start=1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15,moves=3)");
    game_init(g, s);
    CU_ASSERT_FALSE(game_is_terminal(g, s));
    CU_ASSERT_EQUAL(fifteen_distance(g, s), 1);
    HARNESS_OK(game_apply_move_string(g, s, "15") < 0 ? -1 : 0);
    CU_ASSERT(game_is_terminal(g, s));
    game_returns(g, s, &r);
    CU_ASSERT_EQUAL(r, 1.0);
    game_init(g, s);
    HARNESS_OK(game_apply_move_string(g, s, "u") < 0 ? -1 : 0);
    HARNESS_OK(game_apply_move_string(g, s, "l") < 0 ? -1 : 0);
    CU_ASSERT_FALSE(game_is_terminal(g, s));
    HARNESS_OK(game_apply_move_string(g, s, "d") < 0 ? -1 : 0);
    CU_ASSERT(game_is_terminal(g, s));
    game_returns(g, s, &r);
    int d = fifteen_distance(g, s);
    CU_ASSERT(d > 0);
    CU_ASSERT_DOUBLE_EQUAL(r, -(double)d / (15.0 * 6.0), 1e-12);
    free(s);
    game_free(g);
}

static void test_move_text(void)
{
    /* the blank on the right edge, one move from the goal: up (8 slides
     * down), down (12 slides up), left (11 slides right), not right */
    const game_t *g = make("fifteen(start=1 2 3 4 5 6 7 8 9 10 11 0 13 14 15 12)");
    void *s = malloc(g->state_size);
    game_init(g, s);
    int a = -1;
    HARNESS_OK(game_action_from_string(g, s, "u", &a));
    CU_ASSERT_EQUAL(a, FIFTEEN_UP);
    HARNESS_OK(game_action_from_string(g, s, "LEFT", &a));
    CU_ASSERT_EQUAL(a, FIFTEEN_LEFT);
    HARNESS_OK(game_action_from_string(g, s, "12", &a));
    CU_ASSERT_EQUAL(a, FIFTEEN_DOWN);
    HARNESS_OK(game_action_from_string(g, s, "8", &a));
    CU_ASSERT_EQUAL(a, FIFTEEN_UP);
    a = -7;
    CU_ASSERT_EQUAL(game_action_from_string(g, s, "r", &a), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "cannot move right"));
    CU_ASSERT_EQUAL(game_action_from_string(g, s, "1", &a), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "not next to the blank"));
    CU_ASSERT_EQUAL(game_action_from_string(g, s, "0", &a), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(a, -7);
    char text[GAME_TEXT_MAX];
    CU_ASSERT(game_state_to_string(g, s, text, sizeof text) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "| 15 | 12 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "Manhattan distance 1"));
    free(s);
    game_free(g);
}

static void test_bad_positions(void)
{
    const game_t *g = make("fifteen(size=3)");
    void *s = malloc(g->state_size), *before = malloc(g->state_size);
    game_init(g, s);
    memcpy(before, s, g->state_size);
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"1 2 3 4 5 6 7 8", "8 tiles, want 9"},
        {"1 2 3 4 5 6 7 8 0 1", "appears twice"},
        {"1 2 3 4 5 6 7 8 9", "out of range"},
        {"1 2 3 4 5 6 7 7 0", "appears twice"},
        {"1 2 3 4 5 6 8 7 0", "not solvable"},
        {"1 2 3 4 x 6 7 8 0", "not a tile number"},
        {"1 2 3 4 5 6 7 0 8 moves=401", "past the cap"},
        {"1 2 3 4 5 6 7 0 8 moves=x", "bad move count"},
        {"", "0 tiles"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CU_ASSERT_EQUAL(game_position_from_string(g, bad[i].text, s), HOYLE_EINVAL);
        const char *msg = hoyle_last_error();
        if (!strstr(msg, bad[i].why))
            fprintf(stderr, "'%s': message '%s' lacks '%s'\n", bad[i].text, msg, bad[i].why);
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, bad[i].why));
        CU_ASSERT_PTR_NULL(strchr(msg, '\n'));
        CU_ASSERT(memcmp(s, before, g->state_size) == 0);
    }
    /* the same checks guard the start parameter */
    const game_t *g2 = NULL;
    CU_ASSERT_EQUAL(game_create("fifteen(size=3,start=1 2 3 4 5 6 8 7 0)", &g2), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "not solvable"));
    HARNESS_OK(game_position_from_string(g, "1 2 3 4 5 6 7 0 8 moves=12", s));
    char text[128];
    game_position_to_string(g, s, text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "1 2 3 4 5 6 7 0 8 moves=12");
    free(before);
    free(s);
    game_free(g);
}

/* ---- the 3 x 3 oracle ---- */

/* Rank of a permutation of 9 (Lehmer code). */
static int rank9(const uint8_t *p)
{
    int r = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += p[j] < p[i];
        r = r * (9 - i) + smaller;
    }
    return r;
}

static void unrank9(int r, uint8_t *p)
{
    int code[9];
    for (int i = 8; i >= 0; i--) code[i] = r % (9 - i), r /= 9 - i;
    bool used[9] = {false};
    for (int i = 0; i < 9; i++) {
        int k = code[i], v = 0;
        while (used[v] || k > 0) k -= !used[v], v++;
        /* v is the code[i]-th unused value */
        used[v] = true;
        p[i] = (uint8_t)v;
    }
}

#define PERMS9 362880

/* dist[rank] = the moves from the goal (-1 unreachable), by BFS. */
static int8_t *bfs9(const fifteen_board_t *goal)
{
    int8_t *dist = malloc(PERMS9);
    int *queue = malloc(sizeof(int) * PERMS9);
    memset(dist, -1, PERMS9);
    int head = 0, tail = 0, r0 = rank9(goal->cell);
    dist[r0] = 0;
    queue[tail++] = r0;
    static const int step[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    while (head < tail) {
        int r = queue[head++];
        uint8_t p[9];
        unrank9(r, p);
        int b = 0;
        while (p[b]) b++;
        for (int d = 0; d < 4; d++) {
            int row = b / 3 + step[d][0], col = b % 3 + step[d][1];
            if (row < 0 || row > 2 || col < 0 || col > 2) continue;
            int c = row * 3 + col;
            p[b] = p[c], p[c] = 0;
            int q = rank9(p);
            if (dist[q] < 0) dist[q] = (int8_t)(dist[r] + 1), queue[tail++] = q;
            p[c] = p[b], p[b] = 0;
        }
    }
    free(queue);
    return dist;
}

static void oracle_checks(const char *spec)
{
    const game_t *g = make(spec);
    void *s = malloc(g->state_size);
    fifteen_board_t b;
    HARNESS_OK(game_position_from_string(
        g, strstr(spec, "first") ? "0 1 2 3 4 5 6 7 8" : "1 2 3 4 5 6 7 8 0", s));
    fifteen_board(g, s, &b);
    int8_t *dist = bfs9(&b);
    fifteen_pdb_t *pdb = NULL;
    HARNESS_OK(fifteen_pdb_open(3, b.goal_cell[0], FIFTEEN_PDB_663, "", NULL, &pdb));
    /* 1. admissible everywhere, and the orders md <= lc, md <= pdb */
    int reachable = 0, bad = 0, exact_pdb = 0;
    for (int r = 0; r < PERMS9 && pdb; r++) {
        if (dist[r] < 0) continue;
        reachable++;
        unrank9(r, b.cell);
        int md = fifteen_heuristic_value(&b, FIFTEEN_H_MD, NULL);
        int lc = fifteen_heuristic_value(&b, FIFTEEN_H_LC, NULL);
        int hp = fifteen_heuristic_value(&b, FIFTEEN_H_PDB, pdb);
        bad += md > lc || md > hp || lc > dist[r] || hp > dist[r];
        exact_pdb += hp == dist[r];
    }
    CU_ASSERT_EQUAL(reachable, PERMS9 / 2);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(exact_pdb > 0);
    /* 2. IDA* finds the true distance on seeded random starts */
    int runs = slow() ? 60 : 10, wrong = 0;
    for (int k = 0; k < runs && pdb; k++) {
        char seeded[128];
        snprintf(seeded, sizeof seeded, "%.*s,seed=%d)", (int)(strlen(spec) - 1), spec, k + 1);
        const game_t *gk = make(seeded);
        game_init(gk, s);
        fifteen_board(gk, s, &b);
        int want = dist[rank9(b.cell)];
        CU_ASSERT(want >= 0); /* the random start is solvable */
        for (int h = FIFTEEN_H_MD; h <= FIFTEEN_H_PDB; h++) {
            fifteen_solve_params_t p = {.heuristic = (fifteen_heuristic_t)h, .pdb = pdb};
            fifteen_solve_result_t res;
            HARNESS_OK(fifteen_solve(&b, &p, &res));
            void *t = malloc(gk->state_size);
            memcpy(t, s, gk->state_size);
            int ok = res.solved && res.length == want;
            for (int i = 0; ok && i < res.length; i++)
                ok = game_apply_checked(gk, t, res.moves[i]) == 0;
            ok = ok && fifteen_distance(gk, t) == 0;
            wrong += !ok;
            free(t);
        }
        game_free(gk);
    }
    CU_ASSERT_EQUAL(wrong, 0);
    fifteen_pdb_free(pdb);
    free(dist);
    free(s);
    game_free(g);
}

static void test_oracle_blank_last(void) { oracle_checks("fifteen(size=3)"); }
static void test_oracle_blank_first(void) { oracle_checks("fifteen(size=3,blank=first)"); }

static void test_unsolvable_refused(void)
{
    fifteen_board_t b = {.n = 3, .cells = 9};
    for (int c = 0; c < 9; c++) b.goal_cell[c] = (uint8_t)c, b.cell[c] = (uint8_t)c;
    b.cell[1] = 2, b.cell[2] = 1; /* two tiles swapped */
    fifteen_solve_params_t p = {.heuristic = FIFTEEN_H_LC};
    fifteen_solve_result_t r;
    CU_ASSERT_EQUAL(fifteen_solve(&b, &p, &r), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "not solvable"));
}

/* ---- the cache ---- */

static void test_pdb_cache(void)
{
    char dir[512];
    harness_tmp_path(dir, sizeof dir, "hoyle-fifteen-XXXXXX");
    CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
    char *logbuf = NULL;
    size_t loglen = 0;
    FILE *log = open_memstream(&logbuf, &loglen);
    fifteen_pdb_t *p = NULL;
    HARNESS_OK(fifteen_pdb_open(3, 8, FIFTEEN_PDB_663, dir, log, &p));
    CU_ASSERT_FALSE(fifteen_pdb_from_cache(p));
    char path[1024];
    snprintf(path, sizeof path, "%s", fifteen_pdb_path(p));
    CU_ASSERT(access(path, R_OK) == 0);
    fifteen_board_t b = {.n = 3, .cells = 9};
    uint8_t start[9] = {8, 6, 7, 2, 5, 4, 3, 0, 1}; /* 31 moves from 1..8 then the blank */
    for (int c = 0; c < 9; c++) b.goal_cell[(c + 1) % 9] = (uint8_t)c, b.cell[c] = start[c];
    int want = fifteen_pdb_value(p, &b);
    CU_ASSERT(want > 0);
    fifteen_pdb_free(p);

    /* a good file is loaded */
    HARNESS_OK(fifteen_pdb_open(3, 8, FIFTEEN_PDB_663, dir, log, &p));
    CU_ASSERT(fifteen_pdb_from_cache(p));
    CU_ASSERT_EQUAL(fifteen_pdb_value(p, &b), want);
    fifteen_pdb_free(p);

    /* damaged files: each reported, rebuilt, the value unchanged */
    static const char *const damage[] = {"flip", "truncate", "header", "append"};
    static const char *const why[] = {"checksum", "truncated", "other tables", "longer"};
    for (int k = 0; k < 4; k++) {
        FILE *f = fopen(path, "r+b");
        CU_ASSERT_FATAL(f != NULL);
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        if (k == 0) {
            fseek(f, size - 100, SEEK_SET);
            int c = fgetc(f);
            fseek(f, size - 100, SEEK_SET);
            fputc(c ^ 0x01, f);
        } else if (k == 2) {
            fseek(f, 0, SEEK_SET);
            fputs("hoyle-pdb 1 n=3 blank=0", f);
        } else if (k == 3) {
            fputc('x', f);
        }
        fclose(f);
        if (k == 1) CU_ASSERT(truncate(path, size / 2) == 0);
        size_t before = loglen;
        HARNESS_OK(fifteen_pdb_open(3, 8, FIFTEEN_PDB_663, dir, log, &p));
        fflush(log);
        const char *msg = logbuf + before;
        if (!strstr(msg, why[k])) fprintf(stderr, "%s: log '%s'\n", damage[k], msg);
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, why[k]));
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, "rebuilding"));
        CU_ASSERT_FALSE(fifteen_pdb_from_cache(p));
        CU_ASSERT_EQUAL(fifteen_pdb_value(p, &b), want);
        fifteen_pdb_free(p);
        /* and the rewritten file is good again */
        HARNESS_OK(fifteen_pdb_open(3, 8, FIFTEEN_PDB_663, dir, log, &p));
        CU_ASSERT(fifteen_pdb_from_cache(p));
        fifteen_pdb_free(p);
    }
    /* tables that are not there */
    CU_ASSERT_EQUAL(fifteen_pdb_open(5, 0, FIFTEEN_PDB_663, dir, log, &p), HOYLE_EUNSUP);
    fclose(log);
    free(logbuf);
    remove(path);
    rmdir(dir);
}

/* ---- Korf's instances ---- */

/* The instances of korf100.txt with the smallest optimal lengths. */
static void korf_checks(fifteen_heuristic_t h, const fifteen_pdb_t *pdb, int count)
{
    static const int ids[] = {55, 79, 42, 12, 9, 71, 97};
    char *text = harness_read_data("fifteen/korf100.txt");
    CU_ASSERT_FATAL(text != NULL);
    const game_t *g = make("fifteen(blank=first)");
    void *s = malloc(g->state_size);
    int total = 0, want_total = 0;
    for (int k = 0; k < count; k++) {
        char key[16];
        snprintf(key, sizeof key, "\n%3d ", ids[k]);
        const char *line = strstr(text, key);
        CU_ASSERT_FATAL(line != NULL);
        int id, len, off;
        CU_ASSERT_FATAL(sscanf(line + 1, "%d %d %n", &id, &len, &off) == 2);
        char tiles[128];
        snprintf(tiles, sizeof tiles, "%.*s", (int)strcspn(line + 1 + off, "\n"), line + 1 + off);
        HARNESS_OK(game_position_from_string(g, tiles, s));
        fifteen_board_t b;
        fifteen_board(g, s, &b);
        fifteen_solve_params_t p = {.heuristic = h, .pdb = pdb};
        fifteen_solve_result_t r;
        HARNESS_OK(fifteen_solve(&b, &p, &r));
        CU_ASSERT(r.solved);
        CU_ASSERT_EQUAL(r.length, len);
        for (int i = 0; i < r.length; i++) HARNESS_OK(game_apply_checked(g, s, r.moves[i]));
        CU_ASSERT_EQUAL(fifteen_distance(g, s), 0);
        total += r.length, want_total += len;
    }
    CU_ASSERT_EQUAL(total, want_total);
    free(s);
    game_free(g);
    free(text);
}

static void test_korf_lc(void) { korf_checks(FIFTEEN_H_LC, NULL, slow() ? 7 : 2); }

static void test_korf_pdb555(void)
{
    if (!slow()) return; /* a second of table building, more under a sanitizer */
    fifteen_pdb_t *pdb = NULL;
    HARNESS_OK(fifteen_pdb_open(4, 0, FIFTEEN_PDB_555, "", NULL, &pdb));
    if (pdb) korf_checks(FIFTEEN_H_PDB, pdb, 7);
    /* tables for the other goal are refused */
    fifteen_board_t b = {.n = 4, .cells = 16};
    for (int c = 0; c < 16; c++)
        b.goal_cell[(c + 1) % 16] = (uint8_t)c, b.cell[c] = (uint8_t)((c + 1) % 16);
    fifteen_solve_params_t p = {.heuristic = FIFTEEN_H_PDB, .pdb = pdb};
    fifteen_solve_result_t r;
    CU_ASSERT_EQUAL(fifteen_solve(&b, &p, &r), HOYLE_EINVAL);
    fifteen_pdb_free(pdb);
}

/* The Korf file itself: 100 instances, every one solvable, lengths sum 5,305. */
static void test_korf_file(void)
{
    char *text = harness_read_data("fifteen/korf100.txt");
    CU_ASSERT_FATAL(text != NULL);
    const game_t *g = make("fifteen(blank=first)");
    void *s = malloc(g->state_size);
    int count = 0, sum = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        int id, len, off;
        CU_ASSERT_FATAL(sscanf(line, "%d %d %n", &id, &len, &off) == 2);
        HARNESS_OK(game_position_from_string(g, line + off, s));
        count++, sum += len;
        CU_ASSERT_EQUAL(id, count);
    }
    CU_ASSERT_EQUAL(count, 100);
    CU_ASSERT_EQUAL(sum, 5305);
    free(s);
    game_free(g);
    free(text);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"goal, cap and the shaped return", test_goal_and_cap},
        {"move text: letters, words, tile numbers, refusals", test_move_text},
        {"bad positions: one-line errors, nothing changed", test_bad_positions},
        {"3x3 oracle, blank last: admissible heuristics, optimal IDA*", test_oracle_blank_last},
        {"3x3 oracle, blank first", test_oracle_blank_first},
        {"an unsolvable board is refused", test_unsolvable_refused},
        {"pattern-database cache: reuse, damage detected and rebuilt", test_pdb_cache},
        {"Korf's file: 100 solvable instances, lengths sum to 5305", test_korf_file},
        {"Korf instances, linear conflicts: published lengths", test_korf_lc},
        {"Korf instances, 5-5-5 tables: published lengths", test_korf_pdb555},
        {NULL, NULL},
    };
    return harness_run("fifteen", tests);
}
