/* selfplay.c — the self-play driver (selfplay.h). One step of a worker's loop:
 *   1. start games in free slots; slots without a search in progress play
 *      chance outcomes and forced moves, finish ended games, and begin a full
 *      or fast search on the game's tree;
 *   2. collect up to `batch` leaves from every searching tree into one buffer;
 *   3. one evaluator call (chunked by max_batch) for the whole buffer;
 *   4. deliver each tree's slice; finished searches record a sample (full
 *      searches), check resignation, choose and play a move.
 * Invariant: a slot's `pending` set holds the samples of its game in progress,
 * whose value targets are written when that game ends; only then are they
 * appended to the worker's output. Workers share nothing but the session's
 * read-only parameters and the progress lock. */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "train/selfplay.h"
#include "core/clock.h"
#include "core/rng.h"
#include "data/h5rec.h"
#include "data/record.h"
#include "games/playout.h"
#include "mcts/mcts_params.h"

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
     .help = "actions before truncating a game (0 = rules only)"},
    {.key = "truncate",
     .type = PARAM_CHOICE,
     .def = "bootstrap",
     .choices = "bootstrap|drop|draw",
     .help = "value targets of truncated games: last root value, none, or 0"},
    {.key = "value_target",
     .type = PARAM_CHOICE,
     .def = "result",
     .choices = "result|mix",
     .help = "value target: final result, or mixed with the root value"},
    {.key = "value_mix",
     .type = PARAM_DOUBLE,
     .def = "0.5",
     .min = 0,
     .max = 1,
     .help = "value_target=mix: weight of the root value"},
    {.key = "threads",
     .type = PARAM_INT,
     .def = "2",
     .min = 1,
     .max = 64,
     .help = "self-play workers of the training loop, one thread each"},
    {.key = "carry",
     .type = PARAM_BOOL,
     .def = "false",
     .help = "carry unfinished games into the next generation"},
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
        .truncate = params_choice(&pp, "truncate"),
        .value_target = params_choice(&pp, "value_target"),
        .value_mix = params_double(&pp, "value_mix"),
        .threads = (int)params_int(&pp, "threads"),
        .carry = params_bool(&pp, "carry"),
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
    bool searching; /* a search is in progress on tree */
    bool cur_full;  /* that search is a full one */
    int64_t game_id;
    uint64_t *state; /* state_size bytes */
    mcts_t *tree;    /* the game's one tree: full and fast searches */
    int actions;     /* actions played in this game (chance outcomes included) */
    bool no_resign;  /* play out regardless of resignation */
    bool would_resign[GAME_MAX_PLAYERS];
    bool searched;                       /* last_value holds a search's root value */
    double last_value[GAME_MAX_PLAYERS]; /* root value of the latest search, per player */
    sample_set_t pending;                /* this game's samples */
    int8_t *pending_player;              /* [cap] the player to move of each sample */
    float *pending_root;                 /* [cap] its search's root value for that player */
    int32_t *moves;                      /* [cap] the game's actions so far */
    uint64_t seed;                       /* the game's seed */
    int off, n;                          /* this step's slice of the batch buffer */
    rng_t rng;
} slot_t;

typedef struct worker {
    struct selfplay_session *ss;
    int index;
    slot_t *slots;
    char *states;   /* parallel * batch states */
    double *values; /* parallel * batch * num_players */
    float *priors;  /* parallel * batch * num_actions */
    int *legal;
    double *probs;
    int64_t started; /* games started since the ids restarted */
    /* the run in progress */
    evaluator_t *e;
    const selfplay_params_t *p;
    int64_t share, to_start; /* carry off: games to finish; games still to start */
    sample_set_t out;
    selfplay_games_t games;
    selfplay_stats_t st;
    int status;
    char error[256];
} worker_t;

struct selfplay_session {
    const game_t *g;
    selfplay_params_t p; /* the session's parameters */
    int workers;
    worker_t *w;
    double alpha, typical_legal;
    int cap;                      /* actions a game may hold: max_game_length + 1 */
    int64_t id_base;              /* game id of worker 0's first game since the ids restarted */
    atomic_int_fast64_t finished; /* games the workers have finished in this run */
    pthread_mutex_t lock;
    selfplay_progress_fn progress;
    void *ctx;
    selfplay_stats_t shown; /* what progress lines see: finished games and samples */
};

