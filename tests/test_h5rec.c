/* test_h5rec.c — HDF5 game records: round trips, resume, foreign files,
 * and the durability promise checked with real `kill -9`s. */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"
#include "data/h5rec.h"
#include "tests/harness.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define LONG_GAME 3000

static char tmpdir[256];
static const char *const specs[2] = {"checkers(variant=english)", "gobang(board=8,men=12)"};
static const char *const agents[3] = {"random", "mcts(sims=800,c=1.25)", "alphabeta(depth=4)"};

static void make_tmpdir(void)
{
    if (tmpdir[0]) return;
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/hoyle_h5rec_XXXXXX", base ? base : "/tmp");
    CU_ASSERT_FATAL(mkdtemp(tmpdir) != NULL);
}

static void path_for(char *buf, size_t cap, const char *name)
{
    make_tmpdir();
    snprintf(buf, cap, "%s/%s", tmpdir, name);
    char other[600];
    unlink(buf);
    snprintf(other, sizeof other, "%s.journal", buf);
    unlink(other);
    snprintf(other, sizeof other, "%s.tmp", buf);
    unlink(other);
}

static h5rec_meta_t test_meta(const char *config)
{
    h5rec_meta_t m = {.program_version = "test-1",
                      .config_text = config,
                      .config_path = "configs/test.yaml",
                      .num_games = 2,
                      .game_specs = specs,
                      .created_unix = 1700000000};
    return m;
}

/* The deterministic game number i (buffers are the caller's). */
typedef struct gen_buf {
    int32_t actions[LONG_GAME], opening[4];
    float ms[LONG_GAME];
    char opening_name[16];
} gen_buf_t;

static void gen(int64_t i, game_record_t *r, gen_buf_t *b)
{
    rng_t rng;
    rng_init(&rng, (uint64_t)i * 7919u + 1);
    memset(r, 0, sizeof *r);
    r->game_spec = (char *)specs[i % 2];
    r->agent_spec[0] = (char *)agents[i % 3];
    r->agent_spec[1] = i % 11 == 5 ? NULL : (char *)agents[(i + 1) % 3];
    int op = (int)(i % 4);
    if (op) {
        snprintf(b->opening_name, sizeof b->opening_name, "op%d", op);
        r->opening_name = b->opening_name;
        for (int k = 0; k < op; k++) b->opening[k] = op * 10 + k;
        r->opening_len = op;
        r->opening_actions = b->opening;
    }
    r->num_actions = i % 17 == 0 ? 0 : i % 53 == 1 ? LONG_GAME : 1 + (int32_t)rng_below(&rng, 200);
    for (int k = 0; k < r->num_actions; k++) {
        b->actions[k] = (int32_t)rng_below(&rng, 1000);
        b->ms[k] = 0.5f * (float)k + (float)(i % 100);
    }
    r->actions = b->actions;
    r->action_ms = i % 5 == 0 ? NULL : b->ms;
    int res = (int)(i % 3);
    r->result = res == 0 ? 1.0 : res == 1 ? 0.5 : 0.0;
    r->returns[0] = res == 0 ? 1 : res == 1 ? 0 : -1;
    r->returns[1] = -r->returns[0];
    r->end = (record_end_t)(i % RECORD_END_COUNT);
    r->seed = rng_mix((uint64_t)i);
    r->pairing = (int32_t)(i / 10);
    r->round = (int32_t)(i / 100);
    r->game_index = (int32_t)(i % 10);
}

/* 1 when the record read back equals gen(i). */
static int same_as_gen(int64_t i, const game_record_t *got)
{
    game_record_t e;
    gen_buf_t b;
    gen(i, &e, &b);
    int ok = strcmp(got->game_spec, e.game_spec) == 0;
    for (int p = 0; p < 2; p++)
        ok &= strcmp(got->agent_spec[p], e.agent_spec[p] ? e.agent_spec[p] : "") == 0;
    ok &= strcmp(got->opening_name, e.opening_name ? e.opening_name : "") == 0;
    ok &= got->opening_len == e.opening_len;
    for (int k = 0; ok && k < e.opening_len; k++)
        ok &= got->opening_actions[k] == e.opening_actions[k];
    ok &= got->num_actions == e.num_actions && got->result == e.result && got->end == e.end;
    ok &= got->returns[0] == e.returns[0] && got->returns[1] == e.returns[1];
    ok &= got->seed == e.seed && got->pairing == e.pairing && got->round == e.round &&
          got->game_index == e.game_index;
    for (int k = 0; ok && k < e.num_actions; k++) {
        ok &= got->actions[k] == e.actions[k];
        ok &= got->action_ms[k] == (e.action_ms ? e.action_ms[k] : 0.0f);
    }
    if (!ok) fprintf(stderr, "record %lld differs\n", (long long)i);
    return ok;
}

