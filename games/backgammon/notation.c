/* notation.c — Backgammon text: gnubg Position IDs, the one-line position
 * format, the board drawing, and move notation (`24/18 13/11`, `8/5(2)`,
 * `bar/22*`, `6/off`, chains `24/18*\/13`), all in the mover's own point
 * numbering. docs/games/backgammon.md describes each format. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/backgammon/bg_internal.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char side_name[2] = {'X', 'O'};

/* ---- Position IDs ----
 * 80 bits, least significant bit of byte 0 first: for the player not on
 * roll, then the player on roll, for his points 1..24 and then his bar, as
 * many 1 bits as men there followed by a 0 bit; the 10 bytes in base64
 * without padding (14 characters). */

/* gnubg's encoding exactly (its Position ID), so IDs paste between hoyle and
 * gnubg; the board is read from the side on roll's point of view. */
void bg_position_id(const bg_board_t *b, int on_roll, char id[BG_ID_LEN + 1])
{
    uint8_t key[10] = {0};
    int bit = 0;
    for (int k = 0; k < 2; k++) {
        const int8_t *men = b->men[k == 0 ? 1 - on_roll : on_roll];
        for (int i = 1; i <= BG_BAR; i++) {
            for (int c = 0; c < men[i]; c++, bit++) key[bit / 8] |= (uint8_t)(1u << (bit % 8));
            bit++;
        }
    }
    for (int c = 0; c < BG_ID_LEN; c++) {
        int v = 0;
        for (int j = 0; j < 6; j++) {
            int at = c * 6 + j, byte = at / 8;
            /* base64 reads bytes most significant bit first */
            if (byte < 10 && (key[byte] >> (7 - at % 8)) & 1) v |= 1 << (5 - j);
        }
        id[c] = b64[v];
    }
    id[BG_ID_LEN] = '\0';
}

int bg_position_id_parse(const char *id, int on_roll, bg_board_t *out)
{
    if (strlen(id) != BG_ID_LEN)
        return hoyle_error(HOYLE_EINVAL, "backgammon: position ID '%s' is not %d characters", id,
                           BG_ID_LEN);
    /* 14 characters carry 84 bits: one spare byte keeps the decode loop in
     * bounds for the last 4 */
    uint8_t key[11] = {0};
    for (int c = 0; c < BG_ID_LEN; c++) {
        const char *at = strchr(b64, id[c]);
        if (at == NULL || id[c] == '\0')
            return hoyle_error(HOYLE_EINVAL, "backgammon: position ID '%s': bad character '%c'", id,
                               id[c]);
        int v = (int)(at - b64);
        for (int j = 0; j < 6; j++) {
            int pos = c * 6 + j;
            if ((v >> (5 - j)) & 1) key[pos / 8] |= (uint8_t)(1u << (7 - pos % 8));
        }
    }
    bg_board_t b;
    memset(&b, 0, sizeof b);
    int bit = 0;
    for (int k = 0; k < 2; k++) {
        int8_t *men = b.men[k == 0 ? 1 - on_roll : on_roll];
        int total = 0;
        /* a run of 1 bits is the men on point i; its 0 bit closes the point */
        for (int i = 1; i <= BG_BAR; i++) {
            while (bit < 80 && (key[bit / 8] >> (bit % 8)) & 1) {
                bit++;
                if (++total > BG_MEN)
                    return hoyle_error(HOYLE_EINVAL,
                                       "backgammon: position ID '%s' has more than 15 men a side",
                                       id);
                men[i]++;
            }
            if (bit >= 80)
                return hoyle_error(HOYLE_EINVAL, "backgammon: position ID '%s' is truncated", id);
            bit++;
        }
        /* every man not on the board or the bar has been borne off */
        men[BG_OFF] = (int8_t)(BG_MEN - total);
    }
    for (; bit < 80; bit++)
        if ((key[bit / 8] >> (bit % 8)) & 1)
            return hoyle_error(HOYLE_EINVAL, "backgammon: position ID '%s' has stray bits", id);
    /* X's point q is O's point 25 - q: both sides on one point cannot
     * happen */
    for (int q = 1; q <= 24; q++)
        if (b.men[0][q] && b.men[1][25 - q])
            return hoyle_error(HOYLE_EINVAL,
                               "backgammon: position ID '%s' puts both sides on point %d", id, q);
    *out = b;
    return HOYLE_OK;
}

