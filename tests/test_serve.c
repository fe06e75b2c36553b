/* test_serve.c — `hoyle serve` in-process: every route of docs/serve.md over real HTTP on
 * 127.0.0.1 (a tiny client below), whole games, chains, dice, undo, export, record files made by
 * a tournament, hostile input (paths, bodies, specs, moves, caps) and a bounded load test. */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <hdf5.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "eval/tournament.h"
#include "agents/game_agents.h"
#include "harness.h"
#include "serve/serve.h"
#include "train/agent_td.h"

static char tmpdir[256], datadir[300], webdir[300];
static serve_t *srv;

/* ---- a tiny HTTP/1.1 client ---- */

typedef struct resp {
    int status;
    char type[128];
    char *body; /* NUL-terminated */
    size_t len;
} resp_t;

static int dial(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) {
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w <= 0) return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* Send a request (`extra` headers end with \r\n each; a body gets
 * Content-Type: application/json unless `extra` names one). */
static int send_request(int fd, const char *method, const char *path, const char *extra,
                        const char *body, size_t body_len)
{
    char head[2048];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s%s"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, extra ? extra : "",
                     body && !(extra && strstr(extra, "Content-Type"))
                         ? "Content-Type: application/json\r\n"
                         : "",
                     body ? body_len : 0);
    if (send_all(fd, head, (size_t)n)) return -1;
    return body ? send_all(fd, body, body_len) : 0;
}

static resp_t read_response(int fd)
{
    resp_t r = {.status = -1};
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    ssize_t got;
    while (buf && (got = recv(fd, buf + len, cap - len - 1, 0)) > 0) {
        len += (size_t)got;
        if (len + 1 >= cap) buf = realloc(buf, cap *= 2);
    }
    close(fd);
    if (buf == NULL) return r;
    buf[len] = '\0';
    char *sep = strstr(buf, "\r\n\r\n");
    if (sep == NULL || sscanf(buf, "HTTP/1.%*d %d", &r.status) != 1) {
        free(buf);
        r.status = -1;
        return r;
    }
    *sep = '\0';
    char *ct = strcasestr(buf, "\r\nContent-Type: ");
    if (ct) sscanf(ct + 16, "%127[^\r]", r.type);
    r.len = len - (size_t)(sep + 4 - buf);
    r.body = malloc(r.len + 1);
    memcpy(r.body, sep + 4, r.len);
    r.body[r.len] = '\0';
    free(buf);
    return r;
}

static resp_t request_on(int port, const char *method, const char *path, const char *extra,
                         const char *body)
{
    resp_t r = {.status = -1};
    int fd = dial(port);
    if (fd < 0) return r;
    if (send_request(fd, method, path, extra, body, body ? strlen(body) : 0)) {
        close(fd);
        return r;
    }
    return read_response(fd);
}

static resp_t request(const char *method, const char *path, const char *body)
{
    return request_on(serve_port(srv), method, path, NULL, body);
}

/* The request's JSON reply (NULL when it is not JSON); `status` checked. */
static cJSON *json_call(const char *method, const char *path, const char *body, int status)
{
    resp_t r = request(method, path, body);
    if (r.status != status)
        fprintf(stderr, "%s %s: %d (wanted %d): %s\n", method, path, r.status, status,
                r.body ? r.body : "");
    CU_ASSERT_EQUAL(r.status, status);
    cJSON *j = r.body ? cJSON_Parse(r.body) : NULL;
    if (r.status >= 400) { /* every error is one line of {"error": ...} */
        cJSON *e = cJSON_GetObjectItem(j, "error");
        CU_ASSERT(cJSON_IsString(e));
        CU_ASSERT(r.body && strchr(r.body, '\n') == r.body + r.len - 1);
        CU_ASSERT_STRING_EQUAL(r.type, "application/json");
    }
    free(r.body);
    return j;
}

static void expect_status(const char *method, const char *path, const char *body, int status)
{
    cJSON_Delete(json_call(method, path, body, status));
}

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int jint(const cJSON *o, const char *key, int absent)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    return cJSON_IsNumber(v) ? v->valueint : absent;
}

/* The string o[key][i], or "" when there is none. */
static const char *jat(const cJSON *o, const char *key, int i)
{
    const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItem(o, key), i);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int jlen(const cJSON *o, const char *key)
{
    return cJSON_GetArraySize(cJSON_GetObjectItem(o, key));
}

/* POST /api/games/ID/ACTION with `body`; returns the new STATE (or NULL). */
static cJSON *game_post(const char *id, const char *action, const char *body, int status)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/%s", id, action);
    return json_call("POST", path, body, status);
}

static cJSON *new_game(const char *body)
{
    cJSON *s = json_call("POST", "/api/games/new", body, 200);
    CU_ASSERT_PTR_NOT_NULL(s);
    CU_ASSERT(jstr(s, "id")[0] == 'g');
    return s;
}

static void delete_game(const char *id)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", id);
    expect_status("DELETE", path, NULL, 200);
    expect_status("GET", path, NULL, 404);
}

/* ---- fixtures: the data and web folders ---- */

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* A small tournament's record file, made by the tournament code. */
static void make_records(void)
{
    char yaml[1024], path[600];
    snprintf(yaml, sizeof yaml,
             "name: served\ngames: [\"gobang(board=7)\"]\nagents: [random, greedy]\n"
             "openings: {gobang: \"random:2\"}\nopenings_per_pairing: 2\n"
             "games_per_opening: 1\nmax_moves: 40\nworkers: 1\nseed: 3\noutput: %s/t.h5\n",
             datadir);
    write_file(tmpdir, "t.yaml", yaml);
    snprintf(path, sizeof path, "%s/t.yaml", tmpdir);
    tour_config_t c;
    HARNESS_OK(tournament_config_load(path, NULL, 0, &c));
    tour_run_stats_t st;
    HARNESS_OK(tournament_run(&c, NULL, &st));
    CU_ASSERT_EQUAL(st.played, 4);
    tournament_config_done(&c);
}

