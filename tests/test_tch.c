/* test_tch.c — the libtorch wrapper through its C header: shapes, determinism, training
 * reduces the loss on a fixed batch, learning-rate schedules, save/load round trips,
 * bad inputs (status + message, nothing changed), export. Built only with libtorch. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#include "core/error.h"
#include "tests/harness.h"
#include "train/tch/tch.h"

static const tch_net_config_t small_cfg = {
    .in_channels = 3,
    .height = 5,
    .width = 4,
    .num_actions = 21,
    .num_values = 2,
    .blocks = 2,
    .filters = 8,
    .value_hidden = 16,
};

#define BATCH 12

/* A fixed batch: observations, visit distributions over legal actions, a mask, values. */
typedef struct batch {
    int n;
    float *obs, *pi, *z;
    uint8_t *legal;
} batch_t;

static uint64_t lcg_state;
static float lcg_unit(void) /* deterministic uniform [0, 1) */
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((lcg_state >> 40) & 0xFFFFFF) / 16777216.0f;
}

static void batch_make(batch_t *b, const tch_net_config_t *c, int n, uint64_t seed)
{
    int obs_len = c->in_channels * c->height * c->width, A = c->num_actions, V = c->num_values;
    lcg_state = seed;
    b->n = n;
    b->obs = malloc(sizeof(float) * (size_t)n * obs_len);
    b->pi = calloc((size_t)n * A, sizeof(float));
    b->z = malloc(sizeof(float) * (size_t)n * V);
    b->legal = calloc((size_t)n * A, 1);
    for (int i = 0; i < n * obs_len; i++) b->obs[i] = lcg_unit() < 0.3f ? 1.0f : 0.0f;
    for (int r = 0; r < n; r++) {
        float sum = 0;
        for (int a = 0; a < A; a++) {
            b->legal[r * A + a] = (a == r % A) || lcg_unit() < 0.6f;
            if (b->legal[r * A + a]) sum += b->pi[r * A + a] = lcg_unit() * lcg_unit() + 0.01f;
        }
        for (int a = 0; a < A; a++) b->pi[r * A + a] /= sum;
        for (int j = 0; j < V; j++) b->z[r * V + j] = lcg_unit() * 2 - 1;
    }
}

static void batch_free(batch_t *b)
{
    free(b->obs);
    free(b->pi);
    free(b->z);
    free(b->legal);
}

/* The call fails with `code` and leaves a message. */
#define EXPECT_FAIL(code, call)                                                                    \
    do {                                                                                           \
        hoyle_clear_error();                                                                       \
        CU_ASSERT_EQUAL((call), (code));                                                           \
        CU_ASSERT(hoyle_last_error()[0] != '\0');                                                  \
    } while (0)

static char tmpdir[64];

static const char *tmp_file(const char *name)
{
    static char path[160];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

/* Forward a batch into freshly allocated buffers. */
static void forward(tch_net_t *net, const batch_t *b, float **logits, float **values)
{
    *logits = malloc(sizeof(float) * (size_t)b->n * small_cfg.num_actions);
    *values = malloc(sizeof(float) * (size_t)b->n * small_cfg.num_values);
    HARNESS_OK(tch_forward(net, b->obs, b->n, *logits, *values));
}

static double max_abs_diff(const float *a, const float *b, int len)
{
    double m = 0;
    for (int i = 0; i < len; i++) m = fmax(m, fabs((double)a[i] - b[i]));
    return m;
}

static void test_shapes_and_determinism(void)
{
    tch_net_t *net = NULL, *same = NULL, *other = NULL;
    HARNESS_OK(tch_net_create(&small_cfg, 7, &net));
    HARNESS_OK(tch_net_create(&small_cfg, 7, &same));
    HARNESS_OK(tch_net_create(&small_cfg, 8, &other));
    tch_net_config_t back;
    HARNESS_OK(tch_net_get_config(net, &back));
    CU_ASSERT(memcmp(&back, &small_cfg, sizeof back) == 0);

    /* stem 3*8*9 + 2 BN, 4 convs 8*8*9 + 8 BN, policy 2*8 + 2 BN + 2*20*21 + 21,
     * value 8 + 1 BN + 20*16 + 16 + 16*2 + 2 */
    int64_t expect = (216 + 16) + 2 * 2 * (576 + 16) + (16 + 4 + 840 + 21) + (8 + 2 + 336 + 34);
    CU_ASSERT_EQUAL(tch_net_num_params(net), expect);

    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 1);
    float *l1, *v1, *l2, *v2, *l3, *v3;
    forward(net, &b, &l1, &v1);
    forward(same, &b, &l2, &v2);
    forward(other, &b, &l3, &v3);
    int A = small_cfg.num_actions, V = small_cfg.num_values;
    CU_ASSERT(memcmp(l1, l2, sizeof(float) * BATCH * A) == 0);
    CU_ASSERT(memcmp(v1, v2, sizeof(float) * BATCH * V) == 0);
    CU_ASSERT(max_abs_diff(l1, l3, BATCH * A) > 1e-4);
    for (int i = 0; i < BATCH * A; i++) CU_ASSERT(isfinite(l1[i]));
    for (int i = 0; i < BATCH * V; i++) CU_ASSERT(v1[i] >= -1 && v1[i] <= 1);

    /* Evaluation mode: a position's outputs do not depend on the rest of the batch. */
    int obs_len = small_cfg.in_channels * small_cfg.height * small_cfg.width;
    float one_l[21], one_v[2];
    HARNESS_OK(tch_forward(net, b.obs + 5 * obs_len, 1, one_l, one_v));
    CU_ASSERT(max_abs_diff(one_l, l1 + 5 * A, A) < 1e-5);
    CU_ASSERT(max_abs_diff(one_v, v1 + 5 * V, V) < 1e-5);
    /* Either output may be skipped. */
    memset(one_l, 0, sizeof one_l);
    HARNESS_OK(tch_forward(net, b.obs + 5 * obs_len, 1, one_l, NULL));
    CU_ASSERT(max_abs_diff(one_l, l1 + 5 * A, A) < 1e-5);
    HARNESS_OK(tch_forward(net, b.obs + 5 * obs_len, 1, NULL, one_v));
    CU_ASSERT(max_abs_diff(one_v, v1 + 5 * V, V) < 1e-5);

    /* No residual blocks is a valid tower too. */
    tch_net_config_t flat = small_cfg;
    flat.blocks = 0;
    tch_net_t *f = NULL;
    HARNESS_OK(tch_net_create(&flat, 1, &f));
    HARNESS_OK(tch_forward(f, b.obs, BATCH, l3, v3));
    tch_net_free(f);

    free(l1), free(v1), free(l2), free(v2), free(l3), free(v3);
    batch_free(&b);
    tch_net_free(net);
    tch_net_free(same);
    tch_net_free(other);
    tch_net_free(NULL);
}

