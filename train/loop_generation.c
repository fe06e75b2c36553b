/* loop_generation.c — one generation of the AlphaZero loop (loop_run.h): self-play,
 * the shard, optimiser steps, the new net, the evaluation and the logs, in the order of
 * writes that loop.c states. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/clock.h"
#include "core/progress.h"
#include "core/rng.h"
#include "train/loop_run.h"
#include "train/net_eval.h"

/* Step 2: optimiser steps on the replay window. The number of steps keeps the sample:step
 * ratio (sample_reuse samples trained on per new sample); the fraction left over is carried
 * in st->step_carry, so small generations still train at the configured ratio on average. */
static int optimise(run_t *r, tch_net_t *net, tch_opt_t *opt, replay_t *rb, int64_t new_samples,
                    loop_state_t *st)
{
    if (replay_size(rb) < r->min_samples || replay_size(rb) == 0) {
        st->step_carry = 0;
        return HOYLE_OK;
    }
    double want = (double)new_samples * r->sample_reuse / r->batch + st->step_carry;
    int64_t steps = (int64_t)floor(want);
    st->step_carry = want - (double)steps;
    size_t B = (size_t)r->batch, A = (size_t)r->g->num_actions;
    float *obs = malloc(sizeof(float) * B * (size_t)game_obs_size(r->g));
    float *pi = malloc(sizeof(float) * B * A), *z = malloc(sizeof(float) * B);
    uint8_t *legal = malloc(B * A);
    int status =
        obs && pi && z && legal ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    /* minibatches from (seed, generation) alone: a resumed run draws the same ones */
    rng_t rng;
    rng_init(&rng, rng_mix(r->seed ^ rng_mix(0x7472ULL + (uint64_t)st->generation)));
    double sp = 0, sv = 0, stot = 0;
    int64_t done = 0;
    for (int64_t k = 0; k < steps && status == HOYLE_OK; k++) {
        tch_losses_t loss;
        status = replay_sample(rb, &rng, r->batch, obs, pi, legal, z);
        if (!status) status = tch_train_step(net, opt, obs, pi, legal, z, r->batch, &loss);
        if (!status) {
            sp += loss.policy;
            sv += loss.value;
            stot += loss.total;
            done++;
        }
    }
    if (done > 0) { /* a generation without steps keeps the previous losses */
        st->loss_policy = sp / (double)done;
        st->loss_value = sv / (double)done;
        st->loss_total = stot / (double)done;
    }
    st->steps += done;
    free(obs);
    free(pi);
    free(z);
    free(legal);
    return status;
}

/* Number the games of a collected set st->games, st->games + 1, ... in the order of their
 * first sample (actors number theirs apart from each other, and a batch interleaves the
 * samples of its parallel games; a run's shards number its games in sequence, as one process
 * does). */
typedef struct id_pair {
    int64_t id, first;
} id_pair_t;

static int by_id(const void *a, const void *b)
{
    const id_pair_t *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id ? 1 : (x->first > y->first) - (x->first < y->first);
}

