/* tch_fixture.c — writes a TorchScript export plus inputs and the C-side outputs, for
 * tests/cli/tch_export.sh (Python torch loads the export and compares outputs).
 *
 * usage: tch_fixture OUTDIR [dense|conv|pool|fc]
 * The variant picks the net's heads and trunk (default dense: the dense heads on the conv
 * tower; conv: the conv policy head, 2 planes with 1 lead; pool: the pooled value head; fc:
 * the fc trunk on a one-row board), so that every layout tch_forward folds is compared with
 * the export Python runs op by op. Writes OUTDIR/net.pt (TorchScript), meta.txt
 * ("n C H W A V"), input.bin (float32 [n][C][H][W]), logits.bin (float32 [n][A]), values.bin
 * (float32 [n][V]); prints the forward throughput. The net is trained for ten steps first so that
 * batch-norm running statistics and weights are not at their initial values. Exit 0 on success, 1
 * on error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "train/tch/tch.h"

#define N     6
#define MAX_A 84

static int fail(const char *what)
{
    fprintf(stderr, "tch_fixture: %s: %s\n", what, hoyle_last_error());
    return 1;
}

static int write_floats(const char *dir, const char *name, const float *v, size_t count)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(v, sizeof(float), count, f) != count || fclose(f) != 0) {
        fprintf(stderr, "tch_fixture: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *variant = argc == 3 ? argv[2] : "dense";
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: tch_fixture OUTDIR [dense|conv|pool|fc]\n");
        return 2;
    }
    const char *dir = argv[1];
    tch_net_config_t cfg = {.in_channels = 4,
                            .height = 6,
                            .width = 7,
                            .num_actions = 7,
                            .num_values = 3,
                            .blocks = 2,
                            .filters = 16,
                            .value_hidden = 32};
    if (!strcmp(variant, "conv")) {
        cfg.policy_head = TCH_POLICY_CONV, cfg.policy_planes = 2, cfg.policy_lead = 1;
        cfg.num_actions = 2 * 6 * 7;
    } else if (!strcmp(variant, "pool")) {
        cfg.value_head = TCH_VALUE_POOL;
    } else if (!strcmp(variant, "fc")) {
        cfg.trunk = TCH_TRUNK_FC, cfg.height = 1, cfg.width = 42;
    } else if (strcmp(variant, "dense")) {
        fprintf(stderr, "tch_fixture: unknown variant '%s' (dense, conv, pool, fc)\n", variant);
        return 2;
    }
    enum { OBS = 4 * 6 * 7, V = 3 };
    const int A = cfg.num_actions;
    static float obs[N * OBS], pi[N * MAX_A], z[N * V], logits[N * MAX_A], values[N * V];
    static uint8_t legal[N * MAX_A];
    uint64_t s = 12345;
    for (int i = 0; i < N * OBS; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        obs[i] = (float)((s >> 33) % 1000) / 500.0f - 1.0f;
    }
    for (int r = 0; r < N; r++) {
        for (int a = 0; a < A; a++) {
            legal[r * A + a] = (a + r) % 3 != 0;
            pi[r * A + a] = legal[r * A + a] ? 1.0f : 0.0f;
        }
        float sum = 0;
        for (int a = 0; a < A; a++) sum += pi[r * A + a];
        for (int a = 0; a < A; a++) pi[r * A + a] /= sum;
        for (int j = 0; j < V; j++) z[r * V + j] = (float)((r + j) % 3) - 1.0f;
    }

    tch_net_t *net = NULL;
    tch_opt_t *opt = NULL;
    tch_opt_config_t oc;
    tch_opt_config_default(&oc);
    oc.kind = TCH_OPT_ADAM;
    oc.lr = 0.01;
    /* ten steps move the batch-norm statistics well away from (0, 1), so that a wrong fold
     * in tch_forward's inference copy shows */
    if (tch_net_create(&cfg, 99, &net)) return fail("create");
    if (tch_opt_create(net, &oc, &opt)) return fail("optimiser");
    for (int i = 0; i < 10; i++)
        if (tch_train_step(net, opt, obs, pi, legal, z, N, NULL)) return fail("train");
    if (tch_forward(net, obs, N, logits, values)) return fail("forward");
    /* one more step after a forward: the inference copy made by that forward is stale now,
     * and the outputs written must be the trained net's */
    if (tch_train_step(net, opt, obs, pi, legal, z, N, NULL)) return fail("train");
    if (tch_forward(net, obs, N, logits, values)) return fail("forward");

    char path[1024];
    snprintf(path, sizeof path, "%s/net.pt", dir);
    if (tch_export_torchscript(net, path)) return fail("export");
    snprintf(path, sizeof path, "%s/meta.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) return fail("meta.txt");
    fprintf(f, "%d %d %d %d %d %d\n", N, cfg.in_channels, cfg.height, cfg.width, A, V);
    fclose(f);
    if (write_floats(dir, "input.bin", obs, N * OBS) ||
        write_floats(dir, "logits.bin", logits, N * A) ||
        write_floats(dir, "values.bin", values, N * V))
        return 1;

    double eps = 0;
    if (tch_bench_forward(net, 32, 20, &eps)) return fail("bench");
    printf("tch_fixture: %s: forward %.0f positions/s (batch 32, %d params)\n", variant, eps,
           (int)tch_net_num_params(net));
    tch_opt_free(opt);
    tch_net_free(net);
    return 0;
}
