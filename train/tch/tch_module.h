/* tch_module.h — the seam between the hoyle binary and the libtorch module: the one function
 * table libhoyle_torch.so exports (not public; callers use tch.h).
 *
 * The module (tch_net.cpp, tch_train.cpp, tch_io.cpp, tch_module.cpp, linked with libtorch)
 * is built with hidden symbols and exports exactly one: TCH_MODULE_SYMBOL, a function that
 * returns this table. The loader tch_dl.c, linked into every program that uses tch.h,
 * dlopen()s the module on the first tch_* call, checks `abi` and `size`, and forwards each
 * tch_* function to its slot. The module keeps its own thread-local error message
 * (its own copy of core/error.c); after a failed call the loader copies `last_error()` into
 * the caller's hoyle_error(), so the contract of tch.h is unchanged.
 *
 * Change TCH_MODULE_ABI whenever a slot is added, removed or changes its signature. */
#ifndef HOYLE_TRAIN_TCH_TCH_MODULE_H
#define HOYLE_TRAIN_TCH_TCH_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "train/tch/tch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCH_MODULE_ABI    2
#define TCH_MODULE_SYMBOL "hoyle_torch_module"
#define TCH_MODULE_FILE   "libhoyle_torch.so"

/* One slot per tch.h function, same name without the tch_ prefix, same contract;
 * tch_opt_config_default is not here (tch_defaults.c, plain C, is in both binaries). */
typedef struct tch_module_api {
    int abi;     /* TCH_MODULE_ABI the module was built with */
    size_t size; /* sizeof(tch_module_api_t) in the module */
    /* the module's thread-local last error message (its hoyle_last_error) */
    const char *(*last_error)(void);

    int (*net_create)(const tch_net_config_t *config, uint64_t seed, tch_net_t **out);
    void (*net_free)(tch_net_t *net);
    int (*net_get_config)(const tch_net_t *net, tch_net_config_t *out);
    int64_t (*net_num_params)(const tch_net_t *net);
    int (*forward)(tch_net_t *net, const float *obs, int n, float *logits, float *values);
    int (*bench_forward)(tch_net_t *net, int batch, int iters, double *evals_per_s);

    int (*opt_create)(tch_net_t *net, const tch_opt_config_t *config, tch_opt_t **out);
    void (*opt_free)(tch_opt_t *opt);
    int64_t (*opt_steps)(const tch_opt_t *opt);
    double (*opt_lr)(const tch_opt_t *opt);
    int (*opt_get_config)(const tch_opt_t *opt, tch_opt_config_t *out);
    int (*opt_set_config)(tch_opt_t *opt, const tch_opt_config_t *config);
    int (*train_step)(tch_net_t *net, tch_opt_t *opt, const float *obs, const float *policy_target,
                      const uint8_t *legal_mask, const float *value_target, int n,
                      tch_losses_t *out);
    int (*eval_losses)(tch_net_t *net, const tch_opt_config_t *config, const float *obs,
                       const float *policy_target, const uint8_t *legal_mask,
                       const float *value_target, int n, tch_losses_t *out);

    int (*set_threads)(int threads);
    int (*get_threads)(void);
    int (*seed)(uint64_t seed);

    int (*save)(const tch_net_t *net, const tch_opt_t *opt, const char *path);
    int (*load)(const char *path, tch_net_t **net_out, tch_opt_t **opt_out);
    int (*export_torchscript)(const tch_net_t *net, const char *path);
} tch_module_api_t;

/* The type of the exported TCH_MODULE_SYMBOL; the table is static, never freed. */
typedef const tch_module_api_t *(*tch_module_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
