/* selfplay.c — the self-play driver (selfplay.h). One step of the main loop:
 *   1. start games in free slots; slots without a search in progress play
 *      chance outcomes, finish ended games, and begin a full or fast search;
 *   2. collect up to `batch` leaves from every searching tree into one buffer;
 *   3. one evaluator call (chunked by max_batch) for the whole buffer;
 *   4. deliver each tree's slice; finished searches record a sample (full
 *      searches), check resignation, choose and play a move.
 * Invariant: a slot's pending[] lists the samples of its game in progress,
 * whose value targets are written when that game ends. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rng.h"
#include "games/playout.h"
#include "mcts/mcts_params.h"
#include "train/selfplay.h"

const param_def_t selfplay_param_defs[] = {
    {.key = "games", .type = PARAM_INT, .def = "32", .min = 1, .max = 1e9, .help = "games per run"},
    {.key = "parallel",
     .type = PARAM_INT,
     .def = "16",
     .min = 1,
     .max = 4096,
     .help = "games in flight sharing each evaluator call"},
    {.key = "sims",
     .type = PARAM_INT,
     .def = "64",
     .min = 1,
     .max = 1e7,
     .help = "simulations of a full search"},
    {.key = "fast_sims",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e7,
     .help = "playout-cap randomisation: fast-search simulations (0 = off)"},
    {.key = "full_prob",
     .type = PARAM_DOUBLE,
     .def = "0.25",
     .min = 0,
     .max = 1,
     .help = "probability of a full search when fast_sims > 0"},
    MCTS_PUCT_PARAM_DEFS("1.25"),
    MCTS_FPU_PARENT_PARAM_DEF,
    MCTS_BATCH_PARAM_DEFS("4", "0", "0.25"),
    {.key = "noise_scale",
     .type = PARAM_DOUBLE,
     .def = "10",
     .min = 0.001,
     .max = 1e4,
     .help = "alpha = noise_scale / typical legal moves"},
    {.key = "temp",
     .type = PARAM_DOUBLE,
     .def = "1",
     .min = 0,
     .max = 100,
     .help = "move temperature for the first temp_moves actions"},
    {.key = "temp_moves",
     .type = PARAM_INT,
     .def = "8",
     .min = 0,
     .max = 1e6,
     .help = "actions played with temp"},
    {.key = "temp_final",
     .type = PARAM_DOUBLE,
     .def = "0",
     .min = 0,
     .max = 100,
     .help = "temperature afterwards (0 = most visited)"},
    {.key = "resign",
     .type = PARAM_DOUBLE,
     .def = "0",
     .min = -1,
     .max = 0,
     .help = "resign below this root value (0 = never)"},
    {.key = "no_resign_frac",
     .type = PARAM_DOUBLE,
     .def = "0.2",
     .min = 0,
     .max = 1,
     .help = "share of games played out to measure false resigns"},
    {.key = "max_moves",
     .type = PARAM_INT,
     .def = "0",
     .min = 0,
     .max = 1e7,
     .help = "actions before adjudicating a draw (0 = rules only)"},
    MCTS_REUSE_PARAM_DEF,
    MCTS_PARAM_DEFS /* each entry ends with a comma */
    {.key = NULL},
};