/* A few steps on one fixed batch must reduce its loss (both optimisers). */
static void train_reduces_loss(tch_opt_kind_t kind, double lr)
{
    tch_net_t *net = NULL;
    tch_opt_t *opt = NULL;
    HARNESS_OK(tch_net_create(&small_cfg, 3, &net));
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    oc.kind = kind;
    oc.lr = lr;
    HARNESS_OK(tch_opt_create(net, &oc, &opt));
    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 2);

    tch_losses_t before, after, step;
    HARNESS_OK(tch_eval_losses(net, &oc, b.obs, b.pi, b.legal, b.z, b.n, &before));
    CU_ASSERT(fabs(before.total - (before.policy + before.value + before.l2)) < 1e-4);
    CU_ASSERT(before.l2 > 0);
    for (int i = 0; i < 40; i++)
        HARNESS_OK(tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, &step));
    CU_ASSERT_EQUAL(tch_opt_steps(opt), 40);
    HARNESS_OK(tch_eval_losses(net, &oc, b.obs, b.pi, b.legal, b.z, b.n, &after));
    CU_ASSERT(isfinite(after.total));
    CU_ASSERT(after.total < 0.8 * before.total);
    CU_ASSERT(after.policy < before.policy);
    CU_ASSERT(after.value < before.value);
    CU_ASSERT(step.total < before.total);

    /* The masked cross-entropy is bounded below by the targets' entropy. */
    double entropy = 0;
    for (int r = 0; r < b.n; r++)
        for (int a = 0; a < small_cfg.num_actions; a++) {
            float p = b.pi[r * small_cfg.num_actions + a];
            if (p > 0) entropy -= p * log(p);
        }
    entropy /= b.n;
    CU_ASSERT(after.policy >= entropy - 1e-4);

    /* Without a mask all actions count: the loss differs but stays finite. */
    tch_losses_t nomask;
    HARNESS_OK(tch_eval_losses(net, &oc, b.obs, b.pi, NULL, b.z, b.n, &nomask));
    CU_ASSERT(isfinite(nomask.policy));
    CU_ASSERT(nomask.policy >= after.policy - 1e-5);

    batch_free(&b);
    tch_opt_free(opt);
    tch_net_free(net);
}

static void test_sgd_reduces_loss(void) { train_reduces_loss(TCH_OPT_SGD, 0.05); }
static void test_adam_reduces_loss(void) { train_reduces_loss(TCH_OPT_ADAM, 0.003); }
static void test_adamw_reduces_loss(void) { train_reduces_loss(TCH_OPT_ADAMW, 0.003); }

/* `steps` steps of a fresh net (seed 3) with `oc` on batch b; *l2 = the sum of its squared
 * conv/linear weights afterwards, *logits its outputs on b (caller frees). */
static void train_with(const tch_opt_config_t *oc, const batch_t *b, int steps, double *l2,
                       float **logits)
{
    tch_net_t *net = NULL;
    tch_opt_t *opt = NULL;
    HARNESS_OK(tch_net_create(&small_cfg, 3, &net));
    HARNESS_OK(tch_opt_create(net, oc, &opt));
    for (int i = 0; i < steps; i++)
        HARNESS_OK(tch_train_step(net, opt, b->obs, b->pi, b->legal, b->z, b->n, NULL));
    tch_opt_config_t measure = *oc;
    measure.l2 = 1; /* the loss's L2 term with c = 1: the squared weights */
    tch_losses_t loss;
    HARNESS_OK(tch_eval_losses(net, &measure, b->obs, b->pi, b->legal, b->z, b->n, &loss));
    *l2 = loss.l2;
    float *v;
    forward(net, b, logits, &v);
    free(v);
    tch_opt_free(opt);
    tch_net_free(net);
}

/* AdamW's decay shrinks the weights (the loss has no L2 term here), SGD's Nesterov flag
 * changes the steps, and both settings are refused where they do not belong. */
static void test_weight_decay_nesterov(void)
{
    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 2);
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    oc.kind = TCH_OPT_ADAMW;
    oc.lr = 0.01;
    oc.l2 = 0;
    double plain, decayed;
    float *l1, *l2;
    train_with(&oc, &b, 6, &plain, &l1);
    oc.weight_decay = 0.5; /* each step: w *= 1 - 0.005, so about 0.94 of the squares */
    train_with(&oc, &b, 6, &decayed, &l2);
    CU_ASSERT(decayed < 0.97 * plain);
    CU_ASSERT(decayed > 0.9 * plain);
    free(l1), free(l2);

    oc.kind = TCH_OPT_SGD, oc.weight_decay = 0, oc.lr = 0.05, oc.momentum = 0.9;
    train_with(&oc, &b, 3, &plain, &l1);
    oc.nesterov = 1;
    train_with(&oc, &b, 3, &decayed, &l2);
    CU_ASSERT(max_abs_diff(l1, l2, BATCH * small_cfg.num_actions) > 1e-6);
    free(l1), free(l2);

    tch_net_t *net = NULL;
    tch_opt_t *opt = (tch_opt_t *)&b;
    HARNESS_OK(tch_net_create(&small_cfg, 3, &net));
    oc.kind = TCH_OPT_ADAM, oc.nesterov = 0, oc.weight_decay = 0.1;
    CU_ASSERT_EQUAL(tch_opt_create(net, &oc, &opt), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "weight_decay") != NULL);
    oc.kind = TCH_OPT_SGD, oc.weight_decay = 0, oc.nesterov = 1, oc.momentum = 0;
    CU_ASSERT_EQUAL(tch_opt_create(net, &oc, &opt), HOYLE_EINVAL);
    CU_ASSERT_PTR_EQUAL(opt, (tch_opt_t *)&b);
    tch_net_free(net);
    batch_free(&b);
}

