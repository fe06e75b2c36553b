/* openings.c — opening books and random k-move openings (openings.h).
 * Invariant: every opening in a list applies legally from the initial
 * position and leaves a non-terminal state. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "eval/openings.h"
#include "games/playout.h"

void opening_list_done(opening_list_t *l)
{
    if (l == NULL) return;
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

static int list_push(opening_list_t *l, int *cap, const opening_t *o)
{
    if (l->n == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        opening_t *p = realloc(l->items, sizeof *p * (size_t)nc);
        if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "openings: out of memory");
        l->items = p;
        *cap = nc;
    }
    l->items[l->n++] = *o;
    return HOYLE_OK;
}

/* Re-checks every action even for lists that were validated on load: an
 * opening may also come from a record or a caller, and a game over before
 * or at the end of the opening would make the pairing meaningless. */
int opening_apply(const game_t *g, const opening_t *o, void *s)
{
    game_init(g, s);
    for (int i = 0; i < o->num_actions; i++) {
        if (game_is_terminal(g, s))
            return hoyle_error(HOYLE_EINVAL, "opening '%s': the game ends before action %d",
                               o->name, i + 1);
        if (game_apply_checked(g, s, o->actions[i])) return HOYLE_EINVAL;
    }
    if (game_is_terminal(g, s))
        return hoyle_error(HOYLE_EINVAL, "opening '%s' ends the game", o->name);
    return HOYLE_OK;
}

/* The actions are regrouped into whole moves (a run by one player; a chance
 * event alone) so the text uses the game's move notation, e.g. one
 * "11x18x25" for a multi-jump; `start` keeps the position before each move,
 * which is what the notation is relative to. */
int opening_to_text(const game_t *g, const opening_t *o, char *buf, size_t cap)
{
    void *s = malloc(g->state_size), *start = malloc(g->state_size);
    size_t len = 0;
    int status = HOYLE_OK;
    if (!s || !start) status = hoyle_error(HOYLE_ENOMEM, "openings: out of memory");
    if (cap) buf[0] = '\0';
    if (!status) game_init(g, s);
    for (int i = 0; status == 0 && i < o->num_actions;) {
        int p = game_current_player(g, s), n = 0;
        memcpy(start, s, g->state_size);
        do {
            game_apply(g, s, o->actions[i + n]);
            n++;
        } while (i + n < o->num_actions && p != PLAYER_CHANCE && game_current_player(g, s) == p);
        char mv[GAME_MOVE_MAX * 4];
        int r = game_move_to_string(g, start, o->actions + i, n, mv, sizeof mv);
        if (r < 0)
            status = r;
        else {
            int w = snprintf(buf + len, cap - len, "%s%s", len ? " " : "", mv);
            if (w < 0 || (size_t)w >= cap - len)
                status = hoyle_error(HOYLE_EFULL, "openings: text too long");
            else
                len += (size_t)w;
        }
        i += n;
    }
    free(s);
    free(start);
    return status < 0 ? status : (int)len;
}

/* Parse one book line (name already split off) into `o`. */
/* Moves are separated by blanks or ';'. Each is parsed against the position
 * so far and applied checked, so a book line that is illegal anywhere is
 * rejected with its file:line. */
static int parse_moves(const game_t *g, char *moves, opening_t *o, void *s, const char *where)
{
    game_init(g, s);
    o->num_actions = 0;
    for (char *save = NULL, *tok = strtok_r(moves, " \t;", &save); tok;
         tok = strtok_r(NULL, " \t;", &save)) {
        if (game_is_terminal(g, s))
            return hoyle_error(HOYLE_EINVAL, "%s: the game is over before move '%s'", where, tok);
        int acts[GAME_MAX_CHAIN];
        int n = game_move_from_string(g, s, tok, acts, GAME_MAX_CHAIN);
        if (n < 0) return hoyle_error_prefix(HOYLE_EINVAL, "%s: move '%s'", where, tok);
        if (o->num_actions + n > OPENING_MAX_ACTIONS)
            return hoyle_error(HOYLE_EINVAL, "%s: opening longer than %d actions", where,
                               OPENING_MAX_ACTIONS);
        for (int k = 0; k < n; k++) {
            if (game_apply_checked(g, s, acts[k]))
                return hoyle_error_prefix(HOYLE_EINVAL, "%s: move '%s'", where, tok);
            o->actions[o->num_actions++] = acts[k];
        }
    }
    if (game_is_terminal(g, s))
        return hoyle_error(HOYLE_EINVAL, "%s: the opening ends the game", where);
    return HOYLE_OK;
}

