/* serve_internal.h — what the parts of serve/ share: the server, a request and its reply, and
 * the route handlers (http.c routes to session.c, catalog.c and files.c).
 *
 * A handler reads a serve_req_t and fills a serve_reply_t: a status, a
 * content type and a body it owns (malloc'd). Errors go through
 * reply_error(), which writes the one-line {"error": "..."} body. */
#ifndef HOYLE_SERVE_SERVE_INTERNAL_H
#define HOYLE_SERVE_SERVE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "core/json.h"
#include "core/spec.h"
#include "serve/serve.h"

struct MHD_Daemon;
struct MHD_Connection;
typedef struct session session_t;

struct serve {
    serve_opts_t opts;
    char *bind, *data_real, *web_real; /* owned; data_real and web_real from realpath */
    struct MHD_Daemon *daemon;
    int port;
    atomic_int stopping;  /* serve_stop() began: searches end at once */
    pthread_mutex_t lock; /* the games table below */
    session_t **games;    /* [max_games], NULL = a free slot */
    int num_games;
    unsigned long next_id;
    pthread_mutex_t h5_lock; /* the Debian HDF5 is not thread-safe: one HDF5 user at a time */
    size_t tree_bytes;       /* agent_memory_bytes of the games in the table (under `lock`) */
};

typedef struct serve_req {
    serve_t *srv;
    struct MHD_Connection *conn;
    const char *method; /* "GET", "POST", "DELETE", ... */
    const char *path;   /* the URL's path, %-decoded by libmicrohttpd */
    const char *body;   /* NUL-terminated; "" when none */
    size_t body_len;
} serve_req_t;

typedef struct serve_reply {
    int status;
    const char *type; /* Content-Type */
    char *body;       /* owned */
    size_t len;
    int fd;                /* >= 0: a static file's descriptor sent as the body (len bytes) */
    const char *data_root; /* not owned: written as "" in error messages (paths relative) */
} serve_reply_t;

/* The query argument `key` of the request, or NULL. */
const char *req_arg(const serve_req_t *rq, const char *key);

/* Reply with `status` and {"error": "<message>"} (newlines become spaces). */
void reply_error(serve_reply_t *rp, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Reply with hoyle_last_error() (prefixed by `what` when not NULL). */
void reply_last_error(serve_reply_t *rp, int status, const char *what);

/* A JSON reply: reply_json_open() gives a stream for the json_t writer
 * (NULL after replying 500 when there is no memory), reply_json_done()
 * closes it into the reply (200). */
FILE *reply_json_open(serve_reply_t *rp);
void reply_json_done(serve_reply_t *rp, FILE *f);
/* A text reply (200) of `type` holding a copy of `text`. */
void reply_text(serve_reply_t *rp, const char *type, const char *text);

/* ---- catalog.c: GET /api/version, /api/games, /api/agents ---- */
void route_version(const serve_req_t *rq, serve_reply_t *rp);
void route_games(const serve_req_t *rq, serve_reply_t *rp);
void route_agents(const serve_req_t *rq, serve_reply_t *rp);
/* Check an agent spec a client sent before it is created: refuses kinds
 * that read the terminal or run programs, `path` keys (programs) and
 * `model` files outside --data (which are rewritten to their real path);
 * writes the spec to create into out[cap]. 0, or HOYLE_EINVAL with a
 * message (400); HOYLE_EPERM-like paths give *status 403. */
int catalog_check_agent(serve_t *srv, const char *spec, char *out, size_t cap, int *status);

/* ---- session.c: the games being played ---- */
void route_new(const serve_req_t *rq, serve_reply_t *rp);
/* /api/games/ID[/ACTION]: `id` and `action` ("" for none) from the path. */
void route_game(const serve_req_t *rq, serve_reply_t *rp, const char *id, const char *action);
/* Free every game (serve_stop). */
void sessions_free_all(serve_t *srv);

/* ---- files.c: --data's files, records, ratings, runs ---- */
void route_files(const serve_req_t *rq, serve_reply_t *rp);
void route_records(const serve_req_t *rq, serve_reply_t *rp);
void route_record_game(const serve_req_t *rq, serve_reply_t *rp);
void route_ratings(const serve_req_t *rq, serve_reply_t *rp);
void route_run(const serve_req_t *rq, serve_reply_t *rp);
/* Resolve `rel` (NULL or "" = the top) inside `root` (a realpath) into
 * out[PATH_MAX]: 0, or an HTTP status (403 for '..', an absolute path or a
 * link out of root; 404 for a missing file) with *why set. */
int files_resolve(const char *root, const char *rel, char *out, const char **why);

/* ---- the client's disconnect (http.c) ---- */
/* Watch the request's connection while a search runs: sets *stop when the
 * client closes it. Returns a handle for watch_end (NULL when no watcher
 * could start: the search then runs to its time limit). */
typedef struct watch watch_t;
watch_t *watch_begin(const serve_req_t *rq, atomic_int *stop);
void watch_end(watch_t *w);

/* ---- json_in.c: request bodies ---- */
typedef struct cJSON cJSON;
/* Parse a body that must be a JSON object (an empty body is {} when
 * `empty_ok`). 0 and *out (cJSON_Delete it), or HOYLE_EINVAL + message. */
int jin_parse(const char *body, size_t len, int empty_ok, cJSON **out);
/* Field `key` of object `o`: absent is 1 (out untouched) unless `required`
 * (then HOYLE_EINVAL); present with the wrong type or out of bounds is
 * HOYLE_EINVAL naming the key; 0 on success. */
int jin_string(const cJSON *o, const char *key, int required, size_t max_len, const char **out);
int jin_int(const cJSON *o, const char *key, int required, long long min, long long max,
            long long *out);
/* An array of strings, each at most max_len, between min_n and max_n long;
 * out[] borrows from `o`. */
int jin_strings(const cJSON *o, const char *key, int min_n, int max_n, size_t max_len,
                const char **out, int *n);
/* Any keys of `o` not in the NULL-terminated `known`: HOYLE_EINVAL naming it. */
int jin_known(const cJSON *o, const char *const *known);

#endif
