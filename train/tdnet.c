/* tdnet.c — the small value net of TD(λ), its traces and its files
 * (tdnet.h). The loops over parameters are plain arrays of floats that the
 * compiler vectorises; a zero input is skipped in the forward pass and in the
 * trace gradient. */
#include "train/tdnet.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"

#define TDNET_MAGIC "HOYLE-TD 1\n"

/* The three hot loops are compiled twice, for AVX2 with FMA and for the baseline, and
 * picked at load time (GCC's target_clones): the dense trace pass is most of TD's cost. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                             \
    !defined(__SANITIZE_ADDRESS__)
#define TDNET_HOT __attribute__((target_clones("avx2,fma", "default")))
#else
#define TDNET_HOT
#endif

static float sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }

static void set_views(tdnet_t *n)
{
    n->w1 = n->params;
    n->b1 = n->w1 + (size_t)n->inputs * (size_t)n->hidden;
    n->w2 = n->b1 + n->hidden;
    n->b2 = n->w2 + (size_t)n->heads * (size_t)n->hidden;
}

static int tdnet_alloc(int inputs, int hidden, int heads, tdnet_t **out)
{
    if (inputs < 1 || inputs > 1 << 20 || hidden < 1 || hidden > 1 << 14 || heads < 1 ||
        heads > GAME_MAX_HEADS)
        return hoyle_error(HOYLE_EINVAL, "td net: bad shape %d x %d x %d", inputs, hidden, heads);
    tdnet_t *n = calloc(1, sizeof *n);
    if (n == NULL) return hoyle_error(HOYLE_ENOMEM, "td net: out of memory");
    n->inputs = inputs, n->hidden = hidden, n->heads = heads;
    n->num_params =
        (size_t)inputs * (size_t)hidden + (size_t)hidden + (size_t)heads * hidden + (size_t)heads;
    n->params = calloc(n->num_params, sizeof *n->params);
    if (n->params == NULL) {
        free(n);
        return hoyle_error(HOYLE_ENOMEM, "td net: out of memory");
    }
    set_views(n);
    *out = n;
    return HOYLE_OK;
}

int tdnet_create(int inputs, int hidden, int heads, double init, rng_t *rng, tdnet_t **out)
{
    int status = tdnet_alloc(inputs, hidden, heads, out);
    if (status) return status;
    tdnet_t *n = *out;
    size_t w1 = (size_t)inputs * (size_t)hidden;
    for (size_t i = 0; i < w1; i++) n->w1[i] = (float)((2 * rng_double(rng) - 1) * init);
    for (size_t i = 0; i < (size_t)heads * hidden; i++)
        n->w2[i] = (float)((2 * rng_double(rng) - 1) * init);
    return HOYLE_OK;
}

void tdnet_free(tdnet_t *n)
{
    if (n == NULL) return;
    free(n->params);
    free(n);
}

void tdnet_copy(tdnet_t *dst, const tdnet_t *src)
{
    float *keep = dst->params;
    *dst = *src;
    dst->params = keep;
    memcpy(dst->params, src->params, sizeof(float) * src->num_params);
    set_views(dst);
}

TDNET_HOT void tdnet_forward(const tdnet_t *n, const float *restrict x, float *restrict h,
                             float *restrict y)
{
    const int H = n->hidden;
    memcpy(h, n->b1, sizeof(float) * (size_t)H);
    for (int i = 0; i < n->inputs; i++) {
        float xi = x[i];
        if (xi == 0.0f) continue;
        const float *restrict row = n->w1 + (size_t)i * H;
        for (int j = 0; j < H; j++) h[j] += xi * row[j];
    }
    for (int j = 0; j < H; j++) h[j] = sigmoidf(h[j]);
    for (int k = 0; k < n->heads; k++) {
        const float *row = n->w2 + (size_t)k * H;
        float s = n->b2[k];
        for (int j = 0; j < H; j++) s += row[j] * h[j];
        y[k] = sigmoidf(s);
    }
}

int tdnet_trace_init(tdnet_trace_t *t, const tdnet_t *n)
{
    memset(t, 0, sizeof *t);
    t->heads = n->heads;
    t->num_params = n->num_params;
    t->blocks = calloc((size_t)n->heads * n->num_params, sizeof *t->blocks);
    if (t->blocks == NULL) return hoyle_error(HOYLE_ENOMEM, "td traces: out of memory");
    tdnet_trace_clear(t);
    return HOYLE_OK;
}

void tdnet_trace_done(tdnet_trace_t *t)
{
    free(t->blocks);
    t->blocks = NULL;
}

void tdnet_trace_clear(tdnet_trace_t *t)
{
    memset(t->blocks, 0, sizeof(float) * (size_t)t->heads * t->num_params);
    for (int k = 0; k < t->heads; k++) t->slot[k] = k, t->sign[k] = 1;
}

void tdnet_trace_flip(tdnet_trace_t *t, const game_outcome_heads_t *h)
{
    int slot[GAME_MAX_HEADS];
    float sign[GAME_MAX_HEADS];
    for (int k = 0; k < t->heads; k++) {
        slot[k] = t->slot[h->other[k]];
        sign[k] = t->sign[h->other[k]] * (h->complement[k] ? -1.0f : 1.0f);
    }
    memcpy(t->slot, slot, sizeof(int) * (size_t)t->heads);
    memcpy(t->sign, sign, sizeof(float) * (size_t)t->heads);
}

TDNET_HOT void tdnet_trace_add(tdnet_trace_t *t, const tdnet_t *n, const float *restrict x,
                               const float *restrict h, const float *restrict y)
{
    const int H = n->hidden;
    float dh[1 << 14];
    for (int k = 0; k < n->heads; k++) {
        float *e = t->blocks + (size_t)t->slot[k] * t->num_params;
        float g = t->sign[k] * y[k] * (1 - y[k]); /* d y_k / d (its pre-activation) */
        const float *w2 = n->w2 + (size_t)k * H;
        for (int j = 0; j < H; j++) dh[j] = g * w2[j] * h[j] * (1 - h[j]);
        for (int i = 0; i < n->inputs; i++) {
            float xi = x[i];
            if (xi == 0.0f) continue;
            float *restrict row = e + (size_t)i * H;
            for (int j = 0; j < H; j++) row[j] += xi * dh[j];
        }
        float *b1 = e + (n->b1 - n->params), *e2 = e + (n->w2 - n->params) + (size_t)k * H;
        for (int j = 0; j < H; j++) {
            b1[j] += dh[j];
            e2[j] += g * h[j];
        }
        e[(n->b2 - n->params) + k] += g;
    }
}

