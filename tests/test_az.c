/* test_az.c — the `az` agent and the training loop's evaluation (libtorch builds
 * only): time_ms stops a search early, a net file is loaded once per match, the
 * in-loop evaluation plays distinct random openings with both colours and stops at
 * an SPRT decision, and bad eval settings are refused with one-line errors; the net
 * evaluator's record of forward batch sizes and its replay (hoyle selfplay --bench);
 * search=ply against the net's own values; the shared-folder learner sets files in
 * incoming/ that are not shards aside. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "eval/openings.h"
#include "mcts/agent.h"
#include "mcts/evaluator.h"
#include "tests/harness.h"
#include "train/actors_dir.h"
#include "train/agent_az.h"
#include "train/loop.h"
#include "train/loop_internal.h"
#include "train/net_eval.h"
#include "train/samples.h"
#include "train/selfplay.h"
#include "train/tch/tch.h"

#define GAME "gobang(board=5,men=0)"

static char tmpdir[64];
static const game_t *g;

/* A 1-block net for g saved as DIR/net-<gen>.pt (the training loop's names). */
static int save_net(int gen, uint64_t seed)
{
    tch_net_config_t c = {.in_channels = g->obs_shape[0],
                          .height = g->obs_shape[1],
                          .width = g->obs_shape[2],
                          .num_actions = g->num_actions,
                          .num_values = 1,
                          .blocks = 1,
                          .filters = 8,
                          .value_hidden = 16};
    tch_net_t *net = NULL;
    char path[160];
    snprintf(path, sizeof path, "%s/net-%06d.pt", tmpdir, gen);
    int status = tch_net_create(&c, seed, &net);
    if (!status) status = tch_save(net, NULL, path);
    tch_net_free(net);
    return status;
}

/* Simulations of one search from the start with the agent `spec` (model = net 0). */
static long long sims_of(const char *keys, const agent_limits_t *limits)
{
    char spec[256];
    snprintf(spec, sizeof spec, "az(model=%s/net-000000.pt,%s)", tmpdir, keys);
    agent_t *a = NULL;
    if (agent_create(g, spec, 1, &a)) {
        CU_FAIL(hoyle_last_error());
        return -1;
    }
    if (limits) HARNESS_OK(agent_set_limits(a, limits));
    void *s = malloc(g->state_size);
    int action;
    game_init(g, s);
    HARNESS_OK(agent_act(a, s, &action));
    long long sims = agent_info(a)->sims;
    free(s);
    agent_free(a);
    return sims;
}

/* time_ms (spec key and agent_set_limits) ends the search before its simulations do. */
static void test_time_ms(void)
{
    CU_ASSERT_EQUAL(sims_of("sims=3000,cache=0", NULL), 3000);
    long long timed = sims_of("sims=3000,time_ms=1,cache=0", NULL);
    CU_ASSERT(timed > 0 && timed < 3000);
    agent_limits_t l = {.time_ms = 1, .nodes = 3000};
    long long limited = sims_of("sims=3000,cache=0", &l);
    CU_ASSERT(limited > 0 && limited < 3000);
    /* time only (sims=0) is a valid spec and stops too */
    long long only = sims_of("sims=0,time_ms=1,cache=0", NULL);
    CU_ASSERT(only > 0 && only < 1000000);
    /* the canonical spec keeps the key; Gumbel needs a simulation budget */
    char spec[256];
    agent_t *a = NULL;
    snprintf(spec, sizeof spec, "az(model=%s/net-000000.pt,time_ms=7)", tmpdir);
    HARNESS_OK(agent_create(g, spec, 1, &a));
    CU_ASSERT(a && strstr(agent_spec(a), "time_ms=7") != NULL);
    agent_free(a);
    snprintf(spec, sizeof spec, "az(model=%s/net-000000.pt,gumbel=true,sims=0,time_ms=7)", tmpdir);
    CU_ASSERT_EQUAL(agent_create(g, spec, 1, &a), HOYLE_EINVAL);
}