/* ---- steps ---- */

/* Point q (the mover's modern number) as text: 1..24, or 25 - q in Foster's
 * numbering (the seed's: from the point of the two back men up), "bar",
 * "off". */
static int point_text(bool foster, int q, char *buf, size_t cap) /* cap >= 12 */
{
    if (q == BG_BAR) return snprintf(buf, cap, "bar");
    if (q == BG_OFF) return snprintf(buf, cap, "off");
    return snprintf(buf, cap, "%d", foster ? 25 - q : q);
}

/* Does step `action` by `player` hit on `b`? */
/* A hit lands on an opposing blot: the opponent's count on the same point,
 * seen from his side (25 - to). */
static bool step_hits(const bg_board_t *b, int player, int action)
{
    int to = bg_step_to(action);
    return to != BG_OFF && b->men[1 - player][25 - to] == 1;
}

int bg_action_to_string(const game_t *g, const void *sv, int action, char *buf, size_t cap)
{
    (void)g;
    const bg_state_t *s = sv;
    int len;
    char from[12], to[12];
    if (s->phase == BG_OPENING || s->phase == BG_ROLL) {
        /* rolls are actions 0..35: (die1 - 1) * 6 + (die2 - 1); the opening
         * names whose die is whose */
        int a = action / 6 + 1, b = action % 6 + 1;
        len = s->phase == BG_OPENING ? snprintf(buf, cap, "X%d-O%d", a, b)
                                     : snprintf(buf, cap, "%d%d", a, b);
    } else if (action == BG_PASS) {
        len = snprintf(buf, cap, "pass");
    } else {
        bool foster = bg_impl(g)->foster;
        point_text(foster, bg_step_from(action), from, sizeof from);
        point_text(foster, bg_step_to(action), to, sizeof to);
        len = snprintf(buf, cap, "%s/%s%s", from, to,
                       s->phase == BG_PLAY && step_hits(&s->board, s->to_move, action) ? "*" : "");
    }
    return len >= 0 && (size_t)len < cap ? len : HOYLE_EFULL;
}

/* Parse a point: 1..24, "bar" (25) or "off" (0); returns the end or NULL. */
static const char *parse_point(bool foster, const char *p, int *q)
{
    if (strncmp(p, "bar", 3) == 0 || strncmp(p, "Bar", 3) == 0) {
        *q = BG_BAR;
        return p + 3;
    }
    if (strncmp(p, "off", 3) == 0 || strncmp(p, "Off", 3) == 0) {
        *q = BG_OFF;
        return p + 3;
    }
    if (!isdigit((unsigned char)*p)) return NULL;
    char *end;
    long v = strtol(p, &end, 10);
    if (v < 1 || v > 24) return NULL;
    *q = foster ? 25 - (int)v : (int)v;
    return end;
}