static void setup(void)
{
    harness_tmp_path(tmpdir, sizeof tmpdir, "hoyle_serve_XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmpdir));
    snprintf(datadir, sizeof datadir, "%s/data", tmpdir);
    snprintf(webdir, sizeof webdir, "%s/web", tmpdir);
    mkdir(datadir, 0755);
    mkdir(webdir, 0755);
    char p[700], q[700];
    write_file(webdir, "index.html", "<!doctype html><title>hoyle</title>\n");
    write_file(webdir, "app.js", "console.log(1);\n");
    write_file(webdir, "style.css", "body{}\n");
    write_file(tmpdir, "secret.txt", "secret\n");
    snprintf(p, sizeof p, "%s/leak.txt", webdir);
    snprintf(q, sizeof q, "%s/secret.txt", tmpdir);
    CU_ASSERT_EQUAL(symlink(q, p), 0);
    /* data: records, a run, a folder, links out, a foreign and a truncated HDF5 file */
    make_records();
    snprintf(p, sizeof p, "%s/run1", datadir);
    mkdir(p, 0755);
    write_file(p, "train.csv", "generation,seconds,loss\n1,2.5,0.9\n2,5,0.7\n");
    write_file(p, "elo.csv", "generation,seconds,elo\n1,2.5,0\n2,5,40.5\n");
    snprintf(p, sizeof p, "%s/sub", datadir);
    mkdir(p, 0755);
    write_file(p, "notes.txt", "x\n");
    snprintf(p, sizeof p, "%s/out", datadir);
    CU_ASSERT_EQUAL(symlink(tmpdir, p), 0);
    snprintf(p, sizeof p, "%s/secret_link", datadir);
    CU_ASSERT_EQUAL(symlink(q, p), 0);
    snprintf(p, sizeof p, "%s/foreign.h5", datadir);
    hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CU_ASSERT(f >= 0);
    H5Fclose(f);
    snprintf(q, sizeof q, "%s/t.h5", datadir);
    FILE *in = fopen(q, "rb");
    char head[600];
    size_t n = in ? fread(head, 1, sizeof head, in) : 0;
    if (in) fclose(in);
    snprintf(p, sizeof p, "%s/trunc.h5", datadir);
    FILE *out = fopen(p, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    fwrite(head, 1, n, out);
    fclose(out);
    write_file(datadir, "plain.csv", "a,b\n1,2\n");
    /* a record file on which libhdf5 1.10 crashes (issue 36, item 12) */
    in = fopen(HOYLE_TEST_DATA "/h5rec/crashes_hdf5.h5", "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    static char crash[1 << 16];
    n = fread(crash, 1, sizeof crash, in);
    fclose(in);
    snprintf(p, sizeof p, "%s/crash.h5", datadir);
    out = fopen(p, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    fwrite(crash, 1, n, out);
    fclose(out);
    serve_opts_t o = {.port = 0, .data_dir = datadir, .web_dir = webdir, .max_think_ms = 3000};
    HARNESS_OK(serve_start(&o, &srv));
}

/* ---- the catalog ---- */

static void test_catalog(void)
{
    cJSON *v = json_call("GET", "/api/version", NULL, 200);
    CU_ASSERT_STRING_EQUAL(jstr(v, "version"), HOYLE_VERSION);
    CU_ASSERT(cJSON_IsBool(cJSON_GetObjectItem(v, "mpi")));
    cJSON_Delete(v);
    cJSON *g = json_call("GET", "/api/games", NULL, 200);
    CU_ASSERT(cJSON_IsArray(g));
    int found = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, g)
    {
        const game_t *gm = NULL; /* the players of the game's default form */
        HARNESS_OK(game_create(jstr(e, "name"), &gm));
        CU_ASSERT_EQUAL(jint(e, "players", 0), gm->num_players);
        game_free(gm);
        if (strcmp(jstr(e, "name"), "checkers") != 0) continue;
        found = 1;
        CU_ASSERT(jlen(e, "variants") >= 2);
        const cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "params"), 0);
        CU_ASSERT_STRING_EQUAL(jstr(p, "key"), "variant");
        CU_ASSERT_STRING_EQUAL(jstr(p, "type"), "choice");
        CU_ASSERT(jlen(p, "choices") >= 2);
    }
    CU_ASSERT(found);
    cJSON_Delete(g);
    cJSON *a = json_call("GET", "/api/agents?game=gobang(board=8)", NULL, 200);
    CU_ASSERT_STRING_EQUAL(jstr(cJSON_GetArrayItem(a, 0), "kind"), "human");
    int mcts = 0, refused = 0;
    cJSON_ArrayForEach(e, a)
    {
        mcts |= strcmp(jstr(e, "kind"), "mcts") == 0 && jlen(e, "params") > 3;
        refused |= !strcmp(jstr(e, "kind"), "uci") || !strcmp(jstr(e, "kind"), "gnubg");
    }
    CU_ASSERT(mcts);
    CU_ASSERT(!refused); /* uci runs programs; gnubg plays backgammon only */
    cJSON_Delete(a);
    expect_status("GET", "/api/agents?game=nosuchgame", NULL, 400);
    expect_status("GET", "/api/agents", NULL, 400);
    expect_status("GET", "/api/nope", NULL, 404);
    expect_status("GET", "/api/games/g1/nope", NULL, 404);
    expect_status("POST", "/api/version", "{}", 405);
    expect_status("GET", "/api/games/new", NULL, 405);
    expect_status("PUT", "/api/games/g1", NULL, 405);
}

/* The shipped models (models/README.md): offered by name for their own game only, a kind that
 * needs a model never bare; a name plays, a file outside --data is refused. */
static void test_shipped_models(void)
{
    static const struct {
        const char *game, *spec, *absent, *key;
    } want[] = {
        {"backgammon", "td(model=backgammon)", "alphabeta(eval=checkers)", "model=backgammon"},
        {"checkers", "alphabeta(eval=checkers)", "alphabeta(eval=chess)", "eval=checkers"},
        {"chess", "alphabeta(eval=chess)", "alphabeta(eval=checkers)", "eval=chess"}};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        char path[128];
        snprintf(path, sizeof path, "/api/agents?game=%s", want[w].game);
        cJSON *a = json_call("GET", path, NULL, 200);
        const cJSON *e;
        int shipped = 0, absent = 0, bare_model_kind = 0;
        cJSON_ArrayForEach(e, a)
        {
            shipped |= strcmp(jstr(e, "spec"), want[w].spec) == 0 && jstr(e, "model")[0];
            absent |= strcmp(jstr(e, "spec"), want[w].absent) == 0;
            bare_model_kind |=
                strstr(jstr(e, "capabilities"), "needs a model") && !jstr(e, "model")[0];
        }
        CU_ASSERT(shipped);
        CU_ASSERT(!absent);
        CU_ASSERT(!bare_model_kind); /* td (and az) only with a model */
        cJSON_Delete(a);
        char body[256];
        snprintf(body, sizeof body, "{\"game\": \"%s\", \"agents\": [\"human\", \"%s\"]}",
                 want[w].game, want[w].spec);
        cJSON *s = new_game(body);
        CU_ASSERT(strstr(jat(s, "agents", 1), want[w].key) != NULL); /* the name, as given */
        delete_game(jstr(s, "id"));
        cJSON_Delete(s);
    }
    /* eval= names a file like model= does: inside --data only */
    cJSON *e = json_call("POST", "/api/games/new",
                         "{\"game\": \"checkers\", \"agents\": [\"human\", "
                         "\"alphabeta(eval=/etc/passwd)\"]}",
                         403);
    CU_ASSERT_PTR_NOT_NULL(strstr(jstr(e, "error"), "absolute paths are refused"));
    cJSON_Delete(e);
    e = json_call("POST", "/api/games/new",
                  "{\"game\": \"checkers\", \"agents\": [\"human\", \"td(model=nosuch)\"]}", 404);
    CU_ASSERT_PTR_NOT_NULL(strstr(jstr(e, "error"), "no such file"));
    cJSON_Delete(e);
}

/* ---- static files ---- */

