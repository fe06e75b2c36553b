/* actors_local.c — the learner's own actor processes (actors_local.h): the run-folder transport
 * of actors_dir.c, plus starting, watching and reaping `hoyle selfplay --model-dir` children.
 *
 * Invariant: every child this transport forked is either reaped (pid[i] = 0) or still running
 * and known here, so the stop can wait for each by its pid; none outlives the learner (the
 * stop ends them, PR_SET_PDEATHSIG ends them when the learner is killed, Ctrl-C reaches the
 * whole process group). */
#define _GNU_SOURCE /* strsignal, getauxval */
#include "train/actors_local.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif

#include "core/error.h"
#include "train/actors_dir.h"

#define LOCAL_MAX      64
#define LOCAL_GRACE_MS 5000 /* after RUN/stop: time to finish the batch in flight */
#define LOCAL_TERM_MS  2000 /* after SIGTERM, before SIGKILL */
#define LOCAL_POLL_MS  50

typedef struct local {
    train_actors_t dir; /* the run-folder transport this one wraps */
    int processes;
    pid_t pid[LOCAL_MAX]; /* 0 = not started or reaped */
    bool started;
    char exe[4096];
    char run[4096]; /* the run folder (from the first net published) */
} local_t;

/* This program's file: /proc/self/exe, else the name it was started by (AT_EXECFN). */
static int find_exe(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n > 0) {
        buf[n] = '\0';
        return HOYLE_OK;
    }
#ifdef __linux__
    const char *fn = (const char *)getauxval(AT_EXECFN);
    if (fn && fn[0] && (size_t)snprintf(buf, cap, "%s", fn) < cap) return HOYLE_OK;
#endif
    return hoyle_error(HOYLE_EIO, "selfplay.processes: cannot find this program's file");
}

/* "exited with status 1", "was killed by signal 9 (Killed)" */
static void describe(int wstatus, char *buf, size_t cap)
{
    if (WIFEXITED(wstatus))
        snprintf(buf, cap, "exited with status %d", WEXITSTATUS(wstatus));
    else if (WIFSIGNALED(wstatus))
        snprintf(buf, cap, "was killed by signal %d (%s)", WTERMSIG(wstatus),
                 strsignal(WTERMSIG(wstatus)));
    else
        snprintf(buf, cap, "ended (wait status %d)", wstatus);
}

/* Start actor i (1-based) on run folder `dir`. */
static int spawn(local_t *l, int i, const char *dir)
{
    char num[16];
    snprintf(num, sizeof num, "%d", i);
    char *argv[] = {l->exe, "selfplay",  "--model-dir", (char *)dir, "--actor",
                    num,    "--threads", "1",           "--quiet",   NULL};
    long max_fd = sysconf(_SC_OPEN_MAX);
    if (max_fd < 0 || max_fd > 65536) max_fd = 65536;
    pid_t parent = getpid();
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) return hoyle_error(HOYLE_EIO, "train: actor %d: fork: %s", i, strerror(errno));
    if (pid == 0) { /* the child: only async-signal-safe calls until exec */
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
        if (getppid() != parent) _exit(127); /* the learner died before prctl */
        /* stdout stays the learner's (--json); stderr is shared for the actors' errors; the
         * learner's other files (the run folder's lock) are not the actor's */
        for (long fd = 3; fd < max_fd; fd++) close((int)fd);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        execv(l->exe, argv);
        _exit(127);
    }
    l->pid[i - 1] = pid;
    return HOYLE_OK;
}

/* What a dead actor (I, PID) left half written in RUN/SUB: its gGGGGGG-aI-PID-NNNNNN.h5.tmp
 * files (and an h5rec journal); its finished files stay. */
static void sweep(const local_t *l, const char *sub, int actor, pid_t pid)
{
    char path[4200], mark[48];
    snprintf(path, sizeof path, "%s/%s", l->run, sub);
    snprintf(mark, sizeof mark, "-a%d-%ld-", actor, (long)pid);
    DIR *d = opendir(path);
    if (d == NULL) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != 'g' || strstr(e->d_name, mark) == NULL ||
            (len > 3 && strcmp(e->d_name + len - 3, ".h5") == 0))
            continue;
        char file[4500];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        unlink(file);
    }
    closedir(d);
}

