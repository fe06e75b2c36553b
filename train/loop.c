/* loop.c — `hoyle train`: the start of a run (fresh or resumed), the learner's
 * generations and the actors (loop.h). The rooms: loop_config.c (config, checks, resume),
 * loop_generation.c (one generation), loop_eval.c, loop_learn.c, loop_state.c.
 * Order of writes in a generation (each one atomic): shard G, net G+1, the
 * evaluation logs, then state.txt. A kill before state.txt is written loses
 * that generation only; the rerun rewrites the same files. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rng.h"
#include "train/actors_local.h"
#include "train/agent_az.h"
#include "train/loop_run.h"
#include "train/net_eval.h"

/* Before the first generation: the self-play session when `session` (its workers and, with
 * selfplay.carry, the games they carry between generations; a resumed run starts with none in
 * flight; actor runs have none) and the held-out set RUN/heldout.h5, played once by net 0 with a
 * seed of its own and never trained on. */
static int selfplay_start(run_t *r, tch_net_t *net, bool session)
{
    selfplay_params_t sp = r->sp;
    sp.seed = rng_mix(r->seed ^ 0x53455353ULL);
    sp.first_game_id = 0;
    int status =
        session ? selfplay_session_create(r->g, &sp, r->sp.threads, &r->session) : HOYLE_OK;
    sample_set_init(&r->heldout, r->g->obs_shape, r->g->num_actions);
    char path[1200];
    snprintf(path, sizeof path, "%s/games", r->dir);
    if (!status) status = loop_make_dir(path);
    if (status || r->heldout_games == 0) return status;
    snprintf(path, sizeof path, "%s/heldout.h5", r->dir);
    if (access(path, F_OK) == 0) return samples_read_shard(path, &r->heldout, NULL);
    /* net-000000.pt as saved (the caller's net has not trained yet on a fresh run) */
    char net0[1200];
    loop_run_net_path(r, 0, net0, sizeof net0);
    tch_net_t *first = NULL;
    evaluator_t *e = NULL;
    status = tch_load(net0, &first, NULL);
    if (!status) status = net_evaluator_create(r->g, first, sp.parallel * sp.search.batch, 0, &e);
    sp.games = r->heldout_games;
    sp.seed = rng_mix(r->seed ^ 0x484f4c44ULL);
    sp.first_game_id = -(int64_t)r->heldout_games; /* apart from the run's game ids */
    selfplay_stats_t ss;
    if (!status) status = selfplay_run(r->g, e, &sp, &r->heldout, &ss, NULL, NULL);
    samples_meta_t meta = {.game_spec = r->g->spec,
                           .params = r->sp_canon,
                           .network_id = "net-000000.pt",
                           .config = r->config_text,
                           .games = ss.games};
    if (!status) status = samples_write_shard(path, &r->heldout, &meta);
    evaluator_free(e);
    tch_net_free(first);
    (void)net;
    return status;
}

static int start(run_t *r, loop_state_t *st, tch_net_t **net, tch_opt_t **opt, int *resumed)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/samples", r->dir);
    int status = loop_make_dir(path);
    snprintf(path, sizeof path, "%s/state.txt", r->dir);
    if (!status) status = loop_state_load(path, st);
    if (status < 0) return status;
    *resumed = status == 0;
    if (*resumed && (status = loop_run_resume_check(r, st->generation))) return status;
    if (status == 1) { /* fresh run: net 0 and the config */
        memset(st, 0, sizeof *st);
        char at[1400];
        loop_key_at(r->cfg, "train.init_from", at, sizeof at);
        status = r->init_from[0] ? loop_warm_start(at, r->init_from, &r->net_cfg, net)
                                 : tch_net_create(&r->net_cfg, r->seed, net);
        if (status) return status;
        if ((status = tch_opt_create(*net, &r->opt_cfg, opt))) return status;
        loop_run_net_path(r, 0, path, sizeof path);
        if ((status = tch_save(*net, *opt, path))) return status;
        snprintf(path, sizeof path, "%s/config.yaml", r->dir);
        return loop_write_atomic(path, r->config_text, strlen(r->config_text));
    }
    /* resume: the newest finished net, with its optimiser state (momenta, step count) */
    loop_run_net_path(r, st->generation, path, sizeof path);
    if ((status = tch_load(path, net, opt))) return status;
    tch_net_config_t have;
    tch_net_get_config(*net, &have);
    if ((status = net_config_check(r->g, &have))) return status;
    if (*opt == NULL) return tch_opt_create(*net, &r->opt_cfg, opt); /* saved without one */
    /* the config's hyper-parameters (--set optim.lr=... included), the checkpoint's state */
    if (tch_opt_set_config(*opt, &r->opt_cfg)) return hoyle_error_prefix(HOYLE_EINVAL, "%s", path);
    return HOYLE_OK;
}

