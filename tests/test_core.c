/* test_core.c — the spec parser and parameter binder, the PRNG, errors,
 * child processes (lines, timeouts, a dead child without SIGPIPE). */
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "core/child.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/sandbox.h"
#include "core/spec.h"
#include "tests/harness.h"

static const param_def_t schema[] = {
    {.key = "board", .type = PARAM_INT, .def = "8", .min = 5, .max = 19, .help = "board size"},
    {.key = "c", .type = PARAM_DOUBLE, .def = "1.25", .min = 0, .max = 100, .help = "exploration"},
    {.key = "exact", .type = PARAM_BOOL, .def = "false", .help = "exact five"},
    {.key = "variant", .type = PARAM_CHOICE, .def = "english", .choices = "english|losing|polish"},
    {.key = "model", .type = PARAM_STRING, .def = "", .help = "path"},
    {.key = NULL},
};

static void test_parse_forms(void)
{
    spec_t s;
    HARNESS_OK(spec_parse("gobang", &s));
    CU_ASSERT_STRING_EQUAL(s.name, "gobang");
    CU_ASSERT_EQUAL(s.num_params, 0);
    HARNESS_OK(spec_parse("  gobang ( board = 15 , men=0 )  ", &s));
    CU_ASSERT_STRING_EQUAL(s.name, "gobang");
    CU_ASSERT_EQUAL(s.num_params, 2);
    CU_ASSERT_STRING_EQUAL(s.params[0].key, "board");
    CU_ASSERT_STRING_EQUAL(s.params[0].value, "15");
    CU_ASSERT_STRING_EQUAL(s.params[1].value, "0");
    HARNESS_OK(spec_parse("az(eval=net(path=a.pt,x=1),sims=8)", &s));
    CU_ASSERT_EQUAL(s.num_params, 2);
    CU_ASSERT_STRING_EQUAL(s.params[0].value, "net(path=a.pt,x=1)");
    HARNESS_OK(spec_parse("random()", &s));
    CU_ASSERT_EQUAL(s.num_params, 0);
}

static void test_parse_errors_write_nothing(void)
{
    static const char *const bad[] = {"",      "(",        "x(",         "x(a)",    "x(a=)",
                                      "x(=1)", "x(a=1,)",  "x(a=1,a=2)", "x(a=1))", "x(a=(1)",
                                      "x)y",   "x(a=1) y", "!x",         NULL};
    for (int i = 0; bad[i]; i++) {
        spec_t s;
        memset(&s, 0x5A, sizeof s);
        spec_t copy = s;
        int st = spec_parse(bad[i], &s);
        CU_ASSERT_EQUAL(st, HOYLE_EINVAL);
        CU_ASSERT(memcmp(&s, &copy, sizeof s) == 0);
        CU_ASSERT(hoyle_last_error()[0] != '\0');
    }
}

static void test_bind_defaults_and_types(void)
{
    spec_t s;
    params_t p;
    HARNESS_OK(spec_parse("g(board=15,exact=yes,variant=polish,model=a/b.pt)", &s));
    HARNESS_OK(params_bind(schema, &s, "g", &p));
    CU_ASSERT_EQUAL(params_int(&p, "board"), 15);
    CU_ASSERT_DOUBLE_EQUAL(params_double(&p, "c"), 1.25, 1e-12);
    CU_ASSERT_TRUE(params_bool(&p, "exact"));
    CU_ASSERT_EQUAL(params_choice(&p, "variant"), 2);
    CU_ASSERT_STRING_EQUAL(params_str(&p, "variant"), "polish");
    CU_ASSERT_STRING_EQUAL(params_str(&p, "model"), "a/b.pt");
    char buf[256];
    CU_ASSERT(params_format(&p, "g", buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "g(board=15,c=1.25,exact=yes,variant=polish,model=a/b.pt)");
    CU_ASSERT_EQUAL(params_format(&p, "g", buf, 10), HOYLE_EFULL);
}

static void expect_bind_error(const char *text, const char *needle)
{
    spec_t s;
    params_t p;
    memset(&p, 0x33, sizeof p);
    params_t copy = p;
    HARNESS_OK(spec_parse(text, &s));
    CU_ASSERT_EQUAL(params_bind(schema, &s, "g", &p), HOYLE_EINVAL);
    CU_ASSERT(memcmp(&p, &copy, sizeof p) == 0);
    if (!strstr(hoyle_last_error(), needle))
        fprintf(stderr, "message '%s' lacks '%s'\n", hoyle_last_error(), needle);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), needle));
}

