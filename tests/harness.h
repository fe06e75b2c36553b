/* harness.h — the few helpers every CUnit suite shares.
 *
 * A test file lists its tests in a harness_test_t array and calls
 * harness_run() from main(); the exit code is nonzero when any assertion
 * failed, so CTest sees the failure. Tests never rely on `assert`. */
#ifndef HOYLE_TESTS_HARNESS_H
#define HOYLE_TESTS_HARNESS_H

#include <CUnit/Basic.h>
#include <stddef.h>

typedef struct harness_test {
    const char *name;
    void (*fn)(void);
} harness_test_t;

/* Run one suite of tests ({NULL, NULL}-terminated); returns the exit code. */
int harness_run(const char *suite, const harness_test_t *tests);

/* out[cap] = "$TMPDIR/name" ("/tmp/name" without TMPDIR), for mkdtemp and
 * mkstemp patterns: CTest points TMPDIR into the build tree, so the suite
 * leaves nothing in the system's temp folder (tests/CMakeLists.txt). */
void harness_tmp_path(char *out, size_t cap, const char *name);

/* Remove a folder a suite made (its files and folders, depth first, links not
 * followed); an empty name does nothing. 0 on success, -1 (with the path on
 * stderr) when something could not be removed. */
int harness_remove_tree(const char *dir);

/* Read a whole file under tests/data (HOYLE_TEST_DATA) into a new
 * NUL-terminated buffer the caller frees; NULL if it cannot be read. */
char *harness_read_data(const char *relative_path);

/* Check a perft table under tests/data: rows `spec | position | counts`
 * (`start` or the game's position text; counts for depth 1, 2, ...; `#`
 * comments). Each count up to depth max_depth(spec) (NULL: no limit) and at
 * most `max_nodes` is compared with game_perft(), and also with
 * game_perft_generic() up to `generic_depth`; a mismatch prints the row,
 * the depth and both counts. Returns the number of rows; *checked (may be
 * NULL) gets the number of counts compared. */
int harness_perft_table(const char *relative_path, int (*max_depth)(const char *spec),
                        unsigned long long max_nodes, int generic_depth, int *checked);

struct game;

/* game_create(spec) for a suite that keeps states in caller storage of state_cap bytes: a
 * failure prints hoyle_last_error() and ends the test (CU_ASSERT_FATAL), as does a game
 * whose state is larger. The caller frees the game with game_free. */
const struct game *harness_game(const char *spec, size_t state_cap);

/* Set s (g->state_size bytes) from position text; a failure prints the text and the error
 * and ends the test. */
void harness_set_position(const struct game *g, void *s, const char *pos);

/* Assert that a hoyle call succeeded; on failure show hoyle_last_error(). */
#define HARNESS_OK(call) harness_ok_((call), #call, __FILE__, __LINE__)
void harness_ok_(int status, const char *expr, const char *file, int line);

#endif
