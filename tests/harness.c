/* harness.c — CUnit runner and data-file helpers for the test suites. */
#include "tests/harness.h"

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

int harness_perft_counts(const game_t *g, const void *s, const char *label, const char *counts,
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
