/* tournament_run.c — the runner and the player of a tournament (tournament_parts.h) and the
 * threaded run of one process over them (tournament_run, tournament.h).
 *
 * 1. Open the record file: create it, or resume it (the stored config must
 *    match key by key, `workers` and `output` aside: tournament_config_compare;
 *    h5rec_open_append checks the games) and mark the job indices it already
 *    holds as done.
 * 2. Workers pull the next pending job under the mutex, play it without the
 *    lock, then append the record under the lock: the file only ever holds
 *    whole games, and h5rec (not thread-safe) is used by one thread at a time.
 *    A worker keeps the agents of its last pairing and reseeds them (a game
 *    is the same as with fresh agents: see agent_reseed).
 * 3. A stop request (SIGINT) lets the games in flight finish and be stored,
 *    then the file is checkpointed and closed.
 * Invariant: the set of stored games is a subset of the schedule, each job
 * at most once, whatever the interleaving, the transport (threads here, MPI
 * ranks in dist/) and however often it is resumed. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/progress.h"
#include "data/h5rec.h"
#include "eval/tournament.h"
#include "eval/tournament_parts.h"

/* Set from a signal handler (tournament_request_stop), hence sig_atomic_t;
 * workers only read it between games, so a game in flight always finishes
 * and is stored. */
static volatile sig_atomic_t stop_requested;

void tournament_request_stop(void) { stop_requested = 1; }

struct tour_runner {
    const tour_config_t *c;
    tour_job_t *jobs;
    int num_jobs;
    int *pending; /* job indices still to play, in schedule order */
    int num_pending, next;
    pthread_mutex_t mu;
    h5rec_t *h;
    int status; /* first failure */
    char error[512];
    /* progress */
    progress_t progress;
    double t0;
    int done, done_at_start;
    double points[TOUR_MAX_AGENTS], games[TOUR_MAX_AGENTS];
    char *done_flags; /* [num_jobs]: stored in the file (at open, or by this run) */
    int32_t opening_buf[OPENING_MAX_ACTIONS]; /* the record's opening, the file's layout */
};
typedef tour_runner_t run_t;

/* Running per-agent score for the progress line only; the ratings are fitted
 * later from the file, never from these counters. */
static void tally(run_t *r, const tour_job_t *j, double result)
{
    r->points[j->seat[0]] += result;
    r->points[j->seat[1]] += 1 - result;
    r->games[j->seat[0]] += 1;
    r->games[j->seat[1]] += 1;
}

/* One progress line: games done/total, rate, ETA, leader by score. Caller holds mu. */
static void print_progress(run_t *r, int final)
{
    if (r->progress.out == NULL) return;
    int best = -1;
    for (int a = 0; a < r->c->num_agents; a++)
        if (r->games[a] > 0 &&
            (best < 0 || r->points[a] / r->games[a] > r->points[best] / r->games[best]))
            best = a;
    char leader[GAME_SPEC_MAX + 40] = "leader -";
    if (best >= 0)
        snprintf(leader, sizeof leader, "leader %s %.1f%%", r->c->agents[best],
                 100 * r->points[best] / r->games[best]);
    progress_update(&r->progress, r->done, r->num_jobs, leader, final);
}

/* Fill a record from a job and its game (pointers borrowed). */
static void make_record(const tour_config_t *c, const tour_job_t *j, tour_game_result_t *res,
                        int32_t *opening_buf, game_record_t *rec)
{
    const opening_t *o = &c->openings[j->game].items[j->opening];
    memset(rec, 0, sizeof *rec);
    rec->game_spec = (char *)c->games[j->game]->spec;
    rec->agent_spec[0] = (char *)c->agents[j->seat[0]];
    rec->agent_spec[1] = (char *)c->agents[j->seat[1]];
    rec->opening_name = (char *)o->name;
    rec->opening_len = o->num_actions;
    for (int i = 0; i < o->num_actions; i++) opening_buf[i] = o->actions[i];
    rec->opening_actions = opening_buf;
    rec->returns[0] = res->returns[0];
    rec->returns[1] = res->returns[1];
    /* Seat 0's score from the returns: the result the rating pools use. */
    rec->result = res->returns[0] > res->returns[1]   ? 1.0
                  : res->returns[0] < res->returns[1] ? 0.0
                                                      : 0.5;
    rec->end = res->end;
    rec->num_actions = res->num_actions;
    rec->actions = res->actions;
    rec->action_ms = res->action_ms;
    rec->seed = j->seed;
    rec->pairing = j->pairing;
    rec->round = j->repeat;
    rec->game_index = j->index;
}

