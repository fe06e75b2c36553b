/* harness.c — CUnit runner, data-file helpers and game fixtures for the test suites. */
#define _XOPEN_SOURCE 700
#include "tests/harness.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "games/game.h"

int harness_run(const char *suite_name, const harness_test_t *tests)
{
    if (CU_initialize_registry() != CUE_SUCCESS) return 2;
    CU_pSuite suite = CU_add_suite(suite_name, NULL, NULL);
    for (int i = 0; tests[i].name; i++) CU_add_test(suite, tests[i].name, tests[i].fn);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (run == 0) return 3;
    return failures ? 1 : 0;
}

char *harness_read_data(const char *relative_path)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", HOYLE_TEST_DATA, relative_path);
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[size] = '\0';
    fclose(f);
    return buf;
}

void harness_ok_(int status, const char *expr, const char *file, int line)
{
    if (status < 0)
        fprintf(stderr, "%s:%d: %s failed (%d): %s\n", file, line, expr, status,
                hoyle_last_error());
    CU_assertImplementation(status >= 0, (unsigned)line, expr, file, "", CU_FALSE);
}

static int perft_counts(const game_t *g, const void *s, const char *label, const char *counts,
                        int max_depth, unsigned long long max_nodes, int generic_depth)
{
    const char *p = counts;
    int checked = 0;
    for (int d = 1; d <= max_depth; d++) {
        char *end;
        unsigned long long want = strtoull(p, &end, 10);
        if (end == p || want > max_nodes) break;
        p = end;
        uint64_t got = game_perft(g, s, d);
        if (got != want)
            fprintf(stderr, "%s depth %d: %llu, want %llu\n", label, d, (unsigned long long)got,
                    want);
        CU_ASSERT_EQUAL(got, want);
        if (d <= generic_depth) CU_ASSERT_EQUAL(game_perft_generic(g, s, d), want);
        checked++;
    }
    return checked;
}

int harness_perft_table(const char *relative_path, int (*max_depth)(const char *spec),
                        unsigned long long max_nodes, int generic_depth, int *checked)
{
    char *text = harness_read_data(relative_path);
    CU_ASSERT_FATAL(text != NULL);
    int rows = 0, count = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == '\0') continue;
        char spec[128], pos[256], counts[1024], label[400];
        CU_ASSERT_FATAL(sscanf(line, "%127[^|]| %255[^|]| %1023[^\n]", spec, pos, counts) == 3);
        for (char *e = spec + strlen(spec); e > spec && e[-1] == ' ';) *--e = '\0';
        for (char *e = pos + strlen(pos); e > pos && e[-1] == ' ';) *--e = '\0';
        const game_t *g = NULL;
        HARNESS_OK(game_create(spec, &g));
        CU_ASSERT_FATAL(g != NULL);
        void *s = malloc(g->state_size);
        game_init(g, s);
        if (strcmp(pos, "start") != 0) HARNESS_OK(game_position_from_string(g, pos, s));
        snprintf(label, sizeof label, "%s | %s", spec, pos);
        count += perft_counts(g, s, label, counts, max_depth ? max_depth(spec) : 64, max_nodes,
                              generic_depth);
        rows++;
        free(s);
        game_free(g);
    }
    free(text);
    if (checked) *checked = count;
    return rows;
}

void harness_tmp_path(char *out, size_t cap, const char *name)
{
    const char *base = getenv("TMPDIR");
    snprintf(out, cap, "%s/%s", base && *base ? base : "/tmp", name);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    if (remove(path) == 0) return 0;
    perror(path);
    return -1;
}

int harness_remove_tree(const char *dir)
{
    if (!dir || !dir[0]) return 0;
    return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
}

const game_t *harness_game(const char *spec, size_t state_cap)
{
    const game_t *g = NULL;
    int st = game_create(spec, &g);
    if (st) fprintf(stderr, "game_create(%s): %s\n", spec, hoyle_last_error());
    CU_ASSERT_FATAL(st == 0 && g != NULL);
    CU_ASSERT_FATAL(g->state_size <= state_cap);
    return g;
}

void harness_set_position(const game_t *g, void *s, const char *pos)
{
    int st = game_position_from_string(g, pos, s);
    if (st) fprintf(stderr, "position '%s': %s\n", pos, hoyle_last_error());
    CU_ASSERT_FATAL(st == 0);
}
