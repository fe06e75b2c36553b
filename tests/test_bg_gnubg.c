/* test_bg_gnubg.c — Backgammon against GNU Backgammon, live: for every roll
 * from the start and for (position, roll) pairs from seeded random games,
 * the set of positions reachable by hoyle's plays must equal the set gnubg
 * lists (games/backgammon/gnubg_client.h); then the gnubg agent plays whole
 * games. Needs the gnubg package: without it the test is skipped (exit 77),
 * unless HOYLE_REQUIRE_GNUBG=1 (scripts/run-tests sets it), when it fails.
 * HOYLE_GNUBG_PAIRS sets the number of random pairs (default 3000). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "games/backgammon/bg_internal.h"
#include "games/backgammon/gnubg_client.h"
#include "agents/game_agents.h"
#include "games/playout.h"
#include "games/registry.h"
#include "mcts/agent.h"
#include "tests/harness.h"

static gnubg_client_t *client;
static char (*gnubg_ids)[GNUBG_ID_LEN];
static char (*hoyle_ids)[GNUBG_ID_LEN];
static long pairs_checked, plays_checked, passes_checked;

static int by_text(const void *a, const void *b) { return strcmp(a, b); }

/* Compare the plays of `roll` (hi, lo) for the mover of `s` (a BG_PLAY state
 * just after the roll) with gnubg's list; print the first difference. */
static int compare_plays(const bg_state_t *s)
{
    char id[BG_ID_LEN + 1];
    bg_position_id(&s->start, s->to_move, id);
    int ng = 0, np = 0;
    int st = gnubg_client_plays(client, id, s->dice[0], s->dice[1], gnubg_ids, BG_MAX_PLAYS, &ng);
    if (st) {
        fprintf(stderr, "gnubg plays %s %d%d: %s\n", id, s->dice[0], s->dice[1],
                hoyle_last_error());
        return 1;
    }
    const bg_play_t *plays = bg_state_plays(s, &np);
    for (int i = 0; i < np; i++) bg_position_id(&plays[i].after, s->to_move, hoyle_ids[i]);
    qsort(hoyle_ids, (size_t)np, sizeof *hoyle_ids, by_text);
    int bad = np != ng || (np == 0) != (s->need == 0);
    for (int i = 0; !bad && i < np; i++) bad = strcmp(hoyle_ids[i], gnubg_ids[i]) != 0;
    if (bad) {
        fprintf(stderr, "%s %d%d: hoyle %d plays, gnubg %d\n", id, s->dice[0], s->dice[1], np, ng);
        for (int i = 0, j = 0; i < np || j < ng;) {
            int c = i == np ? 1 : j == ng ? -1 : strcmp(hoyle_ids[i], gnubg_ids[j]);
            if (c < 0)
                fprintf(stderr, "  only hoyle: %s\n", hoyle_ids[i++]);
            else if (c > 0)
                fprintf(stderr, "  only gnubg: %s\n", gnubg_ids[j++]);
            else
                i++, j++;
        }
    }
    pairs_checked++;
    plays_checked += np;
    passes_checked += np == 0;
    return bad;
}

static void test_start_rolls(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("backgammon", &g));
    bg_state_t s;
    int failures = 0;
    for (int hi = 1; hi <= 6; hi++)
        for (int lo = 1; lo <= hi; lo++) {
            char pos[64];
            snprintf(pos, sizeof pos, "4HPwATDgc/ABMA:X:%d%d:t1", hi, lo);
            HARNESS_OK(game_position_from_string(g, pos, &s));
            failures += compare_plays(&s);
        }
    CU_ASSERT_EQUAL(failures, 0);
    game_free(g);
}

/* Seeded random games; at every roll of either side (with probability 1/4,
 * to spread the pairs over many games), compare the plays. */
