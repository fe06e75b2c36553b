/* movegen.c — Fanorona's legal actions and their application.
 *
 * A step moves a piece to an empty neighbouring point along a line. It
 * captures by approach (the enemy line beyond the point reached, in the
 * direction moved) or by withdrawal (the enemy line behind the point left),
 * the whole unbroken line of enemy pieces. Captures are compulsory: a paika
 * (non-capturing step) only when the side has no capture. After a capture
 * the same piece may go on capturing, never to a point it stood on this turn
 * and never twice in the same direction in a row; the player may stop
 * (FN_STOP). The game's first move is one capture only; in the véla form,
 * while Black has more than five pieces, Black only steps and White's
 * captures take the nearest piece of the line and end the turn. The apply
 * keeps the hash up to date field by field (fn_hash_compute is the
 * reference). */
#include "games/fanorona/fanorona_internal.h"

/* The enemy line starting at `x` and running in `d`: all of it, or only its
 * first piece when `single`. */
static uint64_t line_from(const fn_game_t *fg, uint64_t opp, int x, int d, bool single)
{
    uint64_t taken = 0;
    while (x >= 0 && (opp & fn_bit(x))) {
        taken |= fn_bit(x);
        if (single) break;
        x = fg->nbr[x][d];
    }
    return taken;
}

uint64_t fn_taken(const fn_game_t *fg, const fn_state_t *s, int action)
{
    if (action < 0 || action >= FN_STOP) return 0;
    int p = fn_action_from(action), d = fn_action_dir(action), kind = fn_action_kind(action);
    int q = fg->nbr[p][d];
    if (q < 0 || kind == FN_PAIKA) return 0;
    uint64_t opp = s->bb[s->side ^ 1];
    bool single = fn_vela_active(fg, s);
    if (kind == FN_APPROACH) return line_from(fg, opp, fg->nbr[q][d], d, single);
    return line_from(fg, opp, fg->nbr[p][7 - d], 7 - d, single);
}

/* Capture steps of the piece on `p` to out (ascending), skipping direction
 * `forbid` and points in `visited`; returns the count. */
static int capture_steps(const fn_game_t *fg, uint64_t opp, uint64_t empty, int p, int forbid,
                         uint64_t visited, int *out)
{
    int n = 0;
    for (int d = 0; d < FN_DIRS; d++) {
        int q = fg->nbr[p][d];
        if (d == forbid || q < 0 || !(empty & fn_bit(q)) || (visited & fn_bit(q))) continue;
        int a = fg->nbr[q][d], w = fg->nbr[p][7 - d];
        if (a >= 0 && (opp & fn_bit(a))) out[n++] = fn_action(p, d, FN_APPROACH);
        if (w >= 0 && (opp & fn_bit(w))) out[n++] = fn_action(p, d, FN_WITHDRAWAL);
    }
    return n;
}

static uint64_t empty_points(const fn_state_t *s) { return FN_ALL & ~(s->bb[0] | s->bb[1]); }

bool fn_can_continue(const fn_game_t *fg, const fn_state_t *s, int p)
{
    int tmp[2 * FN_DIRS];
    return capture_steps(fg, s->bb[s->side ^ 1], empty_points(s), p, (int)s->last_dir - 1,
                         s->visited, tmp) > 0;
}

int fn_legal_actions(const fn_game_t *fg, const fn_state_t *s, int *out)
{
    if (s->result != FN_ONGOING) return 0;
    uint64_t own = s->bb[s->side], opp = s->bb[s->side ^ 1], empty = empty_points(s);
    int n = 0;
    if (s->chain) {
        n = capture_steps(fg, opp, empty, s->chain - 1, (int)s->last_dir - 1, s->visited, out);
        out[n++] = FN_STOP;
        return n;
    }
    /* véla: the victor (Black) captures nothing while he has more than five */
    if (!(fn_vela_active(fg, s) && s->side == FN_BLACK)) {
        for (uint64_t x = own; x; x &= x - 1)
            n += capture_steps(fg, opp, empty, fn_lsb(x), -1, 0, out + n);
        if (n > 0) return n;
    }
    for (uint64_t x = own; x; x &= x - 1) {
        int p = fn_lsb(x);
        for (int d = 0; d < FN_DIRS; d++) {
            int q = fg->nbr[p][d];
            if (q >= 0 && (empty & fn_bit(q))) out[n++] = fn_action(p, d, FN_PAIKA);
        }
    }
    return n;
}

