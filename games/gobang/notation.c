/* notation.c — Go-Bang text: squares and actions in the seed's notation
 * (International Chess Notation: files a.., ranks 1.., White's first rank at
 * the bottom; `d4` places a man, `c6 d7` moves one), the board drawing and
 * the one-line position format
 *
 *     <rank N>/.../<rank 1> <w|b> <White in hand> <Black in hand> <moves>
 *
 * where each rank is N characters, file a first: `x` White, `o` Black, `.`
 * empty, and <moves> is the moving-phase counter of the draw rule. Import
 * checks everything (men conserved, side to move matches the counts, at most
 * the side that moved last has a five) and writes the state only on success.
 * Partnerships (players=4): the second partners' men are `X` and `O`, and
 * the side field names the seat to move, `w1`, `b1`, `w2` or `b2`. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "games/gobang/gobang_internal.h"

/* A bounded writer: the first overflow records EFULL and later puts are
 * no-ops, so text builders write unconditionally and check once. */
typedef struct out {
    char *buf;
    size_t cap, used;
    int status;
} out_t;

static void put(out_t *o, const char *fmt, ...)
{
    if (o->status) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->used, o->cap - o->used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= o->cap - o->used) {
        o->status = hoyle_error(HOYLE_EFULL, "gobang: text buffer too small");
        if (o->cap) o->buf[o->used] = '\0';
        return;
    }
    o->used += (size_t)n;
}

static int finish(out_t *o) { return o->status ? o->status : (int)o->used; }

static void put_square(out_t *o, const gb_impl_t *im, int sq)
{
    put(o, "%c%d", 'a' + sq % im->n, sq / im->n + 1);
}

/* Parse a square at *p (file letter, rank without leading zero), advancing
 * *p; -1 when there is none. */
static int parse_square(const gb_impl_t *im, const char **p)
{
    const char *t = *p;
    int c = tolower((unsigned char)t[0]) - 'a';
    /* rank 1..n, no leading zero; the square must end there (`a1b` and `a10`
     * on an 8-board are errors, not a1) */
    if (c < 0 || c >= im->n || !isdigit((unsigned char)t[1]) || t[1] == '0') return -1;
    int r = t[1] - '0', len = 2;
    if (isdigit((unsigned char)t[2])) r = r * 10 + (t[2] - '0'), len = 3;
    if (r > im->n || isalnum((unsigned char)t[len])) return -1;
    *p = t + len;
    return (r - 1) * im->n + c;
}

static const char *const side_name[2] = {"White", "Black"};
static const char *const seat_name[GB_MAX_SEATS] = {"W1", "B1", "W2", "B2"};
static const char seat_glyph[GB_MAX_SEATS] = {'x', 'o', 'X', 'O'};

/* Who is to move, for messages: the colour, or with partnerships the seat. */
static const char *mover_name(const gb_impl_t *im, const gb_state_t *s)
{
    return im->seats == 4 ? seat_name[gb_seat(im, s)] : side_name[s->to_move];
}

/* The glyph of square q's man: x/o, and X/O for a second partner's. */
static char glyph_at(const gb_impl_t *im, const gb_state_t *s, int q)
{
    int v = s->cell[q];
    return v == GB_EMPTY ? '.' : seat_glyph[v - 1 + 2 * gb_partner_at(im, s, q)];
}

int gb_action_to_string(const game_t *g, const void *sv, int action, char *buf, size_t cap)
{
    (void)sv;
    const gb_impl_t *im = gb_impl(g);
    int from, to;
    if (!gb_decode(im, action, &from, &to))
        return hoyle_error(HOYLE_EINVAL, "gobang: action %d is not a placement or a step", action);
    out_t o = {buf, cap, 0, 0};
    if (from >= 0) put_square(&o, im, from), put(&o, " ");
    put_square(&o, im, to);
    return finish(&o);
}

/* Accepts `d4` (place) and `c6 d7` or `c6-d7` (step); every check that the
 * move fits the state comes after the syntax, each with its own message. */
