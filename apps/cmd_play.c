/* cmd_play.c — `hoyle play GAME`: play in the terminal, humans and agents
 * in any mix; the board is shown before each move. People may take moves
 * back (`undo`), ask for a suggestion (`hint`) and `resign`, so the game is
 * driven here rather than by agent_play(): the moves played are kept, and an
 * undo replays them from the start into freshly reset agents.
 *
 * Invariant: every agent has observed exactly the actions in `hist`, in
 * order, from `start`; `cur` is `start` with them applied. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/cli.h"
#include "apps/cli_record.h"
#include "core/rng.h"
#include "games/playout.h"
#include "mcts/agent.h"

static const char help[] =
    "usage: hoyle play GAME [--p1 SPEC] [--p2 SPEC] [--position P] [--seed S] [--quiet]\n"
    "                       [--verbose] [--record OUT]\n\n"
    "Play one game. Each player is an agent spec; the default is human (type\n"
    "moves in the game's notation; 'moves' lists them, 'undo' takes back your\n"
    "last move, 'hint' asks the opponent's agent for a move, 'resign', 'board',\n"
    "'help', 'quit').\n"
    "Examples: hoyle play checkers --p2 'mcts(sims=2000)'\n"
    "          hoyle play chess --p2 'alphabeta(time_ms=1000)'   (SAN: Nf3, O-O)\n"
    "          hoyle play gobang --p1 random --p2 'alphabeta(depth=3)'\n"
    "The board is printed before every move (--quiet: only moves and the\n"
    "result, except that a human is always shown the position, the player to\n"
    "move, the dice and the last move before the prompt; 'board' redraws it).\n"
    "Agents are named as typed (--verbose: their full specs, every parameter).\n"
    "Chance outcomes (dice) and agents are seeded from S (default 1); a roll\n"
    "depends on S and its place in the game, so an undone move meets it again.\n"
    "--record OUT stores the finished game (a resignation or a forfeit included;\n"
    "not one abandoned with 'quit'): OUT.h5 as an HDF5 game record (the page's\n"
    "Replay and hoyle elo read it; games from the start only), any other name in\n"
    "the game's record format (PGN for chess, PDN for checkers).\n"
    "Exit 0 when the game ends or a human quits or resigns, 1 when input ends\n"
    "early.\n";

/* The agent that suggests a move when no other seat has one of its own. */
#define HINT_DEFAULT_SPEC "mcts(time_ms=1000)"

typedef struct play_ctx {
    const game_t *g;
    agent_t *const *seats;
    const char *const *names; /* per seat: as typed, or the full spec (--verbose) */
    bool quiet;
    void *last; /* the state after the latest move */
    bool shown; /* `last` is the latest board drawn */
} play_ctx_t;

/* Draw `last` unless quiet, or unless a human moves next: the human agent
 * draws the position itself before its prompt (mcts/agent_human.c), so it
 * is on the screen before every prompt and never twice. */
static void show_board(play_ctx_t *p)
{
    char text[GAME_TEXT_MAX];
    int next = game_current_player(p->g, p->last);
    if (p->quiet || (next >= 0 && agent_is_human(p->seats[next]))) return;
    if (game_state_to_string(p->g, p->last, text, sizeof text) >= 0) printf("\n%s", text);
    p->shown = true;
}

/* Each action: say who played what (in the notation players read: SAN for
 * chess), then draw the position it leads to. */
static void show_move(play_ctx_t *p, const void *before, int player, int action)
{
    char move[GAME_MOVE_MAX];
    if (game_move_to_display(p->g, before, &action, 1, move, sizeof move) < 0)
        snprintf(move, sizeof move, "#%d", action);
    if (player == PLAYER_CHANCE)
        printf("chance: %s\n", move);
    else if (p->g->num_seats > p->g->num_players) /* partnerships: which seat of the player */
        printf("player %d (%s) at seat %d plays %s\n", player + 1, p->names[player],
               game_current_seat(p->g, before) + 1, move);
    else
        printf("player %d (%s) plays %s\n", player + 1, p->names[player], move);
    memcpy(p->last, before, p->g->state_size);
    game_apply(p->g, p->last, action);
    p->shown = false;
    show_board(p);
    fflush(stdout);
}

/* Every distinct agent observes `action` (one agent may play several seats). */
static void observe_all(const game_t *g, agent_t *const *seats, const void *s, int action)
{
    for (int p = 0; p < g->num_players; p++) {
        bool seen = false;
        for (int q = 0; q < p; q++) seen |= seats[q] == seats[p];
        if (!seen) agent_observe(seats[p], s, action);
    }
}