void selfplay_games_done(selfplay_games_t *gs)
{
    for (int64_t i = 0; gs->game && i < gs->n; i++) free(gs->game[i].actions);
    free(gs->game);
    memset(gs, 0, sizeof *gs);
}

/* Move *r (its actions included) to the end of gs; r is left without actions. */
static int games_take(selfplay_games_t *gs, selfplay_game_t *r)
{
    if (gs->n == gs->cap) {
        int64_t cap = gs->cap ? 2 * gs->cap : 16;
        selfplay_game_t *grown = realloc(gs->game, sizeof *grown * (size_t)cap);
        if (grown == NULL) return hoyle_error(HOYLE_ENOMEM, "selfplay: out of memory");
        gs->game = grown;
        gs->cap = cap;
    }
    gs->game[gs->n++] = *r;
    r->actions = NULL;
    return HOYLE_OK;
}

/* Append a copy of the finished game of slot s (moves, returns, end). */
static int games_push(selfplay_games_t *gs, const slot_t *s, const double *returns, int end,
                      int num_players)
{
    selfplay_game_t r = {.game_id = s->game_id, .seed = s->seed, .end = end};
    r.actions = malloc(sizeof(int32_t) * (size_t)(s->actions > 0 ? s->actions : 1));
    if (r.actions == NULL) return hoyle_error(HOYLE_ENOMEM, "selfplay: out of memory");
    memcpy(r.actions, s->moves, sizeof(int32_t) * (size_t)s->actions);
    r.num_actions = s->actions;
    for (int q = 0; q < num_players; q++) r.returns[q] = returns[q];
    int status = games_take(gs, &r);
    free(r.actions); /* NULL once taken */
    return status;
}

int selfplay_games_write(const char *path, const game_t *g, const selfplay_games_t *gs,
                         const char *agent, int32_t round, const char *config)
{
    char journal[4200];
    if (snprintf(journal, sizeof journal, "%s.journal", path) >= (int)sizeof journal)
        return hoyle_error(HOYLE_EINVAL, "selfplay: '%s': path too long", path);
    unlink(path); /* an earlier try at the same generation, killed before it finished */
    unlink(journal);
    const char *specs[1] = {g->spec};
    h5rec_meta_t meta = {.config_text = config, .num_games = 1, .game_specs = specs};
    h5rec_t *h = NULL;
    int status = h5rec_create(path, &meta, &h);
    if (!status) status = h5rec_set_checkpoint(h, 1 << 30, 0); /* one checkpoint, at close */
    for (int64_t i = 0; status == HOYLE_OK && i < gs->n; i++) {
        const selfplay_game_t *sg = &gs->game[i];
        game_record_t r = {
            .game_spec = (char *)g->spec,
            .agent_spec = {(char *)agent, g->num_players == 2 ? (char *)agent : NULL},
            .returns = {sg->returns[0], g->num_players == 2 ? sg->returns[1] : 0},
            .result = (sg->returns[0] + 1) / 2,
            .end = (record_end_t)sg->end,
            .num_actions = sg->num_actions,
            .actions = sg->actions,
            .seed = sg->seed,
            .round = round,
            .game_index = (int32_t)(sg->game_id & INT32_MAX)};
        status = h5rec_append(h, &r);
    }
    int closed = h ? h5rec_close(h) : HOYLE_OK;
    return status ? status : closed;
}

static int slot_open(const selfplay_session_t *ss, slot_t *s)
{
    const game_t *g = ss->g;
    mcts_params_t mp = ss->p.search; /* max_nodes 0: sized by mcts_create per tree */
    mp.dirichlet_alpha = ss->alpha;
    if (mp.gumbel) mp.dirichlet_eps = 0; /* Gumbel noise replaces the Dirichlet noise */
    size_t cap = (size_t)ss->cap;
    s->state = malloc(g->state_size);
    s->pending_player = malloc(cap);
    s->pending_root = malloc(sizeof(float) * cap);
    s->moves = malloc(sizeof(int32_t) * cap);
    sample_set_init(&s->pending, g->obs_shape, g->num_actions);
    if (!s->state || !s->pending_player || !s->pending_root || !s->moves)
        return hoyle_error(HOYLE_ENOMEM, "selfplay: out of memory");
    return mcts_create(g, &mp, NULL, &s->tree);
}

