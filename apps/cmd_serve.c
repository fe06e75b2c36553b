/* cmd_serve.c — `hoyle serve`: the page in the browser and its JSON API (serve/serve.h,
 * docs/serve.md), until SIGINT or SIGTERM. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "apps/cli.h"
#include "dist/dist.h"
#include "serve/serve.h"

static const char help[] =
    "usage: hoyle serve [--port 8080] [--data DIR] [--bind 127.0.0.1] [--max-games 64]\n"
    "                   [--think-ms 1000] [--max-think-ms 10000] [--request-timeout-s 10]\n"
    "                   [--max-per-client 16] [--tree-budget-mb 2048] [--web DIR]\n\n"
    "Serve the page (plain HTML/CSS/JavaScript from web/) and its JSON API\n"
    "(docs/serve.md) on http://BIND:PORT/: play any game against any agent,\n"
    "replay stored games, see ratings and training curves. --data DIR (default\n"
    "the current folder) is the only folder whose files are listed or read.\n"
    "Bound to 127.0.0.1 unless --bind says otherwise (a warning: anyone who\n"
    "reaches that address can use the server). At most --max-games live games\n"
    "(idle ones are dropped after 30 minutes) and one agent search per game,\n"
    "each at most --max-think-ms. An agent whose spec sets no limit of its\n"
    "own (sims, depth, nodes, time_ms: 'mcts', 'alphabeta') thinks --think-ms\n"
    "a move. A connection that sends nothing for\n"
    "--request-timeout-s seconds (an unfinished request, an idle one) is\n"
    "closed; one client address holds at most --max-per-client connections.\n"
    "The games' searches share --tree-budget-mb MiB (a game a quarter of it\n"
    "at most): past it a new game gets 503 until one ends.\n"
    "The page's folder: --web DIR, else the\n"
    "source tree's web/ (built in), else the installed share/hoyle/web.\n"
    "Stop with Ctrl-C.\n";

static bool has_index(const char *dir)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/index.html", dir);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Exit codes: 0 after a signal stopped the server, 2 bad options or a port
 * that cannot be bound, 1 a failure while running. */
int cmd_serve(int argc, char **argv)
{
    int port = 0, max_games = 0, max_think_ms = 0, think_ms = 0;
    int request_timeout_s = 0, max_per_client = 0, tree_budget_mb = 0;
    const char *data = NULL, *bind = NULL, *web = NULL;
    const cli_opt_t opts[] = {
        CLI_OPT("--port", &port, "P", "port to listen on (0 = any free one)", .def = "8080",
                .min = 0, .max = 65535),
        CLI_OPT("--data", &data, "DIR", "the folder whose files are listed", .def = "."),
        CLI_OPT("--bind", &bind, "ADDR", "IPv4 address to listen on", .def = "127.0.0.1"),
        CLI_OPT("--max-games", &max_games, "N", "live games at most", .def = "64", .min = 1,
                .max = 100000),
        CLI_OPT("--think-ms", &think_ms, "MS", "search time of an agent without limits of its own",
                .def = "1000", .min = 1, .max = 3600 * 1000, .units = "ms"),
        CLI_OPT("--max-think-ms", &max_think_ms, "MS", "longest agent search", .def = "10000",
                .min = 1, .max = 3600 * 1000, .units = "ms"),
        CLI_OPT("--request-timeout-s", &request_timeout_s, "S",
                "close a connection silent this long", CLI_DEF(SERVE_REQUEST_TIMEOUT_S), .min = 1,
                .max = 3600, .units = "s"),
        CLI_OPT("--max-per-client", &max_per_client, "N", "connections per client address",
                CLI_DEF(SERVE_MAX_PER_CLIENT), .min = 1, .max = 100000),
        CLI_OPT("--tree-budget-mb", &tree_budget_mb, "MB", "search memory of all games",
                CLI_DEF(SERVE_TREE_BUDGET_MB), .min = 16, .max = 1 << 20, .units = "MiB"),
        CLI_OPT("--web", &web, "DIR", "the page's folder (default: see above)"),
        CLI_OPT_END,
    };
    const cli_command_t command = {.name = "serve", .help = help, .opts = opts};
    int rc = cli_parse(&command, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (think_ms > max_think_ms)
        return cli_usage_error("serve", "--think-ms %d is longer than --max-think-ms %d", think_ms,
                               max_think_ms);
    if (web == NULL) {
#ifdef HOYLE_WEB_DIR
        if (has_index(HOYLE_WEB_DIR)) web = HOYLE_WEB_DIR;
#endif
#ifdef HOYLE_WEB_INSTALL_DIR
        if (web == NULL && has_index(HOYLE_WEB_INSTALL_DIR)) web = HOYLE_WEB_INSTALL_DIR;
#endif
        if (web == NULL)
            fprintf(stderr, "hoyle serve: no web/ folder found (use --web DIR): the JSON API "
                            "only\n");
    }
    if (!serve_is_loopback(bind))
        fprintf(stderr,
                "hoyle serve: warning: --bind %s is not loopback: anyone who reaches it can play, "
                "run searches and read the files under %s\n",
                bind, data);
    /* The signals are taken by sigwait below: blocked before the server's
     * threads start, so that they inherit the mask. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);
    serve_opts_t o = {.bind = bind,
                      .port = port,
                      .data_dir = data,
                      .web_dir = web,
                      .max_games = max_games,
                      .max_think_ms = max_think_ms,
                      .think_ms = think_ms,
                      .request_timeout_s = request_timeout_s,
                      .max_per_client = max_per_client,
                      .tree_budget_mb = tree_budget_mb,
                      .mpi = dist_mpi_built()};
#ifdef HOYLE_TORCH
    o.torch = true;
#endif
    serve_t *s = NULL;
    if (serve_start(&o, &s)) return cli_fail("serve", EXIT_USAGE);
    fprintf(stderr, "hoyle serve: http://%s:%d/ (data %s%s%s); Ctrl-C stops\n", bind, serve_port(s),
            data, web ? ", page " : "", web ? web : "");
    int sig = 0;
    sigwait(&set, &sig);
    fprintf(stderr, "hoyle serve: stopping (%s)\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    serve_stop(s);
    return EXIT_OK;
}