int gb_action_from_string(const game_t *g, const void *sv, const char *text, int *action)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    const char *p = text;
    while (*p == ' ' || *p == '\t') p++;
    int a = parse_square(im, &p), b = -1;
    if (a < 0) return hoyle_error(HOYLE_EINVAL, "gobang: bad square in '%.40s'", text);
    if (*p == ' ' || *p == '-') {
        while (*p == ' ' || *p == '-') p++;
        if (*p) {
            b = parse_square(im, &p);
            if (b < 0) return hoyle_error(HOYLE_EINVAL, "gobang: bad square in '%.40s'", text);
        }
    }
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (*p) return hoyle_error(HOYLE_EINVAL, "gobang: trailing text in '%.40s'", text);
    if (s->result != GB_ONGOING) return hoyle_error(HOYLE_ESTATE, "gobang: the game is over");
    int me = s->to_move;
    if (b < 0) {
        if (s->in_hand[me] == 0)
            return hoyle_error(HOYLE_EINVAL,
                               "gobang: %s has no man left to place; move one ('c6 d7')",
                               mover_name(im, s));
        if (s->cell[a] != GB_EMPTY)
            return hoyle_error(HOYLE_EINVAL, "gobang: '%.8s' is occupied", text);
        *action = a;
        return HOYLE_OK;
    }
    if (s->in_hand[me] > 0)
        return hoyle_error(HOYLE_EINVAL, "gobang: '%.40s': %s must place a man first (%d in hand)",
                           text, mover_name(im, s), s->in_hand[me]);
    if (s->cell[a] != me + 1)
        return hoyle_error(HOYLE_EINVAL, "gobang: '%.40s': no %s man on the first square", text,
                           side_name[me]);
    if (!gb_owns(im, s, a, gb_seat(im, s)))
        return hoyle_error(HOYLE_EINVAL, "gobang: '%.40s': that man is %s's, not %s's", text,
                           seat_name[me + 2 * gb_partner_at(im, s, a)], mover_name(im, s));
    for (int d = 0; d < GB_DIRS; d++)
        if (im->nbr[a][d] == b) {
            if (s->cell[b] != GB_EMPTY)
                return hoyle_error(HOYLE_EINVAL, "gobang: '%.40s': the target square is occupied",
                                   text);
            *action = im->nsq + a * GB_DIRS + d;
            return HOYLE_OK;
        }
    return hoyle_error(HOYLE_EINVAL, "gobang: '%.40s' is not a one-square step", text);
}

int gb_state_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    out_t o = {buf, cap, 0, 0};
    for (int r = im->n - 1; r >= 0; r--) {
        put(&o, "%2d ", r + 1);
        for (int c = 0; c < im->n; c++) put(&o, " %c", glyph_at(im, s, r * im->n + c));
        put(&o, "\n");
    }
    put(&o, "   ");
    for (int c = 0; c < im->n; c++) put(&o, " %c", 'a' + c);
    put(&o, "\n");
    if (s->result == GB_WIN0 || s->result == GB_WIN1)
        put(&o, "%s wins with five\n", side_name[s->result - GB_WIN0]);
    else if (s->result == GB_DRAW)
        put(&o, "draw\n");
    else
        put(&o, "%s (%c) to %s\n", mover_name(im, s), seat_glyph[gb_seat(im, s)],
            s->in_hand[s->to_move] ? "place" : "move");
    if (im->seats == 4)
        put(&o, "in hand: x %d, o %d, X %d, O %d", gb_seat_hand(im, s, 0), gb_seat_hand(im, s, 1),
            gb_seat_hand(im, s, 2), gb_seat_hand(im, s, 3));
    else
        put(&o, "in hand: x %d, o %d", s->in_hand[0], s->in_hand[1]);
    if (im->moving) put(&o, "; moves %d of %d", s->moves, im->move_limit);
    put(&o, "\n");
    return finish(&o);
}

