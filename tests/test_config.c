/* test_config.c — YAML configs: loading, schema errors with file:line:key,
 * --set overrides, dumping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "data/config.h"
#include "tests/harness.h"

/* Where the match section lands (config_bind's second pass). */
typedef struct match {
    int games, move_limit;
    double time_ms;
    bool swap;
    char out[16];
    long long seed;
} match_t;

static const param_def_t match_keys[] = {
    {.key = "games",
     .type = PARAM_INT,
     .required = true,
     .min = 1,
     .max = 100000,
     PARAM_AT(match_t, games)},
    {.key = "move_limit",
     .type = PARAM_INT,
     .def = "300",
     .min = 1,
     .max = 100000,
     PARAM_AT(match_t, move_limit)},
    {.key = "time_ms", .type = PARAM_DOUBLE, .min = 0, .max = 1e9, PARAM_AT(match_t, time_ms)},
    {.key = "swap", .type = PARAM_BOOL, .def = "false", PARAM_AT(match_t, swap)},
    {.key = NULL}};

static const param_def_t schema[] = {
    {.key = "games", .type = PARAM_LIST, .required = true, .min = 1, .max = 8},
    {.key = "agents", .type = PARAM_TABLE, .required = true},
    {.key = "match", .type = PARAM_SECTION, .fields = match_keys},
    {.key = "out", .type = PARAM_STRING, PARAM_AT(match_t, out)},
    {.key = "seed", .type = PARAM_INT, .def = "7", .min = 0, .max = 1e15, PARAM_AT(match_t, seed)},
    {.key = NULL}};

/* A section row's landing offsets its fields' (one table of rows, embedded in two structs). */
typedef struct outer {
    int before;
    match_t inner;
} outer_t;
static const param_def_t outer_schema[] = {
    {.key = "match", .type = PARAM_SECTION, .fields = match_keys, PARAM_AT(outer_t, inner)},
    {.key = NULL}};

static const char *const good = "# a tournament\n"
                                "games: [checkers, \"gobang(board=8,men=12)\"]\n"
                                "agents:\n"
                                "  rnd: random\n"
                                "  mcts: mcts(sims=800,c=1.25)\n"
                                "match:\n"
                                "  games: 10\n"
                                "  time_ms: 2.5e2\n"
                                "  swap: yes\n"
                                "out: 'runs/t1.h5'\n"
                                "seed: 42\n";

static config_t *parse_ok(const char *text)
{
    config_t *c = NULL;
    HARNESS_OK(config_parse(text, "configs/x.yaml", &c));
    return c;
}

static void test_section_landing(void)
{
    config_t *c = parse_ok("match:\n  games: 12\n  swap: on\n");
    CU_ASSERT_FATAL(c != NULL);
    outer_t o = {.before = -5, .inner = {.time_ms = -1}};
    HARNESS_OK(config_bind(c, outer_schema, &o));
    CU_ASSERT_EQUAL(o.before, -5); /* nothing lands outside the section's struct */
    CU_ASSERT_EQUAL(o.inner.games, 12);
    CU_ASSERT_EQUAL(o.inner.move_limit, 300);
    CU_ASSERT(o.inner.swap);
    CU_ASSERT_DOUBLE_EQUAL(o.inner.time_ms, -1, 1e-9); /* no default: kept */
    config_free(c);
}