int selfplay_params_parse(const char *text, selfplay_params_t *p, char *canon, size_t cap)
{
    char buf[SPEC_VALUE_MAX * 4];
    int n = snprintf(buf, sizeof buf, "selfplay(%s)", text ? text : "");
    if (n < 0 || (size_t)n >= sizeof buf)
        return hoyle_error(HOYLE_EINVAL, "selfplay: parameters too long");
    spec_t spec;
    params_t pp;
    if (spec_parse(buf, &spec) || params_bind(selfplay_param_defs, &spec, "selfplay", &pp))
        return HOYLE_EINVAL;
    mcts_params_t search;
    mcts_params_default(&search);
    search.select = MCTS_PUCT;
    if (mcts_params_bind(&pp, &search)) return HOYLE_EINVAL;
    if (canon && params_format(&pp, "selfplay", canon, cap) < 0) return HOYLE_EFULL;
    selfplay_params_t q = {
        .search = search,
        .games = (int)params_int(&pp, "games"),
        .parallel = (int)params_int(&pp, "parallel"),
        .fast_sims = (int)params_int(&pp, "fast_sims"),
        .full_prob = params_double(&pp, "full_prob"),
        .noise_scale = params_double(&pp, "noise_scale"),
        .temp = params_double(&pp, "temp"),
        .temp_moves = (int)params_int(&pp, "temp_moves"),
        .temp_final = params_double(&pp, "temp_final"),
        .resign = params_double(&pp, "resign"),
        .no_resign_frac = params_double(&pp, "no_resign_frac"),
        .max_moves = (int)params_int(&pp, "max_moves"),
        .seed = p->seed,
        .first_game_id = p->first_game_id,
    };
    *p = q;
    return HOYLE_OK;
}

double selfplay_typical_legal(const game_t *g, int games, uint64_t seed)
{
    size_t scratch = (size_t)game_scratch_actions(g);
    int *legal = malloc(sizeof(int) * scratch);
    double *probs = malloc(sizeof(double) * scratch);
    uint64_t *st = malloc(g->state_size);
    double sum = 0, count = 0;
    rng_t rng;
    rng_init(&rng, seed);
    for (int i = 0; legal && probs && st && i < games; i++) {
        game_init(g, st);
        for (int k = 0; k < g->max_game_length && !game_is_terminal(g, st); k++) {
            if (!game_is_chance(g, st)) {
                sum += game_legal_actions(g, st, legal);
                count++;
            }
            game_apply(g, st, game_random_action(g, st, &rng, legal, probs));
        }
    }
    free(legal);
    free(probs);
    free(st);
    return count > 0 ? sum / count : 1.0;
}

typedef struct slot {
    bool active;
    int64_t game_id;
    uint64_t *state;     /* state_size bytes */
    mcts_t *full, *fast; /* trees for full and fast searches */
    mcts_t *cur;         /* the tree searching now, or NULL */
    bool cur_full;       /* cur == full */
    int actions;         /* actions played in this game */
    bool no_resign;      /* play out regardless of resignation */
    bool would_resign[GAME_MAX_PLAYERS];
    int num_pending;
    int64_t *pending; /* sample indices of this game */
    int8_t *pending_player;
    int off, n; /* this step's slice of the batch buffer */
    rng_t rng;
} slot_t;

typedef struct driver {
    const game_t *g;
    evaluator_t *e;
    const selfplay_params_t *p;
    sample_set_t *out;
    selfplay_stats_t *st;
    slot_t *slots;
    char *states;   /* parallel * batch states */
    double *values; /* parallel * batch * num_players */
    float *priors;  /* parallel * batch * num_actions, or NULL */
    int *legal;
    double *probs;
    int pending_cap;
} driver_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int slot_open(driver_t *d, slot_t *s, int index)
{
    const game_t *g = d->g;
    const selfplay_params_t *p = d->p;
    mcts_params_t mp = p->search; /* max_nodes 0: sized by mcts_create per tree */
    mp.dirichlet_alpha = d->st->alpha;
    if (mp.gumbel) mp.dirichlet_eps = 0; /* Gumbel noise replaces the Dirichlet noise */
    mp.seed = rng_mix(p->seed ^ rng_mix(0x5e1f000ULL + (uint64_t)index));
    s->state = malloc(g->state_size);
    s->pending = malloc(sizeof(int64_t) * (size_t)d->pending_cap);
    s->pending_player = malloc((size_t)d->pending_cap);
    if (!s->state || !s->pending || !s->pending_player)
        return hoyle_error(HOYLE_ENOMEM, "selfplay: out of memory");
    int status = mcts_create(g, &mp, NULL, &s->full);
    if (status || p->fast_sims == 0) return status;
    mp.max_sims = p->fast_sims;
    mp.dirichlet_eps = 0;
    mp.seed = rng_mix(mp.seed + 1);
    return mcts_create(g, &mp, NULL, &s->fast);
}