static void test_lr_schedules(void)
{
    tch_net_t *net = NULL;
    HARNESS_OK(tch_net_create(&small_cfg, 1, &net));
    batch_t b;
    batch_make(&b, &small_cfg, 4, 3);
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    oc.lr = 0.01;
    oc.schedule = TCH_LR_STEP;
    oc.step_size = 2;
    oc.gamma = 0.5;
    oc.warmup_steps = 1;
    tch_opt_t *opt = NULL;
    HARNESS_OK(tch_opt_create(net, &oc, &opt));
    const double step_expect[] = {0.01, 0.01, 0.005, 0.005, 0.0025};
    for (int t = 0; t < 5; t++) {
        CU_ASSERT_DOUBLE_EQUAL(tch_opt_lr(opt), step_expect[t], 1e-12);
        HARNESS_OK(tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    }
    tch_opt_free(opt);

    oc.schedule = TCH_LR_COSINE;
    oc.total_steps = 4;
    oc.lr_min = 0.001;
    oc.warmup_steps = 2;
    HARNESS_OK(tch_opt_create(net, &oc, &opt));
    /* t=0: cos factor 1, warm-up 1/2; t=1: (1+cos(pi/4))/2, warm-up 2/2; ... t>=4: lr_min */
    const double pi_ = 3.14159265358979323846;
    const double cos_expect[] = {0.5 * 0.01,
                                 0.001 + 0.009 * 0.5 * (1 + cos(pi_ / 4)),
                                 0.001 + 0.009 * 0.5,
                                 0.001 + 0.009 * 0.5 * (1 + cos(3 * pi_ / 4)),
                                 0.001,
                                 0.001};
    for (int t = 0; t < 6; t++) {
        CU_ASSERT_DOUBLE_EQUAL(tch_opt_lr(opt), cos_expect[t], 1e-12);
        HARNESS_OK(tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    }
    tch_opt_free(opt);
    batch_free(&b);
    tch_net_free(net);
}

/* A net and optimiser trained as the save tests need: seed 11, `kind` with a step
 * schedule, 4 steps on batch `b` (batch_make seed 4). The committed old-layout fixtures
 * (tests/data/tch_v1_*.tch) were saved from exactly this. */
static void train_small(tch_opt_kind_t kind, const batch_t *b, tch_net_t **net, tch_opt_t **opt)
{
    HARNESS_OK(tch_net_create(&small_cfg, 11, net));
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    oc.kind = kind;
    oc.lr = kind == TCH_OPT_SGD ? 0.03 : 0.002;
    oc.weight_decay = kind == TCH_OPT_ADAMW ? 0.01 : 0;
    oc.schedule = TCH_LR_STEP;
    oc.step_size = 3;
    oc.gamma = 0.5;
    HARNESS_OK(tch_opt_create(*net, &oc, opt));
    for (int i = 0; i < 4; i++)
        HARNESS_OK(tch_train_step(*net, *opt, b->obs, b->pi, b->legal, b->z, b->n, NULL));
}

/* Save after some training, load, and check: identical outputs, and one more identical step
 * (so the optimiser's momentum/moments and step count came back too). */
static void save_load_round_trip(tch_opt_kind_t kind)
{
    tch_net_t *net = NULL, *loaded = NULL;
    tch_opt_t *opt = NULL, *lopt = NULL;
    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 4);
    train_small(kind, &b, &net, &opt);

    const char *path = tmp_file("ckpt.tch");
    HARNESS_OK(tch_save(net, opt, path));
    HARNESS_OK(tch_load(path, &loaded, &lopt));
    CU_ASSERT_PTR_NOT_NULL_FATAL(lopt);
    CU_ASSERT_EQUAL(tch_opt_steps(lopt), 4);
    CU_ASSERT_DOUBLE_EQUAL(tch_opt_lr(lopt), tch_opt_lr(opt), 1e-15);
    tch_net_config_t lc;
    HARNESS_OK(tch_net_get_config(loaded, &lc));
    CU_ASSERT(memcmp(&lc, &small_cfg, sizeof lc) == 0);

    float *l1, *v1, *l2, *v2;
    int A = small_cfg.num_actions, V = small_cfg.num_values;
    forward(net, &b, &l1, &v1);
    forward(loaded, &b, &l2, &v2);
    CU_ASSERT(memcmp(l1, l2, sizeof(float) * BATCH * A) == 0);
    CU_ASSERT(memcmp(v1, v2, sizeof(float) * BATCH * V) == 0);
    free(l1), free(v1), free(l2), free(v2);

    tch_losses_t s1, s2;
    HARNESS_OK(tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, &s1));
    HARNESS_OK(tch_train_step(loaded, lopt, b.obs, b.pi, b.legal, b.z, b.n, &s2));
    CU_ASSERT_EQUAL(s1.total, s2.total);
    forward(net, &b, &l1, &v1);
    forward(loaded, &b, &l2, &v2);
    CU_ASSERT(memcmp(l1, l2, sizeof(float) * BATCH * A) == 0);
    CU_ASSERT(memcmp(v1, v2, sizeof(float) * BATCH * V) == 0);
    free(l1), free(v1), free(l2), free(v2);

    /* Weights only: the optimiser comes back NULL; opt_out NULL is fine too. */
    tch_net_t *w = NULL, *w2 = NULL;
    tch_opt_t *wopt = (tch_opt_t *)&w; /* must be overwritten with NULL */
    HARNESS_OK(tch_save(net, NULL, path));
    HARNESS_OK(tch_load(path, &w, &wopt));
    CU_ASSERT_PTR_NULL(wopt);
    HARNESS_OK(tch_load(path, &w2, NULL));
    tch_net_free(w);
    tch_net_free(w2);
    unlink(path);

    batch_free(&b);
    tch_opt_free(opt);
    tch_opt_free(lopt);
    tch_net_free(net);
    tch_net_free(loaded);
}

static void test_save_load_sgd(void) { save_load_round_trip(TCH_OPT_SGD); }
static void test_save_load_adam(void) { save_load_round_trip(TCH_OPT_ADAM); }
static void test_save_load_adamw(void) { save_load_round_trip(TCH_OPT_ADAMW); }

/* A loaded optimiser takes new hyper-parameters and keeps its state: after set_config the
 * learning rate reads back, the step count stays, and the next step equals that of the
 * optimiser that was never saved (same state, same new settings) but not that of a fresh
 * optimiser (no moments). Another kind is refused and changes nothing. */