static void slot_close(slot_t *s)
{
    mcts_free(s->tree);
    free(s->state);
    free(s->pending_player);
    free(s->pending_root);
    free(s->moves);
    sample_set_done(&s->pending);
}

/* Everything random in a game derives from (run seed, game id): the worker that plays it
 * and the slot it lands in do not matter. */
static void game_start(worker_t *w, slot_t *s)
{
    const selfplay_session_t *ss = w->ss;
    const selfplay_params_t *p = w->p;
    s->active = true;
    s->searching = false;
    s->game_id = ss->id_base + w->index + (int64_t)ss->workers * w->started++;
    s->seed = rng_mix(p->seed ^ rng_mix((uint64_t)s->game_id + 1));
    rng_init(&s->rng, s->seed);
    game_init(ss->g, s->state);
    mcts_reseed(s->tree, rng_mix(p->seed ^ rng_mix(0x5e1f000ULL + (uint64_t)s->game_id)));
    s->actions = 0;
    s->no_resign = rng_double(&s->rng) < p->no_resign_frac;
    memset(s->would_resign, 0, sizeof s->would_resign);
    s->searched = false;
    sample_set_clear(&s->pending);
}

/* The game of slot s is over: value targets, the game's samples into the output, the
 * record, the counts. */
static int game_finish(worker_t *w, slot_t *s, const double *returns, int end)
{
    const selfplay_session_t *ss = w->ss;
    const selfplay_params_t *p = &ss->p;
    selfplay_stats_t *st = &w->st;
    bool truncated = end == RECORD_END_MOVE_LIMIT;
    bool drop = truncated && p->truncate == SELFPLAY_TRUNCATE_DROP;
    for (int64_t i = 0; i < s->pending.n; i++) {
        int q = s->pending_player[i];
        double z = returns[q];
        if (truncated) /* no result: the last search's estimate, or a draw */
            z = p->truncate == SELFPLAY_TRUNCATE_BOOTSTRAP && s->searched ? s->last_value[q] : 0;
        if (p->value_target == SELFPLAY_VALUE_MIX)
            z = (1 - p->value_mix) * z + p->value_mix * s->pending_root[i];
        s->pending.value[i] = (float)fmax(-1.0, fmin(1.0, z));
        s->pending.flags[i] = truncated ? SAMPLE_TRUNCATED : 0;
    }
    int64_t kept = drop ? 0 : s->pending.n;
    int status = sample_set_append(&w->out, &s->pending, 0, kept);
    if (!status) status = games_push(&w->games, s, returns, end, ss->g->num_players);
    if (status) return status;
    st->samples += kept;
    st->dropped += s->pending.n - kept;
    st->games++;
    atomic_fetch_add(&w->ss->finished, 1);
    st->game_actions += s->actions;
    st->resigned += end == RECORD_END_RESIGN;
    st->truncated += truncated;
    if (ss->g->num_players == 2) {
        if (returns[0] > returns[1])
            st->wins[0]++;
        else if (returns[1] > returns[0])
            st->wins[1]++;
        else
            st->draws++;
    }
    for (int q = 0; q < ss->g->num_players; q++) {
        if (!s->would_resign[q]) continue;
        st->resign_checks++;
        st->false_resigns += returns[q] > -1.0 + 1e-9;
    }
    s->active = false;
    if (ss->progress) {
        selfplay_session_t *m = w->ss;
        pthread_mutex_lock(&m->lock);
        m->shown.games++;
        m->shown.samples += kept;
        m->progress(m->ctx, &m->shown);
        pthread_mutex_unlock(&m->lock);
    }
    return HOYLE_OK;
}