static loop_eval_cfg_t eval_cfg(int games)
{
    loop_eval_cfg_t c;
    memset(&c, 0, sizeof c);
    c.every = 2;
    c.games = games;
    c.sims = 8;
    c.max_moves = 0;
    snprintf(c.baseline, sizeof c.baseline, "random");
    snprintf(c.openings, sizeof c.openings, "random:2");
    c.previous = true;
    c.num_anchors = 1;
    snprintf(c.anchors[0], sizeof c.anchors[0], "net:0");
    sprt_params_default(&c.sprt_params);
    c.seed = 5;
    return c;
}

typedef struct logs {
    loop_log_t games, eval;
} logs_t;

static void logs_open(logs_t *l)
{
    char path[200];
    snprintf(path, sizeof path, "%s/eval_games.csv", tmpdir);
    unlink(path);
    HARNESS_OK(loop_log_open(&l->games, path, "generation,opponent,seat,score,opening\n", 0));
    snprintf(path, sizeof path, "%s/eval.csv", tmpdir);
    unlink(path);
    HARNESS_OK(loop_log_open(&l->eval, path, "generation,seconds,opponent,games,score\n", 0));
}

static void logs_done(logs_t *l)
{
    loop_log_done(&l->games);
    loop_log_done(&l->eval);
}

/* Rows of games_log of generation `gen` against `opp`: the count; the distinct openings
 * (5th field) into names[] (*distinct of them); how many of them the net played from
 * both seats. */
static char names[64][OPENING_NAME_MAX];
static int rows_of(const char *text, long long gen, const char *opp, int *distinct, int *both_seats)
{
    int seats[64] = {0}, n = 0, rows = 0;
    for (const char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        char o[64], name[OPENING_NAME_MAX];
        int seat;
        double s;
        long long gg;
        if (sscanf(line + 1, "%lld,%63[^,],%d,%lf,%95[^\n]", &gg, o, &seat, &s, name) != 5 ||
            gg != gen || strcmp(o, opp) != 0)
            continue;
        rows++;
        int k = 0;
        while (k < n && strcmp(names[k], name) != 0) k++;
        if (k == n && n < 64) snprintf(names[n++], sizeof names[0], "%s", name);
        if (k < 64) seats[k] |= 1 << seat;
    }
    *distinct = n;
    *both_seats = 0;
    for (int k = 0; k < n; k++) *both_seats += seats[k] == 3;
    return rows;
}

/* One evaluation of net 2: against the baseline and net 0 (the anchor net:0 and the
 * previous net are the same net, played once), 8 games each from 4 distinct random
 * openings, each with both colours; each net file loaded once for the whole
 * evaluation; the next evaluation plays the same openings. */