static char *trim(char *t)
{
    while (isspace((unsigned char)*t)) t++;
    size_t n = strlen(t);
    while (n && isspace((unsigned char)t[n - 1])) t[--n] = '\0';
    return t;
}

/* Book format: one opening a line, "name | move move ..." or just the moves
 * (then the moves are the name too); blank lines and '#' comments are
 * skipped. Names must be unique because results are grouped by them. All or
 * nothing: on any error *out is untouched. */
int openings_load_book(const game_t *g, const char *path, opening_list_t *out)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) return hoyle_error(HOYLE_EIO, "book %s: %s", path, strerror(errno));
    opening_list_t l = {0, NULL};
    int cap = 0, status = HOYLE_OK, lineno = 0;
    void *s = malloc(g->state_size);
    char line[1024];
    if (s == NULL) status = hoyle_error(HOYLE_ENOMEM, "openings: out of memory");
    while (status == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *t = trim(line);
        if (*t == '\0' || *t == '#') continue;
        char where[600];
        snprintf(where, sizeof where, "book %s:%d", path, lineno);
        opening_t o;
        memset(&o, 0, sizeof o);
        char *bar = strchr(t, '|'), *moves = t;
        if (bar) {
            *bar = '\0';
            moves = trim(bar + 1);
            snprintf(o.name, sizeof o.name, "%s", trim(t));
        } else {
            snprintf(o.name, sizeof o.name, "%s", t);
        }
        if (o.name[0] == '\0') {
            status = hoyle_error(HOYLE_EINVAL, "%s: empty opening name", where);
            break;
        }
        for (int i = 0; i < l.n && status == 0; i++)
            if (strcmp(l.items[i].name, o.name) == 0)
                status =
                    hoyle_error(HOYLE_EINVAL, "%s: opening name '%s' is used twice", where, o.name);
        if (status == 0) status = parse_moves(g, moves, &o, s, where);
        if (status == 0) status = list_push(&l, &cap, &o);
    }
    if (status == 0 && ferror(f)) status = hoyle_error(HOYLE_EIO, "book %s: read error", path);
    if (status == 0 && l.n == 0) status = hoyle_error(HOYLE_EINVAL, "book %s: no openings", path);
    fclose(f);
    free(s);
    if (status) {
        opening_list_done(&l);
        return status;
    }
    *out = l;
    return HOYLE_OK;
}

/* Draw one random opening of `moves` whole moves; HOYLE_ESTATE if it ended the game. */
/* A chance event is a whole move of its own (the inner loop stops after it);
 * a decision move runs until the turn passes, so "k moves" means k moves in
 * the game's own sense and a multi-jump is never cut in half. */
static int draw_one(const game_t *g, int moves, rng_t *rng, void *s, int *legal, opening_t *o)
{
    game_init(g, s);
    o->num_actions = 0;
    for (int m = 0; m < moves; m++) {
        int p = game_current_player(g, s);
        do {
            if (game_is_terminal(g, s)) return HOYLE_ESTATE;
            int a;
            if (p == PLAYER_CHANCE) {
                a = game_chance_sample_alloc(g, s, rng);
                if (a < 0) return a;
            } else {
                int n = game_legal_actions(g, s, legal);
                if (n <= 0) return HOYLE_ESTATE;
                a = legal[rng_below(rng, (uint32_t)n)];
            }
            if (o->num_actions >= OPENING_MAX_ACTIONS)
                return hoyle_error(HOYLE_EINVAL, "openings: random opening longer than %d actions",
                                   OPENING_MAX_ACTIONS);
            o->actions[o->num_actions++] = a;
            game_apply(g, s, a);
        } while (p != PLAYER_CHANCE && game_current_player(g, s) == p);
    }
    return game_is_terminal(g, s) ? HOYLE_ESTATE : HOYLE_OK;
}