static void test_valid(void)
{
    config_t *c = parse_ok(good);
    CU_ASSERT_FATAL(c != NULL);
    match_t m = {.time_ms = -1};
    HARNESS_OK(config_bind(c, schema, &m));
    CU_ASSERT_EQUAL(m.games, 10);
    CU_ASSERT_EQUAL(m.move_limit, 300); /* the row's default */
    CU_ASSERT_DOUBLE_EQUAL(m.time_ms, 250.0, 1e-9);
    CU_ASSERT(m.swap);
    CU_ASSERT_STRING_EQUAL(m.out, "runs/t1.h5");
    CU_ASSERT_EQUAL(m.seed, 42);
    CU_ASSERT_EQUAL(config_row(schema, "match.swap"), &match_keys[3]);
    CU_ASSERT(config_row(schema, "match.nope") == NULL && config_row(schema, "out.x") == NULL);
    config_node_t *const *games = NULL;
    CU_ASSERT_EQUAL(config_strings(c, "games", &games), 2);
    CU_ASSERT_STRING_EQUAL(games[1]->value, "gobang(board=8,men=12)");
    CU_ASSERT(games[1]->quoted && !games[0]->quoted);
    CU_ASSERT_EQUAL(games[0]->line, 2);
    CU_ASSERT_EQUAL(config_int(c, "match.games", 0), 10);
    CU_ASSERT_EQUAL(config_int(c, "match.move_limit", 300), 300);
    CU_ASSERT_DOUBLE_EQUAL(config_double(c, "match.time_ms", 0), 250.0, 1e-9);
    CU_ASSERT(config_bool(c, "match.swap", false));
    CU_ASSERT_STRING_EQUAL(config_string(c, "out", ""), "runs/t1.h5");
    CU_ASSERT_STRING_EQUAL(config_string(c, "agents.mcts", ""), "mcts(sims=800,c=1.25)");
    CU_ASSERT_EQUAL(config_int(c, "seed", 0), 42);
    const config_node_t *agents = config_find(c, "agents");
    CU_ASSERT(agents && agents->type == CONFIG_MAP && agents->num_children == 2);
    CU_ASSERT_EQUAL(config_child(agents, "mcts")->line, 5);
    CU_ASSERT(config_find(c, "match.nothing") == NULL);
    config_free(c);
    config_free(NULL);

    /* an empty file is an empty map */
    c = parse_ok("# nothing\n");
    CU_ASSERT_EQUAL(c->root->num_children, 0);
    CU_ASSERT(config_bind(c, schema, NULL) == HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "configs/x.yaml:1: key 'games' is required but "
                                               "missing");
    config_free(c);
}

static void test_load_file(void)
{
    char path[512];
    harness_tmp_path(path, sizeof path, "hoyle_config_XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT(write(fd, good, strlen(good)) == (ssize_t)strlen(good));
    close(fd);
    config_t *c = NULL;
    HARNESS_OK(config_load(path, &c));
    HARNESS_OK(config_bind(c, schema, NULL));
    CU_ASSERT_STRING_EQUAL(c->name, path);
    config_free(c);
    unlink(path);
    CU_ASSERT(config_load(path, &c) == HOYLE_EIO);
    CU_ASSERT(strstr(hoyle_last_error(), path) != NULL);
}

/* Parsing and checking `text` fails with exactly `message`. */
static void expect_error(const char *text, const char *message)
{
    config_t *c = NULL;
    int rc = config_parse(text, "configs/x.yaml", &c);
    if (rc == 0) {
        match_t m = {.games = -5}, before = m;
        rc = config_bind(c, schema, &m);
        CU_ASSERT(memcmp(&m, &before, sizeof m) == 0); /* a failed bind changes nothing */
        config_free(c);
    }
    CU_ASSERT(rc == HOYLE_EINVAL);
    if (strcmp(hoyle_last_error(), message) != 0)
        fprintf(stderr, "\n  got:    %s\n  wanted: %s\n", hoyle_last_error(), message);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), message);
}

#define HEAD "games: [checkers]\nagents: {a: random}\n"

static void test_schema_errors(void)
{
    expect_error(
        HEAD "gamez: 3\n",
        "configs/x.yaml:3: unknown key 'gamez' (did you mean 'games'? known: games, agents, "
        "match, out, seed)");
    expect_error(HEAD "match:\n  games: 2\n  gamez: 3\n",
                 "configs/x.yaml:5: unknown key 'match.gamez' (did you mean 'games'? known: games, "
                 "move_limit, time_ms, swap)");
    expect_error(HEAD "match:\n  games: ten\n",
                 "configs/x.yaml:4: key 'match.games': 'ten' is not an integer");
    expect_error(HEAD "match:\n  games: 2.5\n",
                 "configs/x.yaml:4: key 'match.games': '2.5' is not an integer");
    expect_error(HEAD "match:\n  games: 0\n",
                 "configs/x.yaml:4: key 'match.games': 0 is out of range [1, 100000]");
    expect_error(HEAD "match:\n  games: 1\n  time_ms: fast\n",
                 "configs/x.yaml:5: key 'match.time_ms': 'fast' is not a number");
    expect_error(HEAD "match:\n  games: 1\n  swap: maybe\n",
                 "configs/x.yaml:5: key 'match.swap': 'maybe' is not a boolean (true/false)");
    expect_error(HEAD "match:\n  games: [1]\n",
                 "configs/x.yaml:4: key 'match.games': expected a value, got a list");
    expect_error(HEAD "match:\n  move_limit: 9\n",
                 "configs/x.yaml:3: key 'match.games' is required but missing");
    expect_error(HEAD "match: 3\n",
                 "configs/x.yaml:3: key 'match': expected a map of keys, got a scalar");
    expect_error("games: checkers\nagents: {a: random}\n",
                 "configs/x.yaml:1: key 'games': expected a list of text values, got a scalar");
    expect_error("games: [a, [b]]\nagents: {a: random}\n",
                 "configs/x.yaml:1: key 'games': item 2 is a list, expected text");
    expect_error("games: []\nagents: {a: random}\n",
                 "configs/x.yaml:1: key 'games': 0 items, expected 1 to 8");
    expect_error("games: [a]\nagents:\n  a: random\n  b: {x: 1}\n",
                 "configs/x.yaml:4: key 'agents.b': expected a text value, got a map");
    expect_error("games: [a]\n", "configs/x.yaml:1: key 'agents' is required but missing");
    expect_error("agents: {a: random}\n", "configs/x.yaml:1: key 'games' is required but missing");
}

