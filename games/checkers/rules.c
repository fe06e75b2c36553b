/* rules.c — how a game ends: no move, the devil's escape, the 40-move rule
 * and threefold repetition (docs/games/checkers.md states them exactly). */
#include "games/checkers/checkers_internal.h"

/* Undoes the reversible moves newest first, only moving kings (no captures or
 * man moves happen inside the window), and counts the earlier positions with
 * the same kings and the same side to move (every second undo). Men do not
 * need comparing: they cannot have moved within the window. */
int ck_count_reps(uint32_t k0, uint32_t k1, int side, const uint16_t *rev, int quiet)
{
    uint32_t k[2] = {k0, k1};
    int mover = side ^ 1, count = 0;
    for (int i = quiet - 1; i >= 0; i--) {
        k[mover] ^= ck_bit(rev[i] & 31) | ck_bit((rev[i] >> 5) & 31);
        mover ^= 1;
        if (((quiet - i) & 1) == 0 && k[0] == k0 && k[1] == k1) count++;
    }
    return count;
}

/* The devil (black's single king) is free once it has passed every tailor:
 * it stands on a higher row than the highest tailor. */
bool ck_devil_free(uint32_t devil, uint32_t tailors)
{
    if (!devil) return false;
    return !tailors || ck_row(ck_lsb(devil)) > ck_row(31 - __builtin_clz(tailors));
}

void ck_finish(const ck_game_t *cg, ck_state_t *s)
{
    int c = s->side;
    if (cg->variant == CK_DEVIL && ck_devil_free(s->bb[0], s->bb[1])) {
        s->result = CK_WIN0;
        return;
    }
    if (!ck_has_move(cg, s->bb[c], s->bb[c ^ 1], s->kings, c)) {
        /* the side that cannot move loses; in the Losing Game it wins */
        bool mover_wins = cg->variant == CK_LOSING;
        s->result = (uint8_t)((c == 0) == mover_wins ? CK_WIN0 : CK_WIN1);
        return;
    }
    /* the 40-move rule (CK_QUIET_MAX reversible moves) and threefold
     * repetition: the current position plus two earlier ones */
    if (cg->draws && (s->quiet >= CK_QUIET_MAX || (s->quiet >= 4 && ck_repetitions(s) >= 2)))
        s->result = CK_DRAW;
}