static void test_eval_openings_and_loads(void)
{
    loop_eval_cfg_t c = eval_cfg(8);
    logs_t l;
    logs_open(&l);
    agent_az_cache_clear();
    long long loads = agent_az_loads();
    loop_eval_out_t out;
    HARNESS_OK(loop_evaluate(g, tmpdir, &c, 2, 0, 1.0, 99, &l.games, &l.eval, NULL, &out));
    if (agent_az_loads() - loads != 2) printf("\n  loads: %lld\n", agent_az_loads() - loads);
    CU_ASSERT_EQUAL(agent_az_loads() - loads, 2); /* net 2 and net 0, each once */
    int distinct, both;
    CU_ASSERT_EQUAL(rows_of(l.games.text, 2, "net0", &distinct, &both), 8);
    CU_ASSERT_EQUAL(distinct, 4);
    CU_ASSERT_EQUAL(both, 4);
    CU_ASSERT_EQUAL(rows_of(l.games.text, 2, "baseline", &distinct, &both), 8);
    CU_ASSERT_EQUAL(distinct, 4);
    CU_ASSERT_EQUAL(both, 4);
    char first[4][OPENING_NAME_MAX];
    memcpy(first, names, sizeof first);
    CU_ASSERT(strstr(l.eval.text, "2,1.0,baseline,8,") != NULL);
    CU_ASSERT(strstr(l.eval.text, "2,1.0,net0,8,") != NULL);
    CU_ASSERT(strstr(l.eval.text, "2,1.0,anchor") == NULL);
    CU_ASSERT(out.score_base >= 0 && out.score_prev >= 0);
    HARNESS_OK(loop_evaluate(g, tmpdir, &c, 4, 2, 2.0, 7, &l.games, &l.eval, NULL, &out));
    CU_ASSERT_EQUAL(rows_of(l.games.text, 4, "baseline", &distinct, &both), 8);
    for (int k = 0; k < 4; k++) {
        int found = 0;
        for (int j = 0; j < distinct; j++) found |= strcmp(first[k], names[j]) == 0;
        CU_ASSERT(found);
    }
    CU_ASSERT(strstr(l.eval.text, "4,2.0,net0,8,") != NULL); /* the anchor */
    CU_ASSERT(strstr(l.eval.text, "4,2.0,net2,8,") != NULL); /* the previous net */
    logs_done(&l);
}

/* With eval.sprt a match stops at the decision: bounds far apart (H0: +500 Elo, H1:
 * +1000) decide within a few pairs whatever the net's results. */
static void test_eval_sprt(void)
{
    loop_eval_cfg_t c = eval_cfg(60);
    c.num_anchors = 0;
    c.previous = false;
    c.sprt = true;
    c.sprt_params.elo0 = 500;
    c.sprt_params.elo1 = 1000;
    logs_t l;
    logs_open(&l);
    loop_eval_out_t out;
    HARNESS_OK(loop_evaluate(g, tmpdir, &c, 2, -1, 1.0, 3, &l.games, &l.eval, NULL, &out));
    int distinct, both, games = rows_of(l.games.text, 2, "baseline", &distinct, &both);
    CU_ASSERT(games >= 2 && games < 60 && games % 2 == 0);
    CU_ASSERT(strstr(l.eval.text, ",H0,") != NULL || strstr(l.eval.text, ",H1,") != NULL);
    /* without the test the match plays every game */
    c.sprt = false;
    c.games = 10;
    logs_done(&l);
    logs_open(&l);
    HARNESS_OK(loop_evaluate(g, tmpdir, &c, 2, -1, 1.0, 3, &l.games, &l.eval, NULL, &out));
    CU_ASSERT_EQUAL(rows_of(l.games.text, 2, "baseline", &distinct, &both), 10);
    CU_ASSERT(strstr(l.eval.text, ",-,") != NULL);
    logs_done(&l);
}

/* loop_eval_search_keys: the evaluated az searches as self-play did, the search variants
 * included (they were dropped once), and writes nothing at az's own defaults. */
static void test_eval_search_keys(void)
{
    mcts_params_t sp;
    mcts_params_default(&sp);
    sp.c_init = 1.25, sp.c_base = 19652, sp.fpu_value = 0.2, sp.batch = 4;
    sp.virtual_loss = 1, sp.reuse = true;
    char buf[256];
    loop_eval_search_keys(&sp, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "");
    sp.gumbel = true, sp.rave = true, sp.mast = 0.5, sp.threats = 4, sp.batch = 8;
    loop_eval_search_keys(&sp, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, ",batch=8,gumbel=true,threats=4,rave=true,mast=0.5");
}

/* loop_eval_check: each bad setting names its key, in one line. */
static void expect_bad(const loop_eval_cfg_t *c, const char *key, const char *words)
{
    const char *at = NULL;
    CU_ASSERT_EQUAL(loop_eval_check(g, c, &at), HOYLE_EINVAL);
    CU_ASSERT(at && strcmp(at, key) == 0);
    const char *msg = hoyle_last_error();
    CU_ASSERT(strchr(msg, '\n') == NULL);
    if (strstr(msg, words) == NULL) printf("\n  message: %s (want '%s')\n", msg, words);
    CU_ASSERT(strstr(msg, words) != NULL);
}

