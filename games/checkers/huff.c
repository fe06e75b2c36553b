/* huff.c — huffing, `checkers(capture=huff)` (seed 001, "Huffing"; Checker Laws 14-15): a capture
 * may be neglected, and the opponent then compels it, huffs a man that could have taken, or lets
 * the move stand.
 *
 * The seed: "If a player who can capture a piece neglects to do so, his
 * adversary has the choice of three things:—To compel the player to take
 * back his move and capture the piece; to huff (remove from the board,) the
 * man that should have captured the piece; or to let the move stand, and go
 * on with his own move. A huff does not constitute a move ... the penalty
 * must be enforced before the player exacting it makes his own move."
 *
 * As actions: after a quiet move made while a capture was available, the
 * opponent's legal actions are his own moves (letting it stand), a huff of
 * each man that could have taken (CK_HUFF_ACTION + square; he keeps the
 * turn and then makes his own move) and CK_COMPEL (the move is taken back,
 * the offender moves again and must capture). The state keeps the phase and
 * the neglecting move (ck_state_t.huff, neg_from, neg_to), hashed; the
 * position text carries them (:N, :M). A capture chain, once begun, must be
 * finished (our choice: the laws speak of a capture neglected, not of a
 * chain cut short). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/checkers/checkers_internal.h"

uint64_t ck_huff_key(const ck_game_t *cg, const ck_state_t *s)
{
    if (!s->huff) return 0;
    uint64_t h = cg->z_huff[s->huff & 7];
    if (ck_huff_phase(s) == CK_HUFF_CHOICE)
        h ^= cg->z_neg[0][s->neg_from] ^ cg->z_neg[1][s->neg_to];
    return h;
}

static void set_huff(const ck_game_t *cg, ck_state_t *s, int huff, int from, int to)
{
    s->hash ^= ck_huff_key(cg, s);
    s->huff = (uint8_t)huff;
    s->neg_from = (uint8_t)from;
    s->neg_to = (uint8_t)to;
    s->hash ^= ck_huff_key(cg, s);
}

/* The offender's men and kings before the neglecting move: the piece on
 * neg_to back on neg_from, uncrowned if that move crowned it. */
static void before_neglect(const ck_state_t *s, uint32_t *own, uint32_t *kings)
{
    int c = s->side ^ 1;
    uint32_t from = ck_bit(s->neg_from), to = ck_bit(s->neg_to);
    *own = (s->bb[c] & ~to) | from;
    uint32_t k = s->kings & ~to;
    if ((s->kings & to) && !(s->huff & CK_HUFF_CROWNED)) k |= from;
    *kings = k;
}

uint32_t ck_huffable(const ck_game_t *cg, const ck_state_t *s)
{
    if (ck_huff_phase(s) != CK_HUFF_CHOICE) return 0;
    int c = s->side ^ 1;
    uint32_t own, kings, opp = s->bb[s->side], out = 0;
    before_neglect(s, &own, &kings);
    ck_step_t st[32];
    for (uint32_t b = own; b; b &= b - 1) {
        int sq = ck_lsb(b);
        if (ck_capture_steps(cg, own, opp, 0, sq, (kings >> sq) & 1, c, -1, st) == 0) continue;
        out |= ck_bit(sq == s->neg_from ? s->neg_to : sq); /* the moved man where it stands now */
    }
    return out;
}

int ck_huff_actions(const ck_game_t *cg, const ck_state_t *s, int *out)
{
    if (ck_huff_phase(s) != CK_HUFF_CHOICE || s->chain) return 0;
    int n = 0;
    for (uint32_t b = ck_huffable(cg, s); b; b &= b - 1) out[n++] = CK_HUFF_ACTION + ck_lsb(b);
    out[n++] = CK_COMPEL;
    return n;
}

/* Take the neglecting move back: the offender to move, compelled. */
static void compel(const ck_game_t *cg, ck_state_t *s)
{
    int c = s->side ^ 1, from = s->neg_from, to = s->neg_to;
    int king_now = (s->kings >> to) & 1;
    int king_before = king_now && !(s->huff & CK_HUFF_CROWNED);
    s->bb[c] ^= ck_bit(from) | ck_bit(to);
    s->kings &= ~ck_bit(to);
    if (king_before) s->kings |= ck_bit(from);
    s->hash ^= cg->z_piece[c][king_now][to] ^ cg->z_piece[c][king_before][from];
    /* a king's move was the last entry of the reversible history: drop it;
     * a man's move had cleared the history, which stays cleared */
    if (king_before && s->quiet && s->rev[s->quiet - 1] == (uint16_t)(from | to << 5))
        s->rev[--s->quiet] = 0;
    s->side ^= 1;
    s->hash ^= cg->z_side;
    set_huff(cg, s, CK_HUFF_COMPELLED, 0, 0);
    s->result = CK_ONGOING;
}

