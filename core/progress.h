/* progress.h — the one progress-line writer of every long run (train,
 * selfplay, bench, tournament, match, sprt).
 *
 * A run owns a progress_t and reports `done` of `total` units after each
 * unit; the writer shows one line
 *     LABEL DONE/TOTAL UNIT, RATE UNIT/s, ETA M:SS[, EXTRA]
 * on the stream it was given (the command's stderr; NULL = silent, which is
 * what --quiet passes). On a terminal (isatty) the line is rewritten in place
 * ("\r" + clear to end of line) at most 4 times a second; otherwise plain
 * lines are written at most once every PROGRESS_PLAIN_INTERVAL seconds, the
 * first report and the final one always. Library code writes only to the
 * stream its caller passed, never to a stream of its own choosing.
 * Not thread-safe: callers with workers hold their own lock. */
#ifndef HOYLE_CORE_PROGRESS_H
#define HOYLE_CORE_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

/* Seconds between plain (non-terminal) lines. */
#define PROGRESS_PLAIN_INTERVAL 5.0

typedef struct progress {
    FILE *out;         /* NULL: every call does nothing */
    int tty;           /* out is a terminal: rewrite one line in place */
    int shown;         /* a terminal line is on screen (no newline yet) */
    double t0, last;   /* start, last line written (monotonic seconds; last < 0: none yet) */
    int64_t done0;     /* units already done at the start (a resumed run): not in the rate */
    int64_t last_done; /* DONE of the last line written (-1: none) */
    char label[96];    /* e.g. "[tiny]" */
    char unit[24];     /* e.g. "games" */
} progress_t;

/* Start a run on `out` (may be NULL): `label` and `unit` as shown; `done0`
 * units were done before this run started (they count in DONE, not in RATE).
 * The clock starts now. */
void progress_start(progress_t *p, FILE *out, const char *label, const char *unit, int64_t done0);

/* Hold back the first plain (non-terminal) line until one interval has
 * passed, for a step inside a run that prints its own summary lines: a short
 * step then adds nothing to a log. */
void progress_defer(progress_t *p);

/* `done` of `total` units are done; `extra` (may be NULL) follows the ETA.
 * Throttled as above unless `final`; a final report ends the terminal line
 * (and is not repeated as a plain line when the last line showed the same
 * DONE). */
void progress_update(progress_t *p, int64_t done, int64_t total, const char *extra, int final);

/* A line that stays (a per-generation summary, a forfeit): clears a terminal
 * progress line first. A newline is added when `fmt` has none at the end. */
void progress_note(progress_t *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Erase a terminal progress line, before the command writes to stdout on
 * the same terminal; the next update draws it again. */
void progress_clear(progress_t *p);

/* `seconds` as M:SS, or H:MM:SS from an hour on, into buf. */
void progress_format_time(double seconds, char *buf, size_t size);

#endif
