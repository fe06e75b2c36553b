/* odds.c — games at odds (seed 001, "Games at Odds" and "Rules for Playing the Game at Odds"): the
 * start positions of `chess(odds=...)` and the opening turn of several moves of Pawn and Two Moves.
 *
 * The giver is Black for the pawn odds ("The Pawn removed in each instance
 * is Black's K B P": White, the receiver, has the move) and White for the
 * piece odds (law I: the giver "has the right to choose the men, and to
 * move first"; the seed's Knight examples are played so). Law III: no
 * castling on the side of a removed Rook (the start has no such right).
 * Law V, Pawn and Two Moves: the receiver plays two moves in a row,
 * "collectively considered as the first move", and "must not play any man
 * beyond the fourth square ... before his adversary makes his first move".
 * The state keeps the receiver's moves still to play in that turn
 * (ch_state_t.prelude); while it is non-zero the side to move stays the
 * receiver's after a move, moves past the fourth rank are not legal, and
 * the hash and the position text carry it. docs/games/chess.md, "Games at
 * odds". */
#include <stdio.h>
#include <string.h>

#include "games/chess/chess_internal.h"

typedef struct odds_row {
    const char *name;
    const char *fen; /* the start */
    int prelude;     /* the receiver's moves in his first turn (0: none) */
} odds_row_t;

/* In the order of the parameter's choices (chess.c). */
static const odds_row_t odds_rows[CH_ODDS_NB] = {
    {"none", CH_START_FEN, 0},
    {"pawn_move", "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
    {"pawn_two_moves", "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2},
    {"qknight", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1", 0},
    {"kknight", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1", 0},
    {"qrook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1", 0},
    {"krook", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1", 0},
    {"queen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", 0},
    /* the exchange: the giver's Queen's Rook against the receiver's Queen's Knight */
    {"exchange", "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1", 0},
};

/* Keys of the prelude counter (fixed constants, splitmix64 outputs). */
static const uint64_t prelude_key[3] = {0, 0x6A09E667F3BCC909ull, 0xBB67AE8584CAA73Bull};

int ch_odds_init(ch_game_t *cg, int odds)
{
    if (odds < 0 || odds >= CH_ODDS_NB)
        return hoyle_error(HOYLE_EINVAL, "chess: odds: no odds %d", odds);
    cg->odds = odds;
    int rc = ch_fen_read(cg, odds_rows[odds].fen, &cg->start);
    if (rc) return rc;
    cg->start.prelude = (uint8_t)odds_rows[odds].prelude;
    return HOYLE_OK;
}

const char *ch_odds_name(int odds)
{
    return odds >= 0 && odds < CH_ODDS_NB ? odds_rows[odds].name : "?";
}

uint64_t ch_odds_key(const ch_state_t *s) { return prelude_key[s->prelude < 3 ? s->prelude : 0]; }

/* The receiver's half of the board: ranks 1-4 for White, 5-8 for Black. */
static bool in_own_half(int side, int sq)
{
    return side == CH_WHITE ? ch_rank(sq) <= 3 : ch_rank(sq) >= 4;
}

int ch_odds_filter(const ch_state_t *s, ch_move_t *moves, int n)
{
    if (s->prelude == 0) return n;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (in_own_half(s->pos.side, ch_to(moves[i]))) moves[k++] = moves[i];
    return k;
}

bool ch_odds_allows(const ch_state_t *s, ch_move_t m)
{
    return s->prelude == 0 || in_own_half(s->pos.side, ch_to(m));
}

void ch_odds_make(const ch_game_t *cg, ch_state_t *s, ch_move_t m)
{
    int prelude = s->prelude;
    ch_state_make(cg, s, m);
    if (prelude == 0) return;
    s->prelude = (uint8_t)(prelude - 1);
    /* A new turn of the opening starts a new history: a state with another
     * prelude is never the same position. */
    memset(s->hist, 0, sizeof(uint64_t) * s->nhist);
    s->nhist = 0;
    if (s->prelude == 0) return;
    /* the receiver moves again: the turn comes back to him, with no
     * en-passant square (the giver makes no move in between) */
    ch_pos_t *p = &s->pos;
    p->side ^= 1;
    p->key ^= ch_z_side;
    if (p->ep != CH_NO_SQ) {
        p->key ^= ch_z_ep[ch_file(p->ep)];
        p->ep = CH_NO_SQ;
    }
    ch_state_finish(cg, s);
}

/* The text after the FEN: " moves_left=N" while a prelude is on. */
#define PRELUDE_TAG " moves_left="

int ch_odds_position_to_string(const ch_state_t *s, char *buf, size_t cap)
{
    int n = ch_fen_write(&s->pos, s->fullmove, buf, cap);
    if (n < 0 || s->prelude == 0) return n;
    int extra = snprintf(buf + n, cap - (size_t)n, PRELUDE_TAG "%d", s->prelude);
    if (extra < 0 || (size_t)(n + extra) + 1 > cap)
        return hoyle_error(HOYLE_EFULL, "fen: buffer too small");
    return n + extra;
}

int ch_odds_position_from_string(const ch_game_t *cg, const char *text, ch_state_t *out)
{
    const char *tag = strstr(text, PRELUDE_TAG);
    if (tag == NULL) return ch_fen_read(cg, text, out);
    const char *v = tag + strlen(PRELUDE_TAG);
    int max = odds_rows[cg->odds].prelude;
    if (max == 0)
        return hoyle_error(HOYLE_EINVAL, "fen: moves_left only in a game at odds of several moves "
                                         "(chess(odds=pawn_two_moves))");
    if (v[0] < '1' || v[0] > '0' + max || v[1] != '\0')
        return hoyle_error(HOYLE_EINVAL, "fen: bad moves_left '%.16s' (1..%d)", v, max);
    char fen[128];
    size_t len = (size_t)(tag - text);
    if (len >= sizeof fen) return hoyle_error(HOYLE_EINVAL, "fen: too long");
    memcpy(fen, text, len);
    fen[len] = '\0';
    ch_state_t s;
    int rc = ch_fen_read(cg, fen, &s);
    if (rc) return rc;
    if (s.pos.side != CH_WHITE || s.fullmove != 1)
        return hoyle_error(HOYLE_EINVAL,
                           "fen: moves_left needs White (the receiver) to move at move 1");
    if (s.result != CH_ONGOING)
        return hoyle_error(HOYLE_EINVAL, "fen: moves_left in a game that is over");
    s.prelude = (uint8_t)(v[0] - '0');
    memcpy(out, &s, sizeof s);
    return HOYLE_OK;
}