int gb_position_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const gb_impl_t *im = gb_impl(g);
    const gb_state_t *s = sv;
    out_t o = {buf, cap, 0, 0};
    for (int r = im->n - 1; r >= 0; r--) {
        for (int c = 0; c < im->n; c++) put(&o, "%c", glyph_at(im, s, r * im->n + c));
        if (r) put(&o, "/");
    }
    put(&o, " %c", s->to_move ? 'b' : 'w');
    if (im->seats == 4) put(&o, "%d", gb_seat(im, s) / 2 + 1);
    put(&o, " %d %d %d", s->in_hand[0], s->in_hand[1], s->moves);
    return finish(&o);
}

/* A non-negative decimal at *p (at most 5 digits), advancing *p; -1 if none. */
/* bounded digits: counts come from text and feed uint16_t fields */
static int parse_count(const char **p)
{
    const char *t = *p;
    int v = 0, len = 0;
    while (isdigit((unsigned char)t[len]) && len < 6) v = v * 10 + (t[len] - '0'), len++;
    if (len == 0 || len > 5 || (len > 1 && t[0] == '0')) return -1;
    *p = t + len;
    return v;
}

/* The N ranks of a position into t->cell (and the owners), counting the men
 * of each seat into count[]; *p is left after the board. */
static int parse_board(const gb_impl_t *im, const char *text, const char **pp, gb_state_t *t,
                       int *count)
{
    const char *p = *pp;
    const char *cells = im->seats == 4 ? "x/o/X/O/." : "x/o/.";
    for (int r = im->n - 1; r >= 0; r--) {
        for (int c = 0; c < im->n; c++, p++) {
            int seat = -1;
            for (int k = 0; k < im->seats; k++)
                if (*p == seat_glyph[k]) seat = k;
            if (seat < 0 && *p != '.')
                return hoyle_error(HOYLE_EINVAL,
                                   "gobang position: rank %d needs %d cells of %s in '%.80s'",
                                   r + 1, im->n, cells, text);
            int q = r * im->n + c;
            t->cell[q] = (uint8_t)(seat < 0 ? GB_EMPTY : seat % 2 + 1);
            if (seat >= 0) count[seat]++;
            if (im->seats == 4) t->cell[im->nsq + q] = (uint8_t)(seat < 0 ? 0 : seat / 2);
        }
        if (r && *p++ != '/')
            return hoyle_error(HOYLE_EINVAL, "gobang position: expected '/' after rank %d", r + 1);
    }
    *pp = p;
    return HOYLE_OK;
}

/* Partnerships: each colour's placements alternate between its seats, the
 * first partner first, so the men on the board split ceil/floor between
 * them; and the seat named is the one whose turn it is, (placements +
 * moves) % 4. */
static int check_seats(const gb_impl_t *im, const int *hand, int moves, int seat, const int *count)
{
    if (im->seats == 2) return HOYLE_OK;
    for (int k = 0; k < 2; k++) {
        int placed = im->hand0[k] - hand[k];
        if (count[k] != (placed + 1) / 2 || count[k + 2] != placed / 2)
            return hoyle_error(HOYLE_EINVAL,
                               "gobang position: %s has %d men and %s %d, but %d placed split "
                               "%d and %d",
                               seat_name[k], count[k], seat_name[k + 2], count[k + 2], placed,
                               (placed + 1) / 2, placed / 2);
    }
    int turn = (im->hand0[0] + im->hand0[1] - hand[0] - hand[1] + moves) % 4;
    if (seat != turn)
        return hoyle_error(HOYLE_EINVAL, "gobang position: it is %s's turn, not %s's",
                           seat_name[turn], seat_name[seat]);
    return HOYLE_OK;
}