static void test_opt_set_config(void)
{
    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 4);
    tch_net_t *net = NULL, *loaded = NULL, *fresh_net = NULL;
    tch_opt_t *opt = NULL, *lopt = NULL, *fresh = NULL;
    train_small(TCH_OPT_ADAM, &b, &net, &opt);
    const char *path = tmp_file("set_config.tch");
    HARNESS_OK(tch_save(net, opt, path));
    HARNESS_OK(tch_load(path, &loaded, &lopt));
    HARNESS_OK(tch_load(path, &fresh_net, NULL));
    tch_opt_config_t oc;
    HARNESS_OK(tch_opt_get_config(lopt, &oc));
    CU_ASSERT_EQUAL(oc.kind, TCH_OPT_ADAM);
    oc.lr = 0.0123;
    oc.schedule = TCH_LR_CONSTANT;
    oc.beta1 = 0.8;
    HARNESS_OK(tch_opt_set_config(lopt, &oc));
    HARNESS_OK(tch_opt_set_config(opt, &oc));
    HARNESS_OK(tch_opt_create(fresh_net, &oc, &fresh));
    CU_ASSERT_DOUBLE_EQUAL(tch_opt_lr(lopt), 0.0123, 1e-15);
    CU_ASSERT_EQUAL(tch_opt_steps(lopt), 4);
    tch_opt_config_t back;
    HARNESS_OK(tch_opt_get_config(lopt, &back));
    CU_ASSERT_DOUBLE_EQUAL(back.beta1, 0.8, 0);
    HARNESS_OK(tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    HARNESS_OK(tch_train_step(loaded, lopt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    HARNESS_OK(tch_train_step(fresh_net, fresh, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    float *l1, *v1, *l2, *v2, *l3, *v3;
    forward(net, &b, &l1, &v1);
    forward(loaded, &b, &l2, &v2);
    forward(fresh_net, &b, &l3, &v3);
    int A = small_cfg.num_actions;
    CU_ASSERT(memcmp(l1, l2, sizeof(float) * BATCH * A) == 0);
    CU_ASSERT(max_abs_diff(l2, l3, BATCH * A) > 1e-6);
    free(l1), free(v1), free(l2), free(v2), free(l3), free(v3);
    /* the settings reach libtorch's optimiser, not only the config: beta1 alone changes the
     * next step of an otherwise identical copy */
    tch_net_t *b1 = NULL, *b2 = NULL;
    tch_opt_t *o1 = NULL, *o2 = NULL;
    HARNESS_OK(tch_load(path, &b1, &o1));
    HARNESS_OK(tch_load(path, &b2, &o2));
    tch_opt_config_t beta;
    HARNESS_OK(tch_opt_get_config(o2, &beta));
    beta.beta1 = 0.5;
    HARNESS_OK(tch_opt_set_config(o2, &beta));
    HARNESS_OK(tch_train_step(b1, o1, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    HARNESS_OK(tch_train_step(b2, o2, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    forward(b1, &b, &l1, &v1);
    forward(b2, &b, &l2, &v2);
    CU_ASSERT(max_abs_diff(l1, l2, BATCH * A) > 1e-7);
    free(l1), free(v1), free(l2), free(v2);
    tch_opt_free(o1), tch_opt_free(o2);
    tch_net_free(b1), tch_net_free(b2);
    /* a saved and reloaded optimiser keeps the new settings */
    HARNESS_OK(tch_save(loaded, lopt, path));
    tch_net_t *again = NULL;
    tch_opt_t *aopt = NULL;
    HARNESS_OK(tch_load(path, &again, &aopt));
    CU_ASSERT_DOUBLE_EQUAL(tch_opt_lr(aopt), 0.0123, 1e-15);
    oc.kind = TCH_OPT_SGD;
    hoyle_clear_error();
    CU_ASSERT_EQUAL(tch_opt_set_config(aopt, &oc), HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "the optimiser is adam, the config asks for sgd") != NULL);
    HARNESS_OK(tch_opt_get_config(aopt, &back));
    CU_ASSERT_EQUAL(back.kind, TCH_OPT_ADAM);
    unlink(path);
    tch_opt_free(opt), tch_opt_free(lopt), tch_opt_free(fresh), tch_opt_free(aopt);
    tch_net_free(net), tch_net_free(loaded), tch_net_free(fresh_net), tch_net_free(again);
    batch_free(&b);
}

/* A net of config c: forward shapes, parameter count `params`, a few training steps reduce
 * the loss on a fixed batch, and a save/load round trip gives identical outputs and config. */
static void check_layout(const tch_net_config_t *c, int64_t params)
{
    tch_net_t *net = NULL, *loaded = NULL;
    tch_opt_t *opt = NULL;
    HARNESS_OK(tch_net_create(c, 5, &net));
    CU_ASSERT_EQUAL(tch_net_num_params(net), params);
    batch_t b;
    batch_make(&b, c, BATCH, 8);
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    oc.kind = TCH_OPT_ADAM;
    oc.lr = 0.003;
    HARNESS_OK(tch_opt_create(net, &oc, &opt));
    tch_losses_t before, after;
    HARNESS_OK(tch_eval_losses(net, &oc, b.obs, b.pi, b.legal, b.z, b.n, &before));
    for (int i = 0; i < 30; i++)
        HARNESS_OK(tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    HARNESS_OK(tch_eval_losses(net, &oc, b.obs, b.pi, b.legal, b.z, b.n, &after));
    CU_ASSERT(after.policy < before.policy);
    CU_ASSERT(after.value < before.value);
    const char *path = tmp_file("layout.tch");
    HARNESS_OK(tch_save(net, opt, path));
    HARNESS_OK(tch_load(path, &loaded, NULL));
    tch_net_config_t lc;
    HARNESS_OK(tch_net_get_config(loaded, &lc));
    CU_ASSERT(memcmp(&lc, c, sizeof lc) == 0);
    size_t A = (size_t)c->num_actions, V = (size_t)c->num_values;
    float *l1 = malloc(sizeof(float) * BATCH * A), *v1 = malloc(sizeof(float) * BATCH * V);
    float *l2 = malloc(sizeof(float) * BATCH * A), *v2 = malloc(sizeof(float) * BATCH * V);
    HARNESS_OK(tch_forward(net, b.obs, b.n, l1, v1));
    HARNESS_OK(tch_forward(loaded, b.obs, b.n, l2, v2));
    CU_ASSERT(memcmp(l1, l2, sizeof(float) * BATCH * A) == 0);
    CU_ASSERT(memcmp(v1, v2, sizeof(float) * BATCH * V) == 0);
    free(l1), free(v1), free(l2), free(v2);
    unlink(path);
    batch_free(&b);
    tch_opt_free(opt);
    tch_net_free(net), tch_net_free(loaded);
}

/* The conv policy head's action order (tch.h): with no residual block, the logits of square
 * sq see only the 3x3 neighbourhood of sq (the stem), so changing the observation at square
 * (0, 0) may change only the actions of squares (0,0), (0,1), (1,0), (1,1), at the indices
 * the layout gives them; every other action's logit stays bit for bit. */
static void check_conv_order(int planes, int lead)
{
    tch_net_config_t c = small_cfg; /* 3 x 5 x 4 */
    const int HW = c.height * c.width, W = c.width;
    c.blocks = 0;
    c.num_actions = planes * HW;
    c.policy_head = TCH_POLICY_CONV, c.policy_planes = planes, c.policy_lead = lead;
    tch_net_t *net = NULL;
    HARNESS_OK(tch_net_create(&c, 9, &net));
    batch_t b;
    batch_make(&b, &c, 2, 5);
    float *x = b.obs + (size_t)c.in_channels * HW; /* the second position: (0, 0) changed */
    memcpy(x, b.obs, sizeof(float) * (size_t)c.in_channels * HW);
    for (int ch = 0; ch < c.in_channels; ch++) x[ch * HW] += 1.0f;
    float *lg = malloc(sizeof(float) * 2 * (size_t)c.num_actions), v[4];
    HARNESS_OK(tch_forward(net, b.obs, 2, lg, v));
    bool near[64] = {false};
    near[0] = near[1] = near[W] = near[W + 1] = true;
    int changed = 0, wrong = 0;
    for (int p = 0; p < planes; p++)
        for (int sq = 0; sq < HW; sq++) {
            int a = p < lead ? p * HW + sq : lead * HW + sq * (planes - lead) + (p - lead);
            bool differs = lg[a] != lg[c.num_actions + a];
            changed += differs;
            wrong += differs && !near[sq];
        }
    CU_ASSERT(changed > 0);
    CU_ASSERT_EQUAL(wrong, 0);
    free(lg);
    batch_free(&b);
    tch_net_free(net);
}

static void test_heads_and_trunks(void)
{
    const int64_t F = small_cfg.filters, B = small_cfg.blocks, HW = 20, C = 3, VH = 16, V = 2;
    const int64_t trunk = 9 * C * F + 2 * F + B * 2 * (9 * F * F + 2 * F);
    const int64_t dense_value = F + 2 + HW * VH + VH + VH * V + V;
    tch_net_config_t c = small_cfg;
    c.num_actions = 2 * HW;
    c.policy_head = TCH_POLICY_CONV, c.policy_planes = 2, c.policy_lead = 1;
    check_layout(&c, trunk + 2 * F + 2 + dense_value);
    c.value_head = TCH_VALUE_POOL;
    check_layout(&c, trunk + 2 * F + 2 + F * VH + VH + VH * V + V);
    for (int lead = 0; lead <= 3; lead++) check_conv_order(3, lead);

    /* the fc trunk on a one-row board (backgammon's shape, smaller) */
    tch_net_config_t fc = small_cfg; /* 4 x 1 x 6 -> 7, 2 blocks x 12, value_hidden 8 */
    fc.in_channels = 4, fc.height = 1, fc.width = 6, fc.num_actions = 7, fc.num_values = 1;
    fc.filters = 12, fc.value_hidden = 8, fc.trunk = TCH_TRUNK_FC;
    const int64_t f = 12;
    check_layout(&fc, 24 * f + 2 * f + 2 * (2 * f * f + 4 * f) + f * 7 + 7 + f * 8 + 8 + 8 + 1);
    batch_t b;
    batch_make(&b, &fc, 1, 1);
    tch_net_t *net = NULL;
    tch_opt_t *opt = NULL;
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    HARNESS_OK(tch_net_create(&fc, 1, &net));
    HARNESS_OK(tch_opt_create(net, &oc, &opt));
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, 1, NULL));
    tch_opt_free(opt);
    tch_net_free(net);
    batch_free(&b);

    /* layouts that do not fit are refused */
    tch_net_t *untouched = (tch_net_t *)&c;
    c.policy_planes = 3; /* 3 x 20 != 40 actions */
    EXPECT_FAIL(HOYLE_EINVAL, tch_net_create(&c, 1, &untouched));
    c.policy_planes = 2, c.policy_lead = 3;
    EXPECT_FAIL(HOYLE_EINVAL, tch_net_create(&c, 1, &untouched));
    fc.policy_head = TCH_POLICY_CONV, fc.policy_planes = 1, fc.num_actions = 6;
    EXPECT_FAIL(HOYLE_EINVAL, tch_net_create(&fc, 1, &untouched));
    fc = small_cfg;
    fc.policy_planes = 1; /* planes without the conv head */
    EXPECT_FAIL(HOYLE_EINVAL, tch_net_create(&fc, 1, &untouched));
    CU_ASSERT_PTR_EQUAL(untouched, (tch_net_t *)&c);
}

/* The whole of a file, malloc'ed; *len its size. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) buf = realloc(buf, cap = cap ? 2 * cap : 65536);
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

static int same_bytes(const char *a, const char *b)
{
    size_t la, lb;
    unsigned char *x = slurp(a, &la), *y = slurp(b, &lb);
    int same = la == lb && memcmp(x, y, la) == 0;
    free(x), free(y);
    return same;
}

/* Identical weights and optimiser state give identical files: two nets trained alike, saved
 * under different names, and a file loaded and saved again (no TensorImpl addresses or
 * hash-map order in the optimiser state, no file name inside the archive). */
static void save_bytes_identical(tch_opt_kind_t kind)
{
    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 4);
    tch_net_t *n1 = NULL, *n2 = NULL, *n3 = NULL;
    tch_opt_t *o1 = NULL, *o2 = NULL, *o3 = NULL;
    train_small(kind, &b, &n1, &o1);
    train_small(kind, &b, &n2, &o2);
    char p1[160], p2[160], p3[160], p4[160];
    snprintf(p1, sizeof p1, "%s", tmp_file("same1.tch"));
    snprintf(p2, sizeof p2, "%s", tmp_file("other-name.tch"));
    snprintf(p3, sizeof p3, "%s", tmp_file("same3.tch"));
    snprintf(p4, sizeof p4, "%s", tmp_file("weights.tch"));
    /* the same name twice: only the contents can differ */
    HARNESS_OK(tch_save(n1, o1, p1));
    size_t len1, len2;
    unsigned char *first = slurp(p1, &len1);
    HARNESS_OK(tch_save(n2, o2, p1));
    unsigned char *second = slurp(p1, &len2);
    CU_ASSERT(len1 == len2 && memcmp(first, second, len1) == 0);
    free(first), free(second);
    HARNESS_OK(tch_save(n2, o2, p2)); /* another name */
    CU_ASSERT(same_bytes(p1, p2));
    HARNESS_OK(tch_load(p1, &n3, &o3));
    HARNESS_OK(tch_save(n3, o3, p3));
    CU_ASSERT(same_bytes(p1, p3));
    HARNESS_OK(tch_save(n1, NULL, p3)); /* weights only, too */
    HARNESS_OK(tch_save(n2, NULL, p4));
    CU_ASSERT(same_bytes(p3, p4));
    CU_ASSERT(!same_bytes(p1, p3));
    unlink(p1), unlink(p2), unlink(p3), unlink(p4);
    tch_opt_free(o1), tch_opt_free(o2), tch_opt_free(o3);
    tch_net_free(n1), tch_net_free(n2), tch_net_free(n3);
    batch_free(&b);
}

static void test_save_bytes_sgd(void) { save_bytes_identical(TCH_OPT_SGD); }
static void test_save_bytes_adam(void) { save_bytes_identical(TCH_OPT_ADAM); }

/* A checkpoint written before the per-index optimiser layout (the nested torch::optim
 * archive under "opt_state"; tests/data/tch_v1_adam.tch, saved by commit 7231d2e from
 * train_small(ADAM)) still loads with its optimiser: the same weights and Adam state as
 * training here gives (to a tolerance: the file may come from another CPU), and the step
 * after loading it equals the step after loading it saved again in today's layout. */
static void load_old_file(const char *name, tch_opt_kind_t kind)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", HOYLE_TEST_DATA, name);
    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 4);
    tch_net_t *ref = NULL, *old = NULL, *cur = NULL;
    tch_opt_t *rop = NULL, *oop = NULL, *cop = NULL;
    train_small(kind, &b, &ref, &rop);
    HARNESS_OK(tch_load(path, &old, &oop));
    CU_ASSERT_PTR_NOT_NULL_FATAL(oop);
    CU_ASSERT_EQUAL(tch_opt_steps(oop), 4);
    HARNESS_OK(tch_save(old, oop, tmp_file("resaved.tch")));
    HARNESS_OK(tch_load(tmp_file("resaved.tch"), &cur, &cop));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cop);
    int A = small_cfg.num_actions, V = small_cfg.num_values;
    for (int step = 0; step < 3; step++) {
        float *lr, *vr, *lo, *vo, *lc, *vc;
        forward(ref, &b, &lr, &vr);
        forward(old, &b, &lo, &vo);
        forward(cur, &b, &lc, &vc);
        CU_ASSERT(max_abs_diff(lr, lo, BATCH * A) < 1e-3);
        CU_ASSERT(max_abs_diff(vr, vo, BATCH * V) < 1e-3);
        CU_ASSERT(memcmp(lo, lc, sizeof(float) * BATCH * A) == 0);
        CU_ASSERT(memcmp(vo, vc, sizeof(float) * BATCH * V) == 0);
        free(lr), free(vr), free(lo), free(vo), free(lc), free(vc);
        HARNESS_OK(tch_train_step(ref, rop, b.obs, b.pi, b.legal, b.z, b.n, NULL));
        HARNESS_OK(tch_train_step(old, oop, b.obs, b.pi, b.legal, b.z, b.n, NULL));
        HARNESS_OK(tch_train_step(cur, cop, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    }
    unlink(tmp_file("resaved.tch"));
    tch_opt_free(rop), tch_opt_free(oop), tch_opt_free(cop);
    tch_net_free(ref), tch_net_free(old), tch_net_free(cur);
    batch_free(&b);
}

static void test_load_old_adam(void) { load_old_file("tch_v1_adam.tch", TCH_OPT_ADAM); }

/* Bad net and optimiser configs are refused and leave the outputs as they were (oc: a
 * valid optimiser config). */
static void check_bad_configs(tch_net_t *net, tch_opt_config_t *oc0)
{
    tch_opt_config_t oc = *oc0;
    tch_net_t *untouched = (tch_net_t *)oc0;
    tch_net_config_t c = small_cfg;
    c.filters = 0;
    EXPECT_FAIL(HOYLE_EINVAL, tch_net_create(&c, 1, &untouched));
    c = small_cfg;
    c.height = -3;
    EXPECT_FAIL(HOYLE_EINVAL, tch_net_create(&c, 1, &untouched));
    c = small_cfg;
    c.num_actions = 1000000;
    c.height = c.width = 64;
    EXPECT_FAIL(HOYLE_EINVAL, tch_net_create(&c, 1, &untouched));
    EXPECT_FAIL(HOYLE_EINVAL, tch_net_create(NULL, 1, &untouched));
    CU_ASSERT_PTR_EQUAL(untouched, (tch_net_t *)oc0);
    tch_opt_config_t bad = oc;
    bad.lr = -1;
    tch_opt_t *uopt = NULL;
    EXPECT_FAIL(HOYLE_EINVAL, tch_opt_create(net, &bad, &uopt));
    bad = oc;
    bad.lr = NAN;
    EXPECT_FAIL(HOYLE_EINVAL, tch_opt_create(net, &bad, &uopt));
    bad = oc;
    bad.kind = 7;
    EXPECT_FAIL(HOYLE_EINVAL, tch_opt_create(net, &bad, &uopt));
    bad = oc;
    bad.schedule = TCH_LR_COSINE;
    bad.total_steps = 0;
    EXPECT_FAIL(HOYLE_EINVAL, tch_opt_create(net, &bad, &uopt));
    CU_ASSERT_PTR_NULL(uopt);
    EXPECT_FAIL(HOYLE_EINVAL, tch_set_threads(0));
}

/* One bit changed in a checkpoint is refused (libtorch's reader checks no CRC; tch_load
 * does): in the first local header (byte 7, the flags) and in the first and last bytes of
 * the first entry's data. */
static void check_flipped_bytes(const char *path, tch_net_t **ln, tch_opt_t **lo)
{
    FILE *in = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    CU_ASSERT_FATAL(n > 64 && n < sizeof buf);
    size_t nlen = buf[26] | (size_t)buf[27] << 8, xlen = buf[28] | (size_t)buf[29] << 8;
    size_t data = 30 + nlen + xlen;
    CU_ASSERT_FATAL(data + 2 < n);
    const size_t at[] = {7, data, data + 1};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        buf[at[i]] ^= 1;
        FILE *out = fopen(tmp_file("flip.tch"), "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        CU_ASSERT(fwrite(buf, 1, n, out) == n);
        fclose(out);
        buf[at[i]] ^= 1;
        EXPECT_FAIL(HOYLE_EIO, tch_load(tmp_file("flip.tch"), ln, lo));
        CU_ASSERT(strstr(hoyle_last_error(), "damaged") != NULL);
    }
    unlink(tmp_file("flip.tch"));
}

/* Files: missing, unwritable, corrupt, foreign (a TorchScript export is not a checkpoint),
 * truncated; a failed load leaves the outputs as they were (oc: any other address). */
static void check_bad_files(tch_net_t *net, tch_opt_t *opt, tch_opt_t *other_opt, void *oc)
{
    tch_net_t *ln = (tch_net_t *)oc;
    tch_opt_t *lo = (tch_opt_t *)oc;
    EXPECT_FAIL(HOYLE_EIO, tch_load(tmp_file("missing.tch"), &ln, &lo));
    EXPECT_FAIL(HOYLE_EIO, tch_save(net, opt, "/nonexistent-dir/x/ckpt.tch"));
    EXPECT_FAIL(HOYLE_EIO, tch_export_torchscript(net, "/nonexistent-dir/x/net.pt"));
    EXPECT_FAIL(HOYLE_EINVAL, tch_save(net, other_opt, tmp_file("x.tch")));
    FILE *f = fopen(tmp_file("garbage.tch"), "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("this is not a zip archive\n", f);
    fclose(f);
    EXPECT_FAIL(HOYLE_EIO, tch_load(tmp_file("garbage.tch"), &ln, &lo));
    HARNESS_OK(tch_export_torchscript(net, tmp_file("net.pt")));
    EXPECT_FAIL(HOYLE_EIO, tch_load(tmp_file("net.pt"), &ln, &lo));
    /* a truncated checkpoint */
    HARNESS_OK(tch_save(net, opt, tmp_file("ok.tch")));
    FILE *in = fopen(tmp_file("ok.tch"), "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    char buf[4096];
    size_t got = fread(buf, 1, sizeof buf, in);
    fclose(in);
    FILE *out = fopen(tmp_file("trunc.tch"), "wb");
    fwrite(buf, 1, got / 2, out);
    fclose(out);
    EXPECT_FAIL(HOYLE_EIO, tch_load(tmp_file("trunc.tch"), &ln, &lo));
    check_flipped_bytes(tmp_file("ok.tch"), &ln, &lo);
    CU_ASSERT_PTR_EQUAL(ln, (tch_net_t *)oc);
    CU_ASSERT_PTR_EQUAL(lo, (tch_opt_t *)oc);
    unlink(tmp_file("garbage.tch"));
    unlink(tmp_file("net.pt"));
    unlink(tmp_file("ok.tch"));
    unlink(tmp_file("trunc.tch"));
}

static void test_bad_inputs(void)
{
    tch_net_t *net = NULL, *other = NULL;
    tch_opt_t *opt = NULL, *other_opt = NULL;
    HARNESS_OK(tch_net_create(&small_cfg, 5, &net));
    HARNESS_OK(tch_net_create(&small_cfg, 6, &other));
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    HARNESS_OK(tch_opt_create(net, &oc, &opt));
    HARNESS_OK(tch_opt_create(other, &oc, &other_opt));

    check_bad_configs(net, &oc);

    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 6);
    float *l0, *v0;
    forward(net, &b, &l0, &v0);
    int A = small_cfg.num_actions, V = small_cfg.num_values;
    float lg[BATCH * 21], vl[BATCH * 2];

    /* forward */
    EXPECT_FAIL(HOYLE_EINVAL, tch_forward(NULL, b.obs, 1, lg, vl));
    EXPECT_FAIL(HOYLE_EINVAL, tch_forward(net, NULL, 1, lg, vl));
    EXPECT_FAIL(HOYLE_EINVAL, tch_forward(net, b.obs, 0, lg, vl));
    EXPECT_FAIL(HOYLE_EINVAL, tch_forward(net, b.obs, -2, lg, vl));
    EXPECT_FAIL(HOYLE_EINVAL, tch_forward(net, b.obs, 1, NULL, NULL));
    double eps;
    EXPECT_FAIL(HOYLE_EINVAL, tch_bench_forward(net, 0, 1, &eps));

    /* training: each bad batch is refused before anything changes */
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, other_opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, NULL, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, NULL, b.legal, b.z, b.n, NULL));
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, 0, NULL));
    float keep;
    keep = b.obs[7], b.obs[7] = NAN;
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    b.obs[7] = keep;
    keep = b.pi[3 * A + 3], b.pi[3 * A + 3] += 0.5f; /* row no longer sums to 1 */
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    b.pi[3 * A + 3] = keep;
    keep = b.pi[0], b.pi[0] = -b.pi[0];
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    b.pi[0] = keep;
    keep = b.z[V + 1], b.z[V + 1] = 1.5f;
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    b.z[V + 1] = INFINITY;
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    b.z[V + 1] = keep;
    /* target mass on an illegal action (the row still sums to 1) */
    int r = 2, a = 0;
    while (b.legal[r * A + a]) a++;
    float pi_row[21];
    memcpy(pi_row, b.pi + r * A, sizeof pi_row);
    for (int k = 0; k < A; k++) b.pi[r * A + k] *= 0.75f;
    b.pi[r * A + a] = 0.25f;
    EXPECT_FAIL(HOYLE_EINVAL, tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));
    memcpy(b.pi + r * A, pi_row, sizeof pi_row);
    /* a row with no legal action at all */
    uint8_t row[21];
    memcpy(row, b.legal + r * A, sizeof row);
    memset(b.legal + r * A, 0, sizeof row);
    tch_losses_t ls;
    EXPECT_FAIL(HOYLE_EINVAL, tch_eval_losses(net, NULL, b.obs, b.pi, b.legal, b.z, b.n, &ls));
    memcpy(b.legal + r * A, row, sizeof row);
    CU_ASSERT_EQUAL(tch_opt_steps(opt), 0);
    HARNESS_OK(tch_forward(net, b.obs, b.n, lg, vl));
    CU_ASSERT(memcmp(lg, l0, sizeof(float) * BATCH * A) == 0); /* net unchanged */
    CU_ASSERT(memcmp(vl, v0, sizeof(float) * BATCH * V) == 0);
    /* and the repaired batch trains */
    HARNESS_OK(tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, b.n, NULL));

    check_bad_files(net, opt, other_opt, &oc);

    free(l0), free(v0);
    batch_free(&b);
    tch_opt_free(opt);
    tch_opt_free(other_opt);
    tch_net_free(net);
    tch_net_free(other);
}

