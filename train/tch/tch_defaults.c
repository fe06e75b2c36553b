/* tch_defaults.c — tch_opt_config_default (tch.h): plain C, no libtorch, so the hoyle binary
 * can fill an optimiser config without loading the module; compiled into both. */
#include "train/tch/tch.h"

void tch_opt_config_default(tch_opt_config_t *c)
{
    if (!c) return;
    *c = (tch_opt_config_t){
        /* the optimiser: SGD with (non-Nesterov) momentum */
        .kind = TCH_OPT_SGD,
        .lr = 0.02,
        .momentum = 0.9,
        .nesterov = 0,
        /* used when kind is Adam */
        .beta1 = 0.9,
        .beta2 = 0.999,
        .eps = 1e-8,
        /* the loss: policy + value_weight * value + l2 * sum of squared weights */
        .l2 = 1e-4,
        .value_weight = 1.0,
        /* a constant learning rate; the STEP and COSINE settings wait for their schedule */
        .schedule = TCH_LR_CONSTANT,
        .step_size = 1000,
        .gamma = 0.1,
        .total_steps = 100000,
        .lr_min = 0,
        /* no warm-up */
        .warmup_steps = 0,
        /* AdamW's decoupled weight decay (the others must keep 0) */
        .weight_decay = 0};
}