/* The run's CSV logs, keeping the rows of finished generations: logs[0] train.csv,
 * logs[1] eval_games.csv, logs[2] eval.csv. */
static int open_logs(const run_t *r, int64_t generation, loop_log_t logs[3])
{
    char p[1200];
    int status = HOYLE_OK;
    const char *names[3] = {"train.csv", "eval_games.csv", "eval.csv"};
    const char *headers[3] = {
        "generation,seconds,games,samples,steps,loss_policy,loss_value,loss_total,"
        "selfplay_evals_per_s,selfplay_samples_per_s,resign_checks,false_resigns," TRAIN_CSV_MORE
        "\n",
        "generation,opponent,seat,score,opening\n",
        "generation,seconds,opponent,games,score,elo_diff,elo_diff_low,elo_diff_high,sprt,llr\n"};
    for (int k = 0; k < 3 && !status; k++) {
        snprintf(p, sizeof p, "%s/%s", r->dir, names[k]);
        status = loop_log_open(&logs[k], p, headers[k], generation);
    }
    /* a run made before the later columns: its header gets them (its old rows stay short) */
    size_t h0 = strlen(headers[0]);
    if (!status && (logs[0].len < h0 || memcmp(logs[0].text, headers[0], h0) != 0)) {
        const char *nl = memchr(logs[0].text, '\n', logs[0].len);
        size_t old = nl ? (size_t)(nl - logs[0].text) + 1 : logs[0].len;
        loop_log_t fixed = {.text = NULL};
        snprintf(fixed.path, sizeof fixed.path, "%s", logs[0].path);
        status = loop_log_add(&fixed, "%s", headers[0]);
        if (!status && logs[0].len > old)
            status = loop_log_add(&fixed, "%.*s", (int)(logs[0].len - old), logs[0].text + old);
        loop_log_done(&logs[0]);
        logs[0] = fixed;
    }
    return status;
}

/* Net 0 against the baseline, so that the Elo scale starts at the untrained net; its time
 * counts in the run's elapsed time (st->seconds). */
static int evaluate_net0(run_t *r, loop_state_t *st, loop_log_t logs[3], FILE *progress,
                         train_summary_t *out)
{
    loop_eval_out_t ev;
    double t0 = clock_seconds();
    if (progress) {
        fprintf(progress, "gen 0 | net 0 plays the baseline %s: %d games\n", r->eval.baseline,
                r->eval.games);
        fflush(progress);
    }
    int status = loop_evaluate(r->g, r->dir, &r->eval, 0, -1, 0, rng_mix(r->seed ^ 0xe0), &logs[1],
                               &logs[2], progress, &ev);
    if (!status) out->elo_generation = 0;
    st->seconds += clock_seconds() - t0;
    if (progress && !status) {
        char el[32];
        loop_fmt_time(st->seconds, el, sizeof el);
        fprintf(progress, "gen 0 | elo +0 (net 0) | vs baseline %.2f | %s elapsed\n", ev.score_base,
                el);
        fflush(progress);
    }
    return status;
}

int train_run(const char *path, char *const *sets, int num_sets, FILE *progress,
              train_summary_t *out)
{
    return train_run_learner(path, sets, num_sets, progress, NULL, out);
}