/* Several threads forwarding through one net at once get the single-threaded answers, and
 * the thread count set by tch_set_threads reaches threads started afterwards. */
typedef struct worker {
    tch_net_t *net;
    const batch_t *b;
    const float *want_l, *want_v;
    int ok, threads;
} worker_t;

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    float lg[BATCH * 21], vl[BATCH * 2];
    w->ok = 1;
    w->threads = tch_get_threads();
    for (int i = 0; i < 20; i++) {
        if (tch_forward(w->net, w->b->obs, w->b->n, lg, vl) != HOYLE_OK ||
            max_abs_diff(lg, w->want_l, BATCH * 21) > 1e-6 ||
            max_abs_diff(vl, w->want_v, BATCH * 2) > 1e-6)
            w->ok = 0;
    }
    return NULL;
}

/* tch_forward runs an inference copy of the net (batch norm folded in): every change to the
 * weights must reach it, and a step refused for a non-finite loss must change nothing, the
 * batch-norm statistics its training-mode forward moved included. */
static void test_inference_copy_follows(void)
{
    tch_net_t *net = NULL, *loaded = NULL;
    tch_opt_t *opt = NULL;
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    oc.kind = TCH_OPT_ADAM, oc.lr = 0.01;
    HARNESS_OK(tch_net_create(&small_cfg, 21, &net));
    HARNESS_OK(tch_opt_create(net, &oc, &opt));
    batch_t b, huge;
    batch_make(&b, &small_cfg, BATCH, 4);
    batch_make(&huge, &small_cfg, BATCH, 4);
    const int obs_len = BATCH * small_cfg.in_channels * small_cfg.height * small_cfg.width;
    for (int i = 0; i < obs_len; i++) /* finite; their convolutions are not */
        huge.obs[i] = i % 2 ? 3.4e38f : -3.4e38f;
    const int A = small_cfg.num_actions, V = small_cfg.num_values;
    float *l0, *v0, *l1, *v1, *l2, *v2, *l3, *v3;
    forward(net, &b, &l0, &v0); /* makes the inference copy */

    hoyle_clear_error();
    CU_ASSERT_EQUAL(tch_train_step(net, opt, huge.obs, huge.pi, huge.legal, huge.z, BATCH, NULL),
                    HOYLE_EINVAL);
    CU_ASSERT(strstr(hoyle_last_error(), "not finite") != NULL);
    CU_ASSERT_EQUAL(tch_opt_steps(opt), 0);
    forward(net, &b, &l1, &v1);
    CU_ASSERT(memcmp(l0, l1, sizeof(float) * BATCH * A) == 0);
    CU_ASSERT(memcmp(v0, v1, sizeof(float) * BATCH * V) == 0);

    HARNESS_OK(tch_train_step(net, opt, b.obs, b.pi, b.legal, b.z, BATCH, NULL));
    forward(net, &b, &l2, &v2);
    CU_ASSERT(max_abs_diff(l0, l2, BATCH * A) > 1e-6);
    /* a loaded copy starts without an inference copy: it must agree bit for bit */
    const char *path = tmp_file("inference.tch");
    HARNESS_OK(tch_save(net, NULL, path));
    HARNESS_OK(tch_load(path, &loaded, NULL));
    forward(loaded, &b, &l3, &v3);
    CU_ASSERT(memcmp(l2, l3, sizeof(float) * BATCH * A) == 0);
    CU_ASSERT(memcmp(v2, v3, sizeof(float) * BATCH * V) == 0);
    free(l0), free(v0), free(l1), free(v1), free(l2), free(v2), free(l3), free(v3);
    batch_free(&b), batch_free(&huge);
    tch_opt_free(opt);
    tch_net_free(net), tch_net_free(loaded);
}

