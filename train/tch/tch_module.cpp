/* tch_module.cpp — the one exported symbol of libhoyle_torch.so: the table of tch_*
 * functions that the loader (tch_dl.c) reads (tch_module.h). */
#include "train/tch/tch_module.h"

extern "C" {
#include "core/error.h"
}

extern "C" __attribute__((visibility("default"))) const tch_module_api_t *hoyle_torch_module(void)
{
    /* In the order of tch_module.h (C++17 has no designated initialisers). Every slot has a
     * distinct type, so a misplaced entry does not compile, and -Wextra -Werror rejects a
     * missing one (-Wmissing-field-initializers). */
    static const tch_module_api_t api = {
        TCH_MODULE_ABI,
        sizeof(tch_module_api_t),
        hoyle_last_error,

        tch_net_create,
        tch_net_free,
        tch_net_get_config,
        tch_net_num_params,
        tch_forward,
        tch_bench_forward,

        tch_opt_create,
        tch_opt_free,
        tch_opt_steps,
        tch_opt_lr,
        tch_opt_get_config,
        tch_opt_set_config,
        tch_train_step,
        tch_eval_losses,

        tch_set_threads,
        tch_get_threads,
        tch_seed,

        tch_save,
        tch_load,
        tch_export_torchscript,
    };
    return &api;
}