int train_run_learner(const char *path, char *const *sets, int num_sets, FILE *progress,
                      const train_actors_t *actors, train_summary_t *out)
{
    run_t r;
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    out->elo_generation = -1;
    r.lock_fd = -1;
    int status = loop_run_load(&r, path, sets, num_sets);
    if (!status) status = train_register_agents(); /* evaluation plays `az` agents */
    if (!status) status = loop_run_check(&r);      /* every error so far: nothing written */
    train_actors_t local = {0}; /* selfplay.processes: the learner's own actor processes */
    if (!status && r.processes > 0) {
        char at[1400];
        loop_key_at(r.cfg, "selfplay.processes", at, sizeof at);
        if (actors)
            status = hoyle_error(HOYLE_EINVAL,
                                 "%s: %d, but the games are played by actors already "
                                 "(--external-actors or mpirun): use one of them",
                                 at, r.processes);
        else if (!(status = train_local_actors(r.processes, &local)))
            actors = &local;
    }
    if (!status) status = tch_set_threads(r.threads);
    if (!status) status = loop_lock_dir(r.dir, &r.lock_fd);
    loop_state_t st;
    tch_net_t *net = NULL;
    tch_opt_t *opt = NULL;
    replay_t rb;
    memset(&rb, 0, sizeof rb);
    loop_log_t logs[3];
    memset(logs, 0, sizeof logs);
    int resumed = 0;
    if (!status) status = start(&r, &st, &net, &opt, &resumed);
    char p[1200];
    /* the actors start from the newest finished net */
    loop_run_net_path(&r, st.generation, p, sizeof p);
    if (!status && actors) status = actors->publish(actors->ctx, st.generation, p);
    if (!status) status = replay_init(&rb, r.g, r.window_samples, r.window_games, r.augment);
    if (!status && r.growing)
        status = replay_set_growing(&rb, r.window_min, r.window_alpha, r.window_beta);
    if (!status) status = selfplay_start(&r, net, actors == NULL);
    snprintf(p, sizeof p, "%s/samples", r.dir);
    if (!status) status = replay_load_dir(&rb, p, (int)st.generation);
    if (!status) status = open_logs(&r, st.generation, logs);
    /* the header first: net 0's games against the baseline below can take minutes */
    if (progress && !status) {
        fprintf(progress, "train %s: %s, net %d blocks x %d filters, %s, generation %" PRId64 "\n",
                r.dir, r.g->spec, r.net_cfg.blocks, r.net_cfg.filters,
                resumed ? "resumed" : "new run", st.generation);
        fflush(progress);
    }
    if (!status && st.generation == 0 && r.eval.every > 0)
        status = evaluate_net0(&r, &st, logs, progress, out);
    while (!status && st.generation < r.generations &&
           (r.minutes <= 0 || st.seconds < r.minutes * 60))
        status = loop_generation(&r, net, opt, &rb, &st, actors, logs, progress, out);
    if (actors) actors->stop(actors->ctx);
    train_local_actors_free(&local);
    if (!status) {
        snprintf(out->output, sizeof out->output, "%s", r.dir);
        out->generation = st.generation;
        out->steps = st.steps;
        out->games = st.games;
        out->samples = st.samples;
        out->loss_policy = st.loss_policy;
        out->loss_value = st.loss_value;
        out->loss_total = st.loss_total;
        out->seconds = st.seconds;
        out->resumed = resumed;
    }
    for (int k = 0; k < 3; k++) loop_log_done(&logs[k]);
    replay_done(&rb);
    tch_opt_free(opt);
    tch_net_free(net);
    loop_run_free(&r);
    if (r.lock_fd >= 0) close(r.lock_fd); /* last: releases the folder */
    return status;
}

