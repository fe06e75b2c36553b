/* serve.h — the web server of `hoyle serve`: the page's static files and the JSON API of
 * docs/serve.md, over libmicrohttpd.
 *
 * serve_start() binds and starts the server's own threads (libmicrohttpd's
 * listening thread and one thread per connection) and returns at once;
 * serve_stop() stops them and frees every game. Everything a client can send
 * is validated: a bad request gets a 4xx reply with a one-line JSON error,
 * never a crash. Only files under `data_dir` are listed or read, only files
 * under `web_dir` are served. */
#ifndef HOYLE_SERVE_SERVE_H
#define HOYLE_SERVE_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#define SERVE_MAX_BODY          (64 * 1024) /* bytes of a request body (413 past it) */
#define SERVE_IDLE_SECONDS      (30 * 60)   /* a game untouched this long is dropped */
#define SERVE_REQUEST_TIMEOUT_S 10          /* default: a connection silent this long is closed */
#define SERVE_MAX_PER_CLIENT    16          /* default: open connections per client address */
#define SERVE_TREE_BUDGET_MB    2048        /* default: search memory of all games together */

typedef struct serve_opts {
    const char *bind;     /* IPv4 address to listen on; NULL = "127.0.0.1" */
    int port;             /* 0 = an ephemeral port (serve_port() says which) */
    const char *data_dir; /* the only folder whose files are listed or read; NULL = "." */
    const char *web_dir;  /* the page's files (index.html ...); NULL = none served */
    int max_games;        /* live games at most (429 past it); <= 0 = 64 */
    int max_think_ms;     /* an agent's search at most this long; <= 0 = 10000 */
    int think_ms;         /* the search of an agent whose spec sets no limit of its own
                             (sims, depth, nodes, time_ms all 0); <= 0 = 1000 */
    /* Slow and half-open clients (docs/serve.md, "Limits"): a connection
     * that sends nothing for request_timeout_s seconds (a request whose
     * headers never end, an idle keep-alive) is closed; a search in
     * progress is not cut by it. One client address holds at most
     * max_per_client connections; more are refused at once. */
    int request_timeout_s; /* <= 0 = SERVE_REQUEST_TIMEOUT_S */
    int max_per_client;    /* <= 0 = SERVE_MAX_PER_CLIENT */
    /* One memory budget for the games' searches (docs/serve.md, "Memory"):
     * a game's agents hold agent_memory_bytes() (MCTS tree arenas, alpha-beta
     * tables) from its creation until it is deleted or dropped; a new game
     * that would take the total past tree_budget_mb MiB gets 503, one whose
     * agents alone need more than a quarter of it gets 400. */
    int tree_budget_mb; /* <= 0 = SERVE_TREE_BUDGET_MB */
    bool mpi, torch;    /* what the build includes, for GET /api/version (the caller knows) */
} serve_opts_t;

typedef struct serve serve_t;

/* Start serving. Returns 0 and the server in *out, or a negative status with
 * a message (a folder that does not exist, an address that does not parse, a
 * port in use). */
int serve_start(const serve_opts_t *opts, serve_t **out);

/* The port the server listens on. */
int serve_port(const serve_t *s);

/* Live games (the load test checks that it returns to 0). */
int serve_num_games(serve_t *s);

/* Search memory the live games hold, in bytes (tree_budget_mb's count). */
size_t serve_tree_bytes(serve_t *s);

/* Stop: no new connections, wait for the running requests (searches are
 * told to stop), free every game. serve_stop(NULL) is a no-op. */
void serve_stop(serve_t *s);

/* True for an address that only this machine reaches (127.x.y.z). */
bool serve_is_loopback(const char *bind);

#endif