/* Keep the first failure and its message (later ones are consequences, e.g.
 * of a full disk); workers stop pulling jobs once r->status is set.
 * Caller holds mu. */
static void fail(run_t *r, int status)
{
    if (r->status == 0) {
        r->status = status;
        snprintf(r->error, sizeof r->error, "%s", hoyle_last_error());
    }
}

/* The agents a worker keeps from one game to the next: two slots keyed by
 * (game, agent index). Consecutive jobs of a worker often share a pairing
 * (the colours swapped), so the agents are reused and reseeded instead of
 * created again; at most two live per worker, as when made per game. */
struct tour_player {
    agent_t *agent[2];
    int key[2]; /* game * TOUR_MAX_AGENTS + agent index, -1 = empty */
};

/* The two seats' agents of job `j`, seeded as tournament_play() seeds
 * fresh ones (a new agent with the game's seed, a kept one reseeded). */
static int cache_agents(tour_player_t *ac, const tour_config_t *c, const tour_job_t *j,
                        agent_t *out[2])
{
    int slot[2] = {-1, -1};
    for (int p = 0; p < 2; p++) {
        int key = j->game * TOUR_MAX_AGENTS + j->seat[p];
        /* The two seats never share a slot; agents of a pairing are distinct,
         * so this only guards the invariant. */
        for (int k = 0; k < 2 && slot[p] < 0; k++)
            if (ac->key[k] == key && k != slot[1 - p]) slot[p] = k;
    }
    /* Seeds are tournament_agent_seed(job seed, seat), the same as a fresh
     * tournament_play, so reuse never changes a game. */
    for (int p = 0; p < 2; p++) {
        uint64_t seed = tournament_agent_seed(j->seed, p);
        int status;
        if (slot[p] >= 0) {
            status = agent_reseed(ac->agent[slot[p]], seed);
        } else {
            int k = slot[1 - p] == 0 ? 1 : 0; /* the slot the other seat does not use */
            slot[p] = k;
            agent_free(ac->agent[k]);
            ac->agent[k] = NULL;
            ac->key[k] = -1;
            status = agent_create(c->games[j->game], c->agents[j->seat[p]], seed, &ac->agent[k]);
            if (status == 0) ac->key[k] = j->game * TOUR_MAX_AGENTS + j->seat[p];
        }
        if (status) {
            ac->key[slot[p]] = -1; /* a failed reseed leaves the agent unusable */
            return status;
        }
        out[p] = ac->agent[slot[p]];
    }
    return HOYLE_OK;
}

tour_player_t *tour_player_new(void)
{
    tour_player_t *p = calloc(1, sizeof *p);
    if (p == NULL) {
        hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
        return NULL;
    }
    p->key[0] = p->key[1] = -1;
    return p;
}

void tour_player_free(tour_player_t *p)
{
    if (p == NULL) return;
    agent_free(p->agent[0]);
    agent_free(p->agent[1]);
    free(p);
}

int tour_player_play(tour_player_t *p, const tour_config_t *c, const tour_job_t *j,
                     tour_game_result_t *res)
{
    const char *specs[2] = {c->agents[j->seat[0]], c->agents[j->seat[1]]};
    agent_t *ag[2];
    int status = cache_agents(p, c, j, ag);
    if (status) return status;
    return tournament_play_agents(c->games[j->game], ag, specs,
                                  &c->openings[j->game].items[j->opening], j->seed, c->max_moves,
                                  res);
}

int tour_runner_next(tour_runner_t *r)
{
    pthread_mutex_lock(&r->mu);
    int idx =
        (stop_requested || r->status || r->next >= r->num_pending) ? -1 : r->pending[r->next++];
    pthread_mutex_unlock(&r->mu);
    return idx;
}

const tour_job_t *tour_runner_job(const tour_runner_t *r, int idx)
{
    return idx >= 0 && idx < r->num_jobs ? &r->jobs[idx] : NULL;
}

void tour_runner_fail(tour_runner_t *r, int status)
{
    pthread_mutex_lock(&r->mu);
    fail(r, status);
    pthread_mutex_unlock(&r->mu);
}

/* h5rec_append returns once the game is in the journal, so from `r->done++`
 * on the game survives a kill of the process (data/h5rec.h). */