static void play(worker_t *w, slot_t *s, int action)
{
    mcts_advance(s->tree, s->state, action);
    game_apply(w->ss->g, s->state, action);
    if (s->actions < w->ss->cap) s->moves[s->actions] = action;
    s->actions++;
    w->st.actions++;
}

/* Step 1 for one slot: chance outcomes, forced moves, game end, or the next search. */
static int slot_prepare(worker_t *w, slot_t *s)
{
    const game_t *g = w->ss->g;
    const selfplay_params_t *p = &w->ss->p;
    double r[GAME_MAX_PLAYERS] = {0};
    for (;;) {
        while (game_is_chance(g, s->state) && s->actions < w->ss->cap)
            play(w, s, game_random_action(g, s->state, &s->rng, w->legal, w->probs));
        if (game_is_terminal(g, s->state)) {
            game_returns(g, s->state, r);
            return game_finish(w, s, r, RECORD_END_RULES);
        }
        if ((p->max_moves > 0 && s->actions >= p->max_moves) || s->actions >= w->ss->cap)
            return game_finish(w, s, r, RECORD_END_MOVE_LIMIT);
        if (game_is_chance(g, s->state)) continue;
        /* a forced move (backgammon's passes and forced steps): nothing to search or learn */
        if (game_legal_actions(g, s->state, w->legal) != 1) break;
        play(w, s, w->legal[0]);
        w->st.forced++;
    }
    s->cur_full = p->fast_sims == 0 || rng_double(&s->rng) < p->full_prob;
    double eps = s->cur_full && !p->search.gumbel ? p->search.dirichlet_eps : 0;
    int status = mcts_set_limits(s->tree, s->cur_full ? p->search.max_sims : p->fast_sims,
                                 p->search.time_limit_ms, NULL);
    if (!status) status = mcts_set_noise(s->tree, eps);
    if (!status) status = mcts_search_begin(s->tree, s->state);
    s->searching = status == HOYLE_OK;
    return status;
}

static int record_sample(worker_t *w, slot_t *s, const mcts_result_t *r)
{
    const game_t *g = w->ss->g;
    sample_set_t *out = &s->pending;
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
         * and the visits say which resists longest; a root proven lost before any visit (the
         * root proof search, prove=N) has none, and records the uniform distribution. */
        pi[r->best_action] = 1.0f;
    } else if (r->improved_policy) { /* Gumbel: the improved policy */
        for (int c = 0; c < r->num_children; c++) pi[r->actions[c]] = r->improved_policy[c];
    } else {
        for (int c = 0; c < r->num_children; c++) total += r->visits[c];
        for (int c = 0; c < r->num_children; c++)
            pi[r->actions[c]] = total > 0 ? (float)(r->visits[c] / total) : 0.0f;
        for (int c = 0; total <= 0 && c < r->num_children; c++)
            pi[r->actions[c]] = 1.0f / (float)r->num_children;
    }
    out->game_id[i] = s->game_id;
    out->move[i] = s->actions;
    s->pending_player[i] = (int8_t)r->player;
    s->pending_root[i] = (float)s->last_value[r->player];
    return HOYLE_OK;
}

/* Step 4 for a slot whose search has finished. */
static int slot_move(worker_t *w, slot_t *s)
{
    const selfplay_params_t *p = &w->ss->p;
    const mcts_result_t *r = mcts_search_end(s->tree);
    s->searching = false;
    int player = r->player;
    for (int q = 0; q < w->ss->g->num_players; q++)
        s->last_value[q] = r->root_proven ? r->proven_value[q] : r->value[q];
    s->searched = true;
    if (s->cur_full) {
        w->st.full_searches++;
        int status = record_sample(w, s, r);
        if (status) return status;
    } else {
        w->st.fast_searches++;
    }
    double v = s->last_value[player];
    if (p->resign < 0 && v < p->resign && w->ss->g->num_players == 2) {
        if (!s->no_resign) {
            double ret[GAME_MAX_PLAYERS];
            ret[player] = -1.0;
            ret[1 - player] = 1.0;
            return game_finish(w, s, ret, RECORD_END_RESIGN);
        }
        s->would_resign[player] = true;
    }
    double temp = s->actions < p->temp_moves ? p->temp : p->temp_final;
    if (p->search.gumbel) temp = 0; /* the Gumbel choice already samples */
    int action;
    int status = mcts_choose(s->tree, temp, &action);
    if (status) return status;
    play(w, s, action);
    return HOYLE_OK;
}