static void append_range(h5rec_t *h, int64_t from, int64_t to)
{
    gen_buf_t b;
    game_record_t r;
    for (int64_t i = from; i < to; i++) {
        gen(i, &r, &b);
        HARNESS_OK(h5rec_append(h, &r));
    }
}

static int check_all(h5rec_t *h, int64_t n)
{
    int ok = h5rec_count(h) == n;
    for (int64_t i = 0; ok && i < n; i++) {
        game_record_t r;
        int rc = h5rec_read(h, i, &r);
        if (rc < 0) fprintf(stderr, "read %lld: %s\n", (long long)i, hoyle_last_error());
        ok = rc == 0 && same_as_gen(i, &r);
        game_record_free(&r);
    }
    return ok;
}

static void test_round_trip(void)
{
    char path[512];
    path_for(path, sizeof path, "round_trip.h5");
    h5rec_meta_t m = test_meta("games: [checkers]\n");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    HARNESS_OK(h5rec_set_checkpoint(h, 64, 0));
    append_range(h, 0, 300);
    CU_ASSERT(check_all(h, 300)); /* 256 from the .h5, 44 from the journal */
    HARNESS_OK(h5rec_close(h));
    char journal[600];
    snprintf(journal, sizeof journal, "%s.journal", path);
    CU_ASSERT(access(journal, F_OK) != 0); /* a clean close leaves only the .h5 */

    HARNESS_OK(h5rec_open_read(path, &h));
    CU_ASSERT(check_all(h, 300));
    const h5rec_meta_t *got = h5rec_meta(h);
    CU_ASSERT_STRING_EQUAL(got->program_version, "test-1");
    CU_ASSERT_STRING_EQUAL(got->config_text, "games: [checkers]\n");
    CU_ASSERT_STRING_EQUAL(got->config_path, "configs/test.yaml");
    CU_ASSERT_EQUAL(got->num_games, 2);
    CU_ASSERT_STRING_EQUAL(got->game_specs[1], specs[1]);
    CU_ASSERT_EQUAL(got->created_unix, 1700000000);
    CU_ASSERT_EQUAL(strlen(h5rec_config_hash(h)), 16);
    game_record_t r;
    CU_ASSERT(h5rec_read(h, 300, &r) == HOYLE_EINVAL);
    CU_ASSERT(h5rec_append(h, &r) == HOYLE_ESTATE);
    HARNESS_OK(h5rec_close(h));

    HARNESS_OK(h5rec_read_path(path, 54, &r)); /* a long game */
    CU_ASSERT_EQUAL(r.num_actions, LONG_GAME);
    CU_ASSERT(same_as_gen(54, &r));
    game_record_free(&r);
    game_record_free(NULL);
}

static void test_attributes(void)
{
    char path[512];
    path_for(path, sizeof path, "attrs.h5");
    h5rec_meta_t m = test_meta("x: 1\n");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    append_range(h, 0, 3);
    HARNESS_OK(h5rec_close(h));
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    const char *names[] = {
        "hoyle_schema", "hoyle_schema_version", "program",     "program_version", "created",
        "config",       "config_path",          "config_hash", "file_id",         "games"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        int has = H5Aexists(f, names[i]) > 0;
        if (!has) fprintf(stderr, "missing attribute %s\n", names[i]);
        CU_ASSERT(has);
    }
    const char *dsets[] = {"games",  "actions",  "action_ms",
                           "agents", "openings", "opening_actions"};
    for (size_t i = 0; i < sizeof dsets / sizeof *dsets; i++)
        CU_ASSERT(H5Lexists(f, dsets[i], H5P_DEFAULT) > 0);
    H5Fclose(f);
}

