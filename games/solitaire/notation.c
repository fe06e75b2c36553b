/* notation.c — Solitaire text: jumps `from-to` and marble runs `19-17-5` in
 * hole numbers (1..33 row by row, solitaire.h), the board drawing, and the
 * one-line position format
 *
 *     <row 1>/<row 2>/.../<row 7> <moves> <last>
 *
 * where the rows have 3, 3, 7, 7, 7, 3, 3 characters (`o` a marble, `.` an
 * empty hole), <moves> is the number of marble runs so far and <last> the
 * hole number the last jump landed in, `-` before the first jump; e.g. the
 * centre game's start `ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo 0 -`. Import
 * checks every field (some hole empty, moves <= 32 - marbles, last is a
 * marble exactly when moves > 0) and writes the state only on success. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "games/solitaire/solitaire_internal.h"

/* Appends with one overflow check at the end: after the first overflow the
 * writer stops and sol_text_done reports HOYLE_EFULL. */
typedef struct text {
    char *buf;
    size_t cap, len;
    bool full;
} text_t;

static void text_add(text_t *t, const char *fmt, ...)
{
    if (t->full) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= t->cap - t->len)
        t->full = true;
    else
        t->len += (size_t)n;
}

static int text_done(text_t *t)
{
    if (!t->full) return (int)t->len;
    if (t->cap) t->buf[0] = '\0';
    return hoyle_error(HOYLE_EFULL, "solitaire: text buffer too small");
}

int sol_action_to_string(const game_t *g, const void *sv, int action, char *buf, size_t cap)
{
    (void)sv;
    const sol_jump_t *jp = &sol_impl(g)->geo.jump[action];
    text_t t = {buf, cap, 0, false};
    text_add(&t, "%d-%d", jp->from + 1, jp->to + 1);
    return text_done(&t);
}

/* Read `a-b-c...` (hole numbers joined by '-') into holes[]; returns the
 * number of holes, or -1 when the text is not of that shape. */
static int parse_run(const char *text, int *holes, int cap)
{
    const char *p = text;
    while (*p == ' ') p++;
    int n = 0;
    for (;;) {
        const char *end;
        int h = sol_parse_hole(p, &end);
        if (h < 0 || n == cap) return -1;
        holes[n++] = h;
        p = end;
        if (*p != '-') break;
        p++;
    }
    while (*p == ' ') p++;
    return *p == '\0' && n >= 2 ? n : -1;
}

/* A run of jumps by one marble: every step must be a jump that is legal
 * after the steps before it. */
int sol_move_from_string(const game_t *g, const void *sv, const char *text, int *actions, int cap)
{
    const sol_impl_t *im = sol_impl(g);
    int holes[SOL_HOLES + 1];
    int n = parse_run(text, holes, SOL_HOLES + 1);
    if (n < 0)
        return hoyle_error(HOYLE_EINVAL,
                           "solitaire: '%s' is not a jump like 5-17 or a run like 19-17-5", text);
    if (n - 1 > cap) return hoyle_error(HOYLE_EFULL, "solitaire: run '%s' too long", text);
    if (n > 2 && im->players == 2)
        return hoyle_error(HOYLE_EINVAL, "solitaire: '%s': Double Solitaire is one jump a turn",
                           text);
    uint64_t pegs = ((const sol_state_t *)sv)->pegs;
    for (int i = 0; i + 1 < n; i++) {
        int j = im->geo.jump_id[holes[i]][holes[i + 1]];
        if (j < 0)
            return hoyle_error(HOYLE_EINVAL, "solitaire: %d-%d is not a jump on the board",
                               holes[i] + 1, holes[i + 1] + 1);
        const sol_jump_t *jp = &im->geo.jump[j];
        if (!(pegs & jp->from_bit))
            return hoyle_error(HOYLE_EINVAL, "solitaire: %d-%d: no marble in hole %d", jp->from + 1,
                               jp->to + 1, jp->from + 1);
        if (!(pegs & jp->over_bit))
            return hoyle_error(HOYLE_EINVAL, "solitaire: %d-%d: no marble to jump in hole %d",
                               jp->from + 1, jp->to + 1, jp->over + 1);
        if (pegs & jp->to_bit)
            return hoyle_error(HOYLE_EINVAL, "solitaire: %d-%d: hole %d is not empty", jp->from + 1,
                               jp->to + 1, jp->to + 1);
        pegs ^= jp->from_bit | jp->over_bit | jp->to_bit;
        actions[i] = j;
    }
    return n - 1;
}

int sol_action_from_string(const game_t *g, const void *sv, const char *text, int *action)
{
    int actions[SOL_HOLES];
    int n = sol_move_from_string(g, sv, text, actions, SOL_HOLES);
    if (n < 0) return n;
    if (n != 1)
        return hoyle_error(HOYLE_EINVAL, "solitaire: '%s' is a run of %d jumps, not one jump", text,
                           n);
    *action = actions[0];
    return HOYLE_OK;
}

/* Jumps that continue from the hole the previous one landed in join its run
 * (`19-17-5`); a jump by another marble starts a new run after a space. */
int sol_move_to_string(const game_t *g, const void *sv, const int *actions, int n, char *buf,
                       size_t cap)
{
    const sol_impl_t *im = sol_impl(g);
    int last = ((const sol_state_t *)sv)->last;
    text_t t = {buf, cap, 0, false};
    if (cap) buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (actions[i] < 0 || actions[i] >= SOL_JUMPS)
            return hoyle_error(HOYLE_EINVAL, "solitaire: action %d out of range", actions[i]);
        const sol_jump_t *jp = &im->geo.jump[actions[i]];
        if (i > 0 && jp->from == last)
            text_add(&t, "-%d", jp->to + 1);
        else
            text_add(&t, "%s%d-%d", i ? " " : "", jp->from + 1, jp->to + 1);
        last = jp->to;
    }
    return text_done(&t);
}