static int evaluate_all(worker_t *w, int total)
{
    const game_t *g = w->ss->g;
    evaluator_t *e = w->e;
    double t0 = clock_seconds();
    for (int at = 0; at < total;) {
        int n = total - at < e->max_batch ? total - at : e->max_batch;
        float *pr = e->has_priors ? w->priors + (size_t)at * (size_t)g->num_actions : NULL;
        int status = evaluator_evaluate(e, w->states + (size_t)at * g->state_size, n,
                                        w->values + (size_t)at * (size_t)g->num_players, pr);
        if (status) return status;
        at += n;
        w->st.evaluator_calls++;
    }
    w->st.evaluations += (uint64_t)total;
    w->st.eval_seconds += clock_seconds() - t0;
    return HOYLE_OK;
}

/* Is the worker's part of the run over? Carry on: once the workers together have finished
 * the run's games, so that no worker sits idle while another plays its last games (the
 * games in flight wait for the next run); off: once it has finished its own share. */
static bool worker_done(const worker_t *w)
{
    if (w->ss->p.carry) return atomic_load(&w->ss->finished) >= w->p->games;
    return w->st.games >= w->share;
}

/* May a slot take a new game? Carry on: until the run's games are finished; off: the
 * worker's own share only. */
static bool may_start(const worker_t *w)
{
    if (worker_done(w)) return false;
    return w->ss->p.carry || w->to_start > 0;
}

static int worker_loop(worker_t *w)
{
    const game_t *g = w->ss->g;
    int P = w->ss->p.parallel, status = HOYLE_OK;
    while (status == HOYLE_OK && !worker_done(w)) {
        /* 1. start games, prepare searches */
        int total = 0;
        for (int k = 0; k < P && status == HOYLE_OK; k++) {
            slot_t *s = &w->slots[k];
            while (status == HOYLE_OK && !s->searching) {
                if (!s->active) {
                    if (!may_start(w)) break;
                    game_start(w, s);
                    w->to_start--;
                }
                status = slot_prepare(w, s);
            }
            if (status || !s->searching) continue;
            /* 2. collect this tree's leaves */
            const void *leaves;
            status = mcts_search_collect(s->tree, &leaves, &s->n);
            if (status) break;
            s->off = total;
            memcpy(w->states + (size_t)total * g->state_size, leaves, (size_t)s->n * g->state_size);
            total += s->n;
        }
        /* 3. one evaluator call for every tree */
        if (status == HOYLE_OK && total > 0) status = evaluate_all(w, total);
        /* 4. deliver, and move where the search is done */
        for (int k = 0; k < P && status == HOYLE_OK; k++) {
            slot_t *s = &w->slots[k];
            if (!s->searching) continue;
            const float *pr =
                w->e->has_priors ? w->priors + (size_t)s->off * (size_t)g->num_actions : NULL;
            status = mcts_search_deliver(s->tree,
                                         w->values + (size_t)s->off * (size_t)g->num_players, pr);
            if (status == HOYLE_OK && mcts_search_finished(s->tree)) status = slot_move(w, s);
        }
    }
    /* carried games restart their search in the next run (with its evaluator) */
    for (int k = 0; k < P; k++) w->slots[k].searching = false;
    return status;
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    w->status = worker_loop(w);
    if (w->status) snprintf(w->error, sizeof w->error, "%s", hoyle_last_error());
    return NULL;
}

static void worker_close(worker_t *w, int parallel)
{
    for (int k = 0; w->slots && k < parallel; k++) slot_close(&w->slots[k]);
    free(w->slots);
    free(w->states);
    free(w->values);
    free(w->priors);
    free(w->legal);
    free(w->probs);
    sample_set_done(&w->out);
    selfplay_games_done(&w->games);
}