/* Every chunked dataset carries the Fletcher-32 filter, and the strings
 * outside them (root attributes, /agents, /openings) have CRCs. */
static void test_checksums_present(void)
{
    char path[512];
    path_for(path, sizeof path, "sums.h5");
    h5rec_meta_t m = test_meta("x: 1\n");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    append_range(h, 0, 5);
    HARNESS_OK(h5rec_close(h));
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    CU_ASSERT(H5Aexists(f, "strings_crc32") > 0);
    CU_ASSERT(H5Aexists(f, "tables_crc32") > 0);
    /* /agents holds variable-length strings, on which HDF5 allows no filter */
    const char *dsets[] = {"games", "actions", "action_ms", "openings", "opening_actions"};
    for (size_t i = 0; i < sizeof dsets / sizeof *dsets; i++) {
        hid_t d = H5Dopen2(f, dsets[i], H5P_DEFAULT), pl = H5Dget_create_plist(d);
        int has =
            H5Pget_filter_by_id2(pl, H5Z_FILTER_FLETCHER32, NULL, NULL, NULL, 0, NULL, NULL) >= 0;
        if (!has) fprintf(stderr, "/%s has no Fletcher-32 filter\n", dsets[i]);
        CU_ASSERT(has);
        H5Pclose(pl);
        H5Dclose(d);
    }
    H5Fclose(f);
}

/* Issue 36, items 12 and 13: damaged copies of a record file (64 bytes
 * overwritten, bits flipped, words zeroed or set) are read through
 * h5rec_open_untrusted. Each either fails with a message naming the file,
 * or reads back exactly the games that were written: never a crash of this
 * process, never a quietly different record. */
static void test_corrupted_copies(void)
{
    char path[512], copy[600];
    path_for(path, sizeof path, "pristine.h5");
    h5rec_meta_t m = test_meta("games: [checkers]\n");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    HARNESS_OK(h5rec_set_checkpoint(h, 16, 0));
    const int64_t n = 48;
    append_range(h, 0, n);
    HARNESS_OK(h5rec_close(h));
    FILE *f = fopen(path, "rb");
    CU_ASSERT_FATAL(f != NULL);
    static uint8_t orig[1 << 20], buf[1 << 20];
    size_t len = fread(orig, 1, sizeof orig, f);
    fclose(f);
    CU_ASSERT_FATAL(len > 1024 && len < sizeof orig);
    snprintf(copy, sizeof copy, "%s/damaged.h5", tmpdir);
    int detected = 0, unchanged = 0, silent = 0, unnamed = 0;
    for (int i = 0; i < 120; i++) {
        rng_t rng;
        rng_init(&rng, 1000 + (uint64_t)i);
        memcpy(buf, orig, len);
        size_t at = (size_t)rng_below(&rng, (uint32_t)(len - 64));
        switch (i % 4) {
        case 0: /* 64 bytes overwritten */
            for (int k = 0; k < 64; k++) buf[at + k] = (uint8_t)rng_below(&rng, 256);
            break;
        case 1: /* eight bits flipped anywhere */
            for (int k = 0; k < 8; k++)
                buf[rng_below(&rng, (uint32_t)len)] ^= 1u << rng_below(&rng, 8);
            break;
        case 2: /* a word zeroed */ memset(buf + at, 0, 8); break;
        default: /* a length or offset made huge */ memcpy(buf + at, "\xff\xff\xff\x7f", 4);
        }
        f = fopen(copy, "wb");
        CU_ASSERT_FATAL(f != NULL);
        fwrite(buf, 1, len, f);
        fclose(f);
        h5rec_t *r = NULL;
        int rc = h5rec_open_untrusted(copy, &r);
        int same = rc == 0 && h5rec_count(r) == n;
        if (rc == 0) {
            const h5rec_meta_t *got = h5rec_meta(r);
            same = same && strcmp(got->config_text, "games: [checkers]\n") == 0 &&
                   strcmp(got->program_version, "test-1") == 0 && got->num_games == 2 &&
                   strcmp(got->game_specs[0], specs[0]) == 0 &&
                   strcmp(got->game_specs[1], specs[1]) == 0;
            for (int64_t g = 0; same && g < n; g++) {
                game_record_t rec;
                same = h5rec_read(r, g, &rec) == 0 && same_as_gen(g, &rec);
                game_record_free(&rec);
            }
            h5rec_close(r);
        }
        if (rc < 0) {
            detected++;
            if (!strstr(hoyle_last_error(), copy)) {
                unnamed++;
                fprintf(stderr, "copy %d: message without the file: %s\n", i, hoyle_last_error());
            }
        } else if (same) {
            unchanged++;
        } else {
            silent++;
            fprintf(stderr, "copy %d (mode %d, at %zu): read without error but different\n", i,
                    i % 4, at);
        }
    }
    fprintf(stderr, "    120 damaged copies: %d refused, %d read back unchanged\n", detected,
            unchanged);
    CU_ASSERT_EQUAL(silent, 0);
    CU_ASSERT_EQUAL(unnamed, 0);
    CU_ASSERT(detected > 60);
}