int train_run_actor(const char *path, char *const *sets, int num_sets, int actor,
                    const train_actor_io_t *io, FILE *progress)
{
    run_t r;
    memset(&r, 0, sizeof r);
    r.lock_fd = -1;
    /* The learner checks the config and owns the folder; an actor only reads the keys. */
    int status = loop_run_load(&r, path, sets, num_sets);
    if (!status) status = tch_set_threads(r.threads);
    tch_net_t *net = NULL;
    evaluator_t *e = NULL;
    sample_set_t set;
    bool have_set = status == 0;
    if (have_set) sample_set_init(&set, r.g->obs_shape, r.g->num_actions);
    /* one worker's session: with selfplay.carry the games unfinished at the end of a batch
     * continue in the next one; game ids are numbered apart from every other actor's
     * (actor << 40) and, below, every other batch's (batch << 20) */
    selfplay_session_t *session = NULL;
    if (!status) {
        selfplay_params_t sp = r.sp;
        sp.seed = rng_mix(r.seed ^ rng_mix(0x4153ULL + ((uint64_t)actor << 32)));
        sp.first_game_id = (int64_t)actor << 40;
        status = selfplay_session_create(r.g, &sp, 1, &session);
    }
    selfplay_games_t games = {0};
    int64_t have = -1, batches = 0;
    char file[1200], agent[96];
    while (!status) {
        /* the newest net: wait for the first one, then take a newer one between batches */
        int64_t gen;
        int got = io->fetch(io->ctx, have < 0, have, &gen, file, sizeof file);
        if (got == 1 || got < 0) {
            status = got < 0 ? got : HOYLE_OK;
            break;
        }
        if (got == 0) {
            tch_net_t *next = NULL;
            status = tch_load(file, &next, NULL);
            if (status) break;
            tch_net_config_t have_cfg;
            tch_net_get_config(next, &have_cfg);
            if ((status = net_config_check(r.g, &have_cfg))) {
                tch_net_free(next);
                break;
            }
            evaluator_free(e);
            e = NULL;
            tch_net_free(net);
            net = next;
            have = gen;
            status = net_evaluator_create(r.g, net, r.sp.parallel * r.sp.search.batch, r.cache, &e);
            if (status) break;
        }
        /* one batch of finished games, the games started in it seeded by (seed, actor, batch) */
        selfplay_params_t sp = r.sp;
        sp.games = r.actor_games;
        sp.seed =
            rng_mix(r.seed ^ rng_mix(0x4143ULL + ((uint64_t)actor << 32) + (uint64_t)batches));
        /* where ids restart (nothing carried), not at the ids of another actor or batch: the
         * learner renumbers a generation's games by their ids (loop_generation.c) */
        sp.first_game_id = ((int64_t)actor << 40) + ((int64_t)batches << 20);
        selfplay_stats_t ss;
        sample_set_clear(&set);
        selfplay_games_done(&games);
        uint64_t hits0 = net_evaluator_cache_hits(e), pos0 = 0, pos1 = 0;
        uint64_t calls0 = net_evaluator_forwards(e, &pos0);
        status = selfplay_session_run(session, &e, &sp, &set, io->record ? &games : NULL, &ss, NULL,
                                      NULL);
        /* this batch's share of the evaluator's counts, for the learner's train.csv */
        ss.forwards = net_evaluator_forwards(e, &pos1) - calls0;
        ss.forwarded = pos1 - pos0;
        ss.cache_hits = net_evaluator_cache_hits(e) - hits0;
        snprintf(agent, sizeof agent, "selfplay(net=net-%06" PRId64 ".pt)", have);
        if (!status && io->record)
            status = io->record(io->ctx, have, r.g, &games, agent, r.config_text);
        if (!status) status = io->send(io->ctx, have, &set, &ss);
        batches++;
        if (progress && !status) {
            fprintf(progress,
                    "[actor %d] batch %" PRId64 ": %" PRId64 " games, %" PRId64
                    " samples with net %" PRId64 " (%.0f pos/s)\n",
                    actor, batches, ss.games, set.n, have,
                    (double)ss.full_searches / fmax(ss.seconds, 1e-9));
            fflush(progress);
        }
    }
    if (have_set) sample_set_done(&set);
    selfplay_games_done(&games);
    selfplay_session_free(session);
    evaluator_free(e);
    tch_net_free(net);
    loop_run_free(&r);
    return status;
}