/* The game so far: the start, the actions played, the position now. */
typedef struct game_run {
    const game_t *g;
    agent_t *const *seats;
    const void *start;
    void *cur, *scratch;
    int *hist;
    int n, cap;
    uint64_t seed;
    uint64_t seat_seed[GAME_MAX_PLAYERS];
} game_run_t;

/* Seat p's seed: S mixed with a per-seat multiple of the golden ratio
 * constant, so two identical agent specs do not mirror each other's
 * randomness. */
static uint64_t seat_seed(uint64_t seed, int p)
{
    return rng_mix(seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(p + 1)));
}

/* Rewind to the first `n` actions: restart every agent from its seed (so a
 * game taken back to its start replays as a fresh one) and let it observe
 * them again from the start (no display). */
static int rewind_to(game_run_t *r, int n)
{
    const game_t *g = r->g;
    for (int p = 0; p < g->num_players; p++)
        if (agent_reseed(r->seats[p], r->seat_seed[p])) return HOYLE_ENOMEM;
    memcpy(r->cur, r->start, g->state_size);
    for (int i = 0; i < n; i++) {
        observe_all(g, r->seats, r->cur, r->hist[i]);
        game_apply(g, r->cur, r->hist[i]);
    }
    r->n = n;
    return HOYLE_OK;
}

/* `undo`: back to the last time before now that a human seat was to start a
 * whole move (the asker's own previous turn against an agent; the last move
 * between two people). Returns the whole moves taken back (chance outcomes
 * not counted), 0 when there is none. */
static int undo(game_run_t *r)
{
    const game_t *g = r->g;
    int target = -1, prev = PLAYER_TERMINAL, starts = 0, starts_at_target = 0;
    memcpy(r->scratch, r->start, g->state_size);
    for (int i = 0; i < r->n; i++) {
        int p = game_current_player(g, r->scratch);
        bool begins = p >= 0 && (p != prev || g->num_players == 1);
        if (begins && agent_is_human(r->seats[p])) target = i, starts_at_target = starts;
        starts += begins;
        prev = p;
        game_apply(g, r->scratch, r->hist[i]);
    }
    if (target < 0) return 0;
    if (rewind_to(r, target)) return hoyle_error(HOYLE_ENOMEM, "undo: out of memory");
    return starts - starts_at_target;
}

/* `hint`: the whole move another seat's agent (else HINT_DEFAULT_SPEC) would
 * play for `player` now, printed; the game is not changed. */
static void hint(game_run_t *r, int player, const char *const *names)
{
    const game_t *g = r->g;
    const char *spec = HINT_DEFAULT_SPEC, *name = HINT_DEFAULT_SPEC;
    for (int p = 0; p < g->num_players; p++)
        if (p != player && !agent_is_human(r->seats[p]))
            spec = agent_spec(r->seats[p]), name = names[p];
    agent_t *a = NULL;
    int acts[GAME_MAX_CHAIN], k = 0,
                              rc = agent_create(g, spec, rng_mix(r->seed ^ 0x68696e74ULL), &a);
    memcpy(r->scratch, r->cur, g->state_size);
    /* a chain (a multi-jump) is one whole move: ask until the turn passes */
    while (rc == 0 && k < GAME_MAX_CHAIN && game_current_player(g, r->scratch) == player) {
        rc = agent_act(a, r->scratch, &acts[k]);
        if (rc == 0 && !game_is_legal(g, r->scratch, acts[k]))
            rc = hoyle_error(HOYLE_EINVAL, "it chose an illegal action");
        if (rc) break;
        agent_observe(a, r->scratch, acts[k]);
        game_apply(g, r->scratch, acts[k++]);
    }
    char move[GAME_MOVE_MAX * 4];
    if (rc == 0 && game_move_to_display(g, r->cur, acts, k, move, sizeof move) >= 0)
        printf("hint (%s): %s\n", name, move);
    else
        printf("no hint: %s\n", hoyle_last_error());
    fflush(stdout);
    agent_free(a);
}

typedef enum play_end { END_RULES, END_QUIT, END_EOF, END_RESIGN, END_FORFEIT } play_end_t;

/* Play to the end. Returns 0 with *end and returns[] (END_RULES, END_RESIGN,
 * END_FORFEIT), or with *end END_QUIT / END_EOF, or a negative status. */
