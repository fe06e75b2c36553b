/* sandbox.c — a function run in a forked child with limits (sandbox.h).
 *
 * Invariant: every child sandbox_run starts is reaped before it returns,
 * whatever happened (a crash, a timeout, too much output). The child's
 * status and message travel back through one shared anonymous page, so a
 * failure the child reported itself (a negative status from fn) is told
 * apart from a crash (a signal, or a sanitizer's exit code). */
#define _GNU_SOURCE /* pipe2 */
#include "core/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/child.h"
#include "core/error.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANDBOX_NO_AS_LIMIT 1 /* sanitizers reserve terabytes of shadow memory */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define SANDBOX_NO_AS_LIMIT 1
#endif
#endif
#ifndef SANDBOX_NO_AS_LIMIT
#define SANDBOX_NO_AS_LIMIT 0
#endif

/* What the child leaves in the shared page before _exit. */
typedef struct shared {
    int reported; /* 1: fn returned, code/message are fn's */
    int code;
    char message[HOYLE_ERROR_MAX];
} shared_t;

static int in_child;

int sandbox_in_child(void) { return in_child; }

void sandbox_limits_default(sandbox_limits_t *lim)
{
    lim->cpu_s = 60;
    lim->wall_ms = 120000;
    lim->memory_bytes = (size_t)4 << 30;
    lim->output_bytes = (size_t)1 << 30;
}

/* The child: limits, fn, the verdict in the shared page, _exit. */
static void child_body(sandbox_fn fn, void *arg, const sandbox_limits_t *lim, int fd, shared_t *sh)
{
    in_child = 1;
    signal(SIGPIPE, SIG_DFL); /* a parent that stopped reading ends us */
    struct rlimit r = {(rlim_t)lim->cpu_s, (rlim_t)lim->cpu_s + 1};
    setrlimit(RLIMIT_CPU, &r);
    struct rlimit core = {0, 0}; /* a crash on a damaged file leaves no core file behind */
    setrlimit(RLIMIT_CORE, &core);
    if (!SANDBOX_NO_AS_LIMIT && lim->memory_bytes > 0) {
        struct rlimit as = {(rlim_t)lim->memory_bytes, (rlim_t)lim->memory_bytes};
        setrlimit(RLIMIT_AS, &as);
    }
    hoyle_clear_error();
    int rc = fn(arg, fd);
    close(fd);
    sh->code = rc < 0 ? rc : 0;
    if (rc < 0) {
        const char *m = hoyle_last_error();
        size_t n = strlen(m);
        if (n >= sizeof sh->message) n = sizeof sh->message - 1;
        memcpy(sh->message, m, n);
        sh->message[n] = '\0';
    }
    sh->reported = 1;
    _exit(rc < 0 ? 3 : 0);
}

/* Read the child's output until end of file, the deadline or the byte cap.
 * 0 at end of file; 1 past the deadline; 2 past the cap; -1 out of memory
 * or a read error. */
static int collect(int fd, long long deadline_ms, size_t cap_bytes, uint8_t **buf, size_t *len)
{
    size_t cap = 0;
    for (;;) {
        long long left = deadline_ms - child_now_ms();
        if (left <= 0) return 1;
        struct pollfd p = {fd, POLLIN, 0};
        int k = poll(&p, 1, left > 1000 ? 1000 : (int)left);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -1;
        if (k == 0) continue;
        if (*len + 65536 + 1 > cap) {
            size_t nc = cap ? cap * 2 : 65536 * 2;
            uint8_t *nb = realloc(*buf, nc);
            if (nb == NULL) return -1;
            *buf = nb;
            cap = nc;
        }
        ssize_t n = read(fd, *buf + *len, 65536);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) return 0;
        *len += (size_t)n;
        if (*len > cap_bytes) return 2;
    }
}

/* The verdict from the wait status and the shared page. */
static int verdict(const char *what, int status, const shared_t *sh)
{
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGXCPU || sig == SIGKILL)
            return hoyle_error(HOYLE_EIO, "%s: ran past its limits (signal %d, %s)", what, sig,
                               strsignal(sig));
        return hoyle_error(HOYLE_EIO, "%s: crashed (signal %d, %s)", what, sig, strsignal(sig));
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (sh->reported && code == (sh->code < 0 ? 3 : 0)) {
        if (sh->code >= 0) return HOYLE_OK;
        /* the child's own one-line error, passed on as it was */
        return hoyle_error(sh->code, "%s", sh->message);
    }
    return hoyle_error(HOYLE_EIO, "%s: crashed (exit status %d)", what, code);
}

int sandbox_run(const char *what, sandbox_fn fn, void *arg, const sandbox_limits_t *lim,
                uint8_t **out, size_t *len)
{
    sandbox_limits_t def;
    if (lim == NULL) sandbox_limits_default(&def);
    if (lim == NULL) lim = &def;
    *out = NULL;
    *len = 0;
    int fds[2];
    shared_t *sh =
        mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) return hoyle_error(HOYLE_EIO, "%s: mmap: %s", what, strerror(errno));
    memset(sh, 0, sizeof *sh);
    if (pipe2(fds, O_CLOEXEC) != 0) {
        munmap(sh, sizeof *sh);
        return hoyle_error(HOYLE_EIO, "%s: pipe: %s", what, strerror(errno));
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        munmap(sh, sizeof *sh);
        return hoyle_error(HOYLE_EIO, "%s: fork: %s", what, strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        child_body(fn, arg, lim, fds[1], sh); /* does not return */
    }
    close(fds[1]);
    uint8_t *buf = NULL;
    size_t n = 0;
    int got = collect(fds[0], child_now_ms() + lim->wall_ms, lim->output_bytes, &buf, &n);
    close(fds[0]);
    if (got != 0) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    int rc;
    if (got == 1)
        rc = hoyle_error(HOYLE_EIO, "%s: no answer within %lld ms", what, lim->wall_ms);
    else if (got == 2)
        rc = hoyle_error(HOYLE_EIO, "%s: more than %zu bytes of output", what, lim->output_bytes);
    else if (got < 0)
        rc = hoyle_error(HOYLE_ENOMEM, "%s: out of memory reading the child's answer", what);
    else
        rc = verdict(what, status, sh);
    munmap(sh, sizeof *sh);
    if (rc < 0) {
        free(buf);
        return rc;
    }
    if (buf == NULL && (buf = malloc(1)) == NULL)
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", what);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return HOYLE_OK;
}
