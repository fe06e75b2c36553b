/* clock.h — wall-clock time for rates and limits: seconds on the monotonic clock.
 *
 * The one clock hoyle's progress lines, throughput figures and time limits read:
 * CLOCK_MONOTONIC, which no change of the system time moves. Only differences mean
 * anything (the origin is unspecified). */
#ifndef HOYLE_CORE_CLOCK_H
#define HOYLE_CORE_CLOCK_H

/* Seconds since an unspecified fixed point, with nanosecond resolution. */
double clock_seconds(void);

#endif
