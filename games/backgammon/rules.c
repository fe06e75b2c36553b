/* rules.c — Backgammon: steps, chance, application and outcome.
 *
 * The canonical plays of a roll are generated whole in plays.c; the legal
 * steps of a state are the next steps of the plays that begin with the steps
 * already made. */
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/rng.h"
#include "games/backgammon/bg_internal.h"

/* Each side's points are numbered from its own home: 24 is the back point,
 * 1..6 the home board, 0 off and 25 the bar, so one layout serves both. */
void bg_board_init(bg_board_t *b)
{
    memset(b, 0, sizeof *b);
    for (int p = 0; p < 2; p++) {
        b->men[p][24] = 2;
        b->men[p][13] = 5;
        b->men[p][8] = 3;
        b->men[p][6] = 5;
    }
}

int bg_impl_create(game_t *g, bool points_scoring, int max_turns, bool foster)
{
    bg_impl_t *im = calloc(1, sizeof *im);
    if (im == NULL) return hoyle_error(HOYLE_ENOMEM, "backgammon: out of memory");
    im->points_scoring = points_scoring;
    im->max_turns = max_turns;
    im->foster = foster;
    rng_t r;
    /* a fixed seed: the same spec hashes the same way in every process */
    rng_init(&r, 0xBAC6A770ull);
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < BG_POINTS; i++)
            /* keyed by count per point (c men on point i), not per man:
             * men are interchangeable, so only the counts identify a board */
            for (int c = 1; c <= BG_MEN; c++) im->zob_men[p][i][c] = rng_next(&r);
    for (int p = 0; p < 2; p++) im->zob_side[p] = rng_next(&r);
    for (int k = 0; k < 4; k++) im->zob_phase[k] = rng_next(&r);
    for (int k = 0; k < 36; k++) im->zob_roll[k] = rng_next(&r);
    for (int k = 0; k < BG_MAX_STEPS; k++)
        for (int a = 0; a < BG_NUM_ACTIONS; a++) im->zob_step[k][a] = rng_next(&r);
    for (int k = 0; k < BG_MAX_STEPS; k++) im->zob_hit[k] = rng_next(&r);
    /* the opening roll gives one die to each side and the higher die moves
     * first, so doubles are rolled again: 30 equally likely ordered pairs.
     * Later rolls are unordered: 21 outcomes, the non-doubles twice as likely */
    int no = 0, nr = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++) {
            if (a != b) {
                im->opening_actions[no] = (a - 1) * 6 + b - 1;
                im->opening_probs[no++] = 1.0 / 30;
            }
            if (a >= b) {
                im->roll_actions[nr] = (a - 1) * 6 + b - 1;
                im->roll_probs[nr++] = a == b ? 1.0 / 36 : 2.0 / 36;
            }
        }
    g->impl = im;
    return HOYLE_OK;
}

/* ---- steps on a board ---- */

/* Bearing off is allowed only with every man in the home board (points
 * 1..6): nothing on 7..24 or on the bar. */
static bool all_home(const int8_t *me)
{
    for (int i = 7; i <= BG_BAR; i++)
        if (me[i]) return false;
    return true;
}

bool bg_step_ok(const bg_board_t *b, int player, int action)
{
    const int8_t *me = b->men[player], *opp = b->men[1 - player];
    int from = bg_step_from(action), to = from - bg_step_die(action);
    /* a man on the bar must enter before any other man moves */
    if (me[from] == 0 || (me[BG_BAR] && from != BG_BAR)) return false;
    /* two or more opposing men make a point the mover cannot land on */
    if (to >= 1) return opp[25 - to] < 2;
    if (!all_home(me)) return false;
    if (to == 0) return true;
    for (int i = from + 1; i <= 6; i++) /* a higher die bears off only from the highest point */
        if (me[i]) return false;
    return true;
}

