/* uci.c — the UCI pieces both directions share (see uci.h): the score
 * mapping and the engine command-line splitter. */
#include "mcts/uci.h"

#include <math.h>

#include "core/error.h"

int uci_cp_from_value(double v)
{
    if (!(v > -1.0)) return -UCI_CP_MAX; /* also catches NaN */
    if (v >= 1.0) return UCI_CP_MAX;
    double cp = 400.0 * log10((1.0 + v) / (1.0 - v));
    if (cp > UCI_CP_MAX) return UCI_CP_MAX;
    if (cp < -UCI_CP_MAX) return -UCI_CP_MAX;
    return (int)lround(cp);
}

double uci_value_from_cp(double cp)
{
    if (cp > UCI_CP_MAX) cp = UCI_CP_MAX;
    if (cp < -UCI_CP_MAX) cp = -UCI_CP_MAX;
    return tanh(cp * log(10.0) / 800.0);
}

int uci_split_command(const char *cmd, char *buf, size_t cap, char **argv, int max)
{
    size_t used = 0;
    int n = 0;
    const char *p = cmd ? cmd : "";
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\0') break;
        if (n >= max - 1)
            return hoyle_error(HOYLE_EINVAL, "uci: command '%s': more than %d words", cmd, max - 1);
        char quote = 0;
        size_t start = used;
        for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
            char ch = *p;
            if (quote && ch == quote) {
                quote = 0;
                continue;
            }
            if (!quote && (ch == '\'' || ch == '"')) {
                quote = ch;
                continue;
            }
            if (ch == '\\' && quote != '\'' && p[1]) ch = *++p;
            if (used + 1 >= cap)
                return hoyle_error(HOYLE_EINVAL, "uci: command '%s' too long", cmd);
            buf[used++] = ch;
        }
        if (quote) return hoyle_error(HOYLE_EINVAL, "uci: command '%s': unclosed %c", cmd, quote);
        if (used + 1 >= cap) return hoyle_error(HOYLE_EINVAL, "uci: command '%s' too long", cmd);
        buf[used++] = '\0';
        argv[n++] = buf + start;
    }
    if (n == 0) return hoyle_error(HOYLE_EINVAL, "uci: empty engine command (set cmd=PROGRAM)");
    argv[n] = NULL;
    return n;
}