static void test_bind_errors_name_the_key(void)
{
    expect_bind_error("g(size=3)", "unknown parameter 'size' (known: board, c, exact");
    expect_bind_error("g(bord=9)", "g: unknown parameter 'bord' (did you mean 'board'? known: ");
    expect_bind_error("g(exakt=1)", "(did you mean 'exact'?");
    expect_bind_error("g(mod=1)", "(did you mean 'model'?"); /* a prefix */
    expect_bind_error("g(board=99)", "board: 99 is out of range");
    expect_bind_error("g(board=4)", "board");
    expect_bind_error("g(board=8.5)", "board: '8.5' is not an integer");
    expect_bind_error("g(c=abc)", "c: 'abc' is not a number");
    expect_bind_error("g(c=nan)", "c:");
    expect_bind_error("g(exact=maybe)", "exact: 'maybe' is not a boolean");
    expect_bind_error("g(variant=russian)",
                      "variant: 'russian' is not one of english, losing, polish");
}

/* Where the rows of landing_schema land. */
typedef struct landing {
    char pad;
    short depth;
    int board;
    long long nodes;
    bool exact;
    float scale;
    double c;
    int variant;
    char model[8];
} landing_t;

static const param_def_t landing_schema[] = {
    {.key = "board",
     .type = PARAM_INT,
     .def = "8",
     .min = 5,
     .max = 19,
     PARAM_AT(landing_t, board)},
    {.key = "depth",
     .type = PARAM_INT,
     .def = "-3",
     .min = -9,
     .max = 9,
     PARAM_AT(landing_t, depth)},
    {.key = "nodes",
     .type = PARAM_INT,
     .def = "5000000000",
     .min = 0,
     .max = 1e12,
     .units = "nodes",
     PARAM_AT(landing_t, nodes)},
    {.key = "exact", .type = PARAM_BOOL, .def = "on", PARAM_AT(landing_t, exact)},
    {.key = "scale",
     .type = PARAM_DOUBLE,
     .def = "0.5",
     .min = 0,
     .max = 1,
     PARAM_AT(landing_t, scale)},
    {.key = "c", .type = PARAM_DOUBLE, .def = "1.25", .min = 0, .max = 100, PARAM_AT(landing_t, c)},
    {.key = "variant",
     .type = PARAM_CHOICE,
     .def = "polish",
     .choices = "english|losing|polish",
     PARAM_AT(landing_t, variant)},
    {.key = "model", .type = PARAM_STRING, .def = "a.pt", PARAM_AT(landing_t, model)},
    {.key = "free", .type = PARAM_INT, .def = "1", .min = 0, .max = 2, .help = "read by name"},
    {.key = NULL},
};

/* Every landing size the binder writes, and a STRING too long for its array
 * refused at bind time, naming the key and the limit. */