int bg_action_from_string(const game_t *g, const void *sv, const char *text, int *action)
{
    const bg_state_t *s = sv;
    int legal[BG_NUM_ACTIONS];
    int n = bg_legal_actions(g, s, legal);
    if (s->phase == BG_OPENING || s->phase == BG_ROLL) {
        int a, b;
        char extra;
        bool ok = s->phase == BG_OPENING ? sscanf(text, " X%1d-O%1d %c", &a, &b, &extra) == 2
                                         : sscanf(text, " %1d%1d %c", &a, &b, &extra) == 2;
        /* after the opening, a roll is unordered: 13 and 31 are one action,
         * stored larger die first */
        if (ok && s->phase == BG_ROLL && a < b) {
            int t = a;
            a = b, b = t;
        }
        for (int i = 0; ok && i < n; i++)
            if (legal[i] == (a - 1) * 6 + b - 1) {
                *action = legal[i];
                return HOYLE_OK;
            }
        return hoyle_error(HOYLE_EINVAL, "backgammon: '%s' is not a roll here (%s)", text,
                           s->phase == BG_OPENING ? "the opening roll is X<die>-O<die>, unequal"
                                                  : "a roll is two digits, e.g. 31");
    }
    int from, to;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    if (strncmp(p, "pass", 4) == 0) {
        for (const char *q = p + 4; *q; q++)
            if (!isspace((unsigned char)*q))
                return hoyle_error(HOYLE_EINVAL, "backgammon: cannot read '%s'", text);
        if (n == 1 && legal[0] == BG_PASS) {
            *action = BG_PASS;
            return HOYLE_OK;
        }
        return hoyle_error(HOYLE_EINVAL, "backgammon: 'pass' is legal only when no play is");
    }
    bool foster = bg_impl(g)->foster;
    p = parse_point(foster, p, &from);
    if (p && *p == '/')
        p = parse_point(foster, p + 1, &to);
    else
        p = NULL;
    if (p && *p == '*') p++;
    while (p && isspace((unsigned char)*p)) p++;
    /* a step never starts off the board or ends on the bar */
    if (p == NULL || *p || from == BG_OFF || to == BG_BAR)
        return hoyle_error(HOYLE_EINVAL,
                           "backgammon: cannot read step '%s' (want e.g. 13/7, bar/22, 6/off)",
                           text);
    int found = -1;
    for (int i = 0; i < n; i++)
        if (bg_step_from(legal[i]) == from && bg_step_to(legal[i]) == to) {
            /* a step is from + die: only bearing off can give two actions
             * the same text (5/off with a 5 or with a larger die) */
            if (found >= 0)
                return hoyle_error(HOYLE_EINVAL, "backgammon: step '%s' is ambiguous here", text);
            found = legal[i];
        }
    if (found < 0)
        return hoyle_error(HOYLE_EINVAL, "backgammon: step '%s' is not legal here", text);
    *action = found;
    return HOYLE_OK;
}

/* ---- whole moves ---- */

/* One man's path within a move: points visited, and which arrivals hit. */
typedef struct path {
    int len; /* points in pt[] (>= 2) */
    int pt[BG_MAX_STEPS + 1];
    bool hit[BG_MAX_STEPS + 1];
    int count; /* equal paths print once with (count) */
} path_t;

static size_t path_text(bool foster, const path_t *p, char *buf, size_t cap)
{
    size_t used = 0;
    for (int i = 0; i < p->len; i++) {
        /* plain intermediate points are left out: 24/18 + 18/13 = 24/13 */
        if (i > 0 && i < p->len - 1 && !p->hit[i]) continue;
        char pt[12];
        point_text(foster, p->pt[i], pt, sizeof pt);
        used += (size_t)snprintf(buf + used, cap - used, "%s%s%s", i ? "/" : "", pt,
                                 p->hit[i] ? "*" : "");
        if (used >= cap) return cap;
    }
    return used;
}

/* The paths of the men moved by `actions` from `s`: a step from where an
 * earlier path ended continues it, and one ending where an earlier path
 * began (men are interchangeable) starts it. */
static int move_paths(const bg_state_t *s, const int *actions, int n, path_t *paths)
{
    /* a path tracks one man, so move text shows 24/13 and not 24/18 18/13;
     * men are alike, so a step that starts where a path ended continues it */
    bg_board_t b = s->board;
    int p = s->to_move, np = 0;
    for (int i = 0; i < n && i < BG_MAX_STEPS; i++) {
        int from = bg_step_from(actions[i]), to = bg_step_to(actions[i]);
        bool hit = bg_step_make(&b, p, actions[i]);
        int j;
        for (j = 0; j < np; j++) {
            path_t *q = &paths[j];
            if (q->pt[q->len - 1] == from && from != BG_OFF) {
                q->pt[q->len] = to;
                q->hit[q->len++] = hit;
                break;
            }
            if (q->pt[0] == to && !hit) {
                memmove(q->pt + 1, q->pt, sizeof(int) * (size_t)q->len);
                memmove(q->hit + 1, q->hit, sizeof(bool) * (size_t)q->len);
                q->pt[0] = from;
                q->hit[0] = false;
                q->len++;
                break;
            }
        }
        if (j == np) {
            paths[np] = (path_t){.len = 2, .pt = {from, to}, .hit = {false, hit}, .count = 1};
            np++;
        }
    }
    return np;
}