static void test_concurrent_forward(void)
{
    HARNESS_OK(tch_set_threads(1));
    CU_ASSERT_EQUAL(tch_get_threads(), 1);
    tch_net_t *net = NULL;
    HARNESS_OK(tch_net_create(&small_cfg, 21, &net));
    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 9);
    float *l, *v;
    forward(net, &b, &l, &v);
    worker_t w[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (worker_t){.net = net, .b = &b, .want_l = l, .want_v = v};
        CU_ASSERT_EQUAL_FATAL(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CU_ASSERT(w[i].ok);
        CU_ASSERT_EQUAL(w[i].threads, 1);
    }
    free(l), free(v);
    batch_free(&b);
    tch_net_free(net);
}

/* A thread that computes runs with denormal floats flushed to zero (tch_net.cpp,
 * sync_threads): a net whose numbers drift into the denormal range would otherwise run its
 * matrix products many times slower. The thread first clears the flush and denormals-are-zero
 * bits (x86's MXCSR), so half of FLT_MIN is a denormal; after a forward it is zero. */
typedef struct flush {
    tch_net_t *net;
    const batch_t *b;
    uint32_t before, after; /* the products' bits: a denormal compares as 0 under DAZ */
    int ok;
} flush_t;

/* Out of line, so that the compiler cannot move the product across the MXCSR write. */
static __attribute__((noinline)) uint32_t halve(const volatile float *x)
{
    float h = *x * 0.5f;
    uint32_t bits;
    memcpy(&bits, &h, sizeof bits);
    return bits;
}