static void test_bind_lands_in_a_struct(void)
{
    spec_t s;
    params_t p;
    landing_t l;
    memset(&l, 0x5A, sizeof l);
    HARNESS_OK(spec_parse("x(board=19,c=2.5,exact=False)", &s));
    HARNESS_OK(params_bind(landing_schema, &s, "x", &p));
    params_store(&p, &l);
    CU_ASSERT_EQUAL(l.pad, 0x5A); /* untouched */
    CU_ASSERT_EQUAL(l.board, 19);
    CU_ASSERT_EQUAL(l.depth, -3);
    CU_ASSERT_EQUAL(l.nodes, 5000000000LL);
    CU_ASSERT_FALSE(l.exact);
    CU_ASSERT_DOUBLE_EQUAL(l.scale, 0.5, 1e-7);
    CU_ASSERT_DOUBLE_EQUAL(l.c, 2.5, 1e-12);
    CU_ASSERT_EQUAL(l.variant, 2);
    CU_ASSERT_STRING_EQUAL(l.model, "a.pt");
    HARNESS_OK(spec_parse("x(model=abcdefgh)", &s));
    CU_ASSERT_EQUAL(params_bind(landing_schema, &s, "x", &p), HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(),
                           "x: model: 'abcdefgh...' is longer than 7 characters");
    HARNESS_OK(spec_parse("x(model=abcdefg)", &s));
    HARNESS_OK(params_bind(landing_schema, &s, "x", &p));
    CU_ASSERT_EQUAL(param_value(&landing_schema[2], "nodes", "-1", "x", &(double){0}),
                    HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "x: nodes: -1 is out of range [0, 1000000000000]");
}

/* param_text reads back what params_store landed, one text per type (a training run's
 * effective config is these texts), and param_is_default compares with the row's default
 * written the same way. */
static void test_text_reads_the_landing(void)
{
    spec_t s;
    params_t p;
    landing_t l;
    memset(&l, 0, sizeof l);
    HARNESS_OK(spec_parse("x(board=19,c=1e-3,exact=False,variant=losing,model=b.pt)", &s));
    HARNESS_OK(params_bind(landing_schema, &s, "x", &p));
    params_store(&p, &l);
    static const char *const want[] = {"19",    "-3",     "5000000000", "false", "0.5",
                                       "0.001", "losing", "b.pt",       ""};
    char text[64];
    for (int i = 0; landing_schema[i].key; i++) {
        int n = param_text(&landing_schema[i], &l, text, sizeof text);
        CU_ASSERT_EQUAL(n, (int)strlen(want[i]));
        CU_ASSERT_STRING_EQUAL(text, want[i]);
    }
    CU_ASSERT_DOUBLE_EQUAL(l.scale, 0.5, 1e-7); /* a float: 0.5 exactly */
    CU_ASSERT_FALSE(param_is_default(&landing_schema[0], "19"));
    CU_ASSERT_TRUE(param_is_default(&landing_schema[1], "-3"));
    CU_ASSERT_TRUE(param_is_default(&landing_schema[3], "true")); /* "on", as written back */
    CU_ASSERT_TRUE(param_is_default(&landing_schema[5], "1.25"));
    CU_ASSERT_TRUE(param_is_default(&landing_schema[6], "polish"));
    CU_ASSERT_FALSE(param_is_default(&landing_schema[6], "losing"));
    CU_ASSERT_TRUE(param_is_default(&landing_schema[7], "a.pt"));
    l.nodes = -1; /* a row of non-negative values reads unsigned (seeds up to 2^64 - 1) */
    HARNESS_OK(param_text(&landing_schema[2], &l, text, sizeof text) > 0 ? HOYLE_OK : -1);
    CU_ASSERT_STRING_EQUAL(text, "18446744073709551615");
    CU_ASSERT_EQUAL(param_text(&landing_schema[2], &l, text, 8), HOYLE_EFULL);
}

/* The nearest name: typos within two edits and prefixes; nothing far. */
static void test_nearest_name(void)
{
    CU_ASSERT_STRING_EQUAL(spec_nearest("bord", params_key_at, landing_schema), "board");
    CU_ASSERT_STRING_EQUAL(spec_nearest("varaint", params_key_at, landing_schema), "variant");
    CU_ASSERT_STRING_EQUAL(spec_nearest("mod", params_key_at, landing_schema), "model");
    CU_ASSERT_PTR_NULL(spec_nearest("x", params_key_at, landing_schema));
    CU_ASSERT_PTR_NULL(spec_nearest("temperature", params_key_at, landing_schema));
    CU_ASSERT_EQUAL(spec_unknown("unknown thing", "cc", params_key_at, landing_schema),
                    HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(),
                           "unknown thing 'cc' (did you mean 'c'? known: board, depth, nodes, "
                           "exact, scale, c, variant, model, free)");
}