/* An old file (before checksums) that crashes libhdf5 1.10 in H5Dread when
 * read in-process: the child dies, this process gets an error naming it. */
static void test_crashing_file(void)
{
    const char *path = HOYLE_TEST_DATA "/h5rec/crashes_hdf5.h5";
    if (access(path, R_OK) != 0) {
        CU_FAIL("tests/data/h5rec/crashes_hdf5.h5 is missing");
        return;
    }
    h5rec_t *h = NULL;
    CU_ASSERT_EQUAL(h5rec_open_untrusted(path, &h), HOYLE_EIO);
    CU_ASSERT_PTR_NULL(h);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), path));
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "reading it: crashed"));
}

static void test_bad_input(void)
{
    char path[512];
    path_for(path, sizeof path, "bad.h5");
    h5rec_meta_t m = test_meta("");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    h5rec_t *h2 = NULL;
    CU_ASSERT(h5rec_create(path, &m, &h2) == HOYLE_EIO); /* never overwrite */
    CU_ASSERT(strstr(hoyle_last_error(), "already exists") != NULL);
    pid_t pid = fork(); /* a second writer (POSIX locks are per process) */
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0)
        _exit(h5rec_open_append(path, &m, &h2) == HOYLE_EIO &&
                      strstr(hoyle_last_error(), "another process") != NULL
                  ? 0
                  : 1);
    int status = 1;
    waitpid(pid, &status, 0);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    gen_buf_t b;
    game_record_t r;
    gen(1, &r, &b);
    r.result = 2;
    CU_ASSERT(h5rec_append(h, &r) == HOYLE_EINVAL);
    gen(1, &r, &b);
    r.game_spec = "chess";
    CU_ASSERT(h5rec_append(h, &r) == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "chess") != NULL);
    gen(1, &r, &b);
    r.num_actions = 5;
    r.actions = NULL;
    CU_ASSERT(h5rec_append(h, &r) == HOYLE_EINVAL);
    CU_ASSERT_EQUAL(h5rec_count(h), 0);
    HARNESS_OK(h5rec_close(h));
    h5rec_meta_t none = test_meta("");
    none.num_games = 0;
    char other[512];
    path_for(other, sizeof other, "none.h5");
    CU_ASSERT(h5rec_create(other, &none, &h) == HOYLE_EINVAL);
    CU_ASSERT(access(other, F_OK) != 0);
    CU_ASSERT_EQUAL(h5rec_close(NULL), 0);
}

static void test_resume(void)
{
    char path[512];
    path_for(path, sizeof path, "resume.h5");
    h5rec_meta_t m = test_meta("seed: 1\n");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    append_range(h, 0, 10);
    HARNESS_OK(h5rec_close(h));
    HARNESS_OK(h5rec_open_append(path, &m, &h));
    CU_ASSERT_EQUAL(h5rec_count(h), 10);
    append_range(h, 10, 25);
    HARNESS_OK(h5rec_checkpoint(h));
    append_range(h, 25, 30);
    CU_ASSERT(check_all(h, 30));
    HARNESS_OK(h5rec_close(h));
    HARNESS_OK(h5rec_open_append(path, NULL, &h)); /* no meta: no comparison */
    CU_ASSERT(check_all(h, 30));
    HARNESS_OK(h5rec_close(h));

    /* Another config or other games: refused, file untouched. */
    h5rec_meta_t other = test_meta("seed: 2\n");
    CU_ASSERT(h5rec_open_append(path, &other, &h) == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "another config") != NULL);
    other = test_meta("seed: 1\n");
    other.num_games = 1;
    CU_ASSERT(h5rec_open_append(path, &other, &h) == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "other games") != NULL);
}