static void *flush_main(void *arg)
{
    flush_t *f = arg;
    static const volatile float tiny = FLT_MIN;
#ifdef HAVE_MXCSR
    _mm_setcsr(_mm_getcsr() & ~0x8040u);
#endif
    f->before = halve(&tiny);
    float lg[BATCH * 21], vl[BATCH * 2];
    f->ok = tch_forward(f->net, f->b->obs, f->b->n, lg, vl) == HOYLE_OK;
    f->after = halve(&tiny);
    return NULL;
}

static void test_flush_denormals(void)
{
    tch_net_t *net = NULL;
    HARNESS_OK(tch_net_create(&small_cfg, 5, &net));
    batch_t b;
    batch_make(&b, &small_cfg, BATCH, 3);
    flush_t f = {.net = net, .b = &b};
    pthread_t th;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, flush_main, &f), 0);
    pthread_join(th, NULL);
    CU_ASSERT(f.ok);
#ifdef HAVE_MXCSR
    CU_ASSERT(f.before != 0); /* a denormal */
    CU_ASSERT_EQUAL(f.after, 0);
#endif
    batch_free(&b);
    tch_net_free(net);
}

static void test_threads_seed_bench(void)
{
    HARNESS_OK(tch_set_threads(1));
    HARNESS_OK(tch_seed(42));
    tch_net_t *net = NULL;
    HARNESS_OK(tch_net_create(&small_cfg, 1, &net));
    double eps = 0;
    HARNESS_OK(tch_bench_forward(net, 8, 5, &eps));
    CU_ASSERT(eps > 0);
    tch_net_free(net);
}