/* The docs table of a schema: one row per key, sections expanded. */
static void test_markdown_table(void)
{
    static const param_def_t outer[] = {
        {.key = "seed", .type = PARAM_INT, .def = "1", .min = 0, .max = 9e15, .help = "seed"},
        {.key = "game", .type = PARAM_STRING, .required = true, .help = "game spec"},
        {.key = "x", .type = PARAM_SECTION, .fields = landing_schema, .help = "inner"},
        {.key = NULL},
    };
    char buf[4096];
    CU_ASSERT(params_markdown(outer, "", buf, sizeof buf) > 0);
    CU_ASSERT(strncmp(buf,
                      "| key | type | default | meaning |\n| --- | --- | --- | --- |\n"
                      "| `seed` | int ≥ 0 | `1` | seed |\n"
                      "| `game` | text, required |  | game spec |\n"
                      "| `x` | section | — | inner |\n"
                      "| `x.board` | int 5–19 | `8` |  |\n",
                      strlen("| key | type | default | meaning |\n| --- | --- | --- | --- |\n"
                             "| `seed` | int ≥ 0 | `1` | seed |\n"
                             "| `game` | text, required |  | game spec |\n"
                             "| `x` | section | — | inner |\n"
                             "| `x.board` | int 5–19 | `8` |  |\n")) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| `x.nodes` | int 0–1000000000000 nodes | `5000000000` |"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(buf, "| `x.variant` | one of english, losing, polish | `polish` |"));
    CU_ASSERT_EQUAL(params_markdown(outer, "", buf, 64), HOYLE_EFULL);
}

/* A quiet row is left out of the canonical text while at its default, and shown otherwise
 * (a parameter added after the texts that records and golden files hold). */
static void test_format_quiet_rows(void)
{
    static const param_def_t defs[] = {
        {.key = "board", .type = PARAM_INT, .def = "8", .min = 5, .max = 19},
        {.key = "odds", .type = PARAM_BOOL, .def = "false", .quiet = true},
        {.key = NULL},
    };
    spec_t s;
    params_t p;
    char buf[64];
    HARNESS_OK(spec_parse("g(board=9)", &s));
    HARNESS_OK(params_bind(defs, &s, "g", &p));
    CU_ASSERT(params_format(&p, "g", buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "g(board=9)");
    HARNESS_OK(spec_parse("g(odds=true)", &s));
    HARNESS_OK(params_bind(defs, &s, "g", &p));
    CU_ASSERT(params_format(&p, "g", buf, sizeof buf) > 0);
    CU_ASSERT_STRING_EQUAL(buf, "g(board=8,odds=true)");
}

/* A row of non-negative integers reads the whole uint64 range (seeds, command-line values)
 * and refuses "-1" as out of range, never wrapped; ranges read as help texts print them. */
static void test_unsigned_values_and_range_text(void)
{
    const param_def_t seed = {.key = "--seed", .type = PARAM_INT, .min = 0, .max = 0x1p64};
    const param_def_t games = {.key = "--games", .type = PARAM_INT, .min = 1, .max = 1000000};
    const param_def_t eval = {.key = "e", .type = PARAM_CHOICE, .choices = "md|lc|pdb"};
    double v = 0;
    HARNESS_OK(param_value(&seed, NULL, "18446744073709551615", "--seed", &v));
    CU_ASSERT(v > 1.8e19);
    CU_ASSERT_EQUAL(param_value(&seed, NULL, "-1", "--seed", &v), HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "--seed: -1 is less than 0");
    CU_ASSERT_EQUAL(param_value(&seed, NULL, "18446744073709551616", "--seed", &v), HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "--seed: '18446744073709551616' is not an integer");
    char buf[64];
    param_range_text(&seed, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, " [0..]");
    param_range_text(&games, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, " [1..1000000]");
    param_range_text(&eval, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, " {md|lc|pdb}");
}

/* A schema of SPEC_MAX_PARAMS keys binds; one more is a reported error
 * (HOYLE_EFULL naming the schema), never an abort, and writes nothing. */
static void test_bind_schema_too_long(void)
{
    static char keys[SPEC_MAX_PARAMS + 1][8];
    param_def_t defs[SPEC_MAX_PARAMS + 2];
    for (int j = 0; j <= SPEC_MAX_PARAMS; j++) {
        snprintf(keys[j], sizeof keys[j], "k%d", j);
        defs[j] = (param_def_t){.key = keys[j], .type = PARAM_INT, .def = "1", .max = 9};
    }
    defs[SPEC_MAX_PARAMS + 1] = (param_def_t){.key = NULL};
    spec_t s;
    HARNESS_OK(spec_parse("big(k3=7)", &s));
    params_t p;
    memset(&p, 0x33, sizeof p);
    params_t copy = p;
    CU_ASSERT_EQUAL(params_bind(defs, &s, "big", &p), HOYLE_EFULL);
    CU_ASSERT(memcmp(&p, &copy, sizeof p) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "big: the schema has more than"));
    defs[SPEC_MAX_PARAMS] = (param_def_t){.key = NULL}; /* exactly the limit binds */
    HARNESS_OK(params_bind(defs, &s, "big", &p));
    CU_ASSERT_EQUAL(p.num, SPEC_MAX_PARAMS);
    CU_ASSERT_EQUAL(params_int(&p, "k3"), 7);
    CU_ASSERT_TRUE(params_has(&p, "k0"));
    CU_ASSERT_FALSE(params_has(&p, "nosuch"));
}

static void test_rng_reproducible_and_uniform(void)
{
    rng_t a, b;
    rng_init(&a, 42);
    rng_init(&b, 42);
    for (int i = 0; i < 1000; i++) CU_ASSERT_EQUAL(rng_next(&a), rng_next(&b));
    rng_init(&b, 43);
    CU_ASSERT_NOT_EQUAL(rng_next(&a), rng_next(&b));
    /* rng_below: chi-square over 10 buckets, 100k draws; 99.9% critical value 27.9. */
    int counts[10] = {0};
    for (int i = 0; i < 100000; i++) counts[rng_below(&a, 10)]++;
    double chi = 0;
    for (int k = 0; k < 10; k++) chi += (counts[k] - 10000.0) * (counts[k] - 10000.0) / 10000.0;
    CU_ASSERT(chi < 27.9);
    double sum = 0;
    for (int i = 0; i < 100000; i++) {
        double u = rng_double(&a);
        CU_ASSERT(u >= 0.0 && u < 1.0);
        sum += u;
    }
    CU_ASSERT(fabs(sum / 100000 - 0.5) < 0.01);
    /* Gamma(alpha) has mean alpha: check a small and a large shape. */
    for (int k = 0; k < 2; k++) {
        double alpha = k ? 3.0 : 0.3, m = 0;
        for (int i = 0; i < 50000; i++) m += rng_gamma(&a, alpha);
        CU_ASSERT(fabs(m / 50000 - alpha) < 0.05 * alpha + 0.01);
    }
}

static void test_error_message(void)
{
    hoyle_clear_error();
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "");
    CU_ASSERT_EQUAL(hoyle_error(HOYLE_EIO, "file '%s': %d", "x.h5", 3), HOYLE_EIO);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "file 'x.h5': 3");
}