int tour_runner_store(tour_runner_t *r, int idx, tour_game_result_t *res)
{
    const tour_job_t *j = &r->jobs[idx];
    pthread_mutex_lock(&r->mu);
    int status = HOYLE_OK;
    /* A job is stored once: with MPI a result could arrive for a job another
     * rank already returned (never in the scheme of tournament_mpi.c, but the
     * file's invariant must not depend on the transport). */
    if (r->done_flags[idx]) {
        pthread_mutex_unlock(&r->mu);
        return hoyle_error(HOYLE_EINVAL, "tournament: job %d returned twice", idx);
    }
    /* A forfeit is a result, not a failure: the game is stored (end ERROR) and
     * the tournament goes on, with the reason shown. */
    if (res->end == RECORD_END_ERROR)
        progress_note(&r->progress, "[%s] game %d: %s", r->c->name, j->index, res->error);
    game_record_t rec;
    make_record(r->c, j, res, r->opening_buf, &rec);
    status = h5rec_append(r->h, &rec);
    if (status)
        fail(r, status);
    else {
        r->done_flags[idx] = 1;
        r->done++;
        tally(r, j, rec.result);
        print_progress(r, 0);
    }
    pthread_mutex_unlock(&r->mu);
    return status;
}

/* One worker thread. Loop invariant: no lock is held while a game is played;
 * tour_runner_next and tour_runner_store take it to pick a job and to store
 * its result, so h5rec (not thread-safe) is used by one thread at a time. */
static void *worker(void *arg)
{
    run_t *r = arg;
    tour_player_t *p = tour_player_new();
    if (p == NULL) {
        tour_runner_fail(r, HOYLE_ENOMEM);
        return NULL;
    }
    for (;;) {
        int idx = tour_runner_next(r);
        if (idx < 0) break;
        tour_game_result_t res;
        int status = tour_player_play(p, r->c, &r->jobs[idx], &res);
        if (status) {
            tour_runner_fail(r, status);
            continue;
        }
        tour_runner_store(r, idx, &res);
        tour_game_result_done(&res);
    }
    tour_player_free(p);
    return NULL;
}

/* Whether a stored game began with opening o's actions. */
static int same_opening(const game_record_t *rec, const opening_t *o)
{
    if (rec->opening_len != o->num_actions) return 0;
    for (int i = 0; i < o->num_actions; i++)
        if (rec->opening_actions[i] != o->actions[i]) return 0;
    return 1;
}

/* Open or resume the file; mark stored jobs done. */
/* Resume is decided by what exists on disk: neither the file nor a journal
 * means a new file; either one means an earlier run, and h5rec_open_append
 * folds its journal in and refuses a file made by another config or game
 * list (the config text excludes `workers`, see tournament_config.c). */
static int open_file(run_t *r, char *done)
{
    const tour_config_t *c = r->c;
    const char *specs[TOUR_MAX_GAMES];
    for (int i = 0; i < c->num_games; i++) specs[i] = c->games[i]->spec;
    h5rec_meta_t meta = {.program_version = NULL,
                         .config_text = c->config_text,
                         .config_path = c->config_path,
                         .num_games = c->num_games,
                         .game_specs = specs,
                         .created_unix = 0};
    char journal[1100];
    snprintf(journal, sizeof journal, "%s.journal", c->output);
    if (access(c->output, F_OK) != 0 && access(journal, F_OK) != 0)
        return h5rec_create(c->output, &meta, &r->h);
    /* Resume: compare the stored config key by key first, read-only, so that a
     * refused file is left as it was and the message names the keys. The file
     * keeps the config text it was made with (also one written before `output`
     * left the stored config), so h5rec's hash check passes. */
    h5rec_t *rd = NULL;
    char *stored = NULL;
    int status = h5rec_open_read(c->output, &rd);
    if (status == 0 && strcmp(h5rec_meta(rd)->config_text, c->config_text) != 0)
        status = tournament_config_compare(c, h5rec_meta(rd)->config_text, c->output);
    if (status == 0 && (stored = strdup(h5rec_meta(rd)->config_text)) == NULL)
        status = hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
    h5rec_close(rd);
    meta.config_text = stored;
    if (status == 0) status = h5rec_open_append(c->output, &meta, &r->h);
    free(stored);
    if (status) return status;
    int64_t n = h5rec_count(r->h);
    for (int64_t i = 0; i < n && status == 0; i++) {
        game_record_t rec;
        status = h5rec_read(r->h, i, &rec);
        if (status) break;
        int gi = rec.game_index;
        /* A stored game must match its job's seed: a file from a different schedule
         * (other seed or order) would otherwise be silently mixed in. */
        if (gi < 0 || gi >= r->num_jobs || rec.seed != r->jobs[gi].seed)
            status = hoyle_error(HOYLE_EINVAL,
                                 "%s: game %lld (job %d) is not in this tournament's schedule",
                                 c->output, (long long)i, gi);
        /* A job stored twice would count twice in the ratings; h5rec never
         * replays a journal entry twice, so this means a damaged or merged file. */
        /* The opening too: a grown openings_per_pairing keeps every stored job's
         * number and seed, but a random-opening pool that had to fall back to
         * shared openings, or a changed book, would give the job another one. */
        else if (!same_opening(&rec, &c->openings[r->jobs[gi].game].items[r->jobs[gi].opening]))
            status = hoyle_error(HOYLE_EINVAL,
                                 "%s: game %lld (job %d) was played from another opening than "
                                 "this config gives it; write a new file",
                                 c->output, (long long)i, gi);
        else if (done[gi])
            status = hoyle_error(HOYLE_EINVAL, "%s: job %d is stored twice", c->output, gi);
        else {
            done[gi] = 1;
            r->done++;
            tally(r, &r->jobs[gi], rec.result);
        }
        game_record_free(&rec);
    }
    if (status) {
        h5rec_close(r->h);
        r->h = NULL;
    }
    return status;
}