static void slot_close(slot_t *s)
{
    mcts_free(s->full);
    mcts_free(s->fast);
    free(s->state);
    free(s->pending);
    free(s->pending_player);
}

static void game_start(driver_t *d, slot_t *s, int64_t number)
{
    s->active = true;
    s->game_id = d->p->first_game_id + number;
    rng_init(&s->rng, rng_mix(d->p->seed ^ rng_mix((uint64_t)s->game_id + 1)));
    game_init(d->g, s->state);
    mcts_clear(s->full);
    if (s->fast) mcts_clear(s->fast);
    s->cur = NULL;
    s->actions = 0;
    s->no_resign = rng_double(&s->rng) < d->p->no_resign_frac;
    memset(s->would_resign, 0, sizeof s->would_resign);
    s->num_pending = 0;
}

static void game_finish(driver_t *d, slot_t *s, const double *returns, bool resigned)
{
    selfplay_stats_t *st = d->st;
    for (int i = 0; i < s->num_pending; i++)
        d->out->value[s->pending[i]] = (float)returns[s->pending_player[i]];
    st->games++;
    st->resigned += resigned;
    if (d->g->num_players == 2) {
        if (returns[0] > returns[1])
            st->wins[0]++;
        else if (returns[1] > returns[0])
            st->wins[1]++;
        else
            st->draws++;
    }
    for (int q = 0; q < d->g->num_players; q++) {
        if (!s->would_resign[q]) continue;
        st->resign_checks++;
        st->false_resigns += returns[q] > -1.0 + 1e-9;
    }
    s->active = false;
}

static void play(driver_t *d, slot_t *s, int action)
{
    mcts_advance(s->full, s->state, action);
    if (s->fast) mcts_advance(s->fast, s->state, action);
    game_apply(d->g, s->state, action);
    s->actions++;
    d->st->actions++;
}

/* Step 1 for one slot: chance outcomes, game end, or the next search. */
static int slot_prepare(driver_t *d, slot_t *s)
{
    const game_t *g = d->g;
    while (game_is_chance(g, s->state))
        play(d, s, game_random_action(g, s->state, &s->rng, d->legal, d->probs));
    double r[GAME_MAX_PLAYERS] = {0};
    if (game_is_terminal(g, s->state)) {
        game_returns(g, s->state, r);
        game_finish(d, s, r, false);
        return HOYLE_OK;
    }
    if ((d->p->max_moves > 0 && s->actions >= d->p->max_moves) || s->actions >= d->pending_cap) {
        game_finish(d, s, r, false);
        return HOYLE_OK;
    }
    s->cur_full = s->fast == NULL || rng_double(&s->rng) < d->p->full_prob;
    s->cur = s->cur_full ? s->full : s->fast;
    return mcts_search_begin(s->cur, s->state);
}