static void test_error_prefix_keeps_reason(void)
{
    hoyle_error(HOYLE_EINVAL, "gobang: board: %d is out of range [5, 19]", 99);
    CU_ASSERT_EQUAL(hoyle_error_prefix(HOYLE_EIO, "t.yaml:%d: key '%s'", 2, "games[0]"), HOYLE_EIO);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(),
                           "t.yaml:2: key 'games[0]': gobang: board: 99 is out of range [5, 19]");
    /* two levels, as a book error inside a config error */
    hoyle_error(HOYLE_EINVAL, "no such move");
    hoyle_error_prefix(HOYLE_EINVAL, "book.txt:%d: move '%s'", 3, "9-14");
    hoyle_error_prefix(HOYLE_EINVAL, "x.yaml:6: key 'openings.checkers'");
    CU_ASSERT_STRING_EQUAL(
        hoyle_last_error(),
        "x.yaml:6: key 'openings.checkers': book.txt:3: move '9-14': no such move");
    /* no current message: the prefix alone, without a dangling ": " */
    hoyle_clear_error();
    hoyle_error_prefix(HOYLE_EINVAL, "where");
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "where");
    /* an empty prefix leaves the message as it was */
    hoyle_error_prefix(HOYLE_EINVAL, "%s", "");
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "where");
}