int gb_position_from_string(const game_t *g, const char *text, void *sv)
{
    const gb_impl_t *im = gb_impl(g);
    /* parse into a local copy sized for the largest board: `sv` is written
     * only once everything checks out */
    uint64_t tmp_buf[GB_STATE_WORDS];
    gb_state_t *t = (gb_state_t *)tmp_buf;
    memset(t, 0, g->state_size);
    const char *p = text;
    while (*p == ' ') p++;
    int count[GB_MAX_SEATS] = {0, 0, 0, 0}; /* men on the board by seat */
    int status = parse_board(im, text, &p, t, count);
    if (status) return status;
    int seat = 0; /* the seat named (partnerships) */
    if (im->seats == 2 ? *p++ != ' ' || (*p != 'w' && *p != 'b') || p[1] != ' '
                       : *p++ != ' ' || (*p != 'w' && *p != 'b') || (p[1] != '1' && p[1] != '2') ||
                             p[2] != ' ')
        return hoyle_error(HOYLE_EINVAL,
                           im->seats == 2 ? "gobang position: expected ' w' or ' b' after the board"
                                          : "gobang position: expected ' w1', ' b1', ' w2' or "
                                            "' b2' after the board");
    t->to_move = *p == 'b';
    if (im->seats == 4) seat = t->to_move + 2 * (p[1] - '1'), p++;
    p += 2;
    int hand[2], moves;
    if ((hand[0] = parse_count(&p)) < 0 || *p++ != ' ' || (hand[1] = parse_count(&p)) < 0 ||
        *p++ != ' ' || (moves = parse_count(&p)) < 0)
        return hoyle_error(HOYLE_EINVAL, "gobang position: expected '<in hand> <in hand> <moves>'");
    while (*p == ' ' || *p == '\n' || *p == '\r') p++;
    if (*p) return hoyle_error(HOYLE_EINVAL, "gobang position: trailing text '%.20s'", p);
    for (int k = 0; k < 2; k++)
        if (count[k] + count[k + 2] + hand[k] != im->hand0[k])
            return hoyle_error(HOYLE_EINVAL,
                               "gobang position: %s has %d on the board and %d in hand, not %d men",
                               side_name[k], count[k] + count[k + 2], hand[k], im->hand0[k]);
    status = check_seats(im, hand, moves, seat, count);
    if (status) return status;
    count[0] += count[2], count[1] += count[3]; /* by colour from here on */
    /* placing alternates from White: while men are in hand, White has
     * placed as many as Black (White to move) or one more (Black to move) */
    int placed_gap = count[0] - count[1];
    if (hand[0] + hand[1] > 0) {
        if (moves != 0)
            return hoyle_error(HOYLE_EINVAL,
                               "gobang position: moves must be 0 while men are in hand");
        if (placed_gap != t->to_move || (hand[0] == 0 && t->to_move == 0))
            return hoyle_error(HOYLE_EINVAL,
                               "gobang position: %s cannot be to place with %d x and %d o placed",
                               side_name[t->to_move], count[0], count[1]);
        /* in the moving phase each step counts, so the parity of the counter
         * (offset by the placements: at odds Black steps first)
         * says whose turn it is */
    } else if (!im->moving ? moves != 0
                           : (moves > im->move_limit ||
                              (moves + im->hand0[0] + im->hand0[1]) % 2 != t->to_move)) {
        return hoyle_error(HOYLE_EINVAL,
                           "gobang position: move counter %d does not fit %s to move (limit %d)",
                           moves, side_name[t->to_move], im->moving ? im->move_limit : 0);
    }
    t->in_hand[0] = (uint16_t)hand[0], t->in_hand[1] = (uint16_t)hand[1],
    t->moves = (uint16_t)moves;
    /* the side that just moved may have five (the game is over); the side to
     * move having five cannot come from legal play */
    bool five[2] = {gb_has_five(im, t, GB_WHITE), gb_has_five(im, t, GB_BLACK)};
    if (five[t->to_move])
        return hoyle_error(HOYLE_EINVAL, "gobang position: %s, to move, already has five",
                           side_name[t->to_move]);
    if (five[1 - t->to_move])
        t->result = (uint8_t)(t->to_move ? GB_WIN0 : GB_WIN1);
    else
        gb_settle(im, t, -1, -1);
    t->hash = gb_hash_compute(g, t);
    memcpy(sv, t, g->state_size);
    return HOYLE_OK;
}