static int worker_open(selfplay_session_t *ss, worker_t *w, int index)
{
    const game_t *g = ss->g;
    const selfplay_params_t *p = &ss->p;
    size_t leaves = (size_t)p->parallel * (size_t)p->search.batch;
    size_t scratch = (size_t)game_scratch_actions(g);
    w->ss = ss;
    w->index = index;
    sample_set_init(&w->out, g->obs_shape, g->num_actions);
    w->slots = calloc((size_t)p->parallel, sizeof *w->slots);
    w->states = malloc(leaves * g->state_size);
    w->values = malloc(sizeof(double) * leaves * (size_t)g->num_players);
    w->priors = malloc(sizeof(float) * leaves * (size_t)g->num_actions);
    w->legal = malloc(sizeof(int) * scratch);
    w->probs = malloc(sizeof(double) * scratch);
    if (!w->slots || !w->states || !w->values || !w->priors || !w->legal || !w->probs)
        return hoyle_error(HOYLE_ENOMEM, "selfplay: out of memory");
    for (int k = 0; k < p->parallel; k++) {
        int status = slot_open(ss, &w->slots[k]);
        if (status) return status;
    }
    return HOYLE_OK;
}

void selfplay_session_free(selfplay_session_t *s)
{
    if (s == NULL) return;
    for (int i = 0; s->w && i < s->workers; i++) worker_close(&s->w[i], s->p.parallel);
    free(s->w);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

int selfplay_session_create(const game_t *g, const selfplay_params_t *p, int workers,
                            selfplay_session_t **out)
{
    *out = NULL;
    if (g->num_players > 2)
        return hoyle_error(HOYLE_EINVAL, "selfplay: %s has %d players (self-play plays 1 or 2)",
                           g->spec, g->num_players);
    if (p->parallel < 1)
        return hoyle_error(HOYLE_EINVAL, "selfplay: parallel: %d is below 1", p->parallel);
    if (p->search.batch < 1)
        return hoyle_error(HOYLE_EINVAL, "selfplay: batch: %d is below 1", p->search.batch);
    if (workers < 1 || workers > 64)
        return hoyle_error(HOYLE_EINVAL, "selfplay: %d workers (1..64)", workers);
    selfplay_session_t *s = calloc(1, sizeof *s);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "selfplay: out of memory");
    pthread_mutex_init(&s->lock, NULL);
    atomic_init(&s->finished, 0);
    s->g = g;
    s->p = *p;
    s->workers = workers;
    s->cap = g->max_game_length + 1;
    s->id_base = p->first_game_id;
    s->typical_legal = selfplay_typical_legal(g, 16, rng_mix(p->seed ^ 0x4c4c));
    double alpha = p->search.dirichlet_alpha;
    s->alpha = alpha > 0 ? alpha : p->noise_scale / s->typical_legal;
    s->w = calloc((size_t)workers, sizeof *s->w);
    int status = s->w ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "selfplay: out of memory");
    for (int i = 0; status == HOYLE_OK && i < workers; i++) status = worker_open(s, &s->w[i], i);
    if (status) {
        selfplay_session_free(s);
        return status;
    }
    *out = s;
    return HOYLE_OK;
}

int64_t selfplay_session_in_flight(const selfplay_session_t *s)
{
    int64_t n = 0;
    for (int i = 0; i < s->workers; i++)
        for (int k = 0; k < s->p.parallel; k++) n += s->w[i].slots[k].active;
    return n;
}

void selfplay_stats_add(selfplay_stats_t *to, const selfplay_stats_t *a)
{
    to->games += a->games;
    to->actions += a->actions;
    to->samples += a->samples;
    to->full_searches += a->full_searches;
    to->fast_searches += a->fast_searches;
    for (int q = 0; q < 2; q++) to->wins[q] += a->wins[q];
    to->draws += a->draws;
    to->resigned += a->resigned;
    to->truncated += a->truncated;
    to->forced += a->forced;
    to->game_actions += a->game_actions;
    to->dropped += a->dropped;
    to->resign_checks += a->resign_checks;
    to->false_resigns += a->false_resigns;
    to->evaluations += a->evaluations;
    to->evaluator_calls += a->evaluator_calls;
    to->eval_seconds += a->eval_seconds;
    to->cache_hits += a->cache_hits;
    to->forwards += a->forwards;
    to->forwarded += a->forwarded;
    to->seconds += a->seconds;
}