/* Row r of the grid as the position format writes it: the holes on the board
 * only. */
static void add_row(text_t *t, const sol_geometry_t *geo, uint64_t pegs, int r)
{
    for (int c = 0; c < SOL_SIDE; c++) {
        int h = geo->hole_at[r][c];
        if (h >= 0) text_add(t, "%c", (pegs >> h & 1) ? 'o' : '.');
    }
}

int sol_position_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const sol_state_t *s = sv;
    const sol_geometry_t *geo = &sol_impl(g)->geo;
    text_t t = {buf, cap, 0, false};
    for (int r = 0; r < SOL_SIDE; r++) {
        if (r) text_add(&t, "/");
        add_row(&t, geo, s->pegs, r);
    }
    text_add(&t, " %d ", s->moves);
    if (s->last >= 0)
        text_add(&t, "%d", s->last + 1);
    else
        text_add(&t, "-");
    return text_done(&t);
}

int sol_position_from_string(const game_t *g, const char *text, void *sv)
{
    const sol_geometry_t *geo = &sol_impl(g)->geo;
    const char *p = text;
    uint64_t pegs = 0;
    for (int r = 0; r < SOL_SIDE; r++) {
        if (r && *p++ != '/')
            return hoyle_error(HOYLE_EINVAL, "solitaire: position: row %d: expected '/'", r + 1);
        for (int c = 0; c < SOL_SIDE; c++) {
            int h = geo->hole_at[r][c];
            if (h < 0) continue;
            if (*p == 'o')
                pegs |= 1ULL << h;
            else if (*p != '.')
                return hoyle_error(HOYLE_EINVAL,
                                   "solitaire: position: row %d: expected %d of 'o' or '.'", r + 1,
                                   (r >= 2 && r <= 4) ? 7 : 3);
            p++;
        }
    }
    int moves = 0, digits = 0, last = -1;
    if (*p++ != ' ') return hoyle_error(HOYLE_EINVAL, "solitaire: position: expected ' <moves>'");
    while (*p >= '0' && *p <= '9' && digits < 3) moves = moves * 10 + (*p++ - '0'), digits++;
    if (digits == 0 || *p++ != ' ')
        return hoyle_error(HOYLE_EINVAL, "solitaire: position: expected '<moves> <last>'");
    if (*p == '-') {
        p++;
    } else {
        const char *end;
        last = sol_parse_hole(p, &end);
        if (last < 0)
            return hoyle_error(HOYLE_EINVAL, "solitaire: position: last: not a hole 1..33 or '-'");
        p = end;
    }
    if (*p != '\0') return hoyle_error(HOYLE_EINVAL, "solitaire: position: junk after <last>");
    int count = __builtin_popcountll(pegs);
    if (pegs == SOL_FULL) return hoyle_error(HOYLE_EINVAL, "solitaire: position: no hole is empty");
    if (count == 0) return hoyle_error(HOYLE_EINVAL, "solitaire: position: no marble left");
    if (moves > 32 - count)
        return hoyle_error(HOYLE_EINVAL,
                           "solitaire: position: %d moves, but %d marbles allow at most %d", moves,
                           count, 32 - count);
    if ((moves == 0) != (last < 0))
        return hoyle_error(HOYLE_EINVAL,
                           "solitaire: position: <last> must be '-' exactly when moves is 0");
    if (last >= 0 && !(pegs >> last & 1))
        return hoyle_error(HOYLE_EINVAL, "solitaire: position: last: hole %d has no marble",
                           last + 1);
    sol_state_t s;
    memset(&s, 0, sizeof s);
    s.pegs = pegs;
    s.pegs_left = (uint8_t)count;
    s.moves = (uint8_t)moves;
    s.last = (int8_t)last;
    s.hash = sol_hash_recompute(g, &s);
    memcpy(sv, &s, sizeof s);
    return HOYLE_OK;
}

/* The numbered board beside the marbles, so a person can read off the
 * holes of a jump: `o` a marble, `.` empty, `@` the marble that jumped last
 * (it may go on without starting a new move), `*` the empty target hole. */
int sol_state_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const sol_impl_t *im = sol_impl(g);
    const sol_geometry_t *geo = &im->geo;
    const sol_state_t *s = sv;
    text_t t = {buf, cap, 0, false};
    for (int r = 0; r < SOL_SIDE; r++) {
        for (int c = 0; c < SOL_SIDE; c++) {
            int h = geo->hole_at[r][c];
            if (h < 0)
                text_add(&t, "   ");
            else
                text_add(&t, " %2d", h + 1);
        }
        text_add(&t, "     ");
        int last_col = (r >= 2 && r <= 4) ? SOL_SIDE - 1 : 4; /* no trailing blanks */
        for (int c = 0; c <= last_col; c++) {
            int h = geo->hole_at[r][c];
            char ch = ' ';
            if (h >= 0 && (s->pegs >> h & 1))
                ch = h == s->last ? '@' : 'o';
            else if (h >= 0)
                ch = h == im->target ? '*' : '.';
            text_add(&t, c ? " %c" : "%c", ch);
        }
        text_add(&t, "\n");
    }
    text_add(&t, "marbles left %d, moves %d", s->pegs_left, s->moves);
    if (im->target >= 0) text_add(&t, ", target hole %d", im->target + 1);
    if (im->players == 2) text_add(&t, ", player %d to jump", sol_to_move(im, s->pegs_left) + 1);
    text_add(&t, "\n");
    return text_done(&t);
}
