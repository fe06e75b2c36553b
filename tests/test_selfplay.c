/* test_selfplay.c — self-play, sample shards and the replay buffer with the
 * seeded fake network (no libtorch): batching across games, sample
 * contents, determinism, playout-cap randomisation, shard round trip,
 * replay window and symmetry augmentation; Gumbel self-play targets; forced
 * moves, workers on threads, carried games, truncated games and value
 * targets, game records; the agent_register_kind hook. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/h5rec.h"
#include "games/playout.h"
#include "mcts/agent_kind.h"
#include "tests/harness.h"
#include "tests/toy_games.h"
#include "train/replay.h"
#include "train/selfplay.h"

static const game_t *tiny_game(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("gobang(board=5,men=0)", &g));
    return g;
}

static void run(const game_t *g, const char *params, uint64_t seed, sample_set_t *set,
                selfplay_stats_t *st)
{
    selfplay_params_t p = {.seed = seed};
    HARNESS_OK(selfplay_params_parse(params, &p, NULL, 0));
    evaluator_t *e = NULL;
    HARNESS_OK(evaluator_fake_create(g, 3, 4096, &e));
    sample_set_init(set, g->obs_shape, g->num_actions);
    HARNESS_OK(selfplay_run(g, e, &p, set, st, NULL, NULL));
    evaluator_free(e);
}

static void test_batching_and_samples(void)
{
    const game_t *g = tiny_game();
    sample_set_t set;
    selfplay_stats_t st;
    run(g, "games=6,parallel=3,sims=24,batch=4", 11, &set, &st);
    CU_ASSERT_EQUAL(st.games, 6);
    CU_ASSERT_EQUAL(st.samples, set.n);
    CU_ASSERT_EQUAL(st.full_searches + st.forced, st.actions); /* no fast searches */
    CU_ASSERT_EQUAL(st.wins[0] + st.wins[1] + st.draws, 6);
    /* one evaluator call serves several trees: mean batch well above one tree's batch */
    CU_ASSERT(st.evaluations > 4 * st.evaluator_calls);
    CU_ASSERT(st.alpha > 0 && st.typical_legal > 1);
    size_t A = (size_t)g->num_actions;
    for (int64_t i = 0; i < set.n; i++) {
        double sum = 0;
        int legal = 0;
        for (size_t a = 0; a < A; a++) {
            float p = set.policy[(size_t)i * A + a];
            sum += p;
            legal += set.legal[(size_t)i * A + a];
            if (!set.legal[(size_t)i * A + a]) CU_ASSERT_EQUAL(p, 0.0f);
        }
        CU_ASSERT(fabs(sum - 1.0) < 1e-4);
        CU_ASSERT(legal == 25 - set.move[i]); /* free-style 5x5: every empty square */
        CU_ASSERT(set.value[i] == -1.0f || set.value[i] == 0.0f || set.value[i] == 1.0f);
        CU_ASSERT(set.game_id[i] >= 0 && set.game_id[i] < 6);
    }
    /* within a decided game, consecutive movers' targets alternate in sign */
    for (int64_t i = 0; i < set.n; i++)
        for (int64_t j = i + 1; j < set.n; j++)
            if (set.game_id[i] == set.game_id[j] && set.move[j] == set.move[i] + 1)
                CU_ASSERT_EQUAL(set.value[j], -set.value[i]);
    /* same seed, same samples */
    sample_set_t again;
    selfplay_stats_t st2;
    run(g, "games=6,parallel=3,sims=24,batch=4", 11, &again, &st2);
    CU_ASSERT_EQUAL(again.n, set.n);
    if (again.n == set.n) {
        CU_ASSERT(memcmp(again.policy, set.policy, sizeof(float) * A * (size_t)set.n) == 0);
        CU_ASSERT(
            memcmp(again.obs, set.obs, sizeof(float) * (size_t)set.obs_size * (size_t)set.n) == 0);
    }
    sample_set_done(&again);
    sample_set_done(&set);
    game_free(g);
}