void selfplay_tally_add(selfplay_tally_t *t, const selfplay_stats_t *batch, bool new_actor)
{
    selfplay_stats_add(&t->sum, batch);
    t->actors += new_actor;
}

void selfplay_tally_end(selfplay_tally_t *t, selfplay_stats_t *ss)
{
    t->sum.seconds /= t->actors > 0 ? t->actors : 1;
    selfplay_stats_add(ss, &t->sum);
}

int selfplay_session_run(selfplay_session_t *s, evaluator_t *const *evals,
                         const selfplay_params_t *p, sample_set_t *out, selfplay_games_t *games,
                         selfplay_stats_t *st, selfplay_progress_fn progress, void *ctx)
{
    memset(st, 0, sizeof *st);
    if (p->games < 0) return hoyle_error(HOYLE_EINVAL, "selfplay: games: %d is negative", p->games);
    double t0 = clock_seconds();
    int T = s->workers;
    if (selfplay_session_in_flight(s) == 0) { /* nothing carried: ids restart */
        s->id_base = p->first_game_id;
        for (int i = 0; i < T; i++) s->w[i].started = 0;
    }
    s->progress = progress;
    s->ctx = ctx;
    memset(&s->shown, 0, sizeof s->shown);
    atomic_store(&s->finished, 0);
    for (int i = 0; i < T; i++) {
        worker_t *w = &s->w[i];
        w->e = evals[i];
        w->p = p;
        w->share = p->games / T + (i < p->games % T);
        w->to_start = w->share;
        w->status = HOYLE_OK;
        memset(&w->st, 0, sizeof w->st);
        sample_set_clear(&w->out);
        selfplay_games_done(&w->games);
        for (int k = 0; k < s->p.parallel; k++) /* a new evaluator: no stale subtrees */
            mcts_clear(w->slots[k].tree);
    }
    pthread_t th[64];
    bool running[64] = {false};
    for (int i = 1; i < T; i++) /* worker 0 runs on this thread */
        running[i] = pthread_create(&th[i], NULL, worker_main, &s->w[i]) == 0;
    worker_main(&s->w[0]);
    for (int i = 1; i < T; i++) {
        if (running[i])
            pthread_join(th[i], NULL);
        else
            s->w[i].status = hoyle_error(HOYLE_EIO, "selfplay: cannot start worker %d", i);
    }
    int status = HOYLE_OK;
    for (int i = 0; i < T && status == HOYLE_OK; i++) {
        worker_t *w = &s->w[i];
        if (w->status) { /* the message was the worker thread's */
            status = hoyle_error(w->status, "%s", w->error);
            break;
        }
        selfplay_stats_add(st, &w->st);
        status = sample_set_append(out, &w->out, 0, w->out.n);
        for (int64_t k = 0; games && status == HOYLE_OK && k < w->games.n; k++)
            status = games_take(games, &w->games.game[k]);
    }
    st->batch_capacity = (uint64_t)s->p.parallel * (uint64_t)s->p.search.batch;
    st->alpha = s->alpha;
    st->typical_legal = s->typical_legal;
    st->in_flight = selfplay_session_in_flight(s);
    st->workers = T;
    st->seconds = clock_seconds() - t0;
    s->progress = NULL;
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
    return selfplay_run_games(g, e, p, out, NULL, st, progress, ctx);
}

int selfplay_run_games(const game_t *g, evaluator_t *e, const selfplay_params_t *p,
                       sample_set_t *out, selfplay_games_t *games, selfplay_stats_t *st,
                       selfplay_progress_fn progress, void *ctx)
{
    selfplay_params_t q = *p;
    q.carry = false;
    selfplay_session_t *s = NULL;
    memset(st, 0, sizeof *st);
    int status = selfplay_session_create(g, &q, 1, &s);
    if (!status) status = selfplay_session_run(s, &e, &q, out, games, st, progress, ctx);
    selfplay_session_free(s);
    return status;
}