static void test_static_files(void)
{
    resp_t r = request("GET", "/", NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.type, "text/html"));
    CU_ASSERT_PTR_NOT_NULL(r.body && strstr(r.body, "<title>hoyle</title>"));
    free(r.body);
    r = request("GET", "/app.js", NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.type, "text/javascript"));
    free(r.body);
    r = request("GET", "/style.css", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.type, "text/css"));
    free(r.body);
    static const char *const hostile[] = {"/../secret.txt", "/%2e%2e/secret.txt",
                                          "/%2E%2E%2Fsecret.txt", "/leak.txt", "/sub/../../x"};
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        r = request("GET", hostile[i], NULL);
        CU_ASSERT(r.status == 403 || r.status == 404);
        CU_ASSERT_PTR_NULL(r.body ? strstr(r.body, "secret\n") : NULL);
        free(r.body);
    }
    expect_status("GET", "/leak.txt", NULL, 403);
    expect_status("GET", "/missing.html", NULL, 404);
    expect_status("POST", "/index.html", "{}", 405);
}

/* ---- play ---- */

/* Play a whole Go-Bang game: the human seat plays its first legal move, the
 * random agent answers, until the game ends. */
static void test_gobang_game(void)
{
    cJSON *s = new_game("{\"game\": \"gobang(board=7)\", \"agents\": [\"human\", \"random\"],"
                        " \"seed\": 4}");
    char id[32];
    snprintf(id, sizeof id, "%s", jstr(s, "id"));
    CU_ASSERT_EQUAL(jint(s, "to_move", -1), 0);
    CU_ASSERT(cJSON_IsTrue(cJSON_GetArrayItem(cJSON_GetObjectItem(s, "human"), 0)));
    CU_ASSERT(cJSON_IsNull(cJSON_GetObjectItem(s, "result")));
    int plies = 0;
    while (s && cJSON_IsNumber(cJSON_GetObjectItem(s, "to_move")) && plies < 400) {
        cJSON *next;
        if (jint(s, "to_move", -1) == 0) {
            /* agent asked for a human seat: 409 */
            cJSON_Delete(game_post(id, "agent", NULL, 409));
            const cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "legal"), 0);
            char body[128];
            snprintf(body, sizeof body, "{\"move\": \"%s\"}", jstr(m, "move"));
            next = game_post(id, "move", body, 200);
        } else {
            cJSON_Delete(game_post(id, "move", "{\"move\": \"a1\"}", 409)); /* not a human seat */
            next = game_post(id, "agent", "{\"time_ms\": 50}", 200);
            const cJSON *h =
                cJSON_GetArrayItem(cJSON_GetObjectItem(next, "history"), jlen(next, "history") - 1);
            CU_ASSERT_EQUAL(jint(h, "player", -1), 1);
            CU_ASSERT_STRING_EQUAL(jstr(cJSON_GetObjectItem(h, "info"), "kind"), "random");
        }
        CU_ASSERT_EQUAL(jlen(next, "history"), plies + 1);
        cJSON_Delete(s);
        s = next;
        plies++;
    }
    CU_ASSERT_STRING_EQUAL(jstr(s, "to_move"), "over");
    CU_ASSERT(cJSON_IsString(cJSON_GetObjectItem(s, "result")));
    CU_ASSERT_EQUAL(jlen(s, "returns"), 2);
    CU_ASSERT_EQUAL(jlen(s, "legal"), 0);
    cJSON_Delete(s);
    cJSON_Delete(game_post(id, "move", "{\"move\": \"a1\"}", 409)); /* game over */
    cJSON_Delete(game_post(id, "agent", NULL, 409));
    delete_game(id);
}

/* A partnership game (gobang(players=4)): the human plays both White seats,
 * the state names the seat at the board, W1 B1 W2 B2 in turn. */
static void test_partnership_game(void)
{
    cJSON *s = new_game("{\"game\": \"gobang(board=7,players=4)\", \"agents\": [\"human\", "
                        "\"random\"], \"seed\": 2}");
    char id[32];
    snprintf(id, sizeof id, "%s", jstr(s, "id"));
    for (int ply = 0; ply < 8; ply++) {
        CU_ASSERT_EQUAL(jint(s, "seat", -1), ply % 4);
        CU_ASSERT_EQUAL(jint(s, "to_move", -1), ply % 2);
        cJSON *next;
        if (ply % 2 == 0) {
            const cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "legal"), 0);
            char body[128];
            snprintf(body, sizeof body, "{\"move\": \"%s\"}", jstr(m, "move"));
            next = game_post(id, "move", body, 200);
        } else {
            next = game_post(id, "agent", NULL, 200);
        }
        cJSON_Delete(s);
        s = next;
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(jstr(s, "board"), "W1 (x) to place"));
    cJSON_Delete(s);
    delete_game(id);
    /* a two-player game has no seat field */
    s = new_game("{\"game\": \"gobang(board=7)\", \"agents\": [\"human\", \"random\"]}");
    snprintf(id, sizeof id, "%s", jstr(s, "id"));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(s, "seat"));
    cJSON_Delete(s);
    delete_game(id);
}

static void test_checkers_chain(void)
{
    cJSON *s = new_game("{\"game\": \"checkers\", \"agents\": [\"human\", \"human\"],"
                        " \"position\": \"B:W10,19,32:B6\"}");
    char id[32], first[64], second[64];
    snprintf(id, sizeof id, "%s", jstr(s, "id"));
    CU_ASSERT_EQUAL(jlen(s, "legal"), 1);
    const cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "legal"), 0);
    CU_ASSERT_STRING_EQUAL(jstr(m, "move"), "6x15x24");
    const cJSON *steps = cJSON_GetObjectItem(m, "steps");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(steps), 2);
    snprintf(first, sizeof first, "%s", cJSON_GetArrayItem(steps, 0)->valuestring);
    snprintf(second, sizeof second, "%s", cJSON_GetArrayItem(steps, 1)->valuestring);
    cJSON_Delete(s);
    char body[160];
    cJSON_Delete(game_post(id, "move", "{\"step\": \"1-5\"}", 400)); /* illegal step */
    snprintf(body, sizeof body, "{\"step\": \"%s\"}", first);
    s = game_post(id, "move", body, 200);
    CU_ASSERT_EQUAL(jint(s, "to_move", -1), 0); /* the chain goes on */
    CU_ASSERT_EQUAL(jlen(s, "chain"), 1);
    CU_ASSERT_STRING_EQUAL(jat(s, "chain", 0), first);
    CU_ASSERT_EQUAL(jlen(s, "next_steps"), 1);
    CU_ASSERT_STRING_EQUAL(jat(s, "next_steps", 0), second);
    CU_ASSERT_EQUAL(jlen(s, "history"), 0);
    cJSON_Delete(s);
    s = game_post(id, "undo", NULL, 200); /* takes back the chain in progress */
    CU_ASSERT_EQUAL(jlen(s, "chain"), 0);
    CU_ASSERT_STRING_EQUAL(jstr(s, "position"), "B:W10,19,32:B6");
    cJSON_Delete(s);
    cJSON_Delete(game_post(id, "move", body, 200));
    snprintf(body, sizeof body, "{\"step\": \"%s\"}", second);
    s = game_post(id, "move", body, 200);
    CU_ASSERT_EQUAL(jint(s, "to_move", -1), 1);
    CU_ASSERT_EQUAL(jlen(s, "chain"), 0);
    CU_ASSERT_EQUAL(jlen(s, "history"), 1);
    CU_ASSERT_STRING_EQUAL(jstr(cJSON_GetArrayItem(cJSON_GetObjectItem(s, "history"), 0), "move"),
                           "6x15x24");
    cJSON_Delete(s);
    s = game_post(id, "undo", "{}", 200);
    CU_ASSERT_STRING_EQUAL(jstr(s, "position"), "B:W10,19,32:B6");
    cJSON_Delete(s);
    /* the whole move at once, then an illegal one */
    cJSON_Delete(game_post(id, "move", "{\"move\": \"6x15x24\"}", 200));
    cJSON *e = game_post(id, "move", "{\"move\": \"24-28\"}", 400);
    CU_ASSERT_PTR_NOT_NULL(strstr(jstr(e, "error"), "illegal move '24-28'"));
    cJSON_Delete(e);
    delete_game(id);
}