/* ---- foreign files ---- */

static char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

static void write_bytes(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT(fwrite(bytes, 1, len, f) == len);
    fclose(f);
}

/* Opening `path` for append and for read fails with a message naming it
 * and `expect`, and leaves the file and its absent journal as they were. */
static void refuse(const char *path, const char *expect)
{
    size_t len0 = 0, len1 = 0;
    char *before = read_bytes(path, &len0), journal[600];
    snprintf(journal, sizeof journal, "%s.journal", path);
    h5rec_t *h = NULL;
    h5rec_meta_t m = test_meta("");
    int rc = h5rec_open_append(path, &m, &h);
    CU_ASSERT(rc == HOYLE_EIO);
    CU_ASSERT(strstr(hoyle_last_error(), path) != NULL);
    if (strstr(hoyle_last_error(), expect) == NULL)
        fprintf(stderr, "message '%s' lacks '%s'\n", hoyle_last_error(), expect);
    CU_ASSERT(strstr(hoyle_last_error(), expect) != NULL);
    CU_ASSERT(h5rec_open_read(path, &h) == HOYLE_EIO);
    char *after = read_bytes(path, &len1);
    CU_ASSERT(len0 == len1 && memcmp(before, after, len0) == 0);
    CU_ASSERT(access(journal, F_OK) != 0);
    free(before);
    free(after);
}

