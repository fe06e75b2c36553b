/* sprt_run.c — the SPRT pair runner (sprt_run.h). Invariant: pair i's two
 * games depend only on the parameters and i (never on the thread that
 * plays them), so a rerun with the same seed replays the test. */
#include "eval/sprt_run.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "eval/openings.h"
#include "eval/tournament.h"
#include "mcts/agent.h"

/* One of the two games of a pair: game k has A in seat k. */
typedef struct pair_game {
    const game_t *g;
    const char *spec[2]; /* per seat */
    agent_t *agent[2];   /* per seat, owned by the runner, reused game after game */
    const opening_t *opening;
    uint64_t seed;
    int max_moves, status;
    tour_game_result_t res;
    char error[256];
} pair_game_t;

/* Two pair_games, each with its own two agents, so the two games of a pair
 * can be played at once on two threads without sharing an agent. */
struct sprt_runner {
    const game_t *g;
    sprt_run_params_t p;
    opening_list_t book; /* book:PATH, else empty */
    int random_k;        /* random:K, 0 for none, -1 with a book */
    pair_game_t game[2];
};

/* Play one game of the pair. The agents are reseeded with the seat seeds a
 * fresh tournament_play would use, so reusing them game after game gives the
 * same games as creating them anew (see agent_reseed). Errors are copied
 * into pg->error here because hoyle_last_error is per thread. */
static void *play_thread(void *arg)
{
    pair_game_t *pg = arg;
    pg->status = HOYLE_OK;
    for (int p = 0; p < 2 && pg->status == 0; p++)
        pg->status = agent_reseed(pg->agent[p], tournament_agent_seed(pg->seed, p));
    if (pg->status == 0)
        pg->status = tournament_play_agents(pg->g, pg->agent, pg->spec, pg->opening, pg->seed,
                                            pg->max_moves, &pg->res);
    if (pg->status) snprintf(pg->error, sizeof pg->error, "%s", hoyle_last_error());
    return NULL;
}

void sprt_runner_free(sprt_runner_t *r)
{
    if (r == NULL) return;
    for (int k = 0; k < 2; k++)
        for (int p = 0; p < 2; p++) agent_free(r->game[k].agent[p]);
    opening_list_done(&r->book);
    free(r);
}

int sprt_runner_create(const game_t *g, const sprt_run_params_t *p, sprt_runner_t **out)
{
    sprt_runner_t *r = calloc(1, sizeof *r);
    if (r == NULL) return hoyle_error(HOYLE_ENOMEM, "sprt: out of memory");
    r->g = g;
    r->p = *p;
    r->random_k = -1;
    const char *src = p->openings;
    int status = HOYLE_OK;
    if (strncmp(src, "book:", 5) == 0)
        status = openings_load_book(g, src + 5, &r->book);
    else if (strcmp(src, "none") == 0)
        r->random_k = 0;
    else {
        int k, how = openings_parse_random(src, &k);
        if (how == 1)
            r->random_k = k;
        else if (how < 0)
            status = hoyle_error(HOYLE_EINVAL, "--openings: '%s': K in random:K must be 0..%d", src,
                                 OPENINGS_RANDOM_MAX);
        else
            status = hoyle_error(HOYLE_EINVAL,
                                 "--openings: '%s' is not random:K, book:PATH or none", src);
    }
    if (r->random_k < 0 && r->book.n == 0 && status == 0)
        status = hoyle_error(HOYLE_EINVAL, "--openings: bad K");
    for (int k = 0; k < 2 && status == 0; k++) {
        pair_game_t *pg = &r->game[k];
        pg->g = g;
        /* Game k puts A (spec[0]) in seat k: game 0 A moves first, game 1 B does. */
        pg->spec[0] = p->spec[k];
        pg->spec[1] = p->spec[1 - k];
        pg->max_moves = p->max_moves;
        for (int s = 0; s < 2 && status == 0; s++)
            /* Created once with seed 0; every game reseeds before it starts, so this
             * seed is never used for play. */
            status = agent_create(g, pg->spec[s], 0, &pg->agent[s]);
    }
    if (status) {
        sprt_runner_free(r);
        return status;
    }
    *out = r;
    return HOYLE_OK;
}