/* An actor that ended while the run goes on: the learner would wait for its samples forever. */
static int watch(void *ctx)
{
    local_t *l = ctx;
    for (int i = 0; i < l->processes; i++) {
        int ws;
        if (l->pid[i] <= 0 || waitpid(l->pid[i], &ws, WNOHANG) != l->pid[i]) continue;
        char how[96];
        describe(ws, how, sizeof how);
        pid_t pid = l->pid[i];
        sweep(l, "incoming", i + 1, pid);
        sweep(l, "games", i + 1, pid);
        l->pid[i] = 0;
        return hoyle_error(HOYLE_EIO, "actor %d (pid %ld) %s before the run ended", i + 1,
                           (long)pid, how);
    }
    return HOYLE_OK;
}

static int local_publish(void *ctx, int64_t gen, const char *path)
{
    local_t *l = ctx;
    int status = l->dir.publish(l->dir.ctx, gen, path);
    if (status || l->started) return status;
    /* the first net is out and an old stop file gone: the actors can start */
    const char *slash = strrchr(path, '/');
    snprintf(l->run, sizeof l->run, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    l->started = true;
    for (int i = 1; i <= l->processes && !status; i++) status = spawn(l, i, l->run);
    return status;
}

static int local_collect(void *ctx, int64_t min_gen, int64_t games, struct sample_set *set,
                         struct selfplay_stats *ss, int64_t *stale)
{
    local_t *l = ctx;
    return l->dir.collect(l->dir.ctx, min_gen, games, set, ss, stale);
}

static void nap_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Reap every child that has ended within `ms`; returns how many are still running. */
static int reap(local_t *l, int ms)
{
    int left = 0;
    for (int t = 0;; t += LOCAL_POLL_MS) {
        left = 0;
        for (int i = 0; i < l->processes; i++) {
            if (l->pid[i] <= 0) continue;
            pid_t w = waitpid(l->pid[i], NULL, WNOHANG);
            if (w == l->pid[i] || (w < 0 && errno == ECHILD)) {
                sweep(l, "incoming", i + 1, l->pid[i]);
                sweep(l, "games", i + 1, l->pid[i]);
                l->pid[i] = 0;
            } else {
                left++;
            }
        }
        if (left == 0 || t >= ms) return left;
        nap_ms(LOCAL_POLL_MS);
    }
}

static void signal_all(local_t *l, int sig)
{
    for (int i = 0; i < l->processes; i++)
        if (l->pid[i] > 0) kill(l->pid[i], sig);
}

static void local_stop(void *ctx)
{
    local_t *l = ctx;
    l->dir.stop(l->dir.ctx); /* RUN/stop: the actors end after their batch */
    if (reap(l, LOCAL_GRACE_MS) == 0) return;
    signal_all(l, SIGTERM);
    if (reap(l, LOCAL_TERM_MS) == 0) return;
    signal_all(l, SIGKILL);
    reap(l, 60 * 1000);
}

int train_local_actors(int processes, train_actors_t *out)
{
    if (processes < 1 || processes > LOCAL_MAX)
        return hoyle_error(HOYLE_EINVAL, "train: selfplay.processes %d is not in 1..%d", processes,
                           LOCAL_MAX);
    local_t *l = calloc(1, sizeof *l);
    if (l == NULL) return hoyle_error(HOYLE_ENOMEM, "train: out of memory");
    l->processes = processes;
    int status = find_exe(l->exe, sizeof l->exe);
    if (!status) status = train_dir_actors(&l->dir);
    if (status) {
        free(l);
        return status;
    }
    train_dir_actors_watch(&l->dir, watch, l);
    *out = (train_actors_t){local_publish, local_collect, local_stop, l};
    return HOYLE_OK;
}

void train_local_actors_free(train_actors_t *a)
{
    local_t *l = a->ctx;
    if (l == NULL) return;
    /* a learner that failed before its stop: no child stays behind */
    if (reap(l, 0) > 0) local_stop(l);
    train_dir_actors_free(&l->dir);
    free(l);
    a->ctx = NULL;
}