static void test_yaml_errors(void)
{
    config_t *c = NULL;
    CU_ASSERT(config_parse("games: [a, b\nagents: x\n", "configs/x.yaml", &c) == HOYLE_EINVAL);
    CU_ASSERT(strncmp(hoyle_last_error(), "configs/x.yaml:", 15) == 0);
    CU_ASSERT(strstr(hoyle_last_error(), "YAML error") != NULL);
    CU_ASSERT(config_parse("a: 1\n b: 2\n  c\n", "configs/x.yaml", &c) == HOYLE_EINVAL);
    CU_ASSERT(strncmp(hoyle_last_error(), "configs/x.yaml:2: YAML error", 28) == 0);
    CU_ASSERT(config_parse("a: \"open\n", "configs/x.yaml", &c) == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "YAML error") != NULL);
    expect_error("games: [a]\nagents: {a: random}\ngames: [b]\n",
                 "configs/x.yaml:3: key 'games' appears twice in this map");
    expect_error("games: &g [a]\nagents: {a: random}\nout: *g\n",
                 "configs/x.yaml:3: aliases (*name) are not supported in configs");
    expect_error("games: [a]\n---\nagents: {}\n",
                 "configs/x.yaml:2: a config holds one YAML document");
    expect_error("- a\n- b\n", "configs/x.yaml:1: the top level of a config must be a map of keys");
    expect_error("? [a]\n: 1\n", "configs/x.yaml:1: map keys must be plain text");
}

static void test_set(void)
{
    config_t *c = parse_ok(good);
    HARNESS_OK(config_set(c, "match.games=25"));
    HARNESS_OK(config_set(c, "match.move_limit=300"));
    HARNESS_OK(config_set(c, "games=[chess, go]"));
    HARNESS_OK(config_set(c, "agents.ab=alphabeta(depth=4)"));
    HARNESS_OK(config_set(c, "out='a b.h5'"));
    HARNESS_OK(config_bind(c, schema, NULL));
    CU_ASSERT_EQUAL(config_int(c, "match.games", 0), 25);
    CU_ASSERT_EQUAL(config_int(c, "match.move_limit", 0), 300);
    CU_ASSERT_EQUAL(config_find(c, "match.move_limit")->line, 0);
    config_node_t *const *games = NULL;
    CU_ASSERT_EQUAL(config_strings(c, "games", &games), 2);
    CU_ASSERT_STRING_EQUAL(games[0]->value, "chess");
    CU_ASSERT_STRING_EQUAL(config_string(c, "agents.ab", ""), "alphabeta(depth=4)");
    CU_ASSERT_STRING_EQUAL(config_string(c, "out", ""), "a b.h5");

    /* overrides are checked like the file, and say so */
    HARNESS_OK(config_set(c, "match.games=0"));
    CU_ASSERT(config_bind(c, schema, NULL) == HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(
        hoyle_last_error(),
        "configs/x.yaml (--set): key 'match.games': 0 is out of range [1, 100000]");
    HARNESS_OK(config_set(c, "match.games=3"));
    HARNESS_OK(config_set(c, "extra.deep.key=1")); /* creates maps; the schema refuses it */
    CU_ASSERT(config_bind(c, schema, NULL) == HOYLE_EINVAL);
    CU_ASSERT(strncmp(hoyle_last_error(), "configs/x.yaml (--set): unknown key 'extra'", 43) == 0);

    /* bad assignments change nothing */
    char *before = NULL, *after = NULL;
    HARNESS_OK(config_dump(c, &before));
    CU_ASSERT(config_set(c, "match.games") == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "expected key=value") != NULL);
    CU_ASSERT(config_set(c, "=3") == HOYLE_EINVAL);
    CU_ASSERT(config_set(c, "match..games=3") == HOYLE_EINVAL);
    CU_ASSERT(config_set(c, "out.x=3") == HOYLE_EINVAL); /* out is a scalar */
    CU_ASSERT(strstr(hoyle_last_error(), "'out' is not a map") != NULL);
    CU_ASSERT(config_set(c, "seed=[1, 2") == HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "YAML error") != NULL);
    HARNESS_OK(config_dump(c, &after));
    CU_ASSERT_STRING_EQUAL(before, after);
    free(before);
    free(after);
    config_free(c);
}