static int play_game(game_run_t *r, play_ctx_t *ctx, play_end_t *end, double *returns, int *who)
{
    const game_t *g = r->g;
    size_t nc = g->max_chance_outcomes > 0 ? (size_t)g->max_chance_outcomes : 1;
    int *chance_actions = malloc(sizeof(int) * nc);
    double *chance_probs = malloc(sizeof(double) * nc);
    int status = chance_actions && chance_probs ? HOYLE_OK
                                                : hoyle_error(HOYLE_ENOMEM, "play: out of memory");
    *who = -1;
    if (status == HOYLE_OK) status = rewind_to(r, 0);
    while (status == HOYLE_OK && !game_is_terminal(g, r->cur)) {
        if (r->n >= r->cap) {
            status = hoyle_error(HOYLE_ESTATE, "%s: game exceeded max_game_length", g->spec);
            break;
        }
        int player = game_current_player(g, r->cur), action = -1;
        if (player == PLAYER_CHANCE) {
            /* the roll depends on the seed and its place in the game only */
            rng_t rng;
            rng_init(&rng, rng_mix(r->seed + 0x9e3779b97f4a7c15ULL * (uint64_t)r->n));
            action = game_chance_sample(g, r->cur, &rng, chance_actions, chance_probs);
            if (action < 0) status = action;
        } else {
            agent_t *a = r->seats[player];
            int rc = agent_act(a, r->cur, &action);
            const char *why = rc ? hoyle_last_error() : "";
            if (rc == HOYLE_ENOMEM) {
                status = rc;
                break;
            }
            if (rc && agent_is_human(a) && strcmp(why, "undo") == 0) {
                int k = undo(r);
                if (k < 0) {
                    status = k;
                    break;
                }
                if (k)
                    printf("took back %d move%s\n", k, k == 1 ? "" : "s");
                else
                    printf("nothing to take back\n");
                memcpy(ctx->last, r->cur, g->state_size);
                continue;
            }
            if (rc && agent_is_human(a) && strcmp(why, "hint") == 0) {
                hint(r, player, ctx->names);
                continue;
            }
            bool resign = rc && agent_is_human(a) && strcmp(why, "resign") == 0;
            if (rc && agent_is_human(a) &&
                (strcmp(why, "quit") == 0 || !strcmp(why, "end of input"))) {
                *end = strcmp(why, "quit") == 0 ? END_QUIT : END_EOF;
                break;
            }
            if (rc || !game_is_legal(g, r->cur, action)) {
                /* a forfeit, as agent_play() scores it: the others share the win */
                for (int p = 0; p < g->num_players; p++)
                    returns[p] = p == player ? -1.0 : 1.0 / (g->num_players - 1);
                *end = resign ? END_RESIGN : END_FORFEIT;
                *who = player;
                if (!resign && rc)
                    fprintf(stderr, "hoyle play: %s: %s\n", ctx->names[player], why);
                else if (!resign)
                    fprintf(stderr, "hoyle play: %s played illegal action %d\n", ctx->names[player],
                            action);
                break;
            }
        }
        if (status) break;
        show_move(ctx, r->cur, player, action);
        observe_all(g, r->seats, r->cur, action);
        game_apply(g, r->cur, action);
        r->hist[r->n++] = action;
    }
    if (status == HOYLE_OK && game_is_terminal(g, r->cur)) {
        *end = END_RULES;
        game_returns(g, r->cur, returns);
    }
    free(chance_actions);
    free(chance_probs);
    return status;
}

/* The finished game, stored by --record: the moves played (the undone ones
 * gone), the seats' specs as typed (as a tournament stores its config's), how it ended. */
static int record_play(cli_record_t *rec, const game_run_t *r, const char *const *seat_spec,
                       play_end_t end, const double *returns)
{
    int32_t *actions = malloc(sizeof *actions * (size_t)(r->n > 0 ? r->n : 1));
    if (actions == NULL) return hoyle_error(HOYLE_ENOMEM, "play: out of memory");
    for (int i = 0; i < r->n; i++) actions[i] = r->hist[i];
    game_record_t g = {.returns = {returns[0], r->g->num_players == 2 ? returns[1] : 0},
                       .end = end == END_RESIGN    ? RECORD_END_RESIGN
                              : end == END_FORFEIT ? RECORD_END_ERROR
                                                   : RECORD_END_RULES,
                       .num_actions = r->n,
                       .actions = actions,
                       .seed = r->seed,
                       .round = 1};
    for (int p = 0; p < r->g->num_players; p++) g.agent_spec[p] = (char *)seat_spec[p];
    int status = cli_record_add(rec, &g, r->start);
    free(actions);
    return status;
}

/* Exit codes as the help says: 0 the game ended or a human quit or resigned;
 * 1 input ended early, an agent forfeited, or the game failed; 2 bad usage,
 * game, position or agent spec. */