/* A's score in one game: 1, 1/2 or 0 from the returns of its seat. */
static double a_score(const tour_game_result_t *res, int a_seat)
{
    double a = res->returns[a_seat], b = res->returns[1 - a_seat];
    return a > b ? 1 : a < b ? 0 : 0.5;
}

/* Hand game k of pair `pair` to the on_game hook as a record. */
static int report_game(const sprt_runner_t *r, const pair_game_t *pg, int k, uint64_t pair)
{
    int32_t opening[OPENING_MAX_ACTIONS];
    for (int i = 0; i < pg->opening->num_actions; i++) opening[i] = pg->opening->actions[i];
    game_record_t rec = {.game_spec = (char *)r->g->spec,
                         .agent_spec = {(char *)pg->spec[0], (char *)pg->spec[1]}, /* as given */
                         .opening_name = (char *)pg->opening->name,
                         .opening_len = pg->opening->num_actions,
                         .opening_actions = opening,
                         .returns = {pg->res.returns[0], pg->res.returns[1]},
                         .result = a_score(&pg->res, 0),
                         .end = pg->res.end,
                         .num_actions = pg->res.num_actions,
                         .actions = pg->res.actions,
                         .action_ms = pg->res.action_ms,
                         .seed = pg->seed,
                         .round = (int32_t)pair + 1,
                         .game_index = k};
    return r->p.on_game(r->p.game_ctx, &rec);
}

int sprt_runner_run(sprt_runner_t *r, sprt_t *test, sprt_pair_fn on_pair, void *ctx,
                    uint64_t *pairs_out, sprt_decision_t *decision)
{
    const game_t *g = r->g;
    int status = HOYLE_OK;
    uint64_t pairs = 0;
    sprt_decision_t d = SPRT_CONTINUE;
    for (; pairs < r->p.max_pairs && d == SPRT_CONTINUE && status == 0; pairs++) {
        /* 1. the pair's opening: the book cycled, or a new random one */
        /* Pair seed from (seed, pair index) only: the file's invariant. The
         * opening and the second game derive their seeds from it with fixed domain
         * tags (0x0be1, 0x5eed) so the three streams are independent. */
        uint64_t ps = rng_mix(r->p.seed + pairs);
        opening_list_t one = {0, NULL};
        const opening_t *o;
        if (r->book.n > 0)
            /* Cycling the book in order gives every opening the same weight over a
             * long test. */
            o = &r->book.items[pairs % (uint64_t)r->book.n];
        else if ((status = openings_random(g, r->random_k, 1, rng_mix(ps ^ 0x0be1), &one)))
            break;
        else
            o = &one.items[0];
        /* 2. the two games in parallel; own seed per game: with one seed, two
         * copies of a stochastic agent would replay the same game mirrored
         * and every pair would score 1 */
        pair_game_t *pg = r->game;
        for (int k = 0; k < 2; k++) {
            pg[k].opening = o;
            pg[k].seed = k == 0 ? ps : rng_mix(ps ^ 0x5eedULL);
            memset(&pg[k].res, 0, sizeof pg[k].res);
        }
        pthread_t th;
        /* If no thread can be made, play the second game on this thread: slower,
         * but the same games. */
        int threaded = pthread_create(&th, NULL, play_thread, &pg[1]) == 0;
        play_thread(&pg[0]);
        if (threaded)
            pthread_join(th, NULL);
        else
            play_thread(&pg[1]);
        for (int k = 0; k < 2 && status == 0; k++)
            if (pg[k].status) status = hoyle_error(pg[k].status, "%s", pg[k].error);
        /* 3. the pair's score into the test */
        if (status == 0) {
            /* A's points over the pair, 0..2 in half points: the pentanomial unit
             * (sprt.c). The decision is taken after every pair. */
            double score = a_score(&pg[0].res, 0) + a_score(&pg[1].res, 1);
            status = sprt_add_pair(test, score);
            d = sprt_decision(test);
            if (status == 0 && on_pair) on_pair(ctx, pairs, o->name, score, test);
            for (int k = 0; k < 2 && status == 0 && r->p.on_game; k++)
                status = report_game(r, &pg[k], k, pairs);
        }
        for (int k = 0; k < 2; k++) tour_game_result_done(&pg[k].res);
        opening_list_done(&one);
    }
    *pairs_out = pairs;
    *decision = d;
    return status;
}