static bool same_points(const path_t *a, const path_t *b)
{
    if (a->len != b->len) return false;
    for (int i = 0; i < a->len; i++)
        if (a->pt[i] != b->pt[i]) return false;
    return true;
}

int bg_move_to_string(const game_t *g, const void *sv, const int *actions, int n, char *buf,
                      size_t cap)
{
    const bg_state_t *s = sv;
    if (s->phase != BG_PLAY || n < 1 || actions[0] == BG_PASS) /* a roll, or the pass */
        return game_move_to_string_default(g, s, actions, n, buf, cap);
    path_t paths[BG_MAX_STEPS];
    int np = move_paths(s, actions, n, paths);
    /* Highest start first (then highest end); equal paths once with a
     * count, a hit by any of them marked (gnubg: 24/22*(2)). */
    for (int i = 1; i < np; i++)
        for (int j = i; j > 0; j--) {
            path_t *a = &paths[j - 1], *b = &paths[j];
            if (a->pt[0] > b->pt[0] ||
                (a->pt[0] == b->pt[0] && a->pt[a->len - 1] >= b->pt[b->len - 1]))
                break;
            path_t t = *a;
            *a = *b;
            *b = t;
        }
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < np; i++) {
        if (paths[i].count == 0) continue;
        for (int j = i + 1; j < np; j++)
            if (paths[j].count && same_points(&paths[i], &paths[j])) {
                paths[i].count++;
                paths[j].count = 0;
                for (int k = 0; k < paths[i].len; k++) paths[i].hit[k] |= paths[j].hit[k];
            }
        char text[64];
        path_text(bg_impl(g)->foster, &paths[i], text, sizeof text);
        int w = paths[i].count > 1
                    ? snprintf(buf + used, cap - used, "%s%s(%d)", used ? " " : "", text,
                               paths[i].count)
                    : snprintf(buf + used, cap - used, "%s%s", used ? " " : "", text);
        if (w < 0 || (size_t)w >= cap - used) return HOYLE_EFULL;
        used += (size_t)w;
    }
    return (int)used;
}

/* Apply the move text to a copy of the board: each token a path of points
 * (`24/18*\/13`, `bar/22`, `6/off`), optionally `(n)` times. Hits happen
 * where a man stops on a single opposing man. */
static int text_board(bool foster, const bg_state_t *s, const char *text, bg_board_t *out)
{
    /* the text is applied to a copy of the board and then compared against
     * every legal play's final board: text order and the order of the dice
     * do not matter, only where the men end up */
    bg_board_t b = s->board;
    int p = s->to_move;
    int8_t *me = b.men[p], *opp = b.men[1 - p];
    const char *c = text;
    int tokens = 0;
    while (*c) {
        while (isspace((unsigned char)*c) || *c == ',') c++;
        if (!*c) break;
        int path[8], np = 0;
        const char *q = parse_point(foster, c, &path[np++]);
        while (q && *q == '/' && np < 8) {
            q = parse_point(foster, q + 1, &path[np++]);
            if (q && *q == '*') q++;
        }
        if (q == NULL || np < 2) return HOYLE_EINVAL;
        int times = 1;
        if (*q == '(') {
            char *end;
            times = (int)strtol(q + 1, &end, 10);
            if (*end != ')' || times < 1 || times > BG_MAX_STEPS) return HOYLE_EINVAL;
            q = end + 1;
        }
        if (*q && !isspace((unsigned char)*q) && *q != ',') return HOYLE_EINVAL;
        for (int t = 0; t < times; t++)
            for (int k = 0; k + 1 < np; k++) {
                int from = path[k], to = path[k + 1];
                /* points only count down towards home (0 = off) */
                if (from == BG_OFF || to == BG_BAR || (to != BG_OFF && to >= from) || me[from] == 0)
                    return HOYLE_EINVAL;
                me[from]--;
                me[to]++;
                if (to != BG_OFF && opp[25 - to] == 1) {
                    opp[25 - to] = 0;
                    opp[BG_BAR]++;
                } else if (to != BG_OFF && opp[25 - to] > 1) {
                    return HOYLE_EINVAL;
                }
            }
        tokens++;
        c = q;
    }
    if (tokens == 0) return HOYLE_EINVAL;
    *out = b;
    return HOYLE_OK;
}