int cmd_play(int argc, char **argv)
{
    const char *game_spec = NULL, *position = NULL, *record_path = NULL,
               *seat_spec[GAME_MAX_PLAYERS] = {NULL, NULL};
    uint64_t seed = 0;
    bool quiet = false, verbose = false;
    const cli_opt_t opts[] = {
        CLI_OPT("--p1", &seat_spec[0], "SPEC", "the first player", .def = "human"),
        CLI_OPT("--p2", &seat_spec[1], "SPEC", "the second player", .def = "human"),
        CLI_OPT_POSITION(&position),
        CLI_OPT("--seed", &seed, "S", "seeds dice and agents", .def = "1"),
        CLI_OPT_FLAG("--quiet", &quiet, "only moves and the result, no boards"),
        CLI_OPT_FLAG("--verbose", &verbose, "name agents by their full specs"),
        CLI_OPT("--record", &record_path, "OUT", "store the game: OUT.h5 as HDF5, else PGN/PDN"),
        CLI_OPT_END,
    };
    int rc =
        cli_parse_one("play", help, opts, "GAME", cli_print_agent_kinds, &game_spec, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    const game_t *g = cli_game("play", game_spec);
    if (g == NULL) return EXIT_USAGE;
    int code = EXIT_OK, cap = agent_game_capacity(g);
    agent_t *seats[GAME_MAX_PLAYERS] = {NULL, NULL};
    void *start = malloc(g->state_size), *last = malloc(g->state_size),
         *cur = malloc(g->state_size), *scratch = malloc(g->state_size);
    int *hist = malloc(sizeof(int) * (size_t)cap);
    if (!start || !last || !cur || !scratch || !hist)
        code = cli_usage_error("play", "out of memory");
    if (code == EXIT_OK && position) {
        if (game_position_from_string(g, position, start)) code = cli_fail("play", EXIT_USAGE);
    } else if (code == EXIT_OK) {
        game_init(g, start);
    }
    for (int p = 0; p < g->num_players && code == EXIT_OK; p++)
        if (agent_create(g, seat_spec[p], seat_seed(seed, p), &seats[p]))
            code = cli_fail("play", EXIT_USAGE);
    cli_record_t *record = NULL;
    if (code == EXIT_OK && record_path)
        code = cli_record_open("play", record_path, g, position != NULL, "hoyle play", &record);
    if (code == EXIT_OK) {
        const char *names[GAME_MAX_PLAYERS];
        for (int p = 0; p < g->num_players; p++) {
            agent_human_allow_commands(seats[p], true);
            names[p] = verbose ? agent_spec(seats[p]) : seat_spec[p];
            if (verbose) printf("player %d: %s\n", p + 1, agent_spec(seats[p]));
        }
        play_ctx_t ctx = {.g = g, .seats = seats, .names = names, .quiet = quiet, .last = last};
        memcpy(last, start, g->state_size);
        show_board(&ctx); /* the start, unless a human moves first */
        fflush(stdout);
        game_run_t run = {.g = g,
                          .seats = seats,
                          .start = start,
                          .cur = cur,
                          .scratch = scratch,
                          .hist = hist,
                          .cap = cap,
                          .seed = seed};
        for (int p = 0; p < g->num_players; p++) run.seat_seed[p] = seat_seed(seed, p);
        play_end_t end = END_RULES;
        double returns[GAME_MAX_PLAYERS] = {0};
        int who = -1;
        if (play_game(&run, &ctx, &end, returns, &who)) {
            code = cli_fail("play", EXIT_FAILED);
        } else if (end == END_QUIT) {
            fprintf(stderr, "hoyle play: game abandoned\n");
        } else if (end == END_EOF) {
            fprintf(stderr, "hoyle play: input ended before the game did\n");
            code = EXIT_FAILED;
        } else {
            char text[GAME_TEXT_MAX]; /* the final position, if not drawn */
            if (end == END_RESIGN) printf("player %d resigns\n", who + 1);
            if (end == END_RULES && !quiet && !ctx.shown &&
                game_state_to_string(g, cur, text, sizeof text) >= 0)
                printf("\n%s", text);
            printf("\nresult after %d actions:", run.n);
            for (int p = 0; p < g->num_players; p++) printf(" player %d %+g", p + 1, returns[p]);
            printf("\n");
            if (end == END_FORFEIT) code = EXIT_FAILED;
            if (record && record_play(record, &run, seat_spec, end, returns))
                code = cli_fail("play", EXIT_FAILED);
        }
    }
    if (cli_record_close(record) && code == EXIT_OK) code = cli_fail("play", EXIT_FAILED);
    for (int p = 0; p < GAME_MAX_PLAYERS; p++) agent_free(seats[p]);
    free(start);
    free(last);
    free(cur);
    free(scratch);
    free(hist);
    game_free(g);
    return code;
}