static void test_backgammon_dice(void)
{
    const char *spec = "{\"game\": \"backgammon\", \"agents\": [\"human\", \"random\"],"
                       " \"seed\": 11}";
    cJSON *a = new_game(spec), *b = new_game(spec);
    char id[32];
    snprintf(id, sizeof id, "%s", jstr(a, "id"));
    /* the opening roll, from the seed: the same in both games */
    const cJSON *ca = cJSON_GetObjectItem(a, "chance");
    CU_ASSERT(cJSON_IsObject(ca));
    CU_ASSERT_STRING_EQUAL(jstr(ca, "outcome"), jstr(cJSON_GetObjectItem(b, "chance"), "outcome"));
    const cJSON *h0 = cJSON_GetArrayItem(cJSON_GetObjectItem(a, "history"), 0);
    CU_ASSERT_STRING_EQUAL(jstr(h0, "player"), "chance");
    delete_game(jstr(b, "id"));
    cJSON_Delete(b);
    cJSON *s = a;
    if (jint(s, "to_move", -1) == 1) { /* the agent won the opening roll */
        cJSON *n = game_post(id, "agent", NULL, 200);
        cJSON_Delete(s);
        s = n;
    }
    CU_ASSERT_EQUAL_FATAL(jint(s, "to_move", -1), 0);
    int before = jlen(s, "history");
    char position[4096], body[256];
    snprintf(position, sizeof position, "%s", jstr(s, "position"));
    const cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "legal"), 0);
    snprintf(body, sizeof body, "{\"move\": \"%s\"}", jstr(m, "move"));
    cJSON *n = game_post(id, "move", body, 200);
    /* the move, then the server's roll for the next player */
    CU_ASSERT_EQUAL(jlen(n, "history"), before + 2);
    const cJSON *roll = cJSON_GetArrayItem(cJSON_GetObjectItem(n, "history"), before + 1);
    CU_ASSERT_STRING_EQUAL(jstr(roll, "player"), "chance");
    CU_ASSERT_STRING_EQUAL(jstr(roll, "move"), jstr(cJSON_GetObjectItem(n, "chance"), "outcome"));
    char rolled[64];
    snprintf(rolled, sizeof rolled, "%s", jstr(roll, "move"));
    CU_ASSERT_EQUAL(jint(n, "to_move", -1), 1);
    cJSON_Delete(n);
    /* undo takes back the move and the roll after it; replayed, the same roll */
    n = game_post(id, "undo", NULL, 200);
    CU_ASSERT_EQUAL(jlen(n, "history"), before);
    CU_ASSERT_STRING_EQUAL(jstr(n, "position"), position);
    cJSON_Delete(n);
    n = game_post(id, "move", body, 200);
    CU_ASSERT_STRING_EQUAL(
        jstr(cJSON_GetArrayItem(cJSON_GetObjectItem(n, "history"), before + 1), "move"), rolled);
    cJSON_Delete(n);
    cJSON_Delete(s);
    delete_game(id);
}

static void test_undo(void)
{
    cJSON *s = new_game("{\"game\": \"gobang(board=7)\", \"agents\": [\"human\", "
                        "\"mcts(sims=50)\"]}");
    char id[32], start[4096];
    snprintf(id, sizeof id, "%s", jstr(s, "id"));
    snprintf(start, sizeof start, "%s", jstr(s, "position"));
    cJSON_Delete(s);
    cJSON_Delete(game_post(id, "undo", NULL, 409)); /* nothing played */
    cJSON_Delete(game_post(id, "move", "{\"move\": \"d4\"}", 200));
    s = game_post(id, "agent", NULL, 200);
    const cJSON *info =
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(s, "history"), 1), "info");
    CU_ASSERT_STRING_EQUAL(jstr(info, "kind"), "mcts");
    /* the spec's own budget, not the server's time cap */
    CU_ASSERT(jint(info, "visits", 0) >= 50 && jint(info, "visits", 0) <= 60);
    CU_ASSERT(jlen(info, "pv") >= 1);
    cJSON_Delete(s);
    cJSON_Delete(game_post(id, "undo", NULL, 200));
    s = game_post(id, "undo", NULL, 200);
    CU_ASSERT_STRING_EQUAL(jstr(s, "position"), start);
    CU_ASSERT_EQUAL(jlen(s, "history"), 0);
    CU_ASSERT_EQUAL(jint(s, "to_move", -1), 0);
    cJSON_Delete(s);
    cJSON_Delete(game_post(id, "undo", NULL, 409));
    /* the agent plays on from the undone position */
    cJSON_Delete(game_post(id, "move", "{\"move\": \"c3\"}", 200));
    s = game_post(id, "agent", NULL, 200);
    CU_ASSERT_EQUAL(jlen(s, "history"), 2);
    cJSON_Delete(s);
    delete_game(id);
}

static void test_export(void)
{
    cJSON *s = new_game("{\"game\": \"chess\", \"agents\": [\"human\", \"human\"]}");
    char id[32], path[128];
    snprintf(id, sizeof id, "%s", jstr(s, "id"));
    cJSON_Delete(s);
    static const char *const moves[] = {"e2e4", "e7e5", "g1f3"};
    for (int i = 0; i < 3; i++) {
        char body[64];
        snprintf(body, sizeof body, "{\"move\": \"%s\"}", moves[i]);
        cJSON_Delete(game_post(id, "move", body, 200));
    }
    snprintf(path, sizeof path, "/api/games/%s/export?format=pgn", id);
    resp_t r = request("GET", path, NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.type, "text/plain"));
    CU_ASSERT_PTR_NOT_NULL(r.body && strstr(r.body, "[Result \"*\"]"));
    CU_ASSERT_PTR_NOT_NULL(r.body && strstr(r.body, "1. e4 e5 2. Nf3"));
    free(r.body);
    snprintf(path, sizeof path, "/api/games/%s/export?format=hoyle", id);
    r = request("GET", path, NULL);
    CU_ASSERT_PTR_NOT_NULL(r.body && strstr(r.body, "moves: e2e4;e7e5;g1f3\n"));
    free(r.body);
    snprintf(path, sizeof path, "/api/games/%s/export?format=pdn", id);
    expect_status("GET", path, NULL, 400);
    snprintf(path, sizeof path, "/api/games/%s/export?format=docx", id);
    expect_status("GET", path, NULL, 400);
    delete_game(id);
}