int bg_move_from_string(const game_t *g, const void *sv, const char *text, int *actions, int cap)
{
    const bg_state_t *s = sv;
    /* plays are matched by their final board; the steps already made this
     * turn must be a prefix of the play */
    if (s->phase != BG_PLAY || s->need == 0) /* a roll, or the pass */
        return game_move_from_string_default(g, s, text, actions, cap);
    bg_board_t target;
    if (text_board(bg_impl(g)->foster, s, text, &target))
        return hoyle_error(HOYLE_EINVAL,
                           "backgammon: cannot read move '%s' (want e.g. 24/18 13/11, 8/5(2), "
                           "bar/22*, 6/off)",
                           text);
    int np;
    const bg_play_t *plays = bg_state_plays(s, &np);
    for (int i = 0; i < np; i++) {
        if (memcmp(plays[i].steps, s->steps, s->nsteps) != 0 ||
            memcmp(&plays[i].after, &target, sizeof target) != 0)
            continue;
        int m = plays[i].n - s->nsteps;
        if (m > cap) return hoyle_error(HOYLE_EFULL, "backgammon: no room for the move");
        for (int k = 0; k < m; k++) actions[k] = plays[i].steps[s->nsteps + k];
        return m;
    }
    return hoyle_error(HOYLE_EINVAL, "backgammon: '%s' is not a legal play of %d%d here", text,
                       s->dice[0], s->dice[1]);
}

/* ---- positions ----
 * ID:SIDE:DICE[:STEPS]:tTURNS, e.g. `4HPwATDgc/ABMA:-:-:t0` (the opening),
 * `4HPwATDgc/ABMA:X:31:t1` (X to play 31), `...:X:31:8/5:t1` (one step made),
 * `...:O:-:t2` (O to roll), `...:-:end:t40` (over). The ID is the board when
 * the play began, from the view of SIDE (X before the opening roll). */

/* The ID is the board at the start of the play and the steps made so far are
 * listed, so a mid-turn position keeps the information needed to finish the
 * play (which dice are left, which men moved). */
int bg_position_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const bg_state_t *s = sv;
    char id[BG_ID_LEN + 1];
    int len;
    switch (s->phase) {
    case BG_OPENING:
    case BG_OVER:
        bg_position_id(&s->board, 0, id);
        len = snprintf(buf, cap, "%s:-:%s:t%d", id, s->phase == BG_OVER ? "end" : "-", s->turns);
        break;
    case BG_ROLL:
        bg_position_id(&s->board, s->to_move, id);
        len = snprintf(buf, cap, "%s:%c:-:t%d", id, side_name[s->to_move], s->turns);
        break;
    default: {
        bg_position_id(&s->start, s->to_move, id);
        char steps[64] = "";
        size_t used = 0;
        bg_state_t replay = *s;
        replay.board = s->start;
        for (int k = 0; k < s->nsteps; k++) {
            replay.nsteps = (uint8_t)k;
            char one[16];
            bg_action_to_string(g, &replay, s->steps[k], one, sizeof one);
            bg_step_make(&replay.board, s->to_move, s->steps[k]);
            used += (size_t)snprintf(steps + used, sizeof steps - used, "%s%s", k ? "," : ":", one);
        }
        len = snprintf(buf, cap, "%s:%c:%d%d%s:t%d", id, side_name[s->to_move], s->dice[0],
                       s->dice[1], steps, s->turns);
    }
    }
    return len >= 0 && (size_t)len < cap ? len : HOYLE_EFULL;
}

