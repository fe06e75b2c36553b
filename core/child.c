/* child.c — child processes spoken to by lines (see child.h): spawn over a
 * socket pair, buffered line reads with deadlines, writes that never raise
 * SIGPIPE, and reaping with a grace period.
 *
 * Invariant: while c->broken is 0 every byte read from the socket is in
 * buf[consumed, len) or was returned as part of a line; once broken, no call
 * touches the socket again. */
#include "core/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"

#define PATH_CAP 4096

struct child {
    pid_t pid;       /* the process, or -1 once reaped */
    int fd;          /* our end of the socket pair */
    int broken;      /* 1 after any I/O failure: the stream is out of step */
    char *buf;       /* bytes read from the child, [0, len) */
    size_t len, cap; /* valid bytes and allocated size of buf */
    size_t consumed; /* bytes of buf already returned as lines */
    char name[32];   /* the prefix of messages */
};

extern char **environ;

long long child_now_ms(void) { return (long long)(1e3 * clock_seconds()); }

/* The executable `program` names, written to out[PATH_CAP]: itself when it
 * contains a '/', else the first match in $PATH. Returns 1 when found. */
static int resolve(const char *program, char *out)
{
    if (!program || !*program) return 0;
    if (strchr(program, '/')) {
        snprintf(out, PATH_CAP, "%s", program);
        return access(out, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        int len = snprintf(out, PATH_CAP, "%.*s/%s", (int)n, n ? p : ".", program);
        if (len > 0 && len < PATH_CAP && access(out, X_OK) == 0) return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

bool child_program_exists(const char *program)
{
    char path[PATH_CAP];
    return resolve(program, path) == 1;
}

static int vfail(child_t *c, const char *fmt, va_list ap)
{
    char what[400];
    vsnprintf(what, sizeof what, fmt, ap);
    c->broken = 1;
    return hoyle_error(HOYLE_EIO, "%s: %s", c->name, what);
}

int child_fail(child_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(c, fmt, ap);
    va_end(ap);
    return rc;
}

bool child_broken(const child_t *c) { return c->broken != 0; }

/* The next line, or 0 at the deadline (breaking the child when `fatal`). */
static int next_line(child_t *c, long long deadline_ms, char **line, bool fatal)
{
    if (c->broken) return hoyle_error(HOYLE_EIO, "%s: unusable after an earlier error", c->name);
    if (c->consumed) {
        memmove(c->buf, c->buf + c->consumed, c->len - c->consumed);
        c->len -= c->consumed;
        c->consumed = 0;
    }
    size_t scanned = 0;
    for (;;) {
        char *nl = memchr(c->buf + scanned, '\n', c->len - scanned);
        if (nl) {
            *nl = '\0';
            if (nl > c->buf && nl[-1] == '\r') nl[-1] = '\0';
            c->consumed = (size_t)(nl - c->buf) + 1;
            *line = c->buf;
            return 1;
        }
        scanned = c->len;
        if (c->len + 1 >= c->cap) {
            if (c->cap >= CHILD_LINE_MAX) return child_fail(c, "reply line too long");
            char *bigger = realloc(c->buf, c->cap * 2);
            if (!bigger) {
                c->broken = 1;
                return hoyle_error(HOYLE_ENOMEM, "%s: out of memory for a reply", c->name);
            }
            c->buf = bigger;
            c->cap *= 2;
        }
        long long left = deadline_ms - child_now_ms();
        if (left <= 0) return fatal ? child_fail(c, "no reply within the timeout") : 0;
        struct pollfd p = {.fd = c->fd, .events = POLLIN};
        int r = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return child_fail(c, "poll failed");
        if (r == 0) continue; /* re-check the deadline */
        ssize_t got = read(c->fd, c->buf + c->len, c->cap - 1 - c->len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return child_fail(c, "the process exited (end of input)");
        c->len += (size_t)got;
    }
}

int child_read_line(child_t *c, long long deadline_ms, char **line)
{
    int r = next_line(c, deadline_ms, line, true);
    return r < 0 ? r : HOYLE_OK;
}

int child_poll_line(child_t *c, long long deadline_ms, char **line)
{
    return next_line(c, deadline_ms, line, false);
}

int child_send(child_t *c, const char *text, size_t n)
{
    if (c->broken) return hoyle_error(HOYLE_EIO, "%s: unusable after an earlier error", c->name);
    while (n) {
        ssize_t put = send(c->fd, text, n, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) return child_fail(c, "the process is gone (write failed)");
        text += put;
        n -= (size_t)put;
    }
    return HOYLE_OK;
}

int child_printf(child_t *c, const char *fmt, ...)
{
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0 || n > 65536) return hoyle_error(HOYLE_EINVAL, "%s: request too long", c->name);
    if ((size_t)n < sizeof small) return child_send(c, small, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (!big) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", c->name);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int rc = child_send(c, big, (size_t)n);
    free(big);
    return rc;
}

/* Moves `fd` to a close-on-exec descriptor above stdin/stdout/stderr (-1 on failure). */
static int fd_above_stdio(int fd)
{
    if (fd < 0) return -1;
    int hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return hi;
}

int child_open(const char *name, char *const argv[], char *const envp[], child_t **out)
{
    char path[PATH_CAP];
    const char *who = name && *name ? name : "child";
    if (!argv || !argv[0] || !resolve(argv[0], path))
        return hoyle_error(HOYLE_EUNSUP, "%s: '%s' is not an executable program", who,
                           argv && argv[0] ? argv[0] : "");
    child_t *c = calloc(1, sizeof *c);
    char *buf = malloc(4096);
    if (!c || !buf) {
        free(c);
        free(buf);
        return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", who);
    }
    snprintf(c->name, sizeof c->name, "%s", who);
    c->buf = buf;
    c->cap = 4096;
    c->pid = -1;

    int sv[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        int e = errno;
        free(buf);
        free(c);
        return hoyle_error(HOYLE_EIO, "%s: socketpair failed: %s", who, strerror(e));
    }
    int ours = fd_above_stdio(sv[0]), theirs = fd_above_stdio(sv[1]);
    int null_fd = fd_above_stdio(open("/dev/null", O_WRONLY));
    int rc = ours < 0 || theirs < 0 || null_fd < 0
                 ? hoyle_error(HOYLE_EIO, "%s: cannot set up descriptors: %s", who, strerror(errno))
                 : HOYLE_OK;
    pid_t pid = rc ? -1 : fork();
    if (pid == 0) { /* child: async-signal-safe calls only; dup2 clears close-on-exec */
        dup2(theirs, 0);
        dup2(theirs, 1);
        dup2(null_fd, 2);
        execve(path, argv, envp ? envp : environ);
        /* only the forked child ends here (exec failed); the parent reads end
         * of input and child_exit_status() gives 127 */
        _exit(127);
    }
    if (!rc && pid < 0) rc = hoyle_error(HOYLE_EIO, "%s: fork failed: %s", who, strerror(errno));
    if (theirs >= 0) close(theirs);
    if (null_fd >= 0) close(null_fd);
    if (rc) {
        if (ours >= 0) close(ours);
        free(buf);
        free(c);
        return rc;
    }
    c->pid = pid;
    c->fd = ours;
    *out = c;
    return HOYLE_OK;
}

int child_exit_status(child_t *c, int grace_ms)
{
    if (c->pid <= 0) return -1;
    long long deadline = child_now_ms() + grace_ms;
    int status = -1;
    for (;;) {
        pid_t r = waitpid(c->pid, &status, WNOHANG);
        if (r == c->pid) break;
        if (r < 0 && errno != EINTR) {
            status = -1; /* e.g. SIGCHLD ignored: the kernel reaped it */
            break;
        }
        if (child_now_ms() >= deadline) {
            kill(c->pid, SIGKILL);
            while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR) {
            }
            status = -1;
            break;
        }
        struct timespec ts = {0, 5 * 1000000};
        nanosleep(&ts, NULL);
    }
    c->pid = -1;
    return status;
}

void child_close(child_t *c, const char *quit_line, int grace_ms)
{
    if (!c) return;
    int was_broken = c->broken;
    if (!was_broken && quit_line) child_send(c, quit_line, strlen(quit_line));
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    child_exit_status(c, was_broken ? 0 : grace_ms); /* a broken child may be hung: kill it now */
    free(c->buf);
    free(c);
}