/* ---- files, records, ratings, runs ---- */

static const cJSON *entry_named(const cJSON *listing, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(listing, "entries"))
    {
        if (strcmp(jstr(e, "name"), name) == 0) return e;
    }
    return NULL;
}

static void test_files(void)
{
    cJSON *l = json_call("GET", "/api/files", NULL, 200);
    CU_ASSERT_STRING_EQUAL(jstr(entry_named(l, "t.h5"), "kind"), "records");
    CU_ASSERT_STRING_EQUAL(jstr(entry_named(l, "t.h5"), "type"), "file");
    CU_ASSERT(jint(entry_named(l, "t.h5"), "size", 0) > 0);
    CU_ASSERT_STRING_EQUAL(jstr(entry_named(l, "run1"), "kind"), "run");
    CU_ASSERT_STRING_EQUAL(jstr(entry_named(l, "run1"), "type"), "dir");
    CU_ASSERT_STRING_EQUAL(jstr(entry_named(l, "sub"), "type"), "dir");
    CU_ASSERT_STRING_EQUAL(jstr(entry_named(l, "foreign.h5"), "kind"), "other");
    CU_ASSERT_STRING_EQUAL(jstr(entry_named(l, "plain.csv"), "kind"), "csv");
    CU_ASSERT_PTR_NULL(entry_named(l, "out"));         /* a link out of --data */
    CU_ASSERT_PTR_NULL(entry_named(l, "secret_link")); /* the same, to a file */
    cJSON_Delete(l);
    l = json_call("GET", "/api/files?dir=sub", NULL, 200);
    CU_ASSERT_PTR_NOT_NULL(entry_named(l, "notes.txt"));
    CU_ASSERT_STRING_EQUAL(jstr(l, "dir"), "sub");
    cJSON_Delete(l);
    static const char *const hostile[] = {
        "/api/files?dir=..",
        "/api/files?dir=/etc",
        "/api/files?dir=out",
        "/api/files?dir=%2e%2e",
        "/api/files?dir=sub/../..",
        "/api/files?dir=sub%2f..%2f..",
        "/api/files?dir=out/web",
        "/api/records?file=secret_link",
        "/api/records?file=/etc/passwd",
        "/api/records?file=../secret.txt",
        "/api/ratings?file=%2e%2e/t.yaml",
        "/api/run?dir=..",
        "/api/records/game?file=out/secret.txt&index=0",
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++)
        expect_status("GET", hostile[i], NULL, 403);
    expect_status("GET", "/api/files?dir=nothere", NULL, 404);
    expect_status("GET", "/api/files?dir=plain.csv", NULL, 400);
}

static void test_records(void)
{
    cJSON *r = json_call("GET", "/api/records?file=t.h5", NULL, 200);
    CU_ASSERT(cJSON_IsTrue(cJSON_GetObjectItem(r, "complete")));
    /* 1 pairing x 2 openings x 1 game x 2 colours */
    CU_ASSERT_EQUAL(jlen(r, "games"), 4);
    const cJSON *g0 = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "games"), 0);
    CU_ASSERT_EQUAL(jint(g0, "index", -1), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(jstr(g0, "game"), "gobang"));
    CU_ASSERT_EQUAL(jlen(g0, "agents"), 2);
    CU_ASSERT_EQUAL(jlen(g0, "returns"), 2);
    int moves = jint(g0, "moves", -1);
    CU_ASSERT(moves > 0);
    cJSON_Delete(r);
    cJSON *g = json_call("GET", "/api/records/game?file=t.h5&index=0", NULL, 200);
    CU_ASSERT_EQUAL(jlen(g, "moves"), moves);
    const cJSON *last = cJSON_GetArrayItem(cJSON_GetObjectItem(g, "moves"), moves - 1);
    CU_ASSERT(strlen(jstr(last, "position")) > 0);
    CU_ASSERT(strlen(jstr(last, "board")) > 0);
    CU_ASSERT(strlen(jstr(g, "start")) > 0);
    cJSON_Delete(g);
    expect_status("GET", "/api/records/game?file=t.h5&index=4", NULL, 404);
    expect_status("GET", "/api/records/game?file=t.h5&index=-1", NULL, 400);
    expect_status("GET", "/api/records/game?file=t.h5&index=x", NULL, 400);
    expect_status("GET", "/api/records/game?file=t.h5", NULL, 400);
    expect_status("GET", "/api/records?file=foreign.h5", NULL, 400);
    expect_status("GET", "/api/records?file=trunc.h5", NULL, 400);
    expect_status("GET", "/api/records?file=plain.csv", NULL, 400);
    expect_status("GET", "/api/records?file=nothere.h5", NULL, 404);
    /* the file that crashes libhdf5: an error each time, and the server lives on */
    expect_status("GET", "/api/records?file=crash.h5", NULL, 400);
    expect_status("GET", "/api/ratings?file=crash.h5", NULL, 400);
    expect_status("GET", "/api/records/game?file=crash.h5&index=0", NULL, 400);
    expect_status("GET", "/api/files", NULL, 200);
    expect_status("GET", "/api/version", NULL, 200);
    expect_status("GET", "/api/records", NULL, 400);
    cJSON *e = json_call("GET", "/api/ratings?file=t.h5", NULL, 200);
    CU_ASSERT_EQUAL(jlen(e, "ratings"), 2);
    const cJSON *top = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "ratings"), 0);
    const cJSON *low = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "ratings"), 1);
    CU_ASSERT(cJSON_GetObjectItem(top, "elo")->valuedouble >=
              cJSON_GetObjectItem(low, "elo")->valuedouble);
    CU_ASSERT(cJSON_GetObjectItem(top, "lo")->valuedouble <=
              cJSON_GetObjectItem(top, "elo")->valuedouble);
    CU_ASSERT_EQUAL(jint(top, "games", 0), 4);
    const cJSON *cross = cJSON_GetObjectItem(e, "cross");
    CU_ASSERT_EQUAL(jlen(cross, "agents"), 2);
    const cJSON *games = cJSON_GetObjectItem(cross, "games");
    CU_ASSERT_EQUAL(cJSON_GetArrayItem(cJSON_GetArrayItem(games, 0), 1)->valueint, 4);
    CU_ASSERT(cJSON_IsNull(
        cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cross, "score"), 0), 0)));
    double s01 = cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cross, "score"), 0), 1)
                     ->valuedouble;
    double s10 = cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cross, "score"), 1), 0)
                     ->valuedouble;
    CU_ASSERT_DOUBLE_EQUAL(s01 + s10, 1.0, 1e-9);
    CU_ASSERT_EQUAL(jlen(e, "openings"), 2);
    cJSON_Delete(e);
    /* errors name files as the client did, relative to --data, not by their real path */
    char real[PATH_MAX];
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(datadir, real));
    const char *named[] = {"foreign.h5", "trunc.h5"};
    for (int i = 0; i < 2; i++) {
        char path[64];
        snprintf(path, sizeof path, "/api/ratings?file=%s", named[i]);
        cJSON *err = json_call("GET", path, NULL, 400);
        const char *msg = jstr(err, "error");
        CU_ASSERT(strstr(msg, named[i]) != NULL);
        CU_ASSERT(strstr(msg, real) == NULL);
        CU_ASSERT(strstr(msg, tmpdir) == NULL);
        cJSON_Delete(err);
    }
    cJSON *run = json_call("GET", "/api/run?dir=run1", NULL, 200);
    CU_ASSERT_EQUAL(jlen(run, "columns"), 3);
    CU_ASSERT_EQUAL(jlen(run, "rows"), 2);
    CU_ASSERT_DOUBLE_EQUAL(
        cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItem(run, "rows"), 0), 1)->valuedouble,
        2.5, 1e-12);
    CU_ASSERT_EQUAL(jlen(cJSON_GetObjectItem(run, "elo"), "rows"), 2);
    cJSON_Delete(run);
    expect_status("GET", "/api/run?dir=sub", NULL, 404);
}