bool bg_step_make(bg_board_t *b, int player, int action)
{
    int8_t *me = b->men[player], *opp = b->men[1 - player];
    int from = bg_step_from(action), to = bg_step_to(action);
    me[from]--;
    me[to]++;
    if (to == BG_OFF || opp[25 - to] != 1) return false;
    opp[25 - to] = 0;
    opp[BG_BAR]++;
    return true;
}

/* ---- hashing ---- */

static uint64_t board_hash(const bg_impl_t *im, const bg_board_t *b)
{
    uint64_t h = 0;
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < BG_POINTS; i++) h ^= im->zob_men[p][i][b->men[p][i]];
    return h;
}

/* The roll and the steps made, with which of them hit: the same board and
 * steps can come from different starting boards (a man hit, or already on
 * the bar), and the legal steps left depend on the start. */
static uint64_t play_hash(const bg_impl_t *im, const bg_state_t *s)
{
    uint64_t h = im->zob_roll[(s->dice[0] - 1) * 6 + s->dice[1] - 1];
    bg_board_t b = s->start;
    for (int k = 0; k < s->nsteps; k++) {
        h ^= im->zob_step[k][s->steps[k]];
        if (bg_step_make(&b, s->to_move, s->steps[k])) h ^= im->zob_hit[k];
    }
    return h;
}

uint64_t bg_hash_compute(const game_t *g, const bg_state_t *s)
{
    const bg_impl_t *im = bg_impl(g);
    uint64_t h = board_hash(im, &s->board) ^ im->zob_phase[s->phase];
    if (s->phase == BG_ROLL || s->phase == BG_PLAY) h ^= im->zob_side[s->to_move];
    if (s->phase == BG_PLAY) h ^= play_hash(im, s);
    return h;
}

/* ---- the game ---- */

int bg_pips(const bg_board_t *b, int player)
{
    int pips = 0;
    for (int i = 1; i <= BG_BAR; i++) pips += i * b->men[player][i];
    return pips;
}

/* Gammon: the loser has borne off nothing; backgammon: and still has a man
 * in the winner's home board (the loser's 19..24) or on the bar. */
int bg_win_kind(const bg_board_t *b, int winner)
{
    const int8_t *loser = b->men[1 - winner];
    if (loser[BG_OFF] > 0) return BG_SINGLE;
    for (int i = 19; i <= BG_BAR; i++) /* the winner's home table, or the bar */
        if (loser[i]) return BG_BACKGAMMON;
    return BG_GAMMON;
}

static void finish(const game_t *g, bg_state_t *s, int result, int winner)
{
    s->phase = BG_OVER;
    s->result = (uint8_t)result;
    s->winner = (uint8_t)winner;
    s->need = s->nsteps = 0;
    memset(s->steps, 0, sizeof s->steps);
    memset(s->dice, 0, sizeof s->dice);
    s->hash = bg_hash_compute(g, s);
}

void bg_settle(const game_t *g, bg_state_t *s)
{
    for (int p = 0; p < 2; p++)
        if (s->board.men[p][BG_OFF] == BG_MEN) {
            finish(g, s, bg_win_kind(&s->board, p), p);
            return;
        }
    /* the turn limit is checked between plays only, so a play is never cut
     * off halfway */
    if (s->phase != BG_PLAY && s->turns >= bg_impl(g)->max_turns) finish(g, s, BG_DRAW, 0);
}

/* The roll is over (played or passed): the other player rolls next. */
static void end_play(const game_t *g, bg_state_t *s, int player)
{
    /* the hash less the play's keys is the board's; then the roll's keys */
    const bg_impl_t *im = bg_impl(g);
    uint64_t board_h = s->hash ^ im->zob_phase[BG_PLAY] ^ im->zob_side[player] ^ play_hash(im, s);
    s->phase = BG_ROLL;
    s->to_move = (uint8_t)(1 - player);
    s->need = s->nsteps = 0;
    memset(s->steps, 0, sizeof s->steps);
    memset(s->dice, 0, sizeof s->dice);
    s->hash = board_h ^ im->zob_phase[BG_ROLL] ^ im->zob_side[1 - player];
    bg_settle(g, s);
}

