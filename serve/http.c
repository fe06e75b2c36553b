/* http.c — the server's plumbing over libmicrohttpd: start and stop, request bodies (64 KiB),
 * the Host and Origin checks, the route table of docs/serve.md, the page's static files and
 * the watcher that stops a search when its client goes away. */
#define _GNU_SOURCE /* realpath, POLLRDHUP (Linux: the peer closed its end) */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "serve/serve_internal.h"

/* ---- replies ---- */

const char *req_arg(const serve_req_t *rq, const char *key)
{
    return MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, key);
}

void reply_text(serve_reply_t *rp, const char *type, const char *text)
{
    free(rp->body);
    rp->len = strlen(text);
    rp->body = malloc(rp->len + 1);
    if (rp->body == NULL) {
        rp->status = MHD_HTTP_INTERNAL_SERVER_ERROR, rp->len = 0, rp->type = "text/plain";
        return;
    }
    memcpy(rp->body, text, rp->len + 1);
    rp->status = MHD_HTTP_OK;
    rp->type = type;
}

FILE *reply_json_open(serve_reply_t *rp)
{
    free(rp->body);
    rp->body = NULL;
    rp->len = 0;
    FILE *f = open_memstream(&rp->body, &rp->len);
    if (f == NULL) reply_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    return f;
}