static void test_eval_check(void)
{
    loop_eval_cfg_t c = eval_cfg(100);
    const char *at = NULL;
    HARNESS_OK(loop_eval_check(g, &c, &at));
    c.games = 7;
    expect_bad(&c, "eval.games", "even");
    c = eval_cfg(100);
    snprintf(c.openings, sizeof c.openings, "random:x");
    expect_bad(&c, "eval.openings", "random:K");
    c = eval_cfg(100);
    snprintf(c.anchors[0], sizeof c.anchors[0], "mcts(simz=3)");
    expect_bad(&c, "eval.anchors", "simz");
    snprintf(c.anchors[0], sizeof c.anchors[0], "net:-1");
    expect_bad(&c, "eval.anchors", "net:G");
    snprintf(c.anchors[0], sizeof c.anchors[0], "human");
    expect_bad(&c, "eval.anchors", "human");
    c = eval_cfg(100);
    c.sprt = true;
    c.sprt_params.elo0 = 10;
    c.sprt_params.elo1 = 5;
    expect_bad(&c, "eval.sprt", "elo0 < elo1");
    c.sprt_params.elo0 = 0;
    c.sprt_params.alpha = 0;
    expect_bad(&c, "eval.sprt", "alpha");
}

/* The same checks from a config file: file:line and the key, before anything is
 * written. */
/* Retention keeps every net:G anchor the evaluation meets again, besides its own rules. */
static void test_retention_keeps_anchors(void)
{
    loop_eval_cfg_t c = {.every = 4, .num_anchors = 2};
    snprintf(c.anchors[0], sizeof c.anchors[0], "mcts(sims=8)");
    snprintf(c.anchors[1], sizeof c.anchors[1], "net:1");
    CU_ASSERT_TRUE(loop_keep_net(1, 7, 3, 2, &c));  /* the anchor */
    CU_ASSERT_FALSE(loop_keep_net(2, 7, 3, 2, &c)); /* nothing keeps it */
    CU_ASSERT_TRUE(loop_keep_net(3, 7, 3, 2, &c));  /* keep_every */
    CU_ASSERT_TRUE(loop_keep_net(4, 7, 3, 2, &c));  /* the next evaluation's opponent */
    CU_ASSERT_FALSE(loop_keep_net(5, 7, 3, 2, &c));
    CU_ASSERT_TRUE(loop_keep_net(6, 7, 3, 2, &c)); /* keep_last and keep_every */
    CU_ASSERT_FALSE(loop_keep_net(1, 7, 3, 2, NULL));
    c.num_anchors = 1;
    CU_ASSERT_FALSE(loop_keep_net(1, 7, 3, 2, &c));
}

static void test_train_config_errors(void)
{
    static const struct {
        const char *yaml, *want;
    } cases[] = {
        {"  games: 9\n", "key 'eval.games': 9 games: need an even number"},
        {"  sprt:\n    elo0: 5\n    elo1: 0\n", "key 'eval.sprt': elo0 5, elo1 0"},
        {"  anchors: [\"net:0\", \"mcts(simz=1)\"]\n", "key 'eval.anchors': 'mcts(simz=1)'"},
        {"  openings: book:/nonexistent\n", "key 'eval.openings'"},
    };
    HARNESS_OK(train_register_agents());
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[200], out[200];
        snprintf(path, sizeof path, "%s/bad.yaml", tmpdir);
        snprintf(out, sizeof out, "%s/run-bad", tmpdir);
        FILE *f = fopen(path, "w");
        CU_ASSERT_FATAL(f != NULL);
        /* a run that the check let through would be short: one tiny generation */
        fprintf(f,
                "game: %s\noutput: %s\ntrain:\n  generations: 1\nselfplay:\n  games: 2\n"
                "  parallel: 2\n  sims: 2\neval:\n  every: 0\n%s",
                GAME, out, cases[i].yaml);
        fclose(f);
        train_summary_t sum;
        CU_ASSERT_EQUAL(train_run(path, NULL, 0, NULL, &sum), HOYLE_EINVAL);
        const char *msg = hoyle_last_error();
        if (strstr(msg, cases[i].want) == NULL) printf("\n  message: %s\n", msg);
        CU_ASSERT(strstr(msg, cases[i].want) != NULL);
        CU_ASSERT(strstr(msg, "bad.yaml:") == msg + strlen(tmpdir) + 1);
        CU_ASSERT(strchr(msg, '\n') == NULL);
        struct stat st;
        CU_ASSERT(stat(out, &st) != 0); /* nothing written */
        unlink(path);
    }
}