int bg_position_from_string(const game_t *g, const char *text, void *sv)
{
    char buf[256], *field[6];
    int nf = 0;
    if (strlen(text) >= sizeof buf)
        return hoyle_error(HOYLE_EINVAL, "backgammon: position text too long");
    strcpy(buf, text);
    /* the last field is the optional tTURNS; the ones before it are fixed */
    for (char *tok = buf, *next; tok && nf < 6; tok = next) {
        next = strchr(tok, ':');
        if (next) *next++ = '\0';
        field[nf++] = tok;
        if (!next) break;
    }
    if (nf < 3 || nf > 5 || strchr(text, ':') == NULL)
        return hoyle_error(HOYLE_EINVAL,
                           "backgammon: position wants ID:SIDE:DICE[:STEPS][:tTURNS], got '%s'",
                           text);
    long turns = -1;
    if (field[nf - 1][0] == 't') {
        char *end;
        turns = strtol(field[nf - 1] + 1, &end, 10);
        if (*end || turns < 0 || turns > bg_impl(g)->max_turns)
            return hoyle_error(HOYLE_EINVAL, "backgammon: bad turn count '%s'", field[nf - 1]);
        nf--;
    }
    if (nf > 4) return hoyle_error(HOYLE_EINVAL, "backgammon: too many fields in '%s'", text);
    const char *side = field[1], *dice = field[2];
    int mover = strcmp(side, "X") == 0 ? 0 : strcmp(side, "O") == 0 ? 1 : -1;
    if (mover < 0 && strcmp(side, "-") != 0)
        return hoyle_error(HOYLE_EINVAL, "backgammon: side '%s' is not X, O or -", side);
    bg_state_t s;
    memset(&s, 0, g->state_size);
    if (bg_position_id_parse(field[0], mover < 0 ? 0 : mover, &s.board)) return HOYLE_EINVAL;
    bool over = s.board.men[0][BG_OFF] == BG_MEN || s.board.men[1][BG_OFF] == BG_MEN;
    if (mover < 0 && strcmp(dice, "end") == 0) {
        if (nf != 3) return hoyle_error(HOYLE_EINVAL, "backgammon: a finished game has no steps");
        s.turns = (uint16_t)(turns < 0 ? 0 : turns);
        if (!over) {
            s.phase = BG_OVER;
            s.result = BG_DRAW; /* only the turn limit ends a game short of bearing off */
            s.hash = bg_hash_compute(g, &s);
        } else {
            bg_settle(g, &s);
        }
    } else if (over) {
        return hoyle_error(HOYLE_EINVAL,
                           "backgammon: a side has borne off all men; the position wants ':-:end'");
    } else if (mover < 0) {
        if (strcmp(dice, "-") != 0 || nf != 3)
            return hoyle_error(HOYLE_EINVAL,
                               "backgammon: before the opening roll the dice are '-'");
        s.phase = BG_OPENING;
        s.turns = (uint16_t)(turns < 0 ? 0 : turns);
        s.hash = bg_hash_compute(g, &s);
    } else if (strcmp(dice, "-") == 0) {
        if (nf != 3) return hoyle_error(HOYLE_EINVAL, "backgammon: steps need dice");
        s.phase = BG_ROLL;
        s.to_move = (uint8_t)mover;
        s.turns = (uint16_t)(turns < 0 ? 1 : turns);
        s.hash = bg_hash_compute(g, &s);
    } else {
        if (strlen(dice) != 2 || dice[0] < '1' || dice[0] > '6' || dice[1] < '1' || dice[1] > '6')
            return hoyle_error(HOYLE_EINVAL, "backgammon: dice '%s' are not two digits 1-6", dice);
        int a = dice[0] - '0', b = dice[1] - '0';
        /* bg_begin_play counts the roll as a turn: start one lower */
        s.turns = (uint16_t)(turns < 1 ? 0 : turns - 1);
        bg_begin_play(g, &s, mover, a > b ? a : b, a > b ? b : a);
        if (nf == 4) {
            char *tok = field[3], *next;
            for (; tok; tok = next) {
                next = strchr(tok, ',');
                if (next) *next++ = '\0';
                int action;
                /* the listed steps must leave the play unfinished: a complete
                 * play is written as the next position (O to roll) */
                if (s.phase != BG_PLAY || s.nsteps + 1 >= s.need)
                    return hoyle_error(HOYLE_EINVAL,
                                       "backgammon: the steps complete the play (or more); give "
                                       "the position after it");
                if (bg_action_from_string(g, &s, tok, &action)) return HOYLE_EINVAL;
                bg_apply(g, &s, action);
            }
        }
    }
    memcpy(sv, &s, g->state_size);
    return HOYLE_OK;
}

/* ---- the board for people ---- */

/* Men of X (player 0) and O on X's point q. */
static void at_point(const bg_board_t *b, int q, int *x, int *o)
{
    *x = b->men[0][q];
    *o = b->men[1][25 - q];
}