void reply_json_done(serve_reply_t *rp, FILE *f)
{
    int bad = f == NULL || ferror(f);
    if (f) fclose(f);
    if (bad || rp->body == NULL) {
        reply_error(rp, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
        return;
    }
    rp->status = MHD_HTTP_OK;
    rp->type = "application/json";
}

void reply_error(serve_reply_t *rp, int status, const char *fmt, ...)
{
    char msg[HOYLE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    /* Paths in messages are the resolved ones; a client sees them relative to --data (the
     * names it sent), not where the server's files are. */
    size_t root = rp->data_root && strcmp(rp->data_root, "/") ? strlen(rp->data_root) : 0;
    for (char *p = root ? strstr(msg, rp->data_root) : NULL; p; p = strstr(p, rp->data_root)) {
        char next = p[root];
        if (next == '/') { /* ROOT/name -> name */
            memmove(p, p + root + 1, strlen(p + root + 1) + 1);
        } else if (next == '\0' || next == ' ' || next == ':' || next == '\'') { /* ROOT -> . */
            *p++ = '.';
            memmove(p, p + root - 1, strlen(p + root - 1) + 1);
        } else {
            p += root; /* a longer name that only starts like the root */
        }
    }
    free(rp->body);
    rp->body = NULL;
    rp->len = 0;
    FILE *f = open_memstream(&rp->body, &rp->len);
    if (f) {
        json_t j;
        json_begin(&j, f);
        json_str(&j, "error", msg);
        json_end(&j);
        fclose(f);
    }
    rp->status = status;
    rp->type = "application/json";
}

void reply_last_error(serve_reply_t *rp, int status, const char *what)
{
    if (what)
        reply_error(rp, status, "%s: %s", what, hoyle_last_error());
    else
        reply_error(rp, status, "%s", hoyle_last_error());
}

/* ---- static files ---- */

static const struct {
    const char *ext, *type;
} mime_types[] = {
    {".html", "text/html; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".json", "application/json"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".jpg", "image/jpeg"},
    {".ico", "image/x-icon"},
    {".txt", "text/plain; charset=utf-8"},
    {".md", "text/plain; charset=utf-8"},
    {".woff2", "font/woff2"},
};

static const char *mime_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && !strchr(dot, '/'))
        for (size_t i = 0; i < sizeof mime_types / sizeof mime_types[0]; i++)
            if (strcasecmp(dot, mime_types[i].ext) == 0) return mime_types[i].type;
    return "application/octet-stream";
}

static void route_static(const serve_req_t *rq, serve_reply_t *rp)
{
    if (strcmp(rq->method, "GET") != 0 && strcmp(rq->method, "HEAD") != 0) {
        reply_error(rp, MHD_HTTP_METHOD_NOT_ALLOWED, "method %s not allowed here", rq->method);
        return;
    }
    if (rq->srv->web_real == NULL) {
        reply_error(rp, MHD_HTTP_NOT_FOUND, "no page: the server runs without --web");
        return;
    }
    const char *rel = rq->path + 1; /* past the leading '/' */
    char relbuf[PATH_MAX];
    size_t n = strlen(rel);
    if (n == 0 || rel[n - 1] == '/') { /* a folder: its index.html */
        if (n + sizeof "index.html" > sizeof relbuf) {
            reply_error(rp, MHD_HTTP_NOT_FOUND, "no such file");
            return;
        }
        snprintf(relbuf, sizeof relbuf, "%sindex.html", rel);
        rel = relbuf;
    }
    char path[PATH_MAX];
    const char *why = NULL;
    int status = files_resolve(rq->srv->web_real, rel, path, &why);
    if (status) {
        reply_error(rp, status, "%s", why);
        return;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        if (fd >= 0) close(fd);
        reply_error(rp, MHD_HTTP_NOT_FOUND, "no such file: %s", rq->path);
        return;
    }
    rp->status = MHD_HTTP_OK;
    rp->type = mime_type(path);
    rp->fd = fd;
    rp->len = (size_t)st.st_size;
}

/* ---- routes ---- */

static int method_is(const serve_req_t *rq, const char *m) { return strcmp(rq->method, m) == 0; }

static void route(const serve_req_t *rq, serve_reply_t *rp)
{
    const char *p = rq->path;
    if (strncmp(p, "/api/", 5) != 0 && strcmp(p, "/api") != 0) {
        route_static(rq, rp);
        return;
    }
    static const struct {
        const char *path, *method;
        void (*fn)(const serve_req_t *, serve_reply_t *);
    } table[] = {
        {"/api/version", "GET", route_version},
        {"/api/games", "GET", route_games},
        {"/api/agents", "GET", route_agents},
        {"/api/games/new", "POST", route_new},
        {"/api/files", "GET", route_files},
        {"/api/records", "GET", route_records},
        {"/api/records/game", "GET", route_record_game},
        {"/api/ratings", "GET", route_ratings},
        {"/api/run", "GET", route_run},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(p, table[i].path) == 0) {
            if (!method_is(rq, table[i].method))
                reply_error(rp, MHD_HTTP_METHOD_NOT_ALLOWED, "%s needs %s, not %s", p,
                            table[i].method, rq->method);
            else
                table[i].fn(rq, rp);
            return;
        }
    /* /api/games/ID and /api/games/ID/ACTION */
    if (strncmp(p, "/api/games/", 11) == 0) {
        char id[32];
        const char *rest = p + 11, *slash = strchr(rest, '/');
        size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
        const char *action = slash ? slash + 1 : "";
        if (n > 0 && n < sizeof id && !strchr(action, '/')) {
            memcpy(id, rest, n);
            id[n] = '\0';
            route_game(rq, rp, id, action);
            return;
        }
    }
    reply_error(rp, MHD_HTTP_NOT_FOUND, "unknown route %s", p);
}

/* ---- requests ---- */

/* What one request accumulates between libmicrohttpd's calls. */
typedef struct conn_ctx {
    char *body;
    size_t len, cap;
    int too_big; /* the body passed SERVE_MAX_BODY: 413 once it is all read */
} conn_ctx_t;

/* The host part of a Host header or an Origin's authority: "[::1]:8080" -> "[::1]",
 * "localhost:8080" -> "localhost". */
static void host_part(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    if (text[0] == '[') {
        const char *close = strchr(text, ']');
        n = close ? (size_t)(close - text) + 1 : strlen(text);
    } else {
        const char *colon = strchr(text, ':');
        n = colon ? (size_t)(colon - text) : strlen(text);
    }
    if (n >= cap) n = cap - 1;
    memcpy(out, text, n);
    out[n] = '\0';
}

/* Requests from other sites and DNS rebinding: when the server is bound to
 * loopback, the Host must name this machine; an Origin header (browsers send
 * it on cross-site requests) must name the Host's own origin. */
static int check_origin(const serve_t *srv, struct MHD_Connection *c, const char **why)
{
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    char h[256] = "";
    if (host) host_part(host, h, sizeof h);
    if (serve_is_loopback(srv->bind) && host) {
        if (strcasecmp(h, "localhost") != 0 && strncmp(h, "127.", 4) != 0 &&
            strcmp(h, "[::1]") != 0) {
            *why = "Host is not this machine (bound to loopback)";
            return MHD_HTTP_FORBIDDEN;
        }
    }
    if (origin && strcmp(origin, "null") != 0) {
        const char *auth = strstr(origin, "://");
        if (auth == NULL || host == NULL || strcasecmp(auth + 3, host) != 0) {
            *why = "cross-origin request refused";
            return MHD_HTTP_FORBIDDEN;
        }
    } else if (origin) {
        *why = "cross-origin request refused";
        return MHD_HTTP_FORBIDDEN;
    }
    return 0;
}

static enum MHD_Result send_reply(struct MHD_Connection *c, serve_reply_t *rp)
{
    struct MHD_Response *r;
    if (rp->fd >= 0) {
        r = MHD_create_response_from_fd((uint64_t)rp->len, rp->fd);
        if (r == NULL) close(rp->fd);
    } else {
        r = MHD_create_response_from_buffer(rp->len, rp->body ? rp->body : (char *)"",
                                            MHD_RESPMEM_MUST_COPY);
    }
    free(rp->body);
    rp->body = NULL;
    if (r == NULL) return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, rp->type ? rp->type : "text/plain");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)rp->status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    (void)version;
    serve_t *srv = cls;
    conn_ctx_t *ctx = *con_cls;
    if (ctx == NULL) { /* the headers: set up, answer on the next call */
        ctx = calloc(1, sizeof *ctx);
        if (ctx == NULL) return MHD_NO;
        *con_cls = ctx;
        return MHD_YES;
    }
    if (*upload_size > 0) { /* a piece of the body */
        size_t n = *upload_size;
        *upload_size = 0;
        if (ctx->too_big || ctx->len + n > SERVE_MAX_BODY) {
            ctx->too_big = 1;
            return MHD_YES;
        }
        if (ctx->len + n + 1 > ctx->cap) {
            size_t cap = ctx->cap ? ctx->cap : 1024;
            while (cap < ctx->len + n + 1) cap *= 2;
            char *b = realloc(ctx->body, cap);
            if (b == NULL) return MHD_NO;
            ctx->body = b, ctx->cap = cap;
        }
        memcpy(ctx->body + ctx->len, upload, n);
        ctx->len += n;
        ctx->body[ctx->len] = '\0';
        return MHD_YES;
    }
    serve_reply_t rp = {.status = MHD_HTTP_OK, .fd = -1, .data_root = srv->data_real};
    serve_req_t rq = {.srv = srv,
                      .conn = c,
                      .method = method,
                      .path = url,
                      .body = ctx->body ? ctx->body : "",
                      .body_len = ctx->len};
    const char *why = NULL;
    const char *type =
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    int status = check_origin(srv, c, &why);
    if (status)
        reply_error(&rp, status, "%s", why);
    else if (ctx->too_big)
        reply_error(&rp, MHD_HTTP_CONTENT_TOO_LARGE, "request body over %d bytes", SERVE_MAX_BODY);
    else if (ctx->len > 0 && (type == NULL || strncasecmp(type, "application/json", 16) != 0))
        reply_error(&rp, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                    "a request body must be sent as Content-Type: application/json");
    else
        route(&rq, &rp);
    return send_reply(c, &rp);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)c, (void)toe;
    conn_ctx_t *ctx = *con_cls;
    if (ctx) free(ctx->body);
    free(ctx);
    *con_cls = NULL;
}