/* The net evaluator counts its forward calls by batch size (the cache's hits are not
 * forwarded), and its replay runs exactly those calls again: one pass with min_seconds 0. */
static void test_evaluator_batch_sizes(void)
{
    char path[160];
    snprintf(path, sizeof path, "%s/net-000000.pt", tmpdir);
    tch_net_t *net = NULL;
    HARNESS_OK(tch_load(path, &net, NULL));
    evaluator_t *e = NULL;
    HARNESS_OK(net_evaluator_create(g, net, 8, 64, &e));
    uint64_t pos;
    double secs;
    CU_ASSERT_EQUAL(net_evaluator_replay(e, 0, 1, &pos, &secs), HOYLE_EINVAL); /* nothing yet */
    /* five distinct positions: the start and four first moves */
    size_t S = g->state_size;
    char *states = malloc(5 * S);
    int legal[64];
    game_init(g, states);
    int n = game_legal_actions(g, states, legal);
    CU_ASSERT_FATAL(n >= 4);
    for (int i = 1; i < 5; i++) {
        game_init(g, states + (size_t)i * S);
        game_apply(g, states + (size_t)i * S, legal[i - 1]);
    }
    double values[5 * 2];
    float *priors = malloc(sizeof(float) * 5 * (size_t)g->num_actions);
    HARNESS_OK(evaluator_evaluate(e, states, 3, values, priors));     /* 3 misses */
    HARNESS_OK(evaluator_evaluate(e, states, 5, values, priors));     /* 2 misses, 3 hits */
    HARNESS_OK(evaluator_evaluate(e, states + S, 2, values, priors)); /* all hits: no forward */
    net_evaluator_clear_cache(e);
    HARNESS_OK(evaluator_evaluate(e, states, 5, values, priors)); /* 5 misses */
    int max_batch = 0;
    const uint64_t *sizes = net_evaluator_batch_sizes(e, &max_batch);
    CU_ASSERT_EQUAL(max_batch, 8);
    CU_ASSERT_EQUAL(sizes[0], 0);
    CU_ASSERT_EQUAL(sizes[2], 1);
    CU_ASSERT_EQUAL(sizes[3], 1);
    CU_ASSERT_EQUAL(sizes[5], 1);
    uint64_t total = 0;
    for (int b = 0; b <= max_batch; b++) total += sizes[b];
    CU_ASSERT_EQUAL(total, 3);
    uint64_t forwarded;
    CU_ASSERT_EQUAL(net_evaluator_forwards(e, &forwarded), 3);
    CU_ASSERT_EQUAL(forwarded, 10);
    HARNESS_OK(net_evaluator_replay(e, 0, 7, &pos, &secs));
    CU_ASSERT_EQUAL(pos, 10); /* one pass: the same calls, the same positions */
    CU_ASSERT(secs >= 0);
    CU_ASSERT_EQUAL(net_evaluator_forwards(e, NULL), 3); /* a replay is not self-play's */
    /* a chosen set of calls (one bench round's): two of 3 and one of 5, once */
    uint64_t some[9] = {0};
    CU_ASSERT_EQUAL(net_evaluator_replay_sizes(e, some, 0, 7, &pos, &secs), HOYLE_EINVAL);
    some[3] = 2;
    some[5] = 1;
    HARNESS_OK(net_evaluator_replay_sizes(e, some, 0, 7, &pos, &secs));
    CU_ASSERT_EQUAL(pos, 11);
    free(priors);
    free(states);
    evaluator_free(e);
    tch_net_free(net);
}