/* bg_begin_play() given the board's part of the hash, `board_h`. */
static void start_play(const game_t *g, bg_state_t *s, int player, int hi, int lo, uint64_t board_h)
{
    const bg_impl_t *im = bg_impl(g);
    s->turns++;
    s->phase = BG_PLAY;
    s->to_move = (uint8_t)player;
    s->dice[0] = (uint8_t)hi;
    s->dice[1] = (uint8_t)lo;
    s->start = s->board;
    s->nsteps = 0;
    memset(s->steps, 0, sizeof s->steps);
    /* only the length: a search may evaluate the state without its plays */
    s->need = (uint8_t)bg_play_length(&s->board, player, hi, lo);
    /* as bg_hash_compute(): no steps made yet */
    s->hash = board_h ^ im->zob_phase[BG_PLAY] ^ im->zob_side[player] ^
              im->zob_roll[(hi - 1) * 6 + lo - 1];
}

void bg_begin_play(const game_t *g, bg_state_t *s, int player, int hi, int lo)
{
    start_play(g, s, player, hi, lo, board_hash(bg_impl(g), &s->board));
}

void bg_init(const game_t *g, void *sv)
{
    bg_state_t *s = sv;
    memset(s, 0, g->state_size);
    bg_board_init(&s->board);
    s->phase = BG_OPENING;
    s->hash = bg_hash_compute(g, s);
}

int bg_current_player(const game_t *g, const void *sv)
{
    (void)g;
    const bg_state_t *s = sv;
    switch (s->phase) {
    case BG_OPENING:
    case BG_ROLL: return PLAYER_CHANCE;
    case BG_PLAY: return s->to_move;
    default: return PLAYER_TERMINAL;
    }
}

int bg_chance_outcomes(const game_t *g, const void *sv, int *actions, double *probs)
{
    const bg_impl_t *im = bg_impl(g);
    const bg_state_t *s = sv;
    if (s->phase == BG_OPENING) {
        memcpy(actions, im->opening_actions, sizeof im->opening_actions);
        memcpy(probs, im->opening_probs, sizeof im->opening_probs);
        return BG_OPENING_ROLLS;
    }
    if (s->phase != BG_ROLL) return 0;
    memcpy(actions, im->roll_actions, sizeof im->roll_actions);
    memcpy(probs, im->roll_probs, sizeof im->roll_probs);
    return BG_ROLLS;
}

int bg_legal_actions(const game_t *g, const void *sv, int *out)
{
    const bg_state_t *s = sv;
    if (s->phase == BG_OPENING || s->phase == BG_ROLL) {
        double probs[36];
        return bg_chance_outcomes(g, s, out, probs);
    }
    if (s->phase != BG_PLAY) return 0;
    if (s->need == 0) {
        out[0] = BG_PASS;
        return 1;
    }
    return bg_state_next_steps(s, out);
}

