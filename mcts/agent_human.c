/* agent_human.c — a person at the terminal. Reads one whole move per line in
 * the game's notation (game_move_from_string: `11-15`, `9x18x27`), queues its
 * actions and hands them out one agent_act() at a time (chains). Also
 * understands `moves` (list the legal moves), `board`, `help` and `quit`, and,
 * for a driver that allows them (agent_human_allow_commands: `hoyle play`),
 * `undo`, `hint` and `resign`, which end the act with HOYLE_ESTATE and that
 * word as the message. Illegal input re-prompts with the reason, once per
 * line typed (a line too long for the buffer is one error, not several);
 * end of input stops cleanly (HOYLE_ESTATE, "end of input"). Moves are shown
 * in the notation players read (game_move_to_display: SAN for chess).
 * Prompts go to stdout.
 *
 * Invariant: the position the person must move from is on the screen before
 * every prompt: each act that reads a line first draws the board (with the
 * player to move and the dice, as game_state_to_string gives them) and the
 * last whole move observed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcts/agent_kind.h"

typedef struct human {
    FILE *in, *out;
    int queue[GAME_MAX_CHAIN];
    int queued, next;
    void *scratch;
    /* the last whole move observed (a run of actions by one player, chance
     * outcomes skipped), for the "last move" line: its first state, actions */
    void *last_start;
    int last_actions[GAME_MAX_CHAIN];
    int last_n, last_player;
    bool last_closed; /* a chance outcome followed it: the next action starts a new move */
    bool commands;    /* undo, hint and resign end the act (agent_human_allow_commands) */
    bool skip_draw;   /* the last act ended with "hint": the board is still on the screen */
} human_t;

typedef struct list_ctx {
    const game_t *g;
    const void *s;
    FILE *out;
    int count;
} list_ctx_t;

/* game_whole_moves callback: prints one whole move; 0 = keep listing. */
static int list_move(const int *actions, int n, const void *after, void *ctx)
{
    (void)after;
    list_ctx_t *l = ctx;
    char text[GAME_MOVE_MAX * 4];
    if (game_move_to_display(l->g, l->s, actions, n, text, sizeof text) >= 0)
        fprintf(l->out, "%s%s", l->count++ ? ", " : "", text); /* moves may contain spaces */
    return 0;
}

/* Strips the newline fgets keeps and surrounding blanks, in place. */
static void trim(char *line)
{
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
        line[--n] = '\0';
    size_t k = 0;
    while (line[k] == ' ' || line[k] == '\t') k++;
    memmove(line, line + k, strlen(line + k) + 1);
}

/* The board, then the last move ("last move: player 2 d4"), then the prompt. */
static void draw(const game_t *g, const human_t *h, const void *state)
{
    char text[GAME_TEXT_MAX], move[GAME_MOVE_MAX * 4];
    if (game_state_to_string(g, state, text, sizeof text) >= 0) fprintf(h->out, "\n%s", text);
    if (h->last_n > 0 &&
        game_move_to_display(g, h->last_start, h->last_actions, h->last_n, move, sizeof move) >= 0)
        fprintf(h->out, "last move: player %d %s\n", h->last_player + 1, move);
}

static void human_observe(agent_t *a, const void *before, int action)
{
    human_t *h = a->impl;
    int player = game_current_player(a->g, before);
    if (player == PLAYER_CHANCE) {
        h->last_closed = true;
        return;
    }
    /* in a one-player game each action is one whole move (games/game.h) */
    if (player != h->last_player || h->last_closed || h->last_n == GAME_MAX_CHAIN ||
        a->g->num_players == 1) {
        memcpy(h->last_start, before, a->g->state_size);
        h->last_n = 0;
        h->last_player = player;
        h->last_closed = false;
    }
    h->last_actions[h->last_n++] = action;
}