static void test_playout_cap_and_resign(void)
{
    const game_t *g = tiny_game();
    sample_set_t set;
    selfplay_stats_t st;
    run(g, "games=8,parallel=8,sims=16,fast_sims=4,full_prob=0.3,resign=-0.5,no_resign_frac=0.5", 6,
        &set, &st);
    CU_ASSERT_EQUAL(st.games, 8);
    CU_ASSERT(st.fast_searches > 0 && st.full_searches > 0);
    CU_ASSERT_EQUAL(st.samples, st.full_searches);
    CU_ASSERT(st.samples < st.actions);
    CU_ASSERT(st.false_resigns <= st.resign_checks);
    /* resignation happens (seeded: the fake network's searches fall below
     * -0.5), and the played-out half of the games records would-be ones */
    CU_ASSERT(st.resigned > 0);
    CU_ASSERT(st.resign_checks > 0);
    sample_set_done(&set);
    /* nothing played out: every would-be resignation ends its game */
    run(g, "games=8,parallel=8,sims=16,fast_sims=4,full_prob=0.3,resign=-0.5,no_resign_frac=0", 5,
        &set, &st);
    CU_ASSERT(st.resigned > 0);
    CU_ASSERT_EQUAL(st.resign_checks, 0);
    sample_set_done(&set);
    selfplay_params_t p = {0};
    CU_ASSERT_EQUAL(selfplay_params_parse("sims=0", &p, NULL, 0), HOYLE_EINVAL);
    CU_ASSERT_EQUAL(selfplay_params_parse("bogus=1", &p, NULL, 0), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "'bogus'"));
    /* the search keys are the agents' (one spelling: c, not c_init) */
    CU_ASSERT_EQUAL(selfplay_params_parse("c_init=2", &p, NULL, 0), HOYLE_EINVAL);
    HARNESS_OK(selfplay_params_parse("c=2,fpu=0.5,noise_alpha=0.1", &p, NULL, 0));
    CU_ASSERT(p.search.select == MCTS_PUCT && p.search.c_init == 2 && p.search.c_base == 19652);
    CU_ASSERT(p.search.fpu == MCTS_FPU_PARENT && p.search.fpu_value == 0.5);
    CU_ASSERT(p.search.dirichlet_alpha == 0.1 && p.search.dirichlet_eps == 0.25);
    CU_ASSERT(p.search.max_sims == 64 && p.search.batch == 4 && p.search.max_nodes == 0);
    /* selfplay_run names what it refuses */
    p.parallel = 0;
    evaluator_t *e = NULL;
    HARNESS_OK(evaluator_fake_create(g, 3, 64, &e));
    sample_set_init(&set, g->obs_shape, g->num_actions);
    CU_ASSERT_EQUAL(selfplay_run(g, e, &p, &set, &st, NULL, NULL), HOYLE_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "parallel"));
    sample_set_done(&set);
    evaluator_free(e);
    game_free(g);
}

/* Gumbel self-play: the policy targets are the improved policy (rows sum to
 * one, mass on legal actions only, not the visit distribution), repeatable. */
static void test_gumbel_targets(void)
{
    const game_t *g = tiny_game();
    sample_set_t set, again;
    selfplay_stats_t st, st2;
    const char *params = "games=4,parallel=2,sims=16,batch=4,gumbel=true,gumbel_m=8";
    run(g, params, 13, &set, &st);
    CU_ASSERT_EQUAL(st.games, 4);
    CU_ASSERT(set.n > 0);
    size_t A = (size_t)g->num_actions;
    int64_t soft = 0;
    for (int64_t i = 0; i < set.n; i++) {
        double sum = 0;
        int legal = 0;
        bool multiple_of_16th = true;
        for (size_t a = 0; a < A; a++) {
            float p = set.policy[(size_t)i * A + a];
            sum += p;
            legal += set.legal[(size_t)i * A + a];
            if (!set.legal[(size_t)i * A + a]) CU_ASSERT_EQUAL(p, 0.0f);
            CU_ASSERT(p >= 0.0f && p <= 1.0f);
            double x = p * 15.0; /* a visit distribution of 15 child visits */
            if (fabs(x - floor(x + 0.5)) > 1e-4) multiple_of_16th = false;
        }
        CU_ASSERT(fabs(sum - 1.0) < 1e-4);
        CU_ASSERT(legal == 25 - set.move[i]);
        soft += !multiple_of_16th;
    }
    CU_ASSERT(soft > set.n / 2); /* improved policies, not visit counts */
    run(g, params, 13, &again, &st2);
    CU_ASSERT_EQUAL(again.n, set.n);
    if (again.n == set.n)
        CU_ASSERT(memcmp(again.policy, set.policy, sizeof(float) * A * (size_t)set.n) == 0);
    sample_set_done(&again);
    sample_set_done(&set);
    selfplay_params_t p = {0};
    CU_ASSERT_EQUAL(selfplay_params_parse("gumbel=true,gumbel_m=0", &p, NULL, 0), HOYLE_EINVAL);
    HARNESS_OK(selfplay_params_parse("gumbel=true,gumbel_m=4,c_visit=25", &p, NULL, 0));
    CU_ASSERT(p.search.gumbel && p.search.gumbel_m == 4 && p.search.c_visit == 25 &&
              p.search.c_scale == 1);
    game_free(g);
}