/* Remove the offender's piece on sq: no move, the huffer moves next. */
static void huff(const ck_game_t *cg, ck_state_t *s, int sq)
{
    int c = s->side ^ 1, king = (s->kings >> sq) & 1;
    s->bb[c] &= ~ck_bit(sq);
    s->kings &= ~ck_bit(sq);
    s->hash ^= cg->z_piece[c][king][sq];
    set_huff(cg, s, CK_HUFF_NONE, 0, 0);
    /* a man taken off: nothing before it can come back (40-move rule) */
    memset(s->rev, 0, sizeof s->rev[0] * s->quiet);
    s->quiet = 0;
    s->result = CK_ONGOING;
    ck_finish(cg, s); /* the huffer to move: without a move he loses */
}

void ck_huff_apply(const ck_game_t *cg, ck_state_t *s, int action)
{
    if (action == CK_COMPEL) {
        compel(cg, s);
        return;
    }
    if (action >= CK_HUFF_ACTION) {
        huff(cg, s, action - CK_HUFF_ACTION);
        return;
    }
    int c = s->side, from = action >> 5, to = action & 31;
    /* a move ends the choice (the neglect is let stand) */
    if (ck_huff_phase(s) == CK_HUFF_CHOICE) set_huff(cg, s, CK_HUFF_NONE, 0, 0);
    bool neglect = !s->chain && !ck_is_capture(s, action) &&
                   ck_has_capture(cg, s->bb[c], s->bb[c ^ 1], s->kings, c);
    int was_king = (s->kings >> from) & 1;
    ck_apply(cg, s, action);
    /* the compelled capture is made once it begins (a chain must be finished anyway) */
    if (ck_huff_phase(s) == CK_HUFF_COMPELLED) set_huff(cg, s, CK_HUFF_NONE, 0, 0);
    if (!neglect) return;
    int crowned = !was_king && ((s->kings >> to) & 1);
    set_huff(cg, s, CK_HUFF_CHOICE | (crowned ? CK_HUFF_CROWNED : 0), from, to);
    /* the opponent can always compel: out of moves, he has not lost yet;
     * a draw by the 40-move rule or repetition stands */
    if (s->result == (c == 0 ? CK_WIN0 : CK_WIN1)) s->result = CK_ONGOING;
}

int ck_huff_position_suffix(const ck_state_t *s, char *buf, size_t cap)
{
    int n = 0;
    if (ck_huff_phase(s) == CK_HUFF_CHOICE)
        n = snprintf(buf, cap, ":N%d-%d%s", s->neg_from + 1, s->neg_to + 1,
                     s->huff & CK_HUFF_CROWNED ? "K" : "");
    else if (ck_huff_phase(s) == CK_HUFF_COMPELLED)
        n = snprintf(buf, cap, ":M");
    else if (cap)
        buf[0] = '\0';
    return n < 0 || (size_t)n >= cap ? 0 : n;
}

static int huff_error(const char *what) { return hoyle_error(HOYLE_EINVAL, "fen: %s", what); }