static int human_act(agent_t *a, const void *state, int *action)
{
    const game_t *g = a->g;
    human_t *h = a->impl;
    /* 1. the rest of a whole move typed earlier */
    if (h->next < h->queued) {
        int next = h->queue[h->next++];
        /* A queued action no longer legal means the state is not the one the move
         * was typed for: drop the rest of it and ask again. */
        if (game_is_legal(g, state, next)) {
            *action = next;
            return HOYLE_OK;
        }
    }
    h->queued = h->next = 0;
    char line[512];
    if (!h->skip_draw) draw(g, h, state);
    h->skip_draw = false;
    for (;;) {
        /* Players are shown to people 1-based. */
        fprintf(h->out, "move (player %d)> ", game_current_player(g, state) + 1);
        fflush(h->out);
        if (fgets(line, sizeof line, h->in) == NULL) {
            fprintf(h->out, "\n");
            return hoyle_error(HOYLE_ESTATE, "end of input");
        }
        if (strchr(line, '\n') == NULL && !feof(h->in)) {
            /* the rest of an overlong line is dropped: one message per line typed */
            int c;
            while ((c = fgetc(h->in)) != EOF && c != '\n') continue;
            fprintf(h->out, "that line is too long (at most %d characters); type 'help'\n",
                    (int)sizeof line - 2);
            continue;
        }
        trim(line);
        if (line[0] == '\0') continue;
        if (strcmp(line, "quit") == 0 || strcmp(line, "q") == 0)
            return hoyle_error(HOYLE_ESTATE, "quit");
        if (h->commands && (strcmp(line, "undo") == 0 || strcmp(line, "hint") == 0 ||
                            strcmp(line, "resign") == 0)) {
            h->skip_draw = strcmp(line, "hint") == 0;
            return hoyle_error(HOYLE_ESTATE, "%s", line);
        }
        if (strcmp(line, "help") == 0 || strcmp(line, "?") == 0) {
            fprintf(h->out,
                    "type a move in the game's notation, 'moves' to list the legal moves, "
                    "'board' to draw the position again, %s'quit' to stop\n",
                    h->commands ? "'undo' to take back your last move, 'hint' for a suggestion, "
                                  "'resign' to give up, "
                                : "");
            continue;
        }
        if (strcmp(line, "board") == 0) {
            draw(g, h, state);
            continue;
        }
        if (strcmp(line, "moves") == 0) {
            list_ctx_t l = {.g = g, .s = state, .out = h->out};
            fprintf(h->out, "legal moves: ");
            game_whole_moves(g, state, list_move, &l);
            fprintf(h->out, "\n");
            continue;
        }
        int n = game_move_from_string(g, state, line, h->queue, GAME_MAX_CHAIN);
        if (n > 0) {
            /* The whole string is also applied on a copy: a move whose first action
             * is legal but a later one is not is rejected before any part is played. */
            memcpy(h->scratch, state, g->state_size);
            if (game_apply_move_string(g, h->scratch, line) < 0) n = -1;
        }
        if (n <= 0) {
            /* the reason already quotes the text; long input is echoed cut short */
            fprintf(h->out, "illegal move '%.40s%s': %s (type 'moves' for the list)\n", line,
                    strlen(line) > 40 ? "..." : "", hoyle_last_error());
            continue;
        }
        h->queued = n;
        h->next = 1;
        *action = h->queue[0];
        return HOYLE_OK;
    }
}

static void human_reset(agent_t *a)
{
    human_t *h = a->impl;
    h->queued = h->next = 0;
    h->last_n = 0;
    h->last_player = -1;
    h->last_closed = false;
    h->skip_draw = false;
}

static void human_destroy(agent_t *a)
{
    human_t *h = a->impl;
    if (h) {
        free(h->scratch);
        free(h->last_start);
    }
    free(h);
}

/* A person has no seed: a reseed is a reset that keeps the terminal and the
 * commands allowed. */
static int human_reseed(agent_t *a)
{
    human_reset(a);
    return HOYLE_OK;
}

static const agent_vt_t human_vt = {.act = human_act,
                                    .observe = human_observe,
                                    .reset = human_reset,
                                    .reseed = human_reseed,
                                    .destroy = human_destroy};

static int human_create(agent_t *a)
{
    human_t *h = calloc(1, sizeof *h);
    if (h) {
        h->scratch = malloc(a->g->state_size);
        h->last_start = malloc(a->g->state_size);
    }
    if (!h || !h->scratch || !h->last_start) {
        if (h) {
            free(h->scratch);
            free(h->last_start);
        }
        free(h);
        return hoyle_error(HOYLE_ENOMEM, "human: out of memory");
    }
    h->in = stdin;
    h->out = stdout;
    h->last_player = -1;
    a->impl = h;
    a->vt = &human_vt;
    return HOYLE_OK;
}

void agent_human_allow_commands(agent_t *a, bool on)
{
    if (a && a->kind == &agent_human_kind) ((human_t *)a->impl)->commands = on;
}

static const param_def_t human_params[] = {{.key = NULL}};

const agent_kind_t agent_human_kind = {
    .name = "human",
    .description = "a person typing moves at the terminal",
    .params = human_params,
    .human = 1,
    .caps = AGENT_CAP_CHANCE,
    .create = human_create,
};
