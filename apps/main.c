/* main.c — `hoyle`, one binary with subcommands (see cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "apps/cli.h"
#include "dist/dist.h"
#include "agents/game_agents.h"
#include "solve/agent_oracle.h"
#include "train/agent_td.h"
#ifdef HOYLE_TORCH
#include "train/agent_az.h"
#endif

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command_t;

/* Listed in `hoyle --help` in this order: inspection first, then play and
 * evaluation, then the training and benchmark jobs. */
static const command_t commands[] = {
    {"games", cmd_games, "list games, their variants and parameters"},
    {"agents", cmd_agents, "list agent kinds, what they can play and their parameters"},
    {"show", cmd_show, "draw a position and list its legal moves"},
    {"perft", cmd_perft, "count whole-move paths to a depth (rules check)"},
    {"random", cmd_random, "play random games: results, lengths, games/s"},
    {"play", cmd_play, "play in the terminal: humans and agents"},
    {"match", cmd_match, "head-to-head match between two agents"},
    {"analyze", cmd_analyze, "what an agent's search thinks of a position"},
    {"tournament", cmd_tournament, "round-robin/gauntlet tournament from a YAML config"},
    {"study", cmd_study, "agents compared across search budgets: Elo, CSV, JSON, SVG"},
    {"elo", cmd_elo, "Elo ratings from stored game records (.h5)"},
    {"report", cmd_report, "Elo, cross table, LOS, first-player table; PDN export"},
    {"sprt", cmd_sprt, "sequential probability ratio test between two agents"},
    {"selfplay", cmd_selfplay, "self-play games: samples, throughput (network or fake)"},
    {"train", cmd_train, "AlphaZero training loop from a YAML config (resumable)"},
    {"plot", cmd_plot, "a training run's eval.csv as an SVG (score, Elo by generation)"},
    {"export", cmd_export, "a trained net as a TorchScript file (Python, libtorch)"},
    {"solve", cmd_solve, "exact solvers; agents run on one-player puzzles"},
    {"accuracy", cmd_accuracy, "agents against perfect play (endgame tables)"},
    {"tablebase", cmd_tablebase, "endgame tables by retrograde analysis (chess)"},
    {"serve", cmd_serve, "the page in the browser: play, replay, ratings (JSON API)"},
    {"uci", cmd_uci, "serve an agent as a UCI engine (chess GUIs, other engines)"},
    {"bench", cmd_bench, "deterministic speed benchmark with a node signature"},
    {NULL, NULL, NULL},
};

static const char *command_name_at(const void *ctx, int i)
{
    (void)ctx;
    return commands[i].name;
}

static void usage(FILE *out)
{
    fprintf(out,
            "hoyle %s — game-playing AI research framework\n\n"
            "usage: hoyle COMMAND [ARGS]   (hoyle COMMAND --help for details)\n\ncommands:\n",
            HOYLE_VERSION);
    for (int i = 0; commands[i].name; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nGames and agents are specs: gobang, gobang(board=15,men=0), mcts(sims=800).\n"
                 "Exit codes: 0 success, 1 the job failed, 2 bad usage or bad input.\n");
}

/* glibc's malloc returns large freed blocks to the kernel (munmap, heap trimming) and the
 * next network forward faults the same memory back in, zeroed page by page: in one-thread
 * self-play a quarter of the page faults and a tenth of the CPU time, and with several
 * workers in one process the faults and unmaps also serialise on the address space's lock.
 * Keeping freed blocks up to these sizes in the process removes that churn (docs/tch.md,
 * "Memory"; measured with `perf stat -e page-faults,task-clock hoyle selfplay ... --model`). */
static void tune_malloc(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}

/* One libtorch intra-op thread per calling thread unless the user's environment says otherwise:
 * an `az` agent then uses one core, as every other agent does (equal time per move means equal
 * hardware), and two tournament workers do not run four busy-waiting OpenMP threads on two
 * cores. Commands that want more set it themselves (train.threads, selfplay --threads). Read by
 * libtorch's OpenMP when the library is first loaded, which is after this. */
static void default_torch_threads(void)
{
#ifdef HOYLE_TORCH
    setenv("OMP_NUM_THREADS", "1", 0);
#endif
}

int main(int argc, char **argv)
{
    tune_malloc();
    default_torch_threads();
    if (argc < 2) {
        fprintf(stderr, "hoyle: missing command (try hoyle --help)\n");
        return EXIT_USAGE;
    }
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("hoyle %s\n", HOYLE_VERSION);
        /* What the build included, for scripts that need a part (tests/cli/mpi.sh). */
        printf("mpi: %s\n", dist_mpi_built() ? "yes" : "no");
        return EXIT_OK;
    }
    /* Registration of the out-of-tree agent kinds comes before any command so
     * that every command, and its --help, sees the same agent list. It runs
     * after --help/--version, which need no agents. */
    if (game_agents_register()) { /* the gnubg agent (agents/game_agents.h) */
        fprintf(stderr, "hoyle: %s\n", hoyle_last_error());
        return EXIT_FAILED;
    }
    if (td_register_agents()) { /* the `td` agent (train/agent_td.h) */
        fprintf(stderr, "hoyle: %s\n", hoyle_last_error());
        return EXIT_FAILED;
    }
    if (solve_agents_register()) { /* the oracle agent (solve/agent_oracle.h) */
        fprintf(stderr, "hoyle: %s\n", hoyle_last_error());
        return EXIT_FAILED;
    }
#ifdef HOYLE_TORCH
    if (train_register_agents()) { /* the `az` agent (train/agent_az.h) */
        fprintf(stderr, "hoyle: %s\n", hoyle_last_error());
        return EXIT_FAILED;
    }
#endif
    for (int i = 0; commands[i].name; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    spec_unknown("unknown command", argv[1], command_name_at, NULL);
    fprintf(stderr, "hoyle: %s (try hoyle --help)\n", hoyle_last_error());
    return EXIT_USAGE;
}