static int record_sample(driver_t *d, slot_t *s, const mcts_result_t *r)
{
    const game_t *g = d->g;
    sample_set_t *out = d->out;
    int64_t i = sample_set_push(out);
    if (i < 0) return (int)i;
    size_t A = (size_t)g->num_actions;
    game_observe(g, s->state, r->player, out->obs + (size_t)i * (size_t)out->obs_size);
    float *pi = out->policy + (size_t)i * A;
    uint8_t *legal = out->legal + (size_t)i * A;
    double total = 0;
    for (int c = 0; c < r->num_children; c++) legal[r->actions[c]] = 1;
    if (r->root_proven && r->proven_value[r->player] >= 0) {
        /* A proven win (or draw): the search stopped at the proof, so the visits so far say
         * little (a win in one often has a single visit); the target is the proven-best move
         * (docs/training.md). A proven loss keeps the search's distribution: every move loses,
         * and the visits say which resists longest. */
        pi[r->best_action] = 1.0f;
    } else if (r->improved_policy) { /* Gumbel: the improved policy */
        for (int c = 0; c < r->num_children; c++) pi[r->actions[c]] = r->improved_policy[c];
    } else {
        for (int c = 0; c < r->num_children; c++) total += r->visits[c];
        for (int c = 0; c < r->num_children; c++)
            pi[r->actions[c]] = total > 0 ? (float)(r->visits[c] / total) : 0.0f;
        if (total <= 0) pi[r->best_action] = 1.0f;
    }
    out->game_id[i] = s->game_id;
    out->move[i] = s->actions;
    s->pending[s->num_pending] = i;
    s->pending_player[s->num_pending++] = (int8_t)r->player;
    d->st->samples++;
    return HOYLE_OK;
}

/* Step 4 for a slot whose search has finished. */
static int slot_move(driver_t *d, slot_t *s)
{
    const selfplay_params_t *p = d->p;
    const mcts_result_t *r = mcts_search_end(s->cur);
    mcts_t *m = s->cur;
    s->cur = NULL;
    if (s->cur_full) {
        d->st->full_searches++;
        int status = record_sample(d, s, r);
        if (status) return status;
    } else {
        d->st->fast_searches++;
    }
    int player = r->player;
    double v = r->root_proven ? r->proven_value[player] : r->value[player];
    if (p->resign < 0 && v < p->resign && d->g->num_players == 2) {
        if (!s->no_resign) {
            double ret[GAME_MAX_PLAYERS];
            ret[player] = -1.0;
            ret[1 - player] = 1.0;
            game_finish(d, s, ret, true);
            return HOYLE_OK;
        }
        s->would_resign[player] = true;
    }
    double temp = s->actions < p->temp_moves ? p->temp : p->temp_final;
    if (p->search.gumbel) temp = 0; /* the Gumbel choice already samples */
    int action;
    int status = mcts_choose(m, temp, &action);
    if (status) return status;
    play(d, s, action);
    return HOYLE_OK;
}

static int evaluate_all(driver_t *d, int total)
{
    const game_t *g = d->g;
    double t0 = now_s();
    for (int at = 0; at < total;) {
        int n = total - at < d->e->max_batch ? total - at : d->e->max_batch;
        float *pr = d->priors ? d->priors + (size_t)at * (size_t)g->num_actions : NULL;
        int status = evaluator_evaluate(d->e, d->states + (size_t)at * g->state_size, n,
                                        d->values + (size_t)at * (size_t)g->num_players, pr);
        if (status) return status;
        at += n;
        d->st->evaluator_calls++;
    }
    d->st->evaluations += (uint64_t)total;
    d->st->eval_seconds += now_s() - t0;
    return HOYLE_OK;
}

static int run_loop(driver_t *d, selfplay_progress_fn progress, void *ctx)
{
    const game_t *g = d->g;
    const selfplay_params_t *p = d->p;
    int64_t started = 0;
    int status = HOYLE_OK;
    while (status == HOYLE_OK && d->st->games < p->games) {
        /* 1. start games, prepare searches */
        int total = 0;
        for (int k = 0; k < p->parallel && status == HOYLE_OK; k++) {
            slot_t *s = &d->slots[k];
            while (status == HOYLE_OK && s->cur == NULL) {
                if (!s->active) {
                    if (started >= p->games) break;
                    game_start(d, s, started++);
                }
                int64_t before = d->st->games;
                status = slot_prepare(d, s);
                if (d->st->games != before && progress) progress(ctx, d->st);
            }
            if (status || s->cur == NULL) continue;
            /* 2. collect this tree's leaves */
            const void *leaves;
            status = mcts_search_collect(s->cur, &leaves, &s->n);
            if (status) break;
            s->off = total;
            memcpy(d->states + (size_t)total * g->state_size, leaves, (size_t)s->n * g->state_size);
            total += s->n;
        }
        /* 3. one evaluator call for every tree */
        if (status == HOYLE_OK && total > 0) status = evaluate_all(d, total);
        /* 4. deliver, and move where the search is done */
        for (int k = 0; k < p->parallel && status == HOYLE_OK; k++) {
            slot_t *s = &d->slots[k];
            if (s->cur == NULL) continue;
            const float *pr =
                d->priors ? d->priors + (size_t)s->off * (size_t)g->num_actions : NULL;
            status = mcts_search_deliver(s->cur,
                                         d->values + (size_t)s->off * (size_t)g->num_players, pr);
            if (status == HOYLE_OK && mcts_search_finished(s->cur)) {
                int64_t before = d->st->games;
                status = slot_move(d, s);
                if (d->st->games != before && progress) progress(ctx, d->st);
            }
        }
    }
    return status;
}

