/* tch_defaults.c — tch_opt_config_default (tch.h): plain C, no libtorch, so the hoyle binary
 * can fill an optimiser config without loading the module; compiled into both. */
#include <string.h>

#include "train/tch/tch.h"

void tch_opt_config_default(tch_opt_config_t *c)
{
    if (!c) return;
    memset(c, 0, sizeof *c);
    c->kind = TCH_OPT_SGD;
    c->lr = 0.02;
    c->momentum = 0.9;
    c->nesterov = 0;
    c->beta1 = 0.9;
    c->beta2 = 0.999;
    c->eps = 1e-8;
    c->l2 = 1e-4;
    c->value_weight = 1.0;
    c->schedule = TCH_LR_CONSTANT;
    c->step_size = 1000;
    c->gamma = 0.1;
    c->total_steps = 100000;
    c->lr_min = 0;
    c->warmup_steps = 0;
}
