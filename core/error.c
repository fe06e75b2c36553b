/* error.c — thread-local last-error message (see error.h). */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_message[512];

int hoyle_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return code;
}

const char *hoyle_last_error(void) { return last_message; }

void hoyle_clear_error(void) { last_message[0] = '\0'; }