/* ---- the disconnect watcher ---- */

struct watch {
    pthread_t thread;
    int fd;
    atomic_int *stop;
    atomic_int done;
    serve_t *srv;
};

/* Polls the connection every 50 ms: a hang-up, an error or an orderly close
 * (a zero-byte peek) means the client is gone. */
static void *watch_main(void *arg)
{
    watch_t *w = arg;
    while (!atomic_load(&w->done)) {
        if (atomic_load(&w->srv->stopping)) {
            atomic_store(w->stop, 1);
            break;
        }
        struct pollfd pfd = {.fd = w->fd, .events = POLLIN | POLLRDHUP};
        int r = poll(&pfd, 1, 50);
        if (r > 0) {
            char b;
            ssize_t n = recv(w->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
            if ((pfd.revents & (POLLHUP | POLLERR | POLLRDHUP)) || n == 0 ||
                (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                atomic_store(w->stop, 1);
                break;
            }
            struct timespec ts = {0, 50 * 1000 * 1000}; /* pipelined bytes: wait, don't spin */
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

watch_t *watch_begin(const serve_req_t *rq, atomic_int *stop)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(rq->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) return NULL;
    watch_t *w = calloc(1, sizeof *w);
    if (w == NULL) return NULL;
    w->fd = info->connect_fd;
    w->stop = stop;
    w->srv = rq->srv;
    atomic_init(&w->done, 0);
    if (pthread_create(&w->thread, NULL, watch_main, w)) {
        free(w);
        return NULL;
    }
    return w;
}

void watch_end(watch_t *w)
{
    if (w == NULL) return;
    atomic_store(&w->done, 1);
    pthread_join(w->thread, NULL);
    free(w);
}

/* ---- start and stop ---- */

bool serve_is_loopback(const char *bind)
{
    struct in_addr a;
    if (bind == NULL) return true;
    if (inet_pton(AF_INET, bind, &a) != 1) return false;
    return (ntohl(a.s_addr) >> 24) == 127;
}

static char *real_dir(const char *path, const char *what)
{
    char buf[PATH_MAX];
    struct stat st;
    if (realpath(path, buf) == NULL || stat(buf, &st) || !S_ISDIR(st.st_mode)) {
        hoyle_error(HOYLE_EINVAL, "%s '%s' is not a folder", what, path);
        return NULL;
    }
    char *out = strdup(buf);
    if (out == NULL) hoyle_error(HOYLE_ENOMEM, "out of memory");
    return out;
}

int serve_start(const serve_opts_t *opts, serve_t **out)
{
    *out = NULL;
    serve_t *s = calloc(1, sizeof *s);
    if (s == NULL) return hoyle_error(HOYLE_ENOMEM, "out of memory");
    s->opts = *opts;
    if (s->opts.max_games <= 0) s->opts.max_games = 64;
    if (s->opts.max_think_ms <= 0) s->opts.max_think_ms = 10000;
    if (s->opts.think_ms <= 0) s->opts.think_ms = 1000;
    if (s->opts.think_ms > s->opts.max_think_ms) s->opts.think_ms = s->opts.max_think_ms;
    if (s->opts.request_timeout_s <= 0) s->opts.request_timeout_s = SERVE_REQUEST_TIMEOUT_S;
    if (s->opts.max_per_client <= 0) s->opts.max_per_client = SERVE_MAX_PER_CLIENT;
    if (s->opts.tree_budget_mb <= 0) s->opts.tree_budget_mb = SERVE_TREE_BUDGET_MB;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->h5_lock, NULL);
    atomic_init(&s->stopping, 0);
    int rc = 0;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opts->port)};
    s->bind = strdup(opts->bind ? opts->bind : "127.0.0.1");
    s->games = calloc((size_t)s->opts.max_games, sizeof *s->games);
    if (s->bind == NULL || s->games == NULL) {
        rc = hoyle_error(HOYLE_ENOMEM, "out of memory");
        goto fail;
    }
    s->opts.bind = s->bind;
    if (opts->port < 0 || opts->port > 65535) {
        rc = hoyle_error(HOYLE_EINVAL, "port %d is out of range [0, 65535]", opts->port);
        goto fail;
    }
    if (inet_pton(AF_INET, s->bind, &addr.sin_addr) != 1) {
        rc = hoyle_error(HOYLE_EINVAL, "--bind '%s' is not an IPv4 address", s->bind);
        goto fail;
    }
    s->data_real = real_dir(opts->data_dir ? opts->data_dir : ".", "--data");
    if (s->data_real == NULL) {
        rc = HOYLE_EINVAL;
        goto fail;
    }
    if (opts->web_dir && (s->web_real = real_dir(opts->web_dir, "--web")) == NULL) {
        rc = HOYLE_EINVAL;
        goto fail;
    }
    s->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL |
            MHD_USE_ERROR_LOG,
        (uint16_t)opts->port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)(s->opts.max_games * 4 + 16),
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)s->opts.max_per_client,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->opts.request_timeout_s, MHD_OPTION_END);
    if (s->daemon == NULL) {
        rc = hoyle_error(HOYLE_EIO, "cannot listen on %s:%d: %s", s->bind, opts->port,
                         errno ? strerror(errno) : "libmicrohttpd refused");
        goto fail;
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = di ? di->port : opts->port;
    *out = s;
    return 0;
fail:
    serve_stop(s);
    return rc;
}

int serve_port(const serve_t *s) { return s->port; }

int serve_num_games(serve_t *s)
{
    pthread_mutex_lock(&s->lock);
    int n = s->num_games;
    pthread_mutex_unlock(&s->lock);
    return n;
}

void serve_stop(serve_t *s)
{
    if (s == NULL) return;
    atomic_store(&s->stopping, 1);
    if (s->daemon) MHD_stop_daemon(s->daemon);
    if (s->games) sessions_free_all(s);
    free(s->games);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->h5_lock);
    free(s->bind);
    free(s->data_real);
    free(s->web_real);
    free(s);
}