int tour_runner_open(const tour_config_t *c, FILE *progress, tour_runner_t **out,
                     tour_run_stats_t *stats)
{
    memset(stats, 0, sizeof *stats);
    *out = NULL;
    run_t *r = calloc(1, sizeof *r);
    if (r == NULL) return hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
    r->c = c;
    int status = tournament_schedule(c, &r->jobs, &r->num_jobs);
    if (status == 0) {
        r->done_flags = calloc((size_t)r->num_jobs, 1);
        r->pending = malloc(sizeof(int) * (size_t)r->num_jobs);
        if (!r->done_flags || !r->pending)
            status = hoyle_error(HOYLE_ENOMEM, "tournament: out of memory");
    }
    if (status == 0) status = open_file(r, r->done_flags);
    if (status) {
        free(r->done_flags);
        free(r->pending);
        free(r->jobs);
        free(r);
        return status;
    }
    /* A stop request from an earlier tournament in the same process must not
     * stop this one. */
    stop_requested = 0;
    for (int i = 0; i < r->num_jobs; i++)
        if (!r->done_flags[i]) r->pending[r->num_pending++] = i;
    r->done_at_start = r->done;
    stats->total = r->num_jobs;
    stats->already = r->done;
    stats->ranks = 1;
    pthread_mutex_init(&r->mu, NULL);
    r->t0 = clock_seconds();
    char label[sizeof r->c->name + 4];
    snprintf(label, sizeof label, "[%s]", c->name);
    progress_start(&r->progress, progress, label, "games", r->done);
    *out = r;
    return HOYLE_OK;
}

int tour_runner_close(tour_runner_t *r, tour_run_stats_t *stats)
{
    print_progress(r, 1);
    /* Closing checkpoints: every game appended so far is folded into the .h5 file.
     * A failed checkpoint leaves the games in the journal for the next run. */
    int cs = h5rec_close(r->h);
    pthread_mutex_destroy(&r->mu);
    stats->played = r->done - r->done_at_start;
    stats->interrupted = stop_requested && r->done < r->num_jobs;
    stats->seconds = clock_seconds() - r->t0;
    int status = HOYLE_OK;
    if (r->status)
        status = hoyle_error(r->status, "%s", r->error);
    else if (cs)
        status = cs;
    free(r->done_flags);
    free(r->pending);
    free(r->jobs);
    free(r);
    return status;
}

int tournament_run(const tour_config_t *c, FILE *progress, tour_run_stats_t *stats)
{
    run_t *r;
    int status = tour_runner_open(c, progress, &r, stats);
    if (status) return status;
    int nw = c->workers < 1 ? 1 : c->workers;
    /* No more threads than jobs; the array of 256 matches the config's workers
     * maximum. */
    if (nw > r->num_pending) nw = r->num_pending > 0 ? r->num_pending : 1;
    pthread_t th[256];
    int started = 0;
    for (int i = 0; i < nw; i++) {
        if (pthread_create(&th[i], NULL, worker, r) != 0) break;
        started++;
    }
    /* If no thread could be started, play on this thread rather than fail. */
    if (started == 0) worker(r);
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    return tour_runner_close(r, stats);
}