TDNET_HOT void tdnet_td_step(tdnet_t *n, tdnet_trace_t *t, double alpha, const float *delta,
                             double lambda)
{
    const size_t P = n->num_params;
    const float lam = (float)lambda;
    float *restrict w = n->params;
    for (int k = 0; k < t->heads; k++) {
        float *restrict e = t->blocks + (size_t)t->slot[k] * P;
        float c = (float)(alpha * delta[k]) * t->sign[k];
        for (size_t p = 0; p < P; p++) {
            w[p] += c * e[p];
            e[p] *= lam;
        }
    }
}

/* FNV-1a over bytes: the file's checksum. */
static uint64_t fnv1a(const void *data, size_t len)
{
    const unsigned char *b = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

int tdnet_save(const tdnet_t *n, const char *path)
{
    char head[1024];
    size_t bytes = sizeof(float) * n->num_params;
    int len = snprintf(head, sizeof head,
                       TDNET_MAGIC "game %s\nfeatures %s %d %016" PRIx64
                                   "\nhidden %d\nheads %d\nparams %zu\nchecksum %016" PRIx64 "\n\n",
                       n->game, n->features, n->inputs, n->signature, n->hidden, n->heads,
                       n->num_params, fnv1a(n->params, bytes));
    if (len < 0 || (size_t)len >= sizeof head)
        return hoyle_error(HOYLE_EINVAL, "td net '%s': header too long", path);
    char *buf = malloc((size_t)len + bytes);
    if (buf == NULL) return hoyle_error(HOYLE_ENOMEM, "td net '%s': out of memory", path);
    memcpy(buf, head, (size_t)len);
    memcpy(buf + len, n->params, bytes); /* little-endian hosts only (x86-64, arm64) */
    int status = file_write_atomic(path, buf, (size_t)len + bytes);
    free(buf);
    return status;
}

/* The header's fields, read one line at a time. */
typedef struct td_header {
    char game[GAME_SPEC_MAX], features[TDNET_FEATURES_MAX];
    int inputs, hidden, heads;
    size_t params;
    uint64_t signature, checksum;
} td_header_t;

static int read_header(FILE *f, const char *path, td_header_t *h)
{
    char line[1024], magic[sizeof TDNET_MAGIC];
    if (!fgets(magic, sizeof magic, f) || strcmp(magic, TDNET_MAGIC) != 0)
        return hoyle_error(HOYLE_EINVAL, "'%s': not a hoyle TD net (no '%.10s' header)", path,
                           TDNET_MAGIC);
    bool ok = fgets(line, sizeof line, f) && strncmp(line, "game ", 5) == 0;
    if (ok) {
        line[strcspn(line, "\n")] = '\0';
        ok = snprintf(h->game, sizeof h->game, "%s", line + 5) < (int)sizeof h->game;
    }
    ok = ok && fgets(line, sizeof line, f) &&
         sscanf(line, "features %31s %d %" SCNx64, h->features, &h->inputs, &h->signature) == 3;
    ok = ok && fgets(line, sizeof line, f) && sscanf(line, "hidden %d", &h->hidden) == 1;
    ok = ok && fgets(line, sizeof line, f) && sscanf(line, "heads %d", &h->heads) == 1;
    ok = ok && fgets(line, sizeof line, f) && sscanf(line, "params %zu", &h->params) == 1;
    ok = ok && fgets(line, sizeof line, f) && sscanf(line, "checksum %" SCNx64, &h->checksum) == 1;
    ok = ok && fgets(line, sizeof line, f) && strcmp(line, "\n") == 0;
    return ok ? HOYLE_OK : hoyle_error(HOYLE_EINVAL, "'%s': damaged TD net header", path);
}

int tdnet_load(const char *path, const game_t *g, tdnet_t **out)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return hoyle_error(HOYLE_EIO, "'%s': %s", path, strerror(errno));
    td_header_t h;
    memset(&h, 0, sizeof h);
    tdnet_t *n = NULL;
    int status = read_header(f, path, &h);
    if (!status && g && strcmp(h.game, g->spec) != 0)
        status = hoyle_error(HOYLE_EINVAL, "'%s': a TD net for '%s', not for '%s'", path, h.game,
                             g->spec);
    if (!status) status = tdnet_alloc(h.inputs, h.hidden, h.heads, &n);
    if (!status && n->num_params != h.params)
        status = hoyle_error(HOYLE_EINVAL, "'%s': %zu parameters for a %d x %d x %d net", path,
                             h.params, h.inputs, h.hidden, h.heads);
    size_t bytes = n ? sizeof(float) * n->num_params : 0;
    if (!status && fread(n->params, 1, bytes, f) != bytes)
        status = hoyle_error(HOYLE_EINVAL, "'%s': truncated TD net", path);
    if (!status && fgetc(f) != EOF)
        status = hoyle_error(HOYLE_EINVAL, "'%s': bytes after the TD net's parameters", path);
    if (!status && fnv1a(n->params, bytes) != h.checksum)
        status = hoyle_error(HOYLE_EINVAL, "'%s': checksum mismatch (damaged TD net)", path);
    fclose(f);
    if (status) {
        tdnet_free(n);
        return status;
    }
    snprintf(n->game, sizeof n->game, "%s", h.game);
    snprintf(n->features, sizeof n->features, "%s", h.features);
    n->signature = h.signature;
    *out = n;
    return HOYLE_OK;
}