static void test_error_arguments_may_overlap(void)
{
    /* the bug this guards: formatting hoyle_last_error() into the buffer it
     * points to overwrote the reason with the prefix before reading it */
    hoyle_error(HOYLE_EINVAL, "the real reason");
    CU_ASSERT_EQUAL(hoyle_error(HOYLE_EIO, "ctx: %s", hoyle_last_error()), HOYLE_EIO);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "ctx: the real reason");
    hoyle_error_prefix(HOYLE_EINVAL, "%s", hoyle_last_error());
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "ctx: the real reason: ctx: the real reason");
    hoyle_error(HOYLE_EINVAL, "%s", hoyle_last_error() + 5);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "the real reason: ctx: the real reason");
}

static void test_error_truncation(void)
{
    char big[2 * HOYLE_ERROR_MAX];
    memset(big, 'r', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    /* a message longer than the buffer keeps its first HOYLE_ERROR_MAX - 1 bytes */
    hoyle_error(HOYLE_EINVAL, "%s", big);
    CU_ASSERT_EQUAL(strlen(hoyle_last_error()), HOYLE_ERROR_MAX - 1);
    /* prefix + reason too long: the prefix stays whole, the reason's tail goes */
    char where[201];
    memset(where, 'p', 200);
    where[200] = '\0';
    hoyle_error(HOYLE_EINVAL, "reason-%s", big + 600);
    hoyle_error_prefix(HOYLE_EINVAL, "%s", where);
    const char *m = hoyle_last_error();
    CU_ASSERT_EQUAL(strlen(m), HOYLE_ERROR_MAX - 1);
    CU_ASSERT_EQUAL(strncmp(m, where, 200), 0);
    CU_ASSERT_EQUAL(strncmp(m + 200, ": reason-rrr", 12), 0);
    CU_ASSERT_EQUAL(m[HOYLE_ERROR_MAX - 2], 'r');
    /* a prefix longer than the buffer: only the prefix, cut */
    hoyle_error(HOYLE_EINVAL, "reason");
    hoyle_error_prefix(HOYLE_EINVAL, "%s", big);
    CU_ASSERT_EQUAL(strlen(hoyle_last_error()), HOYLE_ERROR_MAX - 1);
    CU_ASSERT_PTR_NULL(strstr(hoyle_last_error(), "reason"));
    /* a prefix that exactly fills the buffer leaves no room for ": " */
    big[HOYLE_ERROR_MAX - 1] = '\0';
    hoyle_error(HOYLE_EINVAL, "reason");
    hoyle_error_prefix(HOYLE_EINVAL, "%s", big);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), big);
}

/* Control characters in a message (quoted user input) are escaped, so every
 * message prints as one line; storing it again changes nothing; an escape
 * that does not fit at the end is left out whole. */