/* az(search=ply): the move whose after-state the net values best for the mover, each
 * after-state evaluated once; the same file's net is not loaded again. */
static void test_search_ply(void)
{
    char path[160], spec[256];
    snprintf(path, sizeof path, "%s/net-000002.pt", tmpdir);
    snprintf(spec, sizeof spec, "az(model=%s,search=ply,cache=0)", path);
    tch_net_t *net = NULL;
    HARNESS_OK(tch_load(path, &net, NULL));
    evaluator_t *e = NULL;
    HARNESS_OK(net_evaluator_create(g, net, 1, 0, &e));
    agent_t *a = NULL, *b = NULL;
    HARNESS_OK(agent_create(g, spec, 1, &a));
    long long loads = agent_az_loads();
    HARNESS_OK(agent_create(g, spec, 2, &b));
    CU_ASSERT_EQUAL(agent_az_loads(), loads);
    void *s = malloc(g->state_size), *after = malloc(g->state_size);
    int *legal = malloc(sizeof(int) * (size_t)g->max_legal);
    game_init(g, s);
    for (int move = 0; move < 6 && !game_is_terminal(g, s); move++) {
        int action = -1, player = game_current_player(g, s);
        HARNESS_OK(agent_act(a, s, &action));
        int n = game_legal_actions(g, s, legal);
        double best = -1e300, chosen = -1e300, v[GAME_MAX_PLAYERS];
        for (int i = 0; i < n; i++) {
            memcpy(after, s, g->state_size);
            game_apply(g, after, legal[i]);
            if (game_is_terminal(g, after))
                game_returns(g, after, v);
            else
                HARNESS_OK(evaluator_evaluate(e, after, 1, v, NULL));
            if (v[player] > best) best = v[player];
            if (legal[i] == action) chosen = v[player];
        }
        /* batched against one-by-one forwards: float rounding only */
        CU_ASSERT_DOUBLE_EQUAL(agent_info(a)->value, best, 1e-5);
        CU_ASSERT_DOUBLE_EQUAL(chosen, best, 1e-5);
        CU_ASSERT_EQUAL(agent_info(a)->sims, n);
        game_apply(g, s, action);
    }
    free(s);
    free(after);
    free(legal);
    agent_free(a);
    agent_free(b);
    evaluator_free(e);
    tch_net_free(net);
}