int main(void)
{
    harness_tmp_path(tmpdir, sizeof tmpdir, "hoyle_tch_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    static const harness_test_t tests[] = {
        {"shapes and determinism", test_shapes_and_determinism},
        {"SGD reduces the loss", test_sgd_reduces_loss},
        {"Adam reduces the loss", test_adam_reduces_loss},
        {"AdamW reduces the loss", test_adamw_reduces_loss},
        {"AdamW weight decay, SGD Nesterov", test_weight_decay_nesterov},
        {"learning-rate schedules", test_lr_schedules},
        {"save/load SGD", test_save_load_sgd},
        {"save/load Adam", test_save_load_adam},
        {"save/load AdamW", test_save_load_adamw},
        {"set_config keeps the optimiser state", test_opt_set_config},
        {"heads and trunks", test_heads_and_trunks},
        {"identical saves, identical bytes (SGD)", test_save_bytes_sgd},
        {"identical saves, identical bytes (Adam)", test_save_bytes_adam},
        {"old checkpoint layout loads (Adam)", test_load_old_adam},
        {"bad inputs", test_bad_inputs},
        {"the inference copy follows the weights", test_inference_copy_follows},
        {"concurrent forward", test_concurrent_forward},
        {"denormals flushed on computing threads", test_flush_denormals},
        {"threads, seed, bench", test_threads_seed_bench},
        {NULL, NULL},
    };
    int rc = harness_run("tch", tests);
    rmdir(tmpdir);
    return rc;
}