/* A root proven won (MCTS-Solver) records a one-hot target on the winning move, not the
 * visits so far. In nim (take 1-3, the last stone wins) a position of s stones, s % 4 != 0,
 * is won by taking s % 4; with 64 simulations the solver proves it for s <= 7 (a win in
 * one or two), after several simulations have gone to other moves. */
static void test_proven_root_targets(void)
{
    const game_t *g = toy_create("nim");
    sample_set_t set;
    selfplay_stats_t st;
    run(g, "games=16,parallel=4,sims=64,batch=4,temp_moves=30", 5, &set, &st);
    size_t A = (size_t)g->num_actions;
    int won = 0;
    for (int64_t i = 0; i < set.n; i++) {
        int stones = (int)set.obs[(size_t)i * (size_t)set.obs_size];
        if (stones < 1 || stones > 7 || stones % 4 == 0) continue;
        won++;
        for (size_t a = 0; a < A; a++)
            if (set.legal[(size_t)i * A + a])
                CU_ASSERT_EQUAL(set.policy[(size_t)i * A + a],
                                a == (size_t)(stones % 4) - 1 ? 1.0f : 0.0f);
    }
    CU_ASSERT(won >= 16); /* the games reached such positions */
    sample_set_done(&set);
    /* With the root proof search (prove=5) a root of 4 or 8 stones is proven lost before any
     * child is visited (every move lets the opponent reach a multiple of 4): its target is
     * uniform over the legal moves, not a one-hot on an arbitrary loser (reuse=false: a kept
     * subtree would bring the visits of the search before). */
    run(g, "games=16,parallel=4,sims=64,batch=4,temp_moves=30,prove=5,reuse=false", 5, &set, &st);
    int lost = 0;
    for (int64_t i = 0; i < set.n; i++) {
        int stones = (int)set.obs[(size_t)i * (size_t)set.obs_size];
        if (stones != 4 && stones != 8) continue;
        lost++;
        for (size_t a = 0; a < A; a++)
            if (set.legal[(size_t)i * A + a])
                CU_ASSERT_DOUBLE_EQUAL(set.policy[(size_t)i * A + a], 1.0 / 3, 1e-6);
    }
    CU_ASSERT(lost >= 8);
    sample_set_done(&set);
    toy_free(g);
}

/* samples_create_shard never replaces a file (selfplay --output without --force), leaves no
 * temporary, and creates a new path (an empty set: a valid, empty shard). */