/* The folder learner's collect: a file in incoming/ that is not a shard is set aside as
 * NAME.bad whether its name says an old generation or a current one, an old shard is counted
 * stale and removed, a current one is taken. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void test_folder_learner_sets_aside(void)
{
    char dir[128], path[300], bad[320];
    snprintf(dir, sizeof dir, "%s/folder", tmpdir);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
    train_actors_t a;
    HARNESS_OK(train_dir_actors(&a));
    snprintf(path, sizeof path, "%s/net-000003.pt", dir);
    HARNESS_OK(a.publish(a.ctx, 3, path)); /* makes DIR/incoming */
    /* a real shard's contents: two games with the fake evaluator */
    sample_set_t set;
    selfplay_stats_t st;
    selfplay_params_t p = {.seed = 5};
    HARNESS_OK(selfplay_params_parse("games=2,parallel=2,sims=8", &p, NULL, 0));
    evaluator_t *e = NULL;
    HARNESS_OK(evaluator_fake_create(g, 3, 64, &e));
    sample_set_init(&set, g->obs_shape, g->num_actions);
    HARNESS_OK(selfplay_run(g, e, &p, &set, &st, NULL, NULL));
    evaluator_free(e);
    samples_meta_t meta = {.game_spec = g->spec, .network_id = "fake", .games = st.games};
    const char *shards[] = {"g000002-a1-7-0.h5", "g000003-a1-7-1.h5"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/incoming/%s", dir, shards[i]);
        HARNESS_OK(samples_write_shard(path, &set, &meta));
    }
    /* one foreign file sorts first (an old generation), the other last (a current one) */
    const char *foreign[] = {"g000001-x.h5", "g000003-zz.h5"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/incoming/%s", dir, foreign[i]);
        write_text(path, "not a shard\n");
    }
    sample_set_t got;
    sample_set_init(&got, g->obs_shape, g->num_actions);
    selfplay_stats_t ss;
    memset(&ss, 0, sizeof ss);
    int64_t stale = 0;
    /* the games of one shard: the old foreign file, the old shard and the current shard */
    HARNESS_OK(a.collect(a.ctx, 3, st.games, &got, &ss, &stale));
    CU_ASSERT_EQUAL(got.n, set.n);
    CU_ASSERT_EQUAL(stale, set.n);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/incoming/%s", dir, shards[i]);
        CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0); /* taken, or counted stale: removed */
    }
    snprintf(path, sizeof path, "%s/incoming/%s", dir, foreign[0]);
    snprintf(bad, sizeof bad, "%s.bad", path);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    CU_ASSERT_EQUAL(access(bad, F_OK), 0);
    /* the current foreign file sorted after the shard that filled the request: the next
     * collect sets it aside, then takes a newer shard */
    snprintf(path, sizeof path, "%s/incoming/g000004-a2-8-0.h5", dir);
    HARNESS_OK(samples_write_shard(path, &set, &meta));
    HARNESS_OK(a.collect(a.ctx, 3, st.games, &got, &ss, &stale));
    CU_ASSERT_EQUAL(got.n, 2 * set.n);
    snprintf(path, sizeof path, "%s/incoming/%s", dir, foreign[1]);
    snprintf(bad, sizeof bad, "%s.bad", path);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    CU_ASSERT_EQUAL(access(bad, F_OK), 0);
    sample_set_done(&got);
    sample_set_done(&set);
    train_dir_actors_free(&a);
}

int main(void)
{
    harness_tmp_path(tmpdir, sizeof tmpdir, "hoyle_az_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    if (train_register_agents() || game_create(GAME, &g)) {
        fprintf(stderr, "%s\n", hoyle_last_error());
        return 1;
    }
    if (tch_set_threads(1) || save_net(0, 1) || save_net(2, 2) || save_net(4, 3)) {
        fprintf(stderr, "%s\n", hoyle_last_error());
        return 1;
    }
    static const harness_test_t tests[] = {
        {"az: time_ms stops the search in fewer simulations", test_time_ms},
        {"net evaluator: forward calls by batch size, replayed", test_evaluator_batch_sizes},
        {"eval: random openings, both colours, one load per net", test_eval_openings_and_loads},
        {"eval: the SPRT stops a match", test_eval_sprt},
        {"eval: bad settings name their key", test_eval_check},
        {"eval: the evaluated az searches with self-play's knobs", test_eval_search_keys},
        {"train: bad eval keys in a config", test_train_config_errors},
        {"train: retention keeps the net anchors", test_retention_keeps_anchors},
        {"train: the folder learner sets foreign files aside", test_folder_learner_sets_aside},
        {"az: search=ply plays the net's best after-state", test_search_ply},
        {NULL, NULL},
    };
    int rc = harness_run("az", tests);
    if (harness_remove_tree(tmpdir) != 0) rc = rc ? rc : 1;
    game_free(g);
    return rc;
}