/* Issue 36, item 17: a NUL written with YAML's \0 escape is refused (it
 * would have cut "a\0b.h5" to "a"), in values and in keys, and nothing is
 * returned; --set values too. */
static void test_nul_refused(void)
{
    config_t *c = (config_t *)1;
    CU_ASSERT_EQUAL(config_parse("out: \"a\\0b.h5\"\n", "n.yaml", &c), HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "n.yaml:1: a value contains a NUL character (\\0)");
    CU_ASSERT_EQUAL(config_parse("seed: 1\n\"k\\0x\": 2\n", "n.yaml", &c), HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(hoyle_last_error(), "n.yaml:2: a key contains a NUL character (\\0)");
    CU_ASSERT_EQUAL(config_parse("games: [\"x\\0\"]\n", "n.yaml", &c), HOYLE_EINVAL);
    HARNESS_OK(config_parse("out: x.h5\n", "n.yaml", &c));
    CU_ASSERT_EQUAL(config_set(c, "out=\"y\\0z\""), HOYLE_EINVAL);
    CU_ASSERT_STRING_EQUAL(config_string(c, "out", NULL), "x.h5");
    config_free(c);
}

/* Loading is linear: a map of 60,000 keys and a list of 200,000 items
 * (2.9 MB) parse in well under a second (they took minutes when each
 * append copied the array and each key was compared with every other).
 * No clock here: a quadratic parser makes CTest's timeout fail it. */
static void test_large_config(void)
{
    size_t cap = 4 << 20, len = 0;
    char *text = malloc(cap);
    CU_ASSERT_FATAL(text != NULL);
    len += (size_t)snprintf(text + len, cap - len, "big:\n");
    for (int i = 0; i < 60000; i++)
        len += (size_t)snprintf(text + len, cap - len, "  key%06d: value%d\n", i, i);
    len += (size_t)snprintf(text + len, cap - len, "list:\n");
    for (int i = 0; i < 200000; i++) len += (size_t)snprintf(text + len, cap - len, "  - %d\n", i);
    config_t *c = NULL;
    HARNESS_OK(config_parse(text, "big.yaml", &c));
    if (c) {
        CU_ASSERT_STRING_EQUAL(config_string(c, "big.key059999", ""), "value59999");
        config_node_t *const *items = NULL;
        CU_ASSERT_EQUAL(config_strings(c, "list", &items), 200000);
        config_free(c);
    }
    /* a duplicate among many keys is still found, at its line */
    len += (size_t)snprintf(text + len, cap - len, "big:\n  x: 1\n");
    CU_ASSERT_EQUAL(config_parse(text, "big.yaml", &c), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "key 'big' appears twice"));
    free(text);
}

static void test_dump(void)
{
    config_t *c = parse_ok(good);
    HARNESS_OK(config_set(c, "match.note=\"a: b # c\""));
    HARNESS_OK(config_set(c, "empty={}"));
    char *text = NULL, *again = NULL;
    HARNESS_OK(config_dump(c, &text));
    config_t *d = NULL;
    HARNESS_OK(config_parse(text, "dump", &d));
    HARNESS_OK(config_dump(d, &again));
    CU_ASSERT_STRING_EQUAL(text, again); /* dump is a fixed point */
    CU_ASSERT_STRING_EQUAL(config_string(d, "match.note", ""), "a: b # c");
    CU_ASSERT_STRING_EQUAL(config_string(d, "out", ""), "runs/t1.h5");
    CU_ASSERT_EQUAL(config_int(d, "match.games", 0), 10);
    CU_ASSERT(config_find(d, "games")->children[1]->quoted);
    if (strcmp(text, again) != 0) fprintf(stderr, "%s---\n%s", text, again);
    free(text);
    free(again);
    config_free(d);
    config_free(c);
}

int main(void)
{
    static const harness_test_t tests[] = {{"valid config and getters", test_valid},
                                           {"load from a file", test_load_file},
                                           {"a section lands at its offset", test_section_landing},
                                           {"schema errors name file:line:key", test_schema_errors},
                                           {"YAML errors name file:line", test_yaml_errors},
                                           {"--set overrides", test_set},
                                           {"dump round trip", test_dump},
                                           {"NUL in a string is refused", test_nul_refused},
                                           {"large configs load in linear time", test_large_config},
                                           {NULL, NULL}};
    return harness_run("config", tests);
}
