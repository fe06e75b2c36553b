/* cmd_export.c — `hoyle export RUN|NET --torchscript OUT.pt`: a trained net as a TorchScript
 * module that Python (torch.jit.load) and libtorch run without hoyle (train/tch/tch.h,
 * tch_export_torchscript), and `--net OUT.pt`: the checkpoint without its optimiser state, the
 * file models/ ships (docs/training.md, "Retention, warm start, export"). Needs libtorch. */
#include <stdio.h>

#include "apps/cli.h"
#ifdef HOYLE_TORCH
#include "train/loop.h"
#include "train/tch/tch.h"
#endif

static const char help[] =
    "usage: hoyle export RUN|NET [--torchscript OUT.pt] [--net OUT.pt] [--json]\n\n"
    "Write a net as a TorchScript module: module(x: float32[n][C][H][W]) ->\n"
    "(policy logits [n][A], values [n][V]), the same numbers as hoyle's own forward.\n"
    "RUN is a training run folder (its newest finished net, from state.txt); NET is\n"
    "a checkpoint (RUN/net-000012.pt). The file is written atomically. Needs a\n"
    "build with libtorch. --net writes the checkpoint without its optimiser state\n"
    "(about a third of the size): what az(model=...) and train.init_from load, and\n"
    "what models/ ships. --json prints what the file holds: the net's shapes and\n"
    "layout, and the optimiser (kind, step count, the learning rate of the next step).\n";

#ifdef HOYLE_TORCH
/* The --json object: the file, the net's config and, when the file has one, the optimiser. */
static void print_json(const char *path, const tch_net_t *net, const tch_opt_t *opt)
{
    static const char *const kinds[] = {"sgd", "adam", "adamw"};
    static const char *const schedules[] = {"constant", "step", "cosine"};
    tch_net_config_t c;
    tch_net_get_config(net, &c);
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "net", path);
    json_int(&j, "in_channels", c.in_channels);
    json_int(&j, "height", c.height);
    json_int(&j, "width", c.width);
    json_int(&j, "num_actions", c.num_actions);
    json_int(&j, "num_values", c.num_values);
    json_int(&j, "blocks", c.blocks);
    json_int(&j, "filters", c.filters);
    json_int(&j, "value_hidden", c.value_hidden);
    json_str(&j, "policy_head", c.policy_head == TCH_POLICY_CONV ? "conv" : "dense");
    json_int(&j, "policy_planes", c.policy_planes);
    json_str(&j, "value_head", c.value_head == TCH_VALUE_POOL ? "pool" : "dense");
    json_str(&j, "trunk", c.trunk == TCH_TRUNK_FC ? "fc" : "conv");
    json_int(&j, "params", (long long)tch_net_num_params(net));
    tch_opt_config_t o;
    if (opt && tch_opt_get_config(opt, &o) == HOYLE_OK) {
        json_open(&j, "optimiser", '{');
        json_str(&j, "kind", kinds[o.kind]);
        json_str(&j, "schedule", schedules[o.schedule]);
        json_num(&j, "base_lr", "%.17g", o.lr);
        json_num(&j, "lr", "%.17g", tch_opt_lr(opt));
        json_int(&j, "steps", (long long)tch_opt_steps(opt));
        json_bool(&j, "nesterov", o.nesterov != 0);
        json_num(&j, "weight_decay", "%.17g", o.weight_decay);
        json_close(&j);
    }
    json_end(&j);
}
#endif

/* Exit codes: 0 written, 2 bad usage or a file that is not a net, 1 the write failed. */
int cmd_export(int argc, char **argv)
{
    const char *from = NULL, *out = NULL, *bare = NULL;
    bool json = false;
    const cli_opt_t opts[] = {
        CLI_OPT("--torchscript", &out, "OUT.pt", "the TorchScript file to write"),
        CLI_OPT("--net", &bare, "OUT.pt", "the checkpoint to write without its optimiser state"),
        CLI_OPT_JSON(&json),
        CLI_OPT_END,
    };
    int rc = cli_parse_one("export", help, opts, "RUN|NET", NULL, &from, argc, argv);
    if (rc != CLI_CONTINUE) return rc;
    if (!out && !bare && !json)
        return cli_usage_error("export",
                               "nothing to do: give --torchscript OUT.pt, --net OUT.pt or --json");
#ifdef HOYLE_TORCH
    char path[1300];
    tch_net_t *net = NULL;
    tch_opt_t *opt = NULL;
    if (train_net_file(from, path, sizeof path) || tch_load(path, &net, &opt))
        return cli_fail("export", EXIT_USAGE);
    int status = out ? tch_export_torchscript(net, out) : HOYLE_OK;
    if (!status && out) fprintf(stderr, "export: %s -> %s\n", path, out);
    if (!status && bare) status = tch_save(net, NULL, bare);
    if (!status && bare) fprintf(stderr, "export: %s -> %s (no optimiser state)\n", path, bare);
    if (!status && json) print_json(path, net, opt);
    tch_opt_free(opt);
    tch_net_free(net);
    return status ? cli_fail("export", EXIT_FAILED) : EXIT_OK;
#else
    fprintf(stderr, "hoyle export: this build has no libtorch (HOYLE_WITH_TORCH=OFF)\n");
    return EXIT_FAILED;
#endif
}