void selfplay_progress_line(void *ctx, const selfplay_stats_t *st)
{
    selfplay_progress_t *c = ctx;
    char extra[48];
    snprintf(extra, sizeof extra, "%" PRId64 " samples", st->samples);
    progress_update(&c->pg, st->games, c->total, extra, c->final_line && st->games >= c->total);
}

int selfplay_run(const game_t *g, evaluator_t *e, const selfplay_params_t *p, sample_set_t *out,
                 selfplay_stats_t *st, selfplay_progress_fn progress, void *ctx)
{
    if (g->num_players > 2)
        return hoyle_error(HOYLE_EINVAL, "selfplay: %s has %d players (self-play plays 1 or 2)",
                           g->spec, g->num_players);
    if (p->parallel < 1)
        return hoyle_error(HOYLE_EINVAL, "selfplay: parallel: %d is below 1", p->parallel);
    if (p->search.batch < 1)
        return hoyle_error(HOYLE_EINVAL, "selfplay: batch: %d is below 1", p->search.batch);
    if (p->games < 0) return hoyle_error(HOYLE_EINVAL, "selfplay: games: %d is negative", p->games);
    memset(st, 0, sizeof *st);
    double t0 = now_s();
    st->typical_legal = selfplay_typical_legal(g, 16, rng_mix(p->seed ^ 0x4c4c));
    double alpha = p->search.dirichlet_alpha;
    st->alpha = alpha > 0 ? alpha : p->noise_scale / st->typical_legal;
    driver_t d = {.g = g, .e = e, .p = p, .out = out, .st = st};
    d.pending_cap = g->max_game_length + 1;
    size_t leaves = (size_t)p->parallel * (size_t)p->search.batch;
    size_t scratch = (size_t)game_scratch_actions(g);
    d.slots = calloc((size_t)p->parallel, sizeof *d.slots);
    d.states = malloc(leaves * g->state_size);
    d.values = malloc(sizeof(double) * leaves * (size_t)g->num_players);
    d.priors = e->has_priors ? malloc(sizeof(float) * leaves * (size_t)g->num_actions) : NULL;
    d.legal = malloc(sizeof(int) * scratch);
    d.probs = malloc(sizeof(double) * scratch);
    int status = HOYLE_OK;
    if (!d.slots || !d.states || !d.values || (e->has_priors && !d.priors) || !d.legal || !d.probs)
        status = hoyle_error(HOYLE_ENOMEM, "selfplay: out of memory");
    for (int k = 0; status == HOYLE_OK && k < p->parallel; k++)
        status = slot_open(&d, &d.slots[k], k);
    if (status == HOYLE_OK) status = run_loop(&d, progress, ctx);
    for (int k = 0; d.slots && k < p->parallel; k++) slot_close(&d.slots[k]);
    free(d.slots);
    free(d.states);
    free(d.values);
    free(d.priors);
    free(d.legal);
    free(d.probs);
    st->seconds = now_s() - t0;
    return status;
}