static void test_error_escapes_control_characters(void)
{
    hoyle_error(HOYLE_EINVAL, "position '%s': bad", "a\nb\r\tc\x01\x7f");
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "position 'a\\nb\\r\\tc\\x01\\x7f': bad");
    hoyle_error_prefix(HOYLE_EINVAL, "in\n%s", "x");
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "in\\nx: position 'a\\nb\\r\\tc\\x01\\x7f': bad");
    char text[HOYLE_ERROR_MAX];
    memset(text, 'r', sizeof text - 2);
    text[sizeof text - 2] = '\n'; /* its escape needs 2 bytes where 1 is left */
    text[sizeof text - 1] = '\0';
    hoyle_error(HOYLE_EINVAL, "%s", text);
    CU_ASSERT_EQUAL(strlen(hoyle_last_error()), HOYLE_ERROR_MAX - 2);
    CU_ASSERT_PTR_NULL(strchr(hoyle_last_error(), '\\'));
}

/* Lines through `cat`: CRLF and LF endings, several lines in one write; a
 * poll that finds nothing leaves the child usable, a read that times out
 * breaks it, and a broken child fails at once. */
static void test_child_lines_and_timeouts(void)
{
    char *argv[] = {"cat", NULL};
    child_t *c = NULL;
    CU_ASSERT(child_program_exists("cat"));
    HARNESS_OK(child_open("cat", argv, NULL, &c));
    if (!c) return;
    HARNESS_OK(child_printf(c, "hello %d\r\nworld\n", 42));
    char *line = NULL;
    HARNESS_OK(child_read_line(c, child_now_ms() + 5000, &line));
    CU_ASSERT_STRING_EQUAL(line, "hello 42");
    HARNESS_OK(child_read_line(c, child_now_ms() + 5000, &line));
    CU_ASSERT_STRING_EQUAL(line, "world");
    long long t0 = child_now_ms();
    CU_ASSERT_EQUAL(child_poll_line(c, t0 + 50, &line), 0);
    CU_ASSERT(child_now_ms() - t0 >= 50);
    CU_ASSERT(!child_broken(c));
    HARNESS_OK(child_send(c, "again\n", 6));
    CU_ASSERT_EQUAL(child_poll_line(c, child_now_ms() + 5000, &line), 1);
    CU_ASSERT_STRING_EQUAL(line, "again");
    CU_ASSERT_EQUAL(child_read_line(c, child_now_ms() + 50, &line), HOYLE_EIO);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "cat: no reply within the timeout");
    CU_ASSERT(child_broken(c));
    CU_ASSERT_EQUAL(child_send(c, "x\n", 2), HOYLE_EIO);
    child_close(c, "quit\n", 1000);
    child_close(NULL, NULL, 0);
}

/* A child that exits: end of input, its exit status, and writes to it fail
 * with HOYLE_EIO instead of killing this process with SIGPIPE. A missing
 * program is HOYLE_EUNSUP before anything starts. */
static void test_child_dead(void)
{
    char *argv[] = {"/bin/sh", "-c", "exit 3", NULL};
    child_t *c = NULL;
    HARNESS_OK(child_open("sh", argv, NULL, &c));
    if (!c) return;
    char *line;
    CU_ASSERT_EQUAL(child_read_line(c, child_now_ms() + 5000, &line), HOYLE_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "sh: the process exited (end of input)"));
    int status = child_exit_status(c, 5000);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 3);
    child_close(c, NULL, 0);

    char *quiet[] = {"/bin/sh", "-c", "exit 0", NULL};
    HARNESS_OK(child_open("sh", quiet, NULL, &c));
    if (!c) return;
    child_exit_status(c, 5000); /* gone: its end of the socket is closed */
    static char big[65536];
    memset(big, 'x', sizeof big);
    int rc = HOYLE_OK;
    for (int i = 0; i < 64 && rc == HOYLE_OK; i++) rc = child_send(c, big, sizeof big);
    CU_ASSERT_EQUAL(rc, HOYLE_EIO); /* and no SIGPIPE: we are still here */
    CU_ASSERT(child_broken(c));
    child_close(c, "quit\n", 1000);

    char *missing[] = {"/nonexistent/hoyle-engine", NULL};
    c = NULL;
    CU_ASSERT_EQUAL(child_open("eng", missing, NULL, &c), HOYLE_EUNSUP);
    CU_ASSERT_PTR_NULL(c);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "'/nonexistent/hoyle-engine'"));
    CU_ASSERT(!child_program_exists("no-such-program-hoyle-test"));
    CU_ASSERT(!child_program_exists(""));
}