void fn_settle(const fn_game_t *fg, fn_state_t *s)
{
    int side = s->side;
    int lose = side == FN_WHITE ? FN_WIN1 : FN_WIN0;
    if (s->bb[side] == 0) {
        s->result = (uint8_t)lose; /* every piece taken: the seed's object */
        return;
    }
    uint64_t empty = empty_points(s);
    bool can_step = false;
    for (uint64_t x = s->bb[side]; x && !can_step; x &= x - 1)
        for (int d = 0; d < FN_DIRS && !can_step; d++) {
            int q = fg->nbr[fn_lsb(x)][d];
            can_step = q >= 0 && (empty & fn_bit(q));
        }
    if (!can_step)
        s->result = (uint8_t)lose; /* blocked: loses, as in draughts */
    else if (s->quiet >= fg->draw_moves)
        s->result = FN_DRAW;
}

static void set_quiet(fn_state_t *s, int quiet)
{
    s->hash ^= fn_key_quiet(s->quiet) ^ fn_key_quiet(quiet);
    s->quiet = (uint16_t)quiet;
}

/* Clear the chain, count the draw counter, pass the turn and settle it. */
static void end_turn(const fn_game_t *fg, fn_state_t *s, bool captured)
{
    for (uint64_t x = s->visited; x; x &= x - 1) s->hash ^= fg->z_visit[fn_lsb(x)];
    s->visited = 0;
    if (s->chain) s->hash ^= fg->z_chain[s->chain - 1] ^ fg->z_dir[s->last_dir - 1];
    s->chain = s->last_dir = 0;
    if (s->opening) s->hash ^= fg->z_open;
    s->opening = 0;
    if (!captured) set_quiet(s, s->quiet + 1);
    s->side ^= 1;
    s->hash ^= fg->z_side;
    fn_settle(fg, s);
}

void fn_apply(const fn_game_t *fg, fn_state_t *s, int action)
{
    if (action == FN_STOP) {
        end_turn(fg, s, true);
        return;
    }
    int side = s->side, p = fn_action_from(action), d = fn_action_dir(action);
    int q = fg->nbr[p][d];
    bool single = fn_vela_active(fg, s);
    uint64_t taken = fn_taken(fg, s, action);
    s->bb[side] ^= fn_bit(p) | fn_bit(q);
    s->hash ^= fg->z_piece[side][p] ^ fg->z_piece[side][q];
    s->bb[side ^ 1] &= ~taken;
    for (uint64_t x = taken; x; x &= x - 1) s->hash ^= fg->z_piece[side ^ 1][fn_lsb(x)];
    if (fn_action_kind(action) == FN_PAIKA) {
        end_turn(fg, s, false);
        return;
    }
    set_quiet(s, 0);
    /* no chain: nothing left to take, the game's first move, or véla */
    if (s->bb[side ^ 1] == 0 || s->opening || single) {
        end_turn(fg, s, true);
        return;
    }
    if (s->chain)
        s->hash ^= fg->z_chain[s->chain - 1] ^ fg->z_dir[s->last_dir - 1];
    else
        s->visited |= fn_bit(p), s->hash ^= fg->z_visit[p];
    s->visited |= fn_bit(q);
    s->hash ^= fg->z_visit[q] ^ fg->z_chain[q] ^ fg->z_dir[d];
    s->chain = (uint8_t)(q + 1);
    s->last_dir = (uint8_t)(d + 1);
    if (!fn_can_continue(fg, s, q)) end_turn(fg, s, true);
}