static void test_foreign_files(void)
{
    char path[512];
    /* a plain HDF5 file */
    path_for(path, sizeof path, "plain.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t n = 4;
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(f, "x", H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int v[4] = {1, 2, 3, 4};
    H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(f);
    refuse(path, "not a hoyle game-record file");
    /* a text file, an empty file */
    path_for(path, sizeof path, "text.h5");
    write_bytes(path, "games: 1\nnot hdf5 at all\n", 25);
    refuse(path, "not a readable HDF5 file");
    path_for(path, sizeof path, "empty.h5");
    write_bytes(path, "", 0);
    refuse(path, "not a readable HDF5 file");
    /* a truncated copy of a valid file */
    char good[512];
    path_for(good, sizeof good, "good.h5");
    h5rec_meta_t m = test_meta("");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(good, &m, &h));
    append_range(h, 0, 60);
    HARNESS_OK(h5rec_close(h));
    size_t len = 0;
    char *bytes = read_bytes(good, &len);
    path_for(path, sizeof path, "truncated.h5");
    write_bytes(path, bytes, len / 2);
    refuse(path, "not a readable HDF5 file");
    free(bytes);
    /* a missing file */
    path_for(path, sizeof path, "missing.h5");
    CU_ASSERT(h5rec_open_append(path, NULL, &h) == HOYLE_EIO);
    CU_ASSERT(access(path, F_OK) != 0);
}

/* ---- kill -9 ---- */

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

/* Child: resume the file and append games until killed, reporting each
 * index on `fd` after h5rec_append returned. */
static void writer_child(const char *path, int fd)
{
    h5rec_t *h = NULL;
    if (h5rec_open_append(path, NULL, &h) < 0) {
        fprintf(stderr, "child: %s\n", hoyle_last_error());
        _exit(2);
    }
    h5rec_set_checkpoint(h, 7, 0);
    gen_buf_t b;
    game_record_t r;
    for (int64_t i = h5rec_count(h);; i++) {
        gen(i, &r, &b);
        if (h5rec_append(h, &r) < 0) {
            fprintf(stderr, "child: %s\n", hoyle_last_error());
            _exit(3);
        }
        int32_t i32 = (int32_t)i;
        if (write(fd, &i32, 4) != 4) _exit(4);
    }
}

static void test_kill9(void)
{
    char path[512], tmp[600], journal[600];
    path_for(path, sizeof path, "killed.h5");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    snprintf(journal, sizeof journal, "%s.journal", path);
    h5rec_meta_t m = test_meta("kill: 9\n");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    HARNESS_OK(h5rec_close(h));
    rng_t rng;
    rng_init(&rng, 99);
    int rounds = UNDER_ASAN ? 4 : 12, in_checkpoint = 0, torn = 0;
    int64_t durable = -1;
    for (int round = 0; round < rounds; round++) {
        int fds[2];
        CU_ASSERT_FATAL(pipe(fds) == 0);
        pid_t pid = fork();
        CU_ASSERT_FATAL(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            writer_child(path, fds[1]);
        }
        close(fds[1]);
        /* wait until the child is appending, then a random moment more */
        int32_t got;
        ssize_t k = read(fds[0], &got, 4);
        CU_ASSERT_FATAL(k == 4);
        durable = got;
        sleep_us(20000 + (long)rng_below(&rng, UNDER_ASAN ? 200000 : 80000));
        kill(pid, SIGKILL);
        int status = 0;
        waitpid(pid, &status, 0);
        CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        while (read(fds[0], &got, 4) == 4) durable = got;
        close(fds[0]);
        in_checkpoint += access(tmp, F_OK) == 0;
        struct stat st;
        torn += stat(journal, &st) == 0 && st.st_size > 24;

        /* The .h5 opens with plain HDF5 (as h5py would) ... */
        hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        CU_ASSERT(f >= 0);
        if (f >= 0) H5Fclose(f);
        /* ... and every game reported durable is there, intact. */
        HARNESS_OK(h5rec_open_read(path, &h));
        int64_t count = h5rec_count(h);
        CU_ASSERT(count == durable + 1 || count == durable + 2);
        CU_ASSERT(check_all(h, count));
        h5rec_close(h);
        fprintf(stderr, "  kill %d: %lld durable, %lld in file%s\n", round, (long long)durable + 1,
                (long long)count, access(tmp, F_OK) == 0 ? " (killed in a checkpoint)" : "");
    }
    fprintf(stderr, "  %d kills, %d during a checkpoint, %d with games only in the journal\n",
            rounds, in_checkpoint, torn);
    /* A resume folds the journal in; the file is then complete on its own. */
    HARNESS_OK(h5rec_open_append(path, &m, &h));
    int64_t count = h5rec_count(h);
    CU_ASSERT(count >= durable + 1);
    HARNESS_OK(h5rec_close(h));
    CU_ASSERT(access(journal, F_OK) != 0);
    CU_ASSERT(access(tmp, F_OK) != 0);
    HARNESS_OK(h5rec_open_read(path, &h));
    CU_ASSERT(check_all(h, count));
    h5rec_close(h);
}

/* A writer that dies (without closing) after appending games [from, to). */
static void die_after(const char *path, int64_t from, int64_t to)
{
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        h5rec_t *h = NULL;
        if (h5rec_open_append(path, NULL, &h) < 0 || h5rec_set_checkpoint(h, 1000, 0) < 0) _exit(2);
        append_range(h, from, to);
        _exit(0);
    }
    int status = 1;
    waitpid(pid, &status, 0);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_journal_recovery(void)
{
    char path[512], journal[600];
    path_for(path, sizeof path, "journal.h5");
    snprintf(journal, sizeof journal, "%s.journal", path);
    h5rec_meta_t m = test_meta("");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    append_range(h, 0, 3);
    HARNESS_OK(h5rec_close(h));
    die_after(path, 3, 8); /* games 3..7 only in the journal */

    /* A torn last entry (the game in flight) is ignored, then cut. */
    size_t len = 0;
    char *bytes = read_bytes(journal, &len);
    CU_ASSERT_FATAL(bytes != NULL && len > 40);
    write_bytes(journal, bytes, len - 7);
    HARNESS_OK(h5rec_open_read(path, &h));
    CU_ASSERT(check_all(h, 7));
    h5rec_close(h);
    HARNESS_OK(h5rec_open_append(path, &m, &h));
    CU_ASSERT(check_all(h, 7));
    append_range(h, 7, 9);
    HARNESS_OK(h5rec_close(h));

    /* Killed after the rename but before the journal was emptied: the old
     * entries are already in the file and must not be added twice. */
    die_after(path, 9, 12);
    free(bytes);
    bytes = read_bytes(journal, &len);
    HARNESS_OK(h5rec_open_append(path, &m, &h));
    HARNESS_OK(h5rec_close(h));
    write_bytes(journal, bytes, len);
    HARNESS_OK(h5rec_open_read(path, &h));
    CU_ASSERT(check_all(h, 12));
    h5rec_close(h);
    HARNESS_OK(h5rec_open_append(path, &m, &h));
    append_range(h, 12, 13);
    CU_ASSERT(check_all(h, 13));
    HARNESS_OK(h5rec_close(h));

    /* A journal from another file is refused, and nothing is touched. */
    die_after(path, 13, 14);
    free(bytes);
    bytes = read_bytes(journal, &len);
    bytes[20] ^= 0x55; /* inside the file id */
    write_bytes(journal, bytes, len);
    CU_ASSERT(h5rec_open_read(path, &h) == HOYLE_EIO);
    CU_ASSERT(strstr(hoyle_last_error(), "belongs to another file") != NULL);
    CU_ASSERT(h5rec_open_append(path, &m, &h) == HOYLE_EIO);
    size_t len2 = 0;
    char *after = read_bytes(journal, &len2);
    CU_ASSERT(len2 == len && memcmp(after, bytes, len) == 0);
    free(after);
    free(bytes);
}

/* ---- cost: a benchmark, not a test (`test_h5rec --bench`, scripts/bench-h5rec) ---- */

static void measure(const char *name, int checkpoint_games, int games)
{
    char path[512];
    path_for(path, sizeof path, name);
    h5rec_meta_t m = test_meta("");
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_create(path, &m, &h));
    HARNESS_OK(h5rec_set_checkpoint(h, checkpoint_games, 0));
    double t0 = clock_seconds();
    append_range(h, 0, games);
    double t_append = clock_seconds() - t0;
    HARNESS_OK(h5rec_close(h));
    double dt = clock_seconds() - t0;
    struct stat st;
    stat(path, &st);
    fprintf(stderr,
            "  checkpoint every %d: %d games, %.1f us/game appending, %.1f us/game with "
            "the final checkpoint, file %.1f KiB\n",
            checkpoint_games, games, 1e6 * t_append / games, 1e6 * dt / games,
            (double)st.st_size / 1024);
}