static void check_create_shard(const game_t *g, const char *dir)
{
    sample_set_t back;
    int64_t games = 0;
    char other[700];
    snprintf(other, sizeof other, "%s/other.txt", dir);
    FILE *f = fopen(other, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("not a shard\n", f);
    fclose(f);
    samples_meta_t none = {.game_spec = g->spec};
    sample_set_init(&back, g->obs_shape, g->num_actions); /* no rows: a valid, empty shard */
    CU_ASSERT_EQUAL(samples_create_shard(other, &back, &none), HOYLE_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(hoyle_last_error(), "already exists"));
    char text[720] = "";
    f = fopen(other, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_PTR_NOT_NULL(fgets(text, sizeof text, f));
    fclose(f);
    CU_ASSERT_STRING_EQUAL(text, "not a shard\n");
    snprintf(text, sizeof text, "%s.tmp", other);
    CU_ASSERT_NOT_EQUAL(access(text, F_OK), 0); /* no temporary left */
    unlink(other);
    HARNESS_OK(samples_create_shard(other, &back, &none)); /* a new path is created */
    int64_t rows = -1;
    HARNESS_OK(samples_shard_info(other, &rows, &games));
    CU_ASSERT_EQUAL(rows, 0);
    unlink(other);
    sample_set_done(&back);
}

/* Augmented draws of replay r stay consistent: policy on legal actions, sums to 1. */
static void check_augmented_draws(replay_t *r, const game_t *g)
{
    size_t A = (size_t)g->num_actions;
    enum { B = 16 };
    float *obs = malloc(sizeof(float) * B * (size_t)game_obs_size(g));
    float *pi = calloc(B * A, sizeof(float)), z[B];
    uint8_t *legal = calloc(B * A, 1);
    rng_t rng;
    rng_init(&rng, 9);
    HARNESS_OK(replay_sample(r, &rng, B, obs, pi, legal, z));
    for (int b = 0; b < B; b++) {
        double sum = 0;
        for (size_t a = 0; a < A; a++) {
            sum += pi[b * A + a];
            if (pi[b * A + a] > 0) CU_ASSERT(legal[b * A + a]);
        }
        CU_ASSERT(fabs(sum - 1.0) < 1e-4);
    }
    free(obs);
    free(pi);
    free(legal);
}

static void test_shards_and_replay(void)
{
    const game_t *g = tiny_game();
    char dir[512];
    harness_tmp_path(dir, sizeof dir, "hoyle_replay_XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    int64_t sizes[3];
    char path[256];
    sample_set_t first;
    for (int k = 0; k < 3; k++) {
        sample_set_t set;
        selfplay_stats_t st;
        run(g, "games=2,parallel=2,sims=8", (uint64_t)k + 1, &set, &st);
        for (int64_t i = 0; i < set.n; i += 3) set.flags[i] = SAMPLE_TRUNCATED; /* round trip */
        samples_meta_t meta = {.game_spec = g->spec, .network_id = "fake", .games = st.games};
        HARNESS_OK(replay_shard_path(dir, k, path, sizeof path));
        HARNESS_OK(samples_write_shard(path, &set, &meta));
        sizes[k] = set.n;
        if (k == 0)
            first = set;
        else
            sample_set_done(&set);
    }
    /* round trip */
    sample_set_t back;
    sample_set_init(&back, g->obs_shape, g->num_actions);
    int64_t games = 0;
    HARNESS_OK(replay_shard_path(dir, 0, path, sizeof path));
    HARNESS_OK(samples_read_shard(path, &back, &games));
    CU_ASSERT_EQUAL(games, 2);
    CU_ASSERT_EQUAL(back.n, first.n);
    size_t A = (size_t)g->num_actions;
    CU_ASSERT(memcmp(back.policy, first.policy, sizeof(float) * A * (size_t)first.n) == 0);
    CU_ASSERT(memcmp(back.value, first.value, sizeof(float) * (size_t)first.n) == 0);
    CU_ASSERT(memcmp(back.move, first.move, sizeof(int32_t) * (size_t)first.n) == 0);
    CU_ASSERT(memcmp(back.flags, first.flags, (size_t)first.n) == 0 && first.flags[0] != 0);
    sample_set_done(&back);
    sample_set_done(&first);
    CU_ASSERT_EQUAL(samples_read_shard("/nonexistent.h5", &back, NULL), HOYLE_EIO);
    check_create_shard(g, dir);
    /* window: only the newest shard(s) covering window_samples are kept */
    replay_t r;
    HARNESS_OK(replay_init(&r, g, sizes[2], 0, true));
    HARNESS_OK(replay_load_dir(&r, dir, 3));
    CU_ASSERT_EQUAL(r.num_shards, 1);
    CU_ASSERT_EQUAL(replay_size(&r), sizes[2]);
    check_augmented_draws(&r, g);
    replay_done(&r);
    /* a games window keeps shards until they hold that many games */
    HARNESS_OK(replay_init(&r, g, 0, 3, false));
    HARNESS_OK(replay_load_dir(&r, dir, 3));
    CU_ASSERT_EQUAL(r.num_shards, 2);
    replay_done(&r);
    /* a growing window: all of the first N0 samples, then N0 (1 + beta ((N/N0)^a - 1) / a);
     * loading the folder (a resume) gives the window that adding shard by shard gave */
    int64_t n0 = sizes[0], total = sizes[0] + sizes[1] + sizes[2];
    double grown = (double)n0 * (1 + 0.5 * (pow((double)total / (double)n0, 0.75) - 1) / 0.75);
    replay_t step;
    HARNESS_OK(replay_init(&step, g, 0, 0, false));
    HARNESS_OK(replay_set_growing(&step, n0, 0.75, 0.5));
    CU_ASSERT_EQUAL(replay_window(&step), 1); /* nothing added yet: at least 1 */
    for (int k = 0; k < 3; k++) {
        HARNESS_OK(replay_shard_path(dir, k, path, sizeof path));
        HARNESS_OK(replay_add_shard(&step, path));
        if (k == 0) CU_ASSERT_EQUAL(replay_size(&step), n0);
    }
    CU_ASSERT_EQUAL(replay_window(&step), (int64_t)floor(grown));
    CU_ASSERT(replay_size(&step) == (int64_t)floor(grown) && replay_size(&step) < total);
    HARNESS_OK(replay_init(&r, g, 0, 0, false));
    HARNESS_OK(replay_set_growing(&r, n0, 0.75, 0.5));
    HARNESS_OK(replay_load_dir(&r, dir, 3));
    CU_ASSERT_EQUAL(r.total, total);
    CU_ASSERT_EQUAL(replay_size(&r), replay_size(&step));
    int64_t tail = replay_size(&r);
    if (tail == replay_size(&step) && tail > 0)
        CU_ASSERT(memcmp(r.set.value + (r.set.n - tail), step.set.value + (step.set.n - tail),
                         sizeof(float) * (size_t)tail) == 0);
    CU_ASSERT_EQUAL(replay_set_growing(&r, 10, 0.75, 1.5), HOYLE_EINVAL);
    replay_done(&r);
    replay_done(&step);
    for (int k = 0; k < 3; k++) {
        replay_shard_path(dir, k, path, sizeof path);
        unlink(path);
    }
    rmdir(dir);
    game_free(g);
}

/* `runs` runs of one session of `workers` workers (fake evaluators, seed 3), run k seeded
 * seed + 100 k; samples and games of every run appended to set and games, stats summed
 * (in_flight and batch_capacity: the last run's). */
static void session(const game_t *g, const char *params, uint64_t seed, int workers, int runs,
                    sample_set_t *set, selfplay_games_t *games, selfplay_stats_t *sum)
{
    selfplay_params_t p = {.seed = seed};
    HARNESS_OK(selfplay_params_parse(params, &p, NULL, 0));
    evaluator_t *e[4] = {NULL};
    for (int i = 0; i < workers; i++) HARNESS_OK(evaluator_fake_create(g, 3, 4096, &e[i]));
    selfplay_session_t *s = NULL;
    HARNESS_OK(selfplay_session_create(g, &p, workers, &s));
    sample_set_init(set, g->obs_shape, g->num_actions);
    memset(sum, 0, sizeof *sum);
    for (int k = 0; k < runs; k++) {
        selfplay_params_t q = p;
        q.seed = seed + 100 * (uint64_t)k;
        selfplay_stats_t st;
        HARNESS_OK(selfplay_session_run(s, e, &q, set, games, &st, NULL, NULL));
        sum->games += st.games;
        sum->samples += st.samples;
        sum->actions += st.actions;
        sum->truncated += st.truncated;
        sum->dropped += st.dropped;
        sum->forced += st.forced;
        sum->full_searches += st.full_searches;
        sum->evaluations += st.evaluations;
        sum->evaluator_calls += st.evaluator_calls;
        sum->in_flight = st.in_flight;
        sum->batch_capacity = st.batch_capacity;
        sum->workers = st.workers;
    }
    selfplay_session_free(s);
    for (int i = 0; i < workers; i++) evaluator_free(e[i]);
}

/* Backgammon: passes and forced steps are single legal actions, played without a search and
 * not recorded. */
static void test_forced_moves(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("backgammon", &g));
    sample_set_t set;
    selfplay_stats_t st;
    run(g, "games=2,parallel=2,sims=8,batch=4", 5, &set, &st);
    CU_ASSERT(st.forced > 0);
    CU_ASSERT(st.full_searches + st.forced < st.actions); /* the rest: the dice */
    CU_ASSERT_EQUAL(st.samples, st.full_searches);
    size_t A = (size_t)g->num_actions;
    for (int64_t i = 0; i < set.n; i++) {
        int legal = 0;
        for (size_t a = 0; a < A; a++) legal += set.legal[(size_t)i * A + a];
        CU_ASSERT(legal >= 2);
    }
    sample_set_done(&set);
    game_free(g);
}

static int64_t find_sample(const sample_set_t *s, int64_t game_id, int32_t move)
{
    for (int64_t j = 0; j < s->n; j++)
        if (s->game_id[j] == game_id && s->move[j] == move) return j;
    return -1;
}

/* Two workers: repeatable for a seed, and (the fake evaluator answers a state the same in
 * any batch) the same samples as one worker, in another order. */
static void test_workers(void)
{
    const game_t *g = tiny_game();
    const char *params = "games=7,parallel=2,sims=16,batch=4";
    sample_set_t one, two, again;
    selfplay_stats_t s1, s2, s3;
    session(g, params, 9, 1, 1, &one, NULL, &s1);
    session(g, params, 9, 2, 1, &two, NULL, &s2);
    session(g, params, 9, 2, 1, &again, NULL, &s3);
    CU_ASSERT_EQUAL(s1.games, 7);
    CU_ASSERT_EQUAL(s2.games, 7);
    CU_ASSERT_EQUAL(s2.workers, 2);
    CU_ASSERT_EQUAL(two.n, one.n);
    CU_ASSERT_EQUAL(again.n, two.n);
    size_t A = (size_t)g->num_actions, O = (size_t)one.obs_size;
    if (again.n == two.n) {
        CU_ASSERT(memcmp(again.policy, two.policy, sizeof(float) * A * (size_t)two.n) == 0);
        CU_ASSERT(memcmp(again.game_id, two.game_id, sizeof(int64_t) * (size_t)two.n) == 0);
    }
    int same = 0, in_order = 0;
    for (int64_t i = 0; i < one.n; i++) {
        int64_t j = find_sample(&two, one.game_id[i], one.move[i]);
        if (j < 0) continue;
        in_order += j == i;
        same += memcmp(one.policy + (size_t)i * A, two.policy + (size_t)j * A, sizeof(float) * A) ==
                    0 &&
                memcmp(one.obs + (size_t)i * O, two.obs + (size_t)j * O, sizeof(float) * O) == 0 &&
                one.value[i] == two.value[j];
    }
    CU_ASSERT_EQUAL(same, one.n);
    CU_ASSERT(in_order < one.n); /* merged by worker, not by game */
    for (int64_t id = 0; id < 7; id++) CU_ASSERT(find_sample(&two, id, 0) >= 0);
    sample_set_done(&one);
    sample_set_done(&two);
    sample_set_done(&again);
    game_free(g);
}

/* A fake evaluator that sleeps 2 ms before each call: a worker much slower than the other. */
static int (*fake_evaluate)(evaluator_t *, const void *, int, double *, float *);
static int slow_evaluate(evaluator_t *e, const void *states, int n, double *values, float *priors)
{
    struct timespec ms2 = {.tv_sec = 0, .tv_nsec = 2000000};
    nanosleep(&ms2, NULL);
    return fake_evaluate(e, states, n, values, priors);
}

/* Carry on with two workers: the run ends when the workers together have finished its
 * games, so a fast worker does not stop at half of them and wait for a slow one. Worker 0
 * plays the even game ids and worker 1 the odd ones. */
static void test_carry_shared_quota(void)
{
    const game_t *g = tiny_game();
    selfplay_params_t p = {.seed = 5};
    HARNESS_OK(selfplay_params_parse("games=8,parallel=2,sims=16,batch=4,carry=true", &p, NULL, 0));
    evaluator_t *e[2] = {NULL};
    for (int i = 0; i < 2; i++) HARNESS_OK(evaluator_fake_create(g, 3, 4096, &e[i]));
    static evaluator_vt_t slow;
    slow = *e[1]->vt;
    fake_evaluate = slow.evaluate;
    slow.evaluate = slow_evaluate;
    e[1]->vt = &slow;
    selfplay_session_t *s = NULL;
    HARNESS_OK(selfplay_session_create(g, &p, 2, &s));
    sample_set_t set;
    sample_set_init(&set, g->obs_shape, g->num_actions);
    selfplay_games_t games = {0};
    selfplay_stats_t st;
    HARNESS_OK(selfplay_session_run(s, e, &p, &set, &games, &st, NULL, NULL));
    int64_t fast = 0;
    for (int64_t i = 0; i < games.n; i++) fast += games.game[i].game_id % 2 == 0;
    CU_ASSERT(st.games >= 8);
    CU_ASSERT_EQUAL(games.n, st.games);
    CU_ASSERT(fast > 4); /* a fixed share would stop it at 4 */
    CU_ASSERT(st.in_flight > 0);
    /* the next run continues the carried games and again stops at the run's quota */
    selfplay_stats_t st2;
    HARNESS_OK(selfplay_session_run(s, e, &p, &set, &games, &st2, NULL, NULL));
    CU_ASSERT(st2.games >= 8);
    CU_ASSERT_EQUAL(games.n, st.games + st2.games);
    for (int64_t i = 0; i < games.n; i++)
        for (int64_t j = i + 1; j < games.n; j++)
            CU_ASSERT(games.game[i].game_id != games.game[j].game_id);
    selfplay_session_free(s);
    for (int i = 0; i < 2; i++) evaluator_free(e[i]);
    sample_set_done(&set);
    selfplay_games_done(&games);
    game_free(g);
}

/* Play a stored game again: *returns gets the final state's returns; true when every
 * action was legal. */
static bool replays(const game_t *g, const int32_t *actions, int n, double *returns, bool *terminal)
{
    uint64_t st[4096];
    int legal[4096];
    if (g->state_size > sizeof st || game_scratch_actions(g) > 4096) return false;
    game_init(g, st);
    for (int i = 0; i < n; i++) {
        if (game_is_terminal(g, st)) return false;
        int k = game_legal_actions(g, st, legal), ok = 0;
        for (int j = 0; j < k; j++) ok |= legal[j] == actions[i];
        if (!ok && !game_is_chance(g, st)) return false;
        game_apply(g, st, actions[i]);
    }
    *terminal = game_is_terminal(g, st);
    memset(returns, 0, sizeof(double) * GAME_MAX_PLAYERS);
    if (*terminal) game_returns(g, st, returns);
    return true;
}

/* Carried games: slots stay busy, so the evaluator's batches are fuller than when every
 * run finishes its own games; game ids stay unique across runs and each game's record
 * replays to its result. */
static void test_carry(void)
{
    const game_t *g = tiny_game();
    sample_set_t set, plain;
    selfplay_games_t games = {0};
    selfplay_stats_t carry, off;
    session(g, "games=4,parallel=4,sims=16,batch=4,carry=true", 21, 1, 3, &set, &games, &carry);
    session(g, "games=4,parallel=4,sims=16,batch=4", 21, 1, 3, &plain, NULL, &off);
    CU_ASSERT(carry.games >= 12);
    CU_ASSERT_EQUAL(off.games, 12);
    CU_ASSERT(carry.in_flight > 0);
    CU_ASSERT_EQUAL(off.in_flight, 0);
    CU_ASSERT_EQUAL(carry.batch_capacity, 16);
    double fill_carry =
        (double)carry.evaluations / ((double)carry.evaluator_calls * (double)carry.batch_capacity);
    double fill_off =
        (double)off.evaluations / ((double)off.evaluator_calls * (double)off.batch_capacity);
    CU_ASSERT(fill_carry > fill_off);
    CU_ASSERT(fill_carry > 0.8);
    CU_ASSERT_EQUAL(games.n, carry.games);
    for (int64_t i = 0; i < games.n; i++)
        for (int64_t j = i + 1; j < games.n; j++)
            CU_ASSERT(games.game[i].game_id != games.game[j].game_id);
    for (int64_t i = 0; i < games.n; i++) {
        const selfplay_game_t *sg = &games.game[i];
        double r[GAME_MAX_PLAYERS];
        bool terminal = false;
        CU_ASSERT(replays(g, sg->actions, sg->num_actions, r, &terminal));
        CU_ASSERT(terminal && sg->end == RECORD_END_RULES);
        CU_ASSERT(r[0] == sg->returns[0] && r[1] == sg->returns[1]);
    }
    sample_set_done(&set);
    sample_set_done(&plain);
    selfplay_games_done(&games);
    game_free(g);
}

/* 5x5 free-style Go-Bang cannot be won in 6 actions: every game is truncated. */
static void test_truncation_and_value_targets(void)
{
    const game_t *g = tiny_game();
    sample_set_t set;
    selfplay_stats_t st;
    session(g, "games=4,parallel=4,sims=16,max_moves=6", 4, 1, 1, &set, NULL, &st);
    CU_ASSERT_EQUAL(st.truncated, 4);
    CU_ASSERT_EQUAL(set.n, 24);
    int nonzero = 0;
    for (int64_t i = 0; i < set.n; i++) {
        CU_ASSERT(set.flags[i] == SAMPLE_TRUNCATED);
        CU_ASSERT(fabsf(set.value[i]) <= 1);
        nonzero += set.value[i] != 0;
        /* bootstrapped from the last search's root value: the movers' values alternate */
        int64_t j = find_sample(&set, set.game_id[i], set.move[i] + 1);
        if (j >= 0) CU_ASSERT_EQUAL(set.value[j], -set.value[i]);
    }
    CU_ASSERT(nonzero > 0);
    sample_set_done(&set);
    session(g, "games=4,parallel=4,sims=16,max_moves=6,truncate=draw", 4, 1, 1, &set, NULL, &st);
    for (int64_t i = 0; i < set.n; i++) CU_ASSERT(set.value[i] == 0 && set.flags[i] != 0);
    sample_set_done(&set);
    session(g, "games=4,parallel=4,sims=16,max_moves=6,truncate=drop", 4, 1, 1, &set, NULL, &st);
    CU_ASSERT_EQUAL(set.n, 0);
    CU_ASSERT_EQUAL(st.samples, 0);
    CU_ASSERT_EQUAL(st.dropped, 24);
    sample_set_done(&set);
    /* mix: weight 0 is the result, weight 1 the root value of each sample's own search */
    sample_set_t result, mix0, mix1;
    selfplay_stats_t a, b, c;
    session(g, "games=4,parallel=4,sims=16", 4, 1, 1, &result, NULL, &a);
    session(g, "games=4,parallel=4,sims=16,value_target=mix,value_mix=0", 4, 1, 1, &mix0, NULL, &b);
    session(g, "games=4,parallel=4,sims=16,value_target=mix,value_mix=1", 4, 1, 1, &mix1, NULL, &c);
    CU_ASSERT_EQUAL(result.n, mix0.n);
    CU_ASSERT_EQUAL(result.n, mix1.n);
    for (int64_t i = 0; i < result.n && i < mix0.n; i++) /* == : a draw's 0 may be -0 */
        CU_ASSERT(result.value[i] == mix0.value[i]);
    int fractional = 0;
    for (int64_t i = 0; i < mix1.n; i++) {
        CU_ASSERT(result.flags[i] == 0);
        fractional += mix1.value[i] != 1 && mix1.value[i] != 0 && mix1.value[i] != -1;
    }
    CU_ASSERT(fractional > mix1.n / 2);
    sample_set_done(&result);
    sample_set_done(&mix0);
    sample_set_done(&mix1);
    game_free(g);
}

/* Game records: stored in the tournaments' schema, read back, replayed to their result. */
static void test_game_records(void)
{
    const game_t *g = tiny_game();
    char dir[512];
    harness_tmp_path(dir, sizeof dir, "hoyle_sprec_XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char path[700];
    snprintf(path, sizeof path, "%s/gen.h5", dir);
    sample_set_t set;
    selfplay_games_t games = {0};
    selfplay_stats_t st;
    session(g, "games=5,parallel=3,sims=16,max_moves=14", 2, 1, 1, &set, &games, &st);
    HARNESS_OK(selfplay_games_write(path, g, &games, "selfplay(net-000000.pt)", 3, "x: 1\n"));
    /* again: a rewritten generation replaces the file */
    HARNESS_OK(selfplay_games_write(path, g, &games, "selfplay(net-000000.pt)", 3, "x: 1\n"));
    h5rec_t *h = NULL;
    HARNESS_OK(h5rec_open_read(path, &h));
    CU_ASSERT_EQUAL(h5rec_count(h), 5);
    int truncated = 0;
    for (int64_t i = 0; h && i < h5rec_count(h); i++) {
        game_record_t r;
        HARNESS_OK(h5rec_read(h, i, &r));
        CU_ASSERT_STRING_EQUAL(r.game_spec, g->spec);
        CU_ASSERT_STRING_EQUAL(r.agent_spec[0], "selfplay(net-000000.pt)");
        CU_ASSERT_EQUAL(r.round, 3);
        CU_ASSERT_EQUAL(r.game_index, games.game[i].game_id);
        double ret[GAME_MAX_PLAYERS];
        bool terminal = false;
        CU_ASSERT(replays(g, r.actions, r.num_actions, ret, &terminal));
        if (r.end == RECORD_END_MOVE_LIMIT) {
            truncated++;
            CU_ASSERT(!terminal && r.num_actions == 14 && r.result == 0.5);
        } else {
            CU_ASSERT(terminal && r.end == RECORD_END_RULES);
            CU_ASSERT(ret[0] == r.returns[0] && r.result == (ret[0] + 1) / 2);
        }
        game_record_free(&r);
    }
    CU_ASSERT_EQUAL(truncated, st.truncated);
    h5rec_close(h);
    unlink(path);
    rmdir(dir);
    sample_set_done(&set);
    selfplay_games_done(&games);
    game_free(g);
}

static int probe_create(agent_t *a)
{
    (void)a;
    return hoyle_error(HOYLE_EUNSUP, "probe agent cannot be created");
}

static void test_register_kind(void)
{
    static const param_def_t none[] = {{.key = NULL}};
    static const agent_kind_t dup = {.name = "mcts", .params = none, .create = probe_create};
    static const agent_kind_t probe = {.name = "probe", .params = none, .create = probe_create};
    CU_ASSERT_EQUAL(agent_register_kind(&dup), HOYLE_EINVAL);
    HARNESS_OK(agent_register_kind(&probe));
    HARNESS_OK(agent_register_kind(&probe)); /* again: a no-op */
    const game_t *g = tiny_game();
    agent_t *a = NULL;
    CU_ASSERT_EQUAL(agent_create(g, "probe", 1, &a), HOYLE_EUNSUP); /* found, its create ran */
    CU_ASSERT_EQUAL(agent_create(g, "nosuch", 1, &a), HOYLE_EINVAL);
    char buf[8192];
    CU_ASSERT(agent_describe_kinds(buf, sizeof buf) > 0 && strstr(buf, "probe") != NULL);
    game_free(g);
}

int main(void)
{
    static const harness_test_t tests[] = {
        {"batching and samples", test_batching_and_samples},
        {"playout cap and resign", test_playout_cap_and_resign},
        {"gumbel self-play: improved-policy targets", test_gumbel_targets},
        {"proven roots: one-hot on the proven win, uniform on an unvisited loss",
         test_proven_root_targets},
        {"shards and replay", test_shards_and_replay},
        {"forced moves: no search, no sample", test_forced_moves},
        {"workers: repeatable, same samples as one", test_workers},
        {"carried games: full batches, unique ids, replayable", test_carry},
        {"carried games, two workers: one quota for both", test_carry_shared_quota},
        {"truncated games and value targets", test_truncation_and_value_targets},
        {"game records: stored, read, replayed", test_game_records},
        {"register kind", test_register_kind},
        {NULL, NULL},
    };
    return harness_run("selfplay", tests);
}