/* Row `level` (0 = next to the edge) of point q's column: a man, or on
 * the fifth row the count when more than five stand there. */
/* Draws at most five men a column; a taller stack shows its count on the
 * fifth row so that the board keeps a fixed height. */
static void draw_cell(char *row, int col, const bg_board_t *b, int q, int level)
{
    int x, o;
    at_point(b, q, &x, &o);
    int count = x ? x : o;
    if (count <= level) return;
    if (level == 4 && count > 5) {
        char num[12];
        int len = snprintf(num, sizeof num, "%d", count);
        memcpy(row + col, num, (size_t)len);
    } else {
        row[col] = x ? 'X' : 'O';
    }
}

/* The point labels above (top) or below the board, in X's numbering:
 * " +13-14-15-16-17-18------19-20-21-22-23-24-+" (modern) or the seed's. */
static void labels(bool top, bool foster, char out[64])
{
    size_t used = (size_t)snprintf(out, 64, " +");
    for (int k = 0; k < 12; k++) {
        int q = top ? 13 + k : 12 - k, label = foster ? 25 - q : q;
        char two[4];
        snprintf(two, sizeof two, "%2d", label);
        if (two[0] == ' ') two[0] = '-';
        used += (size_t)snprintf(out + used, 64 - used, "%s%s",
                                 k == 0   ? ""
                                 : k == 6 ? "------"
                                          : "-",
                                 two);
    }
    snprintf(out + used, 64 - used, "-+");
}

int bg_state_to_string(const game_t *g, const void *sv, char *buf, size_t cap)
{
    const bg_state_t *s = sv;
    const bg_board_t *b = &s->board;
    size_t used = 0;
#define OUT(...)                                                                                   \
    do {                                                                                           \
        int w_ = snprintf(buf + used, cap - used, __VA_ARGS__);                                    \
        if (w_ < 0 || (size_t)w_ >= cap - used) return HOYLE_EFULL;                                \
        used += (size_t)w_;                                                                        \
    } while (0)
    char label[64];
    labels(true, bg_impl(g)->foster, label);
    OUT("%s   O: %d off, %d on the bar, pips %d\n", label, b->men[1][BG_OFF], b->men[1][BG_BAR],
        bg_pips(b, 1));
    for (int half = 0; half < 2; half++) {
        for (int r = 0; r < 5; r++) {
            int level = half == 0 ? r : 4 - r;
            char row[64];
            memset(row, ' ', sizeof row);
            row[1] = '|';
            row[20] = '|';
            row[24] = '|';
            row[43] = '|';
            row[44] = '\0';
            for (int k = 0; k < 12; k++) {
                int q = half == 0 ? 13 + k : 12 - k;
                int col = 3 + 3 * k + (k >= 6 ? 5 : 0);
                draw_cell(row, col, b, q, level);
            }
            OUT("%s\n", row);
        }
        if (half == 0)
            OUT("v|                  |BAR|                  |   bar: X %d, O %d\n",
                b->men[0][BG_BAR], b->men[1][BG_BAR]);
    }
    labels(false, bg_impl(g)->foster, label);
    OUT("%s   X: %d off, %d on the bar, pips %d\n", label, b->men[0][BG_OFF], b->men[0][BG_BAR],
        bg_pips(b, 0));
    char pos[128];
    if (bg_position_to_string(g, s, pos, sizeof pos) < 0) return HOYLE_EFULL;
    switch (s->phase) {
    case BG_OPENING: OUT("opening roll to come\n"); break;
    case BG_ROLL: OUT("%c to roll\n", side_name[s->to_move]); break;
    case BG_PLAY: OUT("%c to play %d%d\n", side_name[s->to_move], s->dice[0], s->dice[1]); break;
    default:
        if (s->result == BG_DRAW)
            OUT("drawn by the turn limit\n");
        else
            OUT("%c wins %s\n", side_name[s->winner],
                s->result == BG_SINGLE   ? "a single game"
                : s->result == BG_GAMMON ? "a gammon"
                                         : "a backgammon");
    }
    OUT("position %s\n", pos);
#undef OUT
    return (int)used;
}