void bg_apply(const game_t *g, void *sv, int action)
{
    const bg_impl_t *im = bg_impl(g);
    bg_state_t *s = sv;
    int a = action / 6 + 1, b = action % 6 + 1;
    /* the hash less the phase's keys is the board's */
    if (s->phase == BG_OPENING) {
        start_play(g, s, a > b ? 0 : 1, a > b ? a : b, a > b ? b : a,
                   s->hash ^ im->zob_phase[BG_OPENING]);
        return;
    }
    if (s->phase == BG_ROLL) {
        start_play(g, s, s->to_move, a, b,
                   s->hash ^ im->zob_phase[BG_ROLL] ^ im->zob_side[s->to_move]);
        return;
    }
    if (action == BG_PASS) {
        end_play(g, s, s->to_move);
        return;
    }
    int p = s->to_move, from = bg_step_from(action), to = bg_step_to(action);
    int8_t *me = s->board.men[p], *opp = s->board.men[1 - p];
    s->hash ^= im->zob_men[p][from][me[from]] ^ im->zob_men[p][from][me[from] - 1];
    s->hash ^= im->zob_men[p][to][me[to]] ^ im->zob_men[p][to][me[to] + 1];
    /* a hit: the blot goes to the bar, and the hit is part of the hash
     * so that states differing only in it never collide */
    if (to != BG_OFF && opp[25 - to] == 1) {
        s->hash ^= im->zob_men[1 - p][25 - to][1] ^ im->zob_men[1 - p][BG_BAR][opp[BG_BAR]] ^
                   im->zob_men[1 - p][BG_BAR][opp[BG_BAR] + 1] ^ im->zob_hit[s->nsteps];
    }
    bg_step_make(&s->board, p, action);
    s->hash ^= im->zob_step[s->nsteps][action];
    s->steps[s->nsteps++] = (uint8_t)action;
    if (me[BG_OFF] == BG_MEN)
        finish(g, s, bg_win_kind(&s->board, p), p);
    else if (s->nsteps == s->need)
        end_play(g, s, p);
}

void bg_returns(const game_t *g, const void *sv, double *out)
{
    const bg_state_t *s = sv;
    out[0] = out[1] = 0;
    if (s->phase != BG_OVER || s->result == BG_DRAW || s->result == BG_RESULT_NONE) return;
    double v = bg_impl(g)->points_scoring ? s->result / 3.0 : 1.0;
    out[s->winner] = v;
    out[1 - s->winner] = -v;
}

/* Bulk counting: a play is one whole move, a roll another; the last level
 * counts plays or outcomes without making them. */
static uint64_t perft(const game_t *g, const bg_state_t *s, int depth)
{
    if (depth == 0) return 1;
    if (s->phase == BG_OVER) return 0;
    if (s->phase != BG_PLAY) {
        int actions[36];
        double probs[36];
        int n = bg_chance_outcomes(g, s, actions, probs);
        if (depth == 1) return (uint64_t)n;
        uint64_t total = 0;
        for (int i = 0; i < n; i++) {
            bg_state_t c = *s;
            bg_apply(g, &c, actions[i]);
            total += perft(g, &c, depth - 1);
        }
        return total;
    }
    if (s->need == 0) { /* the pass */
        if (depth == 1) return 1;
        bg_state_t c = *s;
        bg_apply(g, &c, BG_PASS);
        return perft(g, &c, depth - 1);
    }
    int n, m = 0;
    const bg_play_t *plays = bg_state_plays(s, &n);
    /* the recursion reuses the thread's play cache: keep this level's plays */
    uint8_t(*mine)[BG_MAX_STEPS] = malloc(sizeof *mine * (size_t)(n ? n : 1));
    /* Out of memory for at most BG_MAX_PLAYS * 4 bytes: not an input
     * condition, and the perft slot (a node count) has no error channel. */
    CHECK(mine != NULL);
    for (int i = 0; i < n; i++)
        if (memcmp(plays[i].steps, s->steps, s->nsteps) == 0)
            memcpy(mine[m++], plays[i].steps, BG_MAX_STEPS);
    uint64_t total = 0;
    for (int i = 0; i < m && depth > 1; i++) {
        bg_state_t c = *s;
        for (int k = s->nsteps; k < s->need; k++) bg_apply(g, &c, mine[i][k]);
        total += perft(g, &c, depth - 1);
    }
    free(mine);
    return depth == 1 ? (uint64_t)m : total;
}

uint64_t bg_perft(const game_t *g, const void *sv, int depth)
{
    return perft(g, (const bg_state_t *)sv, depth);
}

uint64_t bg_hash(const game_t *g, const void *sv)
{
    (void)g;
    return ((const bg_state_t *)sv)->hash;
}

uint64_t bg_hash_recompute(const game_t *g, const void *sv)
{
    return bg_hash_compute(g, (const bg_state_t *)sv);
}