/* A model file inside --data (issue 36, item 8): the game's replies name it
 * as the client did, never by the server's real path of --data. */
static void test_data_model_path(void)
{
    char dst[700], real[PATH_MAX];
    FILE *in = fopen(HOYLE_TEST_DATA "/../../models/checkers.eval", "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    snprintf(dst, sizeof dst, "%s/mine.eval", datadir);
    FILE *out = fopen(dst, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    fwrite(buf, 1, n, out);
    fclose(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(datadir, real));
    resp_t r = request("POST", "/api/games/new",
                       "{\"game\": \"checkers\", \"agents\": "
                       "[\"alphabeta(eval=mine.eval,depth=1)\", \"human\"]}");
    CU_ASSERT_EQUAL_FATAL(r.status, 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.body, "eval=mine.eval"));
    CU_ASSERT_PTR_NULL(strstr(r.body, real));
    CU_ASSERT_PTR_NULL(strstr(r.body, tmpdir));
    cJSON *s = cJSON_Parse(r.body);
    free(r.body);
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/agent", jstr(s, "id"));
    r = request("POST", path, "{}"); /* the agent moves: its search summary names it too */
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_PTR_NULL(r.body ? strstr(r.body, real) : NULL);
    free(r.body);
    snprintf(path, sizeof path, "/api/games/%s/export?format=hoyle", jstr(s, "id"));
    r = request("GET", path, NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    CU_ASSERT_PTR_NULL(r.body ? strstr(r.body, real) : NULL);
    free(r.body);
    delete_game(jstr(s, "id"));
    cJSON_Delete(s);
    unlink(dst);
}

/* ---- hostile requests ---- */

static void test_hostile_requests(void)
{
    size_t big = 70 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, ' ', big);
    huge[0] = '{', huge[big - 1] = '}', huge[big] = '\0';
    expect_status("POST", "/api/games/new", huge, 413);
    free(huge);
    static const struct {
        const char *body;
        const char *want;
    } bad[] = {
        {"{\"game\": \"gobang\", ", "malformed JSON"},
        {"[1, 2]", "object"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\", \"random\"]} x", "malformed"},
        {"{\"game\": 5, \"agents\": [\"human\", \"random\"]}", "'game'"},
        {"{\"game\": \"nosuchgame\", \"agents\": [\"human\", \"random\"]}", "bad spec"},
        {"{\"game\": \"gobang(board=99)\", \"agents\": [\"human\", \"random\"]}", "board"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\"]}", "'agents'"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\", \"mcts(sims=-1)\"]}", "sims"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\", \"uci(command=/bin/sh)\"]}", "uci"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\", \"human(x=1)\"]}", "human"},
        {"{\"game\": \"backgammon\", \"agents\": [\"human\", \"gnubg(path=/bin/sh)\"]}", "path"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\", \"random\"], \"seed\": -3}", "seed"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\", \"random\"], \"x\": 1}", "unknown field"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\", \"random\"], \"position\": \"zz\"}",
         "position"},
        {"{\"game\": \"gobang\", \"agents\": [\"human\", \"random\"], \"seed\": 1.5}", "integer"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *e = json_call("POST", "/api/games/new", bad[i].body, 400);
        if (!strstr(jstr(e, "error"), bad[i].want))
            fprintf(stderr, "body %s: error '%s' lacks '%s'\n", bad[i].body, jstr(e, "error"),
                    bad[i].want);
        CU_ASSERT_PTR_NOT_NULL(strstr(jstr(e, "error"), bad[i].want));
        cJSON_Delete(e);
    }
    /* a body that is not JSON by its type; a page of another site; DNS rebinding */
    resp_t r = request_on(serve_port(srv), "POST", "/api/games/new", "Content-Type: text/plain\r\n",
                          "{\"game\": \"gobang\"}");
    CU_ASSERT_EQUAL(r.status, 415);
    free(r.body);
    r = request_on(serve_port(srv), "POST", "/api/games/new", "Origin: http://evil.example\r\n",
                   "{\"game\": \"gobang\", \"agents\": [\"human\", \"random\"]}");
    CU_ASSERT_EQUAL(r.status, 403);
    free(r.body);
    r = request_on(serve_port(srv), "POST", "/api/games/new", "Origin: http://127.0.0.1\r\n",
                   "{\"game\": \"gobang\", \"agents\": [\"human\", \"random\"]}");
    CU_ASSERT_EQUAL(r.status, 200); /* the Host's own origin */
    cJSON *ok = r.body ? cJSON_Parse(r.body) : NULL;
    free(r.body);
    char id[32];
    snprintf(id, sizeof id, "%s", jstr(ok, "id"));
    cJSON_Delete(ok);
    int fd = dial(serve_port(srv));
    const char *rebind = "GET /api/version HTTP/1.1\r\nHost: evil.example:8080\r\n"
                         "Connection: close\r\n\r\n";
    CU_ASSERT_EQUAL(send_all(fd, rebind, strlen(rebind)), 0);
    r = read_response(fd);
    CU_ASSERT_EQUAL(r.status, 403);
    free(r.body);
    /* moves: malformed, illegal, both fields, unknown game */
    cJSON_Delete(game_post(id, "move", "{\"move\": \"z99\"}", 400));
    cJSON_Delete(game_post(id, "move", "{\"move\": 3}", 400));
    cJSON_Delete(game_post(id, "move", "{\"move\": \"a1\", \"step\": \"a1\"}", 400));
    cJSON_Delete(game_post(id, "move", "{}", 400));
    cJSON_Delete(game_post(id, "move", "not json", 400));
    cJSON_Delete(game_post(id, "agent", "{\"time_ms\": \"soon\"}", 400));
    cJSON_Delete(game_post("g999999", "move", "{\"move\": \"a1\"}", 404));
    delete_game(id);
}

/* ---- the games cap, busy games and a client that goes away ---- */

static void test_games_cap(void)
{
    serve_t *small = NULL;
    serve_opts_t o = {.data_dir = datadir, .max_games = 2};
    HARNESS_OK(serve_start(&o, &small));
    const char *body = "{\"game\": \"gobang\", \"agents\": [\"human\", \"random\"]}";
    char ids[2][32];
    for (int i = 0; i < 2; i++) {
        resp_t r = request_on(serve_port(small), "POST", "/api/games/new", NULL, body);
        CU_ASSERT_EQUAL(r.status, 200);
        cJSON *s = r.body ? cJSON_Parse(r.body) : NULL;
        snprintf(ids[i], sizeof ids[i], "%s", jstr(s, "id"));
        cJSON_Delete(s);
        free(r.body);
    }
    CU_ASSERT_EQUAL(serve_num_games(small), 2);
    resp_t r = request_on(serve_port(small), "POST", "/api/games/new", NULL, body);
    CU_ASSERT_EQUAL(r.status, 429);
    free(r.body);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s", ids[0]);
    r = request_on(serve_port(small), "DELETE", path, NULL, NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    free(r.body);
    r = request_on(serve_port(small), "POST", "/api/games/new", NULL, body);
    CU_ASSERT_EQUAL(r.status, 200);
    free(r.body);
    serve_stop(small);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* An agent searching with no limit of its own (a day of simulations) under a
 * 60 s cap: while it runs, GET answers and changes get 503; when its client
 * hangs up, the search stops and the game is free again long before 60 s. */
static void test_busy_and_disconnect(void)
{
    serve_t *slow = NULL;
    serve_opts_t o = {.data_dir = datadir, .max_think_ms = 60000};
    HARNESS_OK(serve_start(&o, &slow));
    int port = serve_port(slow);
    resp_t r = request_on(port, "POST", "/api/games/new", NULL,
                          "{\"game\": \"gobang(board=9)\", \"agents\": "
                          "[\"mcts(sims=100000000)\", \"human\"]}");
    CU_ASSERT_EQUAL_FATAL(r.status, 200);
    cJSON *s = cJSON_Parse(r.body);
    free(r.body);
    char id[32], path[96];
    snprintf(id, sizeof id, "%s", jstr(s, "id"));
    cJSON_Delete(s);
    snprintf(path, sizeof path, "/api/games/%s/agent", id);
    int fd = dial(port);
    CU_ASSERT_EQUAL(send_request(fd, "POST", path, NULL, NULL, 0), 0);
    /* wait until the search runs: undo (which cannot start a search of its own, so the
     * poll cannot overtake the request above) answers 409 before and 503 while it runs */
    snprintf(path, sizeof path, "/api/games/%s/undo", id);
    int busy = 0;
    for (int i = 0; i < 1000 && !busy; i++) {
        r = request_on(port, "POST", path, NULL, NULL);
        busy = r.status == 503;
        free(r.body);
        if (!busy) sleep_ms(20);
    }
    CU_ASSERT(busy);
    /* a second search is refused with 503 */
    snprintf(path, sizeof path, "/api/games/%s/agent", id);
    r = request_on(port, "POST", path, NULL, NULL);
    CU_ASSERT_EQUAL(r.status, 503);
    free(r.body);
    snprintf(path, sizeof path, "/api/games/%s", id);
    r = request_on(port, "GET", path, NULL, NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    free(r.body);
    close(fd); /* the client goes away */
    /* the search stops: undo answers 409 (nothing to undo: the agent's move
     * was played... or 200 once it was) instead of 503, well within 60 s */
    snprintf(path, sizeof path, "/api/games/%s/undo", id);
    int status = 503;
    for (int i = 0; i < 500 && status == 503; i++) {
        r = request_on(port, "POST", path, NULL, NULL);
        status = r.status;
        free(r.body);
        if (status == 503) sleep_ms(20);
    }
    CU_ASSERT_EQUAL(status, 200); /* the move found so far was played, and is undone */
    serve_stop(slow);
}

/* A socket to the server from the local address `from` (127.x.y.z). */
static int dial_from(int port, const char *from)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in b = {.sin_family = AF_INET};
    inet_pton(AF_INET, from, &b.sin_addr);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (fd < 0 || bind(fd, (struct sockaddr *)&b, sizeof b) ||
        connect(fd, (struct sockaddr *)&a, sizeof a)) {
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

/* 1 when the server closed `fd` (end of file or a reset) within `ms`. */
static int closed_within(int fd, int ms)
{
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char c[512];
    ssize_t n;
    while ((n = recv(fd, c, sizeof c, 0)) > 0) {
    }
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* Issue 36, item 14: 270 half-open connections (headers never finished)
 * from one address. Another client address is served at once (the per
 * address cap keeps the server's table from filling), the half-open ones
 * are closed by the request timeout, and then their own address is served
 * again. A search longer than the timeout still gets its reply. */
static void test_slow_clients(void)
{
    serve_t *s = NULL;
    serve_opts_t o = {.data_dir = datadir, .request_timeout_s = 1, .max_per_client = 8};
    HARNESS_OK(serve_start(&o, &s));
    int port = serve_port(s);
    enum { HALF = 270 };
    static int fds[HALF];
    int opened = 0;
    for (int i = 0; i < HALF; i++) {
        fds[i] = dial_from(port, "127.0.0.1");
        if (fds[i] >= 0 && send_all(fds[i], "GET /api/version HTTP/1.1\r\nHost: 127", 35) == 0)
            opened++;
    }
    CU_ASSERT(opened > 0);
    int other = dial_from(port, "127.0.0.2");
    if (other < 0) {
        fprintf(stderr, "    (no 127.0.0.2 on this host: the other-address check is skipped)\n");
    } else {
        CU_ASSERT_EQUAL(send_request(other, "GET", "/api/version", NULL, NULL, 0), 0);
        resp_t r = read_response(other);
        CU_ASSERT_EQUAL(r.status, 200);
        free(r.body);
    }
    /* the server closes every half-open connection (at most a few seconds) */
    int closed = 0;
    for (int i = 0; i < HALF; i++)
        if (fds[i] >= 0) {
            closed += closed_within(fds[i], 20000);
            close(fds[i]);
        } else {
            closed++;
        }
    CU_ASSERT_EQUAL(closed, HALF);
    resp_t r = request_on(port, "GET", "/api/version", NULL, NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    free(r.body);
    /* a 2.5 s search under a 1 s request timeout answers */
    r = request_on(port, "POST", "/api/games/new", NULL,
                   "{\"game\": \"gobang(board=9)\", \"agents\": "
                   "[\"mcts(sims=100000000,time_ms=2500)\", \"human\"]}");
    CU_ASSERT_EQUAL_FATAL(r.status, 200);
    cJSON *j = cJSON_Parse(r.body);
    free(r.body);
    char path[96];
    snprintf(path, sizeof path, "/api/games/%s/agent", jstr(j, "id"));
    cJSON_Delete(j);
    r = request_on(port, "POST", path, NULL, NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    free(r.body);
    serve_stop(s);
}

/* Issue 36, item 15: one memory budget for the games' searches. Under a
 * 64 MiB budget a game whose agent alone needs more than 16 MiB is refused
 * (400), games of smaller agents are admitted until the budget is spent
 * (503), and a deleted game gives its share back. */
static void test_memory_budget(void)
{
    serve_t *s = NULL;
    serve_opts_t o = {.data_dir = datadir, .tree_budget_mb = 64};
    HARNESS_OK(serve_start(&o, &s));
    int port = serve_port(s);
    resp_t r = request_on(port, "POST", "/api/games/new", NULL,
                          "{\"game\": \"gobang(board=9)\", \"agents\": "
                          "[\"mcts(sims=200000)\", \"human\"]}");
    CU_ASSERT_EQUAL(r.status, 400);
    CU_ASSERT(r.body && strstr(r.body, "search memory"));
    free(r.body);
    char first[32] = "";
    int made = 0, status = 200;
    for (int i = 0; i < 64 && status == 200; i++) {
        r = request_on(port, "POST", "/api/games/new", NULL,
                       "{\"game\": \"gobang(board=9)\", \"agents\": "
                       "[\"mcts(sims=2000)\", \"alphabeta(tt_mb=1)\"]}");
        status = r.status;
        if (status == 200) {
            made++;
            cJSON *j = cJSON_Parse(r.body);
            if (!first[0]) snprintf(first, sizeof first, "%s", jstr(j, "id"));
            cJSON_Delete(j);
        }
        free(r.body);
    }
    CU_ASSERT_EQUAL(status, 503);
    CU_ASSERT(made >= 2 && made < 64);
    CU_ASSERT(serve_tree_bytes(s) <= (size_t)64 << 20);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s", first);
    r = request_on(port, "DELETE", path, NULL, NULL);
    CU_ASSERT_EQUAL(r.status, 200);
    free(r.body);
    r = request_on(port, "POST", "/api/games/new", NULL,
                   "{\"game\": \"gobang(board=9)\", \"agents\": "
                   "[\"mcts(sims=2000)\", \"alphabeta(tt_mb=1)\"]}");
    CU_ASSERT_EQUAL(r.status, 200);
    free(r.body);
    serve_stop(s);
}

/* ---- load: many clients playing at once ---- */

typedef struct player_arg {
    int port, errors, games;
} player_arg_t;

static void *player_main(void *arg)
{
    player_arg_t *p = arg;
    for (int g = 0; g < p->games; g++) {
        resp_t r = request_on(p->port, "POST", "/api/games/new", NULL,
                              "{\"game\": \"gobang(board=7)\", \"agents\": [\"human\", "
                              "\"random\"]}");
        cJSON *s = r.status == 200 ? cJSON_Parse(r.body) : NULL;
        free(r.body);
        if (s == NULL) {
            p->errors++;
            continue;
        }
        char id[32], path[96];
        snprintf(id, sizeof id, "%s", jstr(s, "id"));
        for (int ply = 0; ply < 400 && cJSON_IsNumber(cJSON_GetObjectItem(s, "to_move")); ply++) {
            char body[128] = "";
            if (jint(s, "to_move", -1) == 0) {
                const cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "legal"), 0);
                snprintf(body, sizeof body, "{\"move\": \"%s\"}", jstr(m, "move"));
                snprintf(path, sizeof path, "/api/games/%s/move", id);
            } else {
                snprintf(path, sizeof path, "/api/games/%s/agent", id);
            }
            r = request_on(p->port, "POST", path, NULL, body[0] ? body : NULL);
            cJSON_Delete(s);
            s = r.status == 200 ? cJSON_Parse(r.body) : NULL;
            free(r.body);
            if (s == NULL) {
                p->errors++;
                break;
            }
        }
        if (s && strcmp(jstr(s, "to_move"), "over") != 0) p->errors++;
        cJSON_Delete(s);
        snprintf(path, sizeof path, "/api/games/%s", id);
        r = request_on(p->port, "DELETE", path, NULL, NULL);
        if (r.status != 200) p->errors++;
        free(r.body);
    }
    return NULL;
}

static void test_load(void)
{
    const char *slow = getenv("HOYLE_SLOW_TESTS");
    int small = slow && strcmp(slow, "0") == 0;
    int threads = small ? 4 : 12, games = small ? 1 : 3;
    pthread_t t[12];
    player_arg_t args[12];
    for (int i = 0; i < threads; i++) {
        args[i] = (player_arg_t){.port = serve_port(srv), .games = games};
        CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, player_main, &args[i]), 0);
    }
    int errors = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        errors += args[i].errors;
    }
    CU_ASSERT_EQUAL(errors, 0);
    CU_ASSERT_EQUAL(serve_num_games(srv), 0);
    CU_ASSERT_EQUAL(serve_tree_bytes(srv), 0);
}

static void test_start_errors(void)
{
    serve_t *s = NULL;
    serve_opts_t o = {.data_dir = "/nonexistent/folder"};
    CU_ASSERT(serve_start(&o, &s) < 0);
    CU_ASSERT_PTR_NULL(s);
    o = (serve_opts_t){.bind = "localhost"};
    CU_ASSERT(serve_start(&o, &s) < 0);
    o = (serve_opts_t){.port = serve_port(srv)}; /* in use */
    CU_ASSERT(serve_start(&o, &s) < 0);
    CU_ASSERT(serve_is_loopback("127.0.0.1") && serve_is_loopback("127.1.2.3"));
    CU_ASSERT(!serve_is_loopback("0.0.0.0") && !serve_is_loopback("10.0.0.1"));
}

int main(void)
{
    if (game_agents_register() || td_register_agents()) return 1;
    static const harness_test_t tests[] = {
        {"setup: data and web folders, a tournament, the server", setup},
        {"catalog", test_catalog},
        {"shipped models by name", test_shipped_models},
        {"a model in --data, named without the server's path", test_data_model_path},
        {"static files", test_static_files},
        {"gobang game human vs random", test_gobang_game},
        {"partnership game", test_partnership_game},
        {"checkers chain step by step", test_checkers_chain},
        {"backgammon dice", test_backgammon_dice},
        {"undo", test_undo},
        {"export pgn and hoyle", test_export},
        {"files and hostile paths", test_files},
        {"records, replay, ratings, runs", test_records},
        {"hostile requests", test_hostile_requests},
        {"games cap", test_games_cap},
        {"busy game and a client that goes away", test_busy_and_disconnect},
        {"slow and half-open clients", test_slow_clients},
        {"one memory budget for the searches", test_memory_budget},
        {"load", test_load},
        {"start errors", test_start_errors},
        {NULL, NULL},
    };
    int rc = harness_run("serve", tests);
    serve_stop(srv);
    if (harness_remove_tree(tmpdir) != 0) rc = rc ? rc : 1;
    return rc;
}