static int by_first(const void *a, const void *b)
{
    const id_pair_t *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static int renumber_games(sample_set_t *set, int64_t first)
{
    if (set->n == 0) return HOYLE_OK;
    id_pair_t *p = malloc(sizeof *p * (size_t)set->n);
    if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    for (int64_t i = 0; i < set->n; i++) p[i] = (id_pair_t){set->game_id[i], i};
    qsort(p, (size_t)set->n, sizeof *p, by_id);
    int64_t u = 0; /* the distinct ids, each with its first sample */
    for (int64_t i = 0; i < set->n; i++)
        if (i == 0 || p[i].id != p[u - 1].id) p[u++] = p[i];
    qsort(p, (size_t)u, sizeof *p, by_first);
    /* p[k].id gets number first + k; `first` (the sample index) is reused for the number */
    for (int64_t k = 0; k < u; k++) p[k].first = first + k;
    qsort(p, (size_t)u, sizeof *p, by_id);
    for (int64_t i = 0; i < set->n; i++) {
        id_pair_t key = {set->game_id[i], 0}, *hit = NULL;
        int64_t lo = 0, hi = u - 1;
        while (lo <= hi && hit == NULL) {
            int64_t mid = lo + (hi - lo) / 2;
            if (p[mid].id == key.id)
                hit = &p[mid];
            else if (p[mid].id < key.id)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        CHECK(hit != NULL); /* every id of the set is in p */
        set->game_id[i] = hit->first;
    }
    free(p);
    return HOYLE_OK;
}

/* Carried games (selfplay.carry) finish in another order than they started: number the
 * generation's games first, first + 1, ... in the order they finished (the order of
 * `games`, whose samples are contiguous and in the same order in `set`). */
static void renumber_carried(sample_set_t *set, selfplay_games_t *games, int64_t first)
{
    int64_t j = 0;
    for (int64_t i = 0; i < set->n; i++) {
        while (j < games->n && games->game[j].game_id != set->game_id[i]) j++;
        CHECK(j < games->n); /* every sample's game finished in this run */
        set->game_id[i] = first + j;
    }
    for (int64_t k = 0; k < games->n; k++) games->game[k].game_id = first + k;
}

/* What a generation measured besides the losses (train.csv's later columns). */
typedef struct gen_log {
    double selfplay_seconds, optimise_seconds, eval_seconds;
    uint64_t forwards, forwarded, cache_hits; /* over the workers' evaluators */
    double entropy, kl;                       /* mean over the new samples (policy_stats) */
    tch_losses_t heldout;                     /* the held-out set with the new net */
} gen_log_t;

/* The new samples' targets against the net that played them: the mean entropy of the
 * policy targets and the mean KL(target || net policy over the legal actions). */
static int policy_stats(const run_t *r, tch_net_t *net, const sample_set_t *set, gen_log_t *gl)
{
    enum { CHUNK = 256 };
    size_t A = (size_t)r->g->num_actions, O = (size_t)set->obs_size;
    float *logits = malloc(sizeof(float) * CHUNK * A);
    if (logits == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    double h = 0, kl = 0;
    int status = HOYLE_OK;
    for (int64_t at = 0; at < set->n && !status; at += CHUNK) {
        int n = set->n - at < CHUNK ? (int)(set->n - at) : CHUNK;
        status = tch_forward(net, set->obs + (size_t)at * O, n, logits, NULL);
        for (int b = 0; b < n && !status; b++) {
            const float *lg = logits + (size_t)b * A, *pi = set->policy + (size_t)(at + b) * A;
            const uint8_t *legal = set->legal + (size_t)(at + b) * A;
            double top = -INFINITY, z = 0;
            for (size_t a = 0; a < A; a++)
                if (legal[a]) top = fmax(top, lg[a]);
            for (size_t a = 0; a < A; a++)
                if (legal[a]) z += exp(lg[a] - top);
            for (size_t a = 0; a < A; a++) {
                if (!legal[a] || pi[a] <= 0) continue;
                double logq = lg[a] - top - log(z);
                h -= pi[a] * log(pi[a]);
                kl += pi[a] * (log(pi[a]) - logq);
            }
        }
    }
    free(logits);
    gl->entropy = set->n > 0 ? h / (double)set->n : 0;
    gl->kl = set->n > 0 ? kl / (double)set->n : 0;
    return status;
}

static int log_more(loop_log_t *log, const selfplay_stats_t *ss, const gen_log_t *gl, double lr,
                    bool heldout)
{
    double hit = ss->evaluations ? (double)gl->cache_hits / (double)ss->evaluations : 0;
    double fb = gl->forwards ? (double)gl->forwarded / (double)gl->forwards : 0;
    double len = ss->games ? (double)ss->game_actions / (double)ss->games : 0;
    char hp[32] = "", hv[32] = ""; /* empty without a held-out set */
    if (heldout) {
        snprintf(hp, sizeof hp, "%.5f", gl->heldout.policy);
        snprintf(hv, sizeof hv, "%.5f", gl->heldout.value);
    }
    return loop_log_add(log,
                        "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
                        ",%.2f,%.4f,%.1f,%.2f,%.2f,%.2f,%.3g,%.4f,%.4f,%s,%s\n",
                        ss->wins[0], ss->wins[1], ss->draws, ss->resigned, ss->truncated, len, hit,
                        fb, gl->selfplay_seconds, gl->optimise_seconds, gl->eval_seconds, lr,
                        gl->entropy, gl->kl, hp, hv);
}

/* Step 1: self-play with net-G, here (one evaluator per worker over the same net, libtorch
 * on one thread per worker) or by the actors (nets G - stale .. G); the samples in *set, the
 * games played here in *games, the counts in *ss and *gl. */
static int gen_selfplay(run_t *r, tch_net_t *net, const loop_state_t *st,
                        const train_actors_t *actors, selfplay_progress_t *spp, sample_set_t *set,
                        selfplay_games_t *games, selfplay_stats_t *ss, gen_log_t *gl)
{
    double t0 = clock_seconds();
    int64_t gen = st->generation;
    int T = r->sp.threads, status = HOYLE_OK;
    evaluator_t *evals[64] = {NULL};
    for (int i = 0; !actors && !status && i < T; i++)
        status = net_evaluator_create(r->g, net, r->sp.parallel * r->sp.search.batch,
                                      T > 1 ? r->cache / T : r->cache, &evals[i]);
    if (!status && !actors && T > 1) status = tch_set_threads(1);
    selfplay_params_t sp = r->sp;
    sp.seed = rng_mix(r->seed ^ rng_mix(0x5350ULL + (uint64_t)gen));
    sp.first_game_id = st->games;
    int64_t stale = 0;
    if (!status && actors) {
        memset(ss, 0, sizeof *ss);
        double c0 = clock_seconds();
        status = actors->collect(actors->ctx, gen - r->stale, sp.games, set, ss, &stale);
        if (!status) status = renumber_games(set, st->games);
        if (spp->pg.out && !status)
            progress_note(&spp->pg,
                          "[selfplay] gen %" PRId64 ": %" PRId64 " games, %" PRId64
                          " samples from the actors, waited %.1f s (%" PRId64
                          " stale samples dropped)",
                          gen + 1, ss->games, set->n, clock_seconds() - c0, stale);
    } else if (!status) {
        status = selfplay_session_run(r->session, evals, &sp, set, games, ss,
                                      spp->pg.out ? selfplay_progress_line : NULL, spp);
        if (!status && r->sp.carry) renumber_carried(set, games, st->games);
        if (T > 1) { /* the optimiser's threads again */
            int s2 = tch_set_threads(r->threads);
            if (!status) status = s2;
        }
    }
    /* actor runs: the counts the actors sent with their samples (0 in-process) */
    *gl = (gen_log_t){.selfplay_seconds = clock_seconds() - t0,
                      .forwards = ss->forwards,
                      .forwarded = ss->forwarded,
                      .cache_hits = ss->cache_hits};
    for (int i = 0; i < T; i++) {
        if (evals[i] == NULL) continue;
        uint64_t positions = 0;
        gl->forwards += net_evaluator_forwards(evals[i], &positions);
        gl->forwarded += positions;
        gl->cache_hits += net_evaluator_cache_hits(evals[i]);
        evaluator_free(evals[i]);
    }
    return status;
}

/* Step 1, the files: shard G of the samples (its path in shard) and, played here, the games
 * themselves (RUN/games/gen-G.h5, for hoyle show / report). */
static int gen_write(const run_t *r, int64_t gen, const sample_set_t *set,
                     const selfplay_games_t *games, const selfplay_stats_t *ss, bool here,
                     char *shard, size_t cap)
{
    char path[1200], netid[64];
    snprintf(path, sizeof path, "%s/samples", r->dir);
    snprintf(netid, sizeof netid, "net-%06" PRId64 ".pt", gen);
    samples_meta_t meta = {.game_spec = r->g->spec,
                           .params = r->sp_canon,
                           .network_id = netid,
                           .config = r->config_text,
                           .generation = gen,
                           .games = ss->games};
    int status = replay_shard_path(path, (int)gen, shard, cap);
    if (!status) status = samples_write_shard(shard, set, &meta);
    if (!status && here) {
        char agent[96];
        snprintf(path, sizeof path, "%s/games/gen-%06" PRId64 ".h5", r->dir, gen);
        snprintf(agent, sizeof agent, "selfplay(net=%s)", netid);
        status = selfplay_games_write(path, r->g, games, agent, (int32_t)gen, r->config_text);
    }
    return status;
}

/* Step 4's row of train.csv (logs[0]) for the generation just finished. */
static int gen_log_row(loop_log_t *log, const loop_state_t *st, const selfplay_stats_t *ss,
                       int64_t new_samples, const gen_log_t *gl, double lr, bool heldout)
{
    int status = loop_log_add(
        log,
        "%" PRId64 ",%.1f,%" PRId64 ",%" PRId64 ",%" PRId64 ",%.5f,%.5f,%.5f,"
        "%.1f,%.1f,%" PRId64 ",%" PRId64 ",",
        st->generation, st->seconds, st->games, st->samples, st->steps, st->loss_policy,
        st->loss_value, st->loss_total, (double)ss->evaluations / fmax(ss->seconds, 1e-9),
        (double)new_samples / fmax(ss->seconds, 1e-9), ss->resign_checks, ss->false_resigns);
    if (!status) status = log_more(log, ss, gl, lr, heldout);
    if (!status) status = loop_log_save(log);
    return status;
}

/* The generation's progress line: counts, losses, rates, Elo, elapsed time and ETA. */
static void gen_progress(const run_t *r, const loop_state_t *st, const selfplay_stats_t *ss,
                         const train_summary_t *out, const loop_eval_out_t *ev, bool evaluated,
                         progress_t *pg)
{
    char el[32], eta[32];
    /* ETA: the mean time per generation so far, capped by train.minutes */
    double left = (double)(r->generations - st->generation) * st->seconds / (double)st->generation;
    if (r->minutes > 0) left = fmin(left, r->minutes * 60 - st->seconds);
    loop_fmt_time(st->seconds, el, sizeof el);
    loop_fmt_time(fmax(left, 0), eta, sizeof eta);
    char line[512];
    int n =
        snprintf(line, sizeof line,
                 "gen %" PRId64 " | games %" PRId64 " | samples %" PRId64 " | steps %" PRId64
                 " | loss %.3f (policy %.3f value %.3f) | %.0f evals/s %.0f pos/s",
                 st->generation, st->games, st->samples, st->steps, st->loss_total, st->loss_policy,
                 st->loss_value, (double)ss->evaluations / fmax(ss->seconds, 1e-9),
                 (double)ss->full_searches / fmax(ss->seconds, 1e-9));
    if (out->elo_generation >= 0 && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, " | elo %+.0f (net %" PRId64 ")", out->elo,
                      out->elo_generation);
    if (evaluated && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, " | vs prev %.2f vs baseline %.2f",
                      ev->score_prev, ev->score_base);
    if (n < (int)sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, " | %s elapsed, ETA %s", el, eta);
    progress_note(pg, "%s", line);
}

int loop_generation(run_t *r, tch_net_t *net, tch_opt_t *opt, replay_t *rb, loop_state_t *st,
                    const train_actors_t *actors, loop_log_t *logs, FILE *progress,
                    train_summary_t *out)
{
    double t0 = clock_seconds();
    int64_t gen = st->generation;
    char path[1200], shard[1200];
    /* 1. self-play with net-G, then its shard and games */
    selfplay_games_t games = {0};
    sample_set_t set;
    sample_set_init(&set, r->g->obs_shape, r->g->num_actions);
    selfplay_stats_t ss = {0};
    selfplay_progress_t spp = {.total = r->sp.games};
    char label[64];
    snprintf(label, sizeof label, "[selfplay] gen %" PRId64, gen + 1);
    progress_start(&spp.pg, progress, label, "games", 0);
    progress_defer(&spp.pg); /* a short generation adds only its summary line to a log */
    gen_log_t gl;
    int status = gen_selfplay(r, net, st, actors, &spp, &set, &games, &ss, &gl);
    if (!status) status = policy_stats(r, net, &set, &gl);
    if (!status) status = gen_write(r, gen, &set, &games, &ss, !actors, shard, sizeof shard);
    selfplay_games_done(&games);
    int64_t new_samples = set.n;
    sample_set_done(&set);
    /* 2. train on the window */
    double t_opt = clock_seconds();
    if (!status) status = replay_add_shard(rb, shard);
    if (!status) status = optimise(r, net, opt, rb, new_samples, st);
    gl.optimise_seconds = clock_seconds() - t_opt;
    if (!status && r->heldout.n > 0)
        status =
            tch_eval_losses(net, &r->opt_cfg, r->heldout.obs, r->heldout.policy, r->heldout.legal,
                            r->heldout.value, (int)r->heldout.n, &gl.heldout);
    /* 3. the new net */
    st->generation = gen + 1;
    st->games += ss.games;
    st->samples += new_samples;
    loop_run_net_path(r, gen + 1, path, sizeof path);
    if (!status) status = tch_save(net, opt, path);
    if (!status && actors) status = actors->publish(actors->ctx, gen + 1, path);
    /* 4. evaluation */
    loop_eval_out_t ev = {.score_prev = -1, .score_base = -1};
    bool evaluated = false;
    double t_eval = clock_seconds();
    if (!status && r->eval.every > 0 && st->generation % r->eval.every == 0) {
        /* the previous evaluated net (generation 0 is always evaluated, see train_run) */
        int64_t prev = st->generation - r->eval.every;
        status = loop_evaluate(r->g, r->dir, &r->eval, st->generation, prev,
                               st->seconds + clock_seconds() - t0, rng_mix(r->seed + (uint64_t)gen),
                               &logs[1], &logs[2], progress, &ev);
        evaluated = true;
    }
    gl.eval_seconds = clock_seconds() - t_eval;
    st->seconds += clock_seconds() - t0;
    if (!status)
        status =
            gen_log_row(&logs[0], st, &ss, new_samples, &gl, tch_opt_lr(opt), r->heldout.n > 0);
    /* 5. the generation is done */
    snprintf(path, sizeof path, "%s/state.txt", r->dir);
    if (!status) status = loop_state_save(path, st);
    /* retention, once state.txt no longer needs the older nets (actors may lag train.stale) */
    if (!status)
        status = loop_prune_nets(r->dir, st->generation, r->keep_every,
                                 r->keep_last > r->stale ? r->keep_last : r->stale + 1, &r->eval);
    if (status) return status;
    if (evaluated) {
        out->elo = ev.elo;
        out->elo_generation = st->generation;
    }
    if (progress) gen_progress(r, st, &ss, out, &ev, evaluated, &spp.pg);
    return HOYLE_OK;
}