static void bench_append_cost(void)
{
    int games = UNDER_ASAN ? 300 : 2000;
    measure("cost_journal.h5", 1 << 30, games); /* journal only, one checkpoint at close */
    measure("cost256.h5", 256, games);
    if (UNDER_ASAN) return; /* slow there, and the figures mean little */
    measure("cost16.h5", 16, games);
    measure("cost1.h5", 1, 300);
}

/* `test_h5rec --bench`: the append cost per checkpoint interval, timed; nothing asserted
 * but that the appends succeed. Without arguments: the tests. */
int main(int argc, char **argv)
{
    static const harness_test_t bench[] = {{"append cost", bench_append_cost}, {NULL, NULL}};
    bool timing = argc == 2 && strcmp(argv[1], "--bench") == 0;
    static const harness_test_t tests[] = {
        {"round trip (empty, long, openings, unused seats)", test_round_trip},
        {"root attributes and datasets", test_attributes},
        {"checksums: Fletcher-32 and string CRCs", test_checksums_present},
        {"120 damaged copies: refused or unchanged", test_corrupted_copies},
        {"a file that crashes libhdf5 is an error", test_crashing_file},
        {"bad records and arguments", test_bad_input},
        {"append after reopen, meta mismatch", test_resume},
        {"foreign files are refused untouched", test_foreign_files},
        {"torn journal tail, stale and foreign journals", test_journal_recovery},
        {"kill -9 during appends", test_kill9},
        {NULL, NULL}};
    int rc = timing ? harness_run("h5rec bench", bench) : harness_run("h5rec", tests);
    if (harness_remove_tree(tmpdir) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    return rc;
}