int ck_huff_position_from_string(const game_t *g, const char *text, void *out)
{
    const ck_game_t *cg = ck_game(g);
    const char *colon = strrchr(text, ':');
    char tag = colon ? (char)toupper((unsigned char)colon[1]) : 0;
    if (tag != 'N' && tag != 'M') return ck_position_from_string(g, text, out);
    if (!cg->huff) return huff_error("fields N and M need capture=huff");
    char head[1100];
    size_t len = (size_t)(colon - text);
    if (len >= sizeof head) return huff_error("position too long");
    memcpy(head, text, len);
    head[len] = '\0';
    ck_state_t t;
    int rc = ck_position_from_string(g, head, &t);
    if (rc) return rc;
    if (t.chain) return huff_error("no huff field while a chain is in progress");
    t.result = CK_ONGOING;
    if (tag == 'M') {
        if (colon[2] != '\0') return huff_error("field M takes nothing after it");
        if (!ck_has_capture(cg, t.bb[t.side], t.bb[t.side ^ 1], t.kings, t.side))
            return huff_error("M: the side compelled has no capture");
        set_huff(cg, &t, CK_HUFF_COMPELLED, 0, 0);
        memcpy(out, &t, sizeof t);
        return HOYLE_OK;
    }
    int a, b, used = 0;
    char k = 0;
    if (sscanf(colon + 2, "%d-%d%n", &a, &b, &used) != 2 || a < 1 || a > 32 || b < 1 || b > 32)
        return huff_error("N: want the neglecting move, N<from>-<to>[K]");
    const char *rest = colon + 2 + used;
    if (*rest == 'K' || *rest == 'k') k = 1, rest++;
    if (*rest) return huff_error("N: trailing text");
    int c = t.side ^ 1, from = a - 1, to = b - 1;
    if (!((t.bb[c] >> to) & 1) || (((t.bb[0] | t.bb[1]) >> from) & 1))
        return huff_error("N: the offender's piece must stand on <to> and <from> be empty");
    if (k && (!((t.kings >> to) & 1) || !(ck_bit(to) & ck_king_row(c))))
        return huff_error("N: K needs a king on the offender's king row");
    /* the neglect must have been a legal quiet move with a capture on offer */
    set_huff(cg, &t, CK_HUFF_CHOICE | (k ? CK_HUFF_CROWNED : 0), from, to);
    uint32_t own, kings;
    before_neglect(&t, &own, &kings);
    uint32_t step = ck_quiet_targets(cg, own, t.bb[t.side], from, (kings >> from) & 1, c);
    if (!((step >> to) & 1)) return huff_error("N: <from>-<to> is no move of the offender");
    if (!ck_has_capture(cg, own, t.bb[t.side], kings, c))
        return huff_error("N: the offender had no capture to neglect");
    if (!k && !((kings >> from) & 1) && ((t.kings >> to) & 1) && (ck_bit(to) & ck_king_row(c)))
        return huff_error("N: a man that reached the king row crowned: write K");
    t.hash = ck_hash_compute(cg, &t);
    ck_finish(cg, &t);
    if (t.result == (c == 0 ? CK_WIN0 : CK_WIN1)) t.result = CK_ONGOING;
    memcpy(out, &t, sizeof t);
    return HOYLE_OK;
}

int ck_huff_action_text(int action, char *buf, size_t cap)
{
    int n;
    if (action == CK_COMPEL)
        n = snprintf(buf, cap, "compel");
    else if (action >= CK_HUFF_ACTION && action < CK_COMPEL)
        n = snprintf(buf, cap, "huff %d", action - CK_HUFF_ACTION + 1);
    else
        return 0;
    return n < 0 || (size_t)n >= cap
               ? hoyle_error(HOYLE_EFULL, "action_to_string: buffer too small")
               : n;
}

int ck_huff_action_parse(const game_t *g, const ck_state_t *s, const char *text, int *action,
                         const char **rest)
{
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    int a;
    if (strncmp(p, "compel", 6) == 0) {
        a = CK_COMPEL, p += 6;
    } else if (strncmp(p, "huff", 4) == 0) {
        p += 4;
        while (isspace((unsigned char)*p)) p++;
        if (!isdigit((unsigned char)*p))
            return hoyle_error(HOYLE_EINVAL, "huff: which man? (huff 14)");
        long v = 0;
        while (isdigit((unsigned char)*p) && v < 1000) v = v * 10 + (*p++ - '0');
        if (v < 1 || v > 32) return hoyle_error(HOYLE_EINVAL, "huff: bad square %ld", v);
        a = CK_HUFF_ACTION + (int)v - 1;
    } else {
        return 0;
    }
    if (!ck_game(g)->huff)
        return hoyle_error(HOYLE_EINVAL, "'%s': no huffing without capture=huff", text);
    int legal[CK_MAX_LEGAL], n = ck_legal_actions(ck_game(g), s, legal);
    bool ok = false;
    for (int i = 0; i < n && !ok; i++) ok = legal[i] == a;
    if (!ok) {
        if (ck_huff_phase(s) != CK_HUFF_CHOICE)
            return hoyle_error(HOYLE_EINVAL, "'%s': no capture was neglected by the last move",
                               text);
        return hoyle_error(HOYLE_EINVAL, "'%s': that man could not have captured", text);
    }
    *action = a;
    *rest = p;
    return 1;
}
