/* progress.c — the progress-line writer (progress.h): rate, ETA, in-place
 * rewriting on a terminal and throttled plain lines otherwise. */
#include "core/progress.h"

#include "core/clock.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

void progress_start(progress_t *p, FILE *out, const char *label, const char *unit, int64_t done0)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->tty = out != NULL && isatty(fileno(out));
    p->t0 = clock_seconds();
    p->last = -1;
    p->last_done = -1;
    p->done0 = done0;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    snprintf(p->unit, sizeof p->unit, "%s", unit ? unit : "");
}

void progress_defer(progress_t *p)
{
    if (!p->tty) p->last = p->t0;
}

void progress_format_time(double seconds, char *buf, size_t size)
{
    long s = isfinite(seconds) && seconds > 0 ? (long)(seconds + 0.5) : 0;
    if (s >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%ld:%02ld", s / 60, s % 60);
}

void progress_update(progress_t *p, int64_t done, int64_t total, const char *extra, int final)
{
    if (p->out == NULL) return;
    double t = clock_seconds();
    if (!final && p->last >= 0 && t - p->last < (p->tty ? 0.25 : PROGRESS_PLAIN_INTERVAL)) return;
    if (final && !p->tty && p->last_done == done) return; /* that line is already there */
    p->last = t;
    p->last_done = done;
    int64_t played = done - p->done0;
    double rate = played > 0 && t > p->t0 ? (double)played / (t - p->t0) : 0;
    double eta = rate > 0 && total > done ? (double)(total - done) / rate : 0;
    char eta_text[32];
    progress_format_time(eta, eta_text, sizeof eta_text);
    fprintf(p->out, "%s%s%s%lld/%lld %s, %.2f %s/s, ETA %s%s%s%s", p->tty ? "\r" : "", p->label,
            p->label[0] ? " " : "", (long long)done, (long long)total, p->unit, rate, p->unit,
            eta_text, extra && extra[0] ? ", " : "", extra ? extra : "", p->tty ? "\033[K" : "\n");
    p->shown = p->tty;
    if (final && p->shown) {
        fputc('\n', p->out);
        p->shown = 0;
    }
    fflush(p->out);
}

void progress_clear(progress_t *p)
{
    if (p->out == NULL || !p->shown) return;
    fputs("\r\033[K", p->out);
    fflush(p->out);
    p->shown = 0;
    p->last = -1; /* draw it again at the next update */
}

void progress_note(progress_t *p, const char *fmt, ...)
{
    if (p->out == NULL) return;
    progress_clear(p);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
    size_t n = strlen(fmt);
    if (n == 0 || fmt[n - 1] != '\n') fputc('\n', p->out);
    fflush(p->out);
}