int openings_random(const game_t *g, int moves, int count, uint64_t seed, opening_list_t *out)
{
    if (moves < 0 || count < 1)
        return hoyle_error(HOYLE_EINVAL, "openings: random:%d with %d openings", moves, count);
    /* There is only one 0-move opening (the start), so asking for more would
     * never finish. */
    if (moves == 0) count = 1;
    opening_list_t l = {0, NULL};
    int cap = 0, status = HOYLE_OK, tries = 0;
    void *s = malloc(g->state_size);
    int *legal = malloc(sizeof(int) * (size_t)g->max_legal);
    rng_t rng;
    /* One stream from the caller's seed: the same (game, moves, count, seed)
     * always yields the same list, so a tournament can be rerun or resumed with
     * the same openings. */
    rng_init(&rng, seed);
    if (!s || !legal) status = hoyle_error(HOYLE_ENOMEM, "openings: out of memory");
    while (status == 0 && l.n < count) {
        /* Rejection sampling (terminal or duplicate draws are retried) needs a
         * bound: a game with fewer distinct k-move openings than `count` would
         * otherwise loop forever. 100 tries per opening plus slack is generous for
         * any game with enough openings. */
        if (++tries > 100 * count + 1000) {
            status =
                hoyle_error(HOYLE_EINVAL, "openings: could not find %d distinct %d-move openings",
                            count, moves);
            break;
        }
        opening_t o;
        memset(&o, 0, sizeof o);
        int r = draw_one(g, moves, &rng, s, legal, &o);
        if (r == HOYLE_ESTATE) continue;
        if (r) {
            status = r;
            break;
        }
        /* Duplicates would weight one opening twice in every pairing; the quadratic
         * scan is fine for the hundreds of openings a tournament uses. */
        int dup = 0;
        for (int i = 0; i < l.n && !dup; i++)
            dup = l.items[i].num_actions == o.num_actions &&
                  memcmp(l.items[i].actions, o.actions, sizeof(int) * (size_t)o.num_actions) == 0;
        if (dup) continue;
        char text[OPENING_NAME_MAX];
        if (moves == 0) snprintf(o.name, sizeof o.name, "start");
        /* The name is the opening's move text, so reports and records show it
         * directly; the numbered fallback covers text longer than a name. */
        else if (opening_to_text(g, &o, text, sizeof text) >= 0)
            snprintf(o.name, sizeof o.name, "%s", text);
        else
            snprintf(o.name, sizeof o.name, "random-%d", l.n + 1);
        status = list_push(&l, &cap, &o);
    }
    free(s);
    free(legal);
    if (status) {
        opening_list_done(&l);
        return status;
    }
    *out = l;
    return HOYLE_OK;
}

int openings_parse_random(const char *src, int *k)
{
    if (strncmp(src, "random:", 7) != 0) return 0;
    char *end;
    errno = 0;
    long v = strtol(src + 7, &end, 10);
    if (end == src + 7 || *end || errno || v < 0 || v > OPENINGS_RANDOM_MAX) return -1;
    *k = (int)v;
    return 1;
}

int openings_from_source(const game_t *g, const char *src, int count, uint64_t seed,
                         opening_list_t *out)
{
    if (strncmp(src, "book:", 5) == 0) return openings_load_book(g, src + 5, out);
    if (strcmp(src, "none") == 0) return openings_random(g, 0, 1, seed, out);
    int k;
    if (openings_parse_random(src, &k) != 1)
        return hoyle_error(HOYLE_EINVAL, "'%s' is not random:K (K in 0..%d), book:PATH or none",
                           src, OPENINGS_RANDOM_MAX);
    return openings_random(g, k, count, seed, out);
}
