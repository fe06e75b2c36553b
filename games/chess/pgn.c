/* pgn.c — chess's record writer (the game_vt_t record_to_string slot): one
 * game as PGN in export format (PGN standard, Edwards 1994, section 8):
 * the Seven Tag Roster in its order (Event, Site, Date, Round, White, Black,
 * Result), SetUp and FEN when the game did not start from the initial
 * position, Opening and Termination when known; then SAN movetext with
 * move numbers, in lines of at most 79 characters, ending with the result.
 * The text is built in a private buffer, so `buf` is written only when the
 * whole game fits and every move was legal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/chess/chess_internal.h"

#define PGN_LINE_MAX 79 /* export format: no line longer than this */

typedef struct out {
    char *p;
    size_t n, cap; /* n may pass cap: the final check turns that into HOYLE_EFULL */
} out_t;

static void emit(out_t *o, const char *text, size_t len)
{
    if (o->n + len < o->cap) memcpy(o->p + o->n, text, len);
    o->n += len;
}

/* [Key "value"] with '\' and '"' escaped as the standard says. */
static void tag(out_t *o, const char *key, const char *value)
{
    emit(o, "[", 1);
    emit(o, key, strlen(key));
    emit(o, " \"", 2);
    for (const char *c = value; *c; c++) {
        if (*c == '\\' || *c == '"') emit(o, "\\", 1);
        char ch = *c == '\n' || *c == '\r' || *c == '\t' ? ' ' : *c;
        emit(o, &ch, 1);
    }
    emit(o, "\"]\n", 3);
}

/* The Termination tag's value: PGN's own words for hoyle's end reasons. */
static const char *termination(const char *why)
{
    if (!why) return NULL;
    if (!strcmp(why, "rules")) return "normal";
    if (!strcmp(why, "move_limit")) return "adjudication";
    if (!strcmp(why, "error") || !strcmp(why, "forfeit")) return "rules infraction";
    return why;
}

int ch_record_to_string(const game_t *g, const game_record_tags_t *tags, const void *start,
                        const int *actions, int n, char *buf, size_t cap)
{
    out_t o = {.p = malloc(cap + 1), .cap = cap};
    if (!o.p) return hoyle_error(HOYLE_ENOMEM, "pgn: out of memory");
    ch_state_t s;
    memcpy(&s, start, sizeof s);
    char fen[128], round[16];
    int status = HOYLE_OK;
    if (ch_fen_write(&s.pos, s.fullmove, fen, sizeof fen) < 0) {
        free(o.p);
        return hoyle_error(HOYLE_EINVAL, "pgn: the start position has no FEN");
    }
    double sc = tags->score;
    const char *res = sc == 1 ? "1-0" : sc == 0 ? "0-1" : sc > 0 && sc < 1 ? "1/2-1/2" : "*";
    snprintf(round, sizeof round, "%d", tags->round);
    tag(&o, "Event", tags->event && tags->event[0] ? tags->event : "?");
    tag(&o, "Site", "?");
    tag(&o, "Date", tags->date && tags->date[0] ? tags->date : "????.??.??");
    tag(&o, "Round", tags->round > 0 ? round : "?");
    tag(&o, "White", tags->players[0] ? tags->players[0] : "?");
    tag(&o, "Black", tags->players[1] ? tags->players[1] : "?");
    tag(&o, "Result", res);
    if (strcmp(fen, CH_START_FEN) != 0) {
        tag(&o, "SetUp", "1");
        tag(&o, "FEN", fen);
    }
    if (tags->opening && tags->opening[0]) tag(&o, "Opening", tags->opening);
    const char *term = termination(tags->termination);
    if (term) tag(&o, "Termination", term);
    emit(&o, "\n", 1);
    size_t col = 0;
    for (int i = 0; i < n; i++) {
        ch_move_t m = ch_action_to_move(&s.pos, actions[i]);
        char san[16], word[40];
        if (s.result != CH_ONGOING || m == 0 || ch_move_to_san(&s.pos, m, san, sizeof san) < 0) {
            status = hoyle_error(HOYLE_EINVAL, "pgn: move %d (action %d) is not legal", i + 1,
                                 actions[i]);
            break;
        }
        /* "N." before White's move, "N..." when the record opens with Black's */
        int wl = s.pos.side == 0 ? snprintf(word, sizeof word, "%d. %s", s.fullmove, san)
                 : i == 0        ? snprintf(word, sizeof word, "%d... %s", s.fullmove, san)
                                 : snprintf(word, sizeof word, "%s", san);
        if (col && col + 1 + (size_t)wl > PGN_LINE_MAX) {
            emit(&o, "\n", 1);
            col = 0;
        }
        if (col) emit(&o, " ", 1), col++;
        emit(&o, word, (size_t)wl);
        col += (size_t)wl;
        game_apply(g, &s, actions[i]);
    }
    if (status == HOYLE_OK) {
        size_t rl = strlen(res);
        if (col && col + 1 + rl > PGN_LINE_MAX) emit(&o, "\n", 1), col = 0;
        if (col) emit(&o, " ", 1);
        emit(&o, res, rl);
        emit(&o, "\n", 1);
        if (o.n >= cap) status = hoyle_error(HOYLE_EFULL, "pgn: buffer too small");
    }
    if (status == HOYLE_OK) {
        memcpy(buf, o.p, o.n);
        buf[o.n] = '\0';
    }
    free(o.p);
    return status == HOYLE_OK ? (int)o.n : status;
}