/* ---- sandbox ---- */

static int sb_answer(void *arg, int fd)
{
    (void)arg;
    return write(fd, "hello", 5) == 5 ? 0 : hoyle_error(HOYLE_EIO, "short write");
}

static int sb_crash(void *arg, int fd)
{
    (void)arg;
    (void)fd;
    raise(SIGSEGV); /* what a library tripping over a damaged file does */
    return 0;
}

static int sb_fail(void *arg, int fd)
{
    (void)fd;
    return hoyle_error(HOYLE_EINVAL, "file '%s': checksum mismatch", (const char *)arg);
}

static int sb_hang(void *arg, int fd)
{
    (void)arg;
    (void)fd;
    for (;;) pause();
    return 0;
}

static int sb_flood(void *arg, int fd)
{
    (void)arg;
    static char block[4096];
    for (;;)
        if (write(fd, block, sizeof block) < 0) return 0;
}

/* A function run by sandbox_run: its answer comes back; a crash, its own
 * error, a hang and a flood of output are errors of the caller, who lives on
 * (issue 36, item 12: a damaged file must not take a server down). */
static void test_sandbox(void)
{
    uint8_t *out = NULL;
    size_t len = 0;
    HARNESS_OK(sandbox_run("t", sb_answer, NULL, NULL, &out, &len));
    CU_ASSERT_EQUAL(len, 5);
    CU_ASSERT(out && strcmp((char *)out, "hello") == 0);
    CU_ASSERT(!sandbox_in_child());
    free(out);

    CU_ASSERT_EQUAL(sandbox_run("file 'x.h5': reading it", sb_crash, NULL, NULL, &out, &len),
                    HOYLE_EIO);
    CU_ASSERT_PTR_NULL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "file 'x.h5': reading it: crashed"));

    CU_ASSERT_EQUAL(sandbox_run("t", sb_fail, "y.h5", NULL, &out, &len), HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "file 'y.h5': checksum mismatch");

    sandbox_limits_t lim;
    sandbox_limits_default(&lim);
    lim.wall_ms = 200;
    CU_ASSERT_EQUAL(sandbox_run("t", sb_hang, NULL, &lim, &out, &len), HOYLE_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "no answer within 200 ms"));
    sandbox_limits_default(&lim);
    lim.output_bytes = 1 << 16;
    CU_ASSERT_EQUAL(sandbox_run("t", sb_flood, NULL, &lim, &out, &len), HOYLE_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "more than 65536 bytes"));
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"spec forms", test_parse_forms},
        {"spec errors write nothing", test_parse_errors_write_nothing},
        {"schema longer than SPEC_MAX_PARAMS is an error", test_bind_schema_too_long},
        {"bind defaults and types", test_bind_defaults_and_types},
        {"bind errors name the key", test_bind_errors_name_the_key},
        {"bind lands in a struct", test_bind_lands_in_a_struct},
        {"text reads the landing back", test_text_reads_the_landing},
        {"nearest name", test_nearest_name},
        {"markdown table", test_markdown_table},
        {"unsigned values and range text", test_unsigned_values_and_range_text},
        {"format leaves quiet rows at their default out", test_format_quiet_rows},
        {"rng reproducible and uniform", test_rng_reproducible_and_uniform},
        {"error message", test_error_message},
        {"error prefix keeps the reason", test_error_prefix_keeps_reason},
        {"error arguments may point into the message", test_error_arguments_may_overlap},
        {"error truncation", test_error_truncation},
        {"error escapes control characters", test_error_escapes_control_characters},
        {"child: lines and timeouts", test_child_lines_and_timeouts},
        {"child: a dead child, no SIGPIPE", test_child_dead},
        {"sandbox: answers, crashes, errors, limits", test_sandbox},
        {NULL, NULL},
    };
    return harness_run("core", tests);
}