static void test_random_pairs(void)
{
    const char *env = getenv("HOYLE_GNUBG_PAIRS");
    long want = env && atol(env) > 0 ? atol(env) : 3000;
    const game_t *g = NULL;
    HARNESS_OK(game_create("backgammon", &g));
    bg_state_t s;
    rng_t rng;
    rng_init(&rng, 20261129);
    int legal[BG_NUM_ACTIONS], failures = 0;
    long start = pairs_checked;
    while (pairs_checked - start < want && failures < 5) {
        game_init(g, &s);
        while (!game_is_terminal(g, &s)) {
            if (game_is_chance(g, &s)) {
                game_apply(g, &s, game_chance_sample_alloc(g, &s, &rng));
                if (s.phase == BG_PLAY && s.nsteps == 0 && rng_below(&rng, 4) == 0)
                    failures += compare_plays(&s);
                continue;
            }
            int n = game_legal_actions(g, &s, legal);
            game_apply(g, &s, legal[rng_below(&rng, (uint32_t)n)]);
        }
    }
    printf("\n  gnubg agrees on %ld (position, roll) pairs: %ld plays, %ld with no play\n",
           pairs_checked, plays_checked, passes_checked);
    CU_ASSERT_EQUAL(failures, 0);
    CU_ASSERT(passes_checked > 0); /* the sample reached shut-out positions */
    game_free(g);
}

/* The gnubg agent plays complete games through the generic driver. */
static void test_agent_games(void)
{
    const game_t *g = NULL;
    HARNESS_OK(game_create("backgammon", &g));
    agent_t *agents[2] = {NULL, NULL};
    HARNESS_OK(agent_create(g, "gnubg(plies=0)", 1, &agents[0]));
    HARNESS_OK(agent_create(g, "random", 2, &agents[1]));
    double wins = 0;
    for (int game = 0; game < 4; game++) {
        double r[2];
        int length = 0;
        agent_t *order[2] = {agents[game % 2], agents[1 - game % 2]};
        HARNESS_OK(agent_play_game(g, order, NULL, 100 + (uint64_t)game, NULL, NULL, r, &length));
        CU_ASSERT(length > 10);
        wins += r[game % 2] > 0;
        agent_reset(agents[0]);
        agent_reset(agents[1]);
    }
    CU_ASSERT(wins >= 3); /* gnubg loses a game to random well under 1% of the time */
    agent_free(agents[0]);
    agent_free(agents[1]);
    /* Only backgammon; a missing program is a clear error. */
    const game_t *c = NULL;
    HARNESS_OK(game_create("checkers", &c));
    agent_t *bad = NULL;
    CU_ASSERT_EQUAL(agent_create(c, "gnubg", 1, &bad), HOYLE_EINVAL);
    CU_ASSERT_PTR_NULL(bad);
    CU_ASSERT_NOT_EQUAL(agent_create(g, "gnubg(path=/nonexistent/gnubg)", 1, &bad), 0);
    CU_ASSERT_PTR_NULL(bad);
    CU_ASSERT(strstr(hoyle_last_error(), "gnubg") != NULL);
    game_free(c);
    game_free(g);
}

int main(void)
{
    int st = gnubg_client_open(NULL, &client);
    if (st) {
        const char *require = getenv("HOYLE_REQUIRE_GNUBG");
        fprintf(stderr, "test_bg_gnubg: %s\n", hoyle_last_error());
        if (require && strcmp(require, "1") == 0) return 1;
        fprintf(stderr, "test_bg_gnubg: skipped (install gnubg to run it)\n");
        return 77;
    }
    if (game_agents_register()) { /* the gnubg agent kind (agents/game_agents.h) */
        fprintf(stderr, "test_bg_gnubg: %s\n", hoyle_last_error());
        return 1;
    }
    gnubg_ids = malloc(sizeof *gnubg_ids * BG_MAX_PLAYS);
    hoyle_ids = malloc(sizeof *hoyle_ids * BG_MAX_PLAYS);
    static const harness_test_t tests[] = {
        {"start_rolls", test_start_rolls},
        {"random_pairs", test_random_pairs},
        {"agent_games", test_agent_games},
        {NULL, NULL},
    };
    int rc = harness_run("bg_gnubg", tests);
    gnubg_client_close(client);
    free(gnubg_ids);
    free(hoyle_ids);
    return rc;
}
