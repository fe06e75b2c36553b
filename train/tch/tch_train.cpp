/* tch_train.cpp — the training half of the libtorch module: optimiser configs and their
 * learning-rate schedules, batch validation, the AlphaZero loss and one optimisation step.
 *
 * Invariant: a call that fails validation changes nothing (net, optimiser, step count);
 * validation runs before any tensor is touched. The loss is
 *   policy + value_weight * value + l2, with the terms documented in tch.h (tch_losses_t);
 * L2 is in the loss rather than the optimiser's weight decay so that it covers exactly the
 * conv and linear weights and is reported with the other terms. */
#include "train/tch/tch_internal.hpp"

#include <algorithm>
#include <cmath>

namespace tch_impl
{

namespace
{

/* v is a number (not NaN or inf) in [lo, hi]: every range check of a config goes through it,
 * so NaN, which fails every comparison, can never slip through a plain `v < lo` test. */
bool finite_in(double v, double lo, double hi) { return std::isfinite(v) && v >= lo && v <= hi; }

/* The learning rate of step t (tch.h has the formulas). Computed from the step count alone,
 * so a resumed optimiser continues the schedule where the saved one stopped. */
double schedule_lr(const tch_opt_config_t &c, int64_t t)
{
    double lr = c.lr;
    if (c.schedule == TCH_LR_STEP) {
        lr = c.lr * std::pow(c.gamma, (double)(t / c.step_size)); /* integer division: floor */
    } else if (c.schedule == TCH_LR_COSINE) {
        double f = (double)std::min<int64_t>(t, c.total_steps) / c.total_steps;
        lr = c.lr_min + (c.lr - c.lr_min) * 0.5 * (1.0 + std::cos(3.14159265358979323846 * f));
    }
    if (t < c.warmup_steps) lr *= (double)(t + 1) / c.warmup_steps;
    return lr;
}

/* Puts the module in training mode for one scope, back to evaluation mode on exit. */
struct train_mode_scope {
    torch::jit::Module &m;
    explicit train_mode_scope(torch::jit::Module &mod) : m(mod) { m.train(true); }
    ~train_mode_scope()
    {
        try {
            m.train(false);
        } catch (...) {
            /* cannot happen: the attribute exists; never throw from a destructor */
        }
    }
};

/* ---- batch validation (before anything changes) ---- */

/* HOYLE_EINVAL naming the first bad value. The whole batch is scanned on the CPU before any
 * tensor exists: a training step on bad targets would corrupt the net silently (NaN weights)
 * or train towards an illegal move, and neither is visible until much later. */

int validate_batch(const char *where, const tch_net_config_t &c, const float *obs, const float *pi,
                   const uint8_t *legal, const float *z, int n)
{
    if (!obs || !pi || !z) return hoyle_error(HOYLE_EINVAL, "%s: NULL buffer", where);
    if (n <= 0) return hoyle_error(HOYLE_EINVAL, "%s: batch size %d must be > 0", where, n);
    const int64_t A = c.num_actions, V = c.num_values;
    const int64_t obs_len = (int64_t)n * c.in_channels * c.height * c.width;
    for (int64_t i = 0; i < obs_len; i++)
        if (!std::isfinite(obs[i]))
            return hoyle_error(HOYLE_EINVAL, "%s: observation value %lld is not finite", where,
                               (long long)i);
    for (int64_t r = 0; r < n; r++) {
        double sum = 0;
        int64_t nlegal = 0;
        for (int64_t a = 0; a < A; a++) {
            float t = pi[r * A + a];
            bool ok = !legal || legal[r * A + a];
            if (!std::isfinite(t) || t < 0)
                return hoyle_error(HOYLE_EINVAL, "%s: policy target [%lld][%lld] = %g invalid",
                                   where, (long long)r, (long long)a, (double)t);
            /* a small tolerance: targets are float visit fractions, sums of them are inexact */
            if (!ok && t > 1e-6f)
                return hoyle_error(HOYLE_EINVAL,
                                   "%s: policy target [%lld][%lld] = %g on an illegal action",
                                   where, (long long)r, (long long)a, (double)t);
            sum += t;
            nlegal += ok;
        }
        if (nlegal == 0)
            return hoyle_error(HOYLE_EINVAL, "%s: row %lld has no legal action", where,
                               (long long)r);
        if (std::fabs(sum - 1.0) > 1e-3)
            return hoyle_error(HOYLE_EINVAL, "%s: policy target row %lld sums to %g, not 1", where,
                               (long long)r, sum);
        for (int64_t j = 0; j < V; j++) {
            float v = z[r * V + j];
            if (!std::isfinite(v) || v < -1 || v > 1)
                return hoyle_error(HOYLE_EINVAL,
                                   "%s: value target [%lld][%lld] = %g not in [-1, 1]", where,
                                   (long long)r, (long long)j, (double)v);
        }
    }
    return HOYLE_OK;
}

/* The loss terms as 0-d tensors (total keeps the autograd graph for backward()). */
struct loss_terms {
    at::Tensor policy, value, l2, total;
};

loss_terms compute_losses(tch_net &net, const at::Tensor &logits, const at::Tensor &values,
                          const float *pi, const uint8_t *legal, const float *z, int n, double l2c,
                          double value_weight)
{
    const int64_t A = net.cfg.num_actions, V = net.cfg.num_values;
    at::Tensor target = torch::from_blob(const_cast<float *>(pi), {n, A}, torch::kFloat32);
    at::Tensor vt = torch::from_blob(const_cast<float *>(z), {n, V}, torch::kFloat32);
    at::Tensor logp;
    if (legal) {
        /* -inf before the softmax removes illegal actions from the normaliser; the 0 after it
         * turns their -inf log-probabilities into 0, since 0 * -inf would be NaN even though
         * their targets are 0. */
        at::Tensor illegal =
            torch::from_blob(const_cast<uint8_t *>(legal), {n, A}, torch::kUInt8).eq(0);
        logp =
            torch::log_softmax(logits.masked_fill(illegal, -INFINITY), 1).masked_fill(illegal, 0.0);
    } else {
        logp = torch::log_softmax(logits, 1);
    }
    loss_terms t;
    t.policy = -(target * logp).sum(1).mean();
    t.value = (values - vt).pow(2).sum(1).mean();
    t.l2 = torch::zeros({}, torch::kFloat32);
    if (l2c > 0) /* skipped at 0: no graph nodes for a term that is not wanted */
        for (const at::Tensor &w : net.l2_params) t.l2 = t.l2 + w.pow(2).sum();
    t.l2 = t.l2 * l2c;
    t.total = t.policy + value_weight * t.value + t.l2;
    return t;
}

void store_losses(const loss_terms &t, tch_losses_t *out)
{
    if (!out) return;
    out->policy = t.policy.item<double>();
    out->value = t.value.item<double>();
    out->l2 = t.l2.item<double>();
    out->total = t.total.item<double>();
}

} // namespace

int validate_opt_config(const tch_opt_config_t *c)
{
    if (c->kind != TCH_OPT_SGD && c->kind != TCH_OPT_ADAM && c->kind != TCH_OPT_ADAMW)
        return hoyle_error(HOYLE_EINVAL, "tch: optimiser kind %d unknown", c->kind);
    if (!finite_in(c->weight_decay, 0, 1))
        return hoyle_error(HOYLE_EINVAL, "tch: weight_decay %g must be in [0, 1]", c->weight_decay);
    if (c->weight_decay > 0 && c->kind != TCH_OPT_ADAMW)
        return hoyle_error(HOYLE_EINVAL,
                           "tch: weight_decay is AdamW's (decoupled); SGD and Adam take l2");
    if (!finite_in(c->lr, 0, 1e3) || c->lr == 0)
        return hoyle_error(HOYLE_EINVAL, "tch: lr %g must be in (0, 1000]", c->lr);
    if (!finite_in(c->momentum, 0, 1) || c->momentum >= 1)
        return hoyle_error(HOYLE_EINVAL, "tch: momentum %g must be in [0, 1)", c->momentum);
    if (c->nesterov && c->kind == TCH_OPT_SGD && c->momentum <= 0)
        return hoyle_error(HOYLE_EINVAL, "tch: nesterov needs momentum > 0");
    if (!finite_in(c->beta1, 0, 1) || c->beta1 >= 1 || !finite_in(c->beta2, 0, 1) || c->beta2 >= 1)
        return hoyle_error(HOYLE_EINVAL, "tch: Adam betas (%g, %g) must be in [0, 1)", c->beta1,
                           c->beta2);
    if (!finite_in(c->eps, 0, 1) || c->eps == 0)
        return hoyle_error(HOYLE_EINVAL, "tch: eps %g must be in (0, 1]", c->eps);
    if (!finite_in(c->l2, 0, 1e3))
        return hoyle_error(HOYLE_EINVAL, "tch: l2 %g must be in [0, 1000]", c->l2);
    if (!finite_in(c->value_weight, 0, 1e6))
        return hoyle_error(HOYLE_EINVAL, "tch: value_weight %g must be in [0, 1e6]",
                           c->value_weight);
    if (c->schedule != TCH_LR_CONSTANT && c->schedule != TCH_LR_STEP &&
        c->schedule != TCH_LR_COSINE)
        return hoyle_error(HOYLE_EINVAL, "tch: lr schedule %d unknown", c->schedule);
    if (c->schedule == TCH_LR_STEP &&
        (c->step_size < 1 || !finite_in(c->gamma, 0, 1) || c->gamma == 0))
        return hoyle_error(HOYLE_EINVAL,
                           "tch: step schedule needs step_size >= 1 and gamma in (0, 1]");
    if (c->schedule == TCH_LR_COSINE && (c->total_steps < 1 || !finite_in(c->lr_min, 0, c->lr)))
        return hoyle_error(HOYLE_EINVAL,
                           "tch: cosine schedule needs total_steps >= 1 and lr_min in [0, lr]");
    if (c->warmup_steps < 0)
        return hoyle_error(HOYLE_EINVAL, "tch: warmup_steps %d must be >= 0", c->warmup_steps);
    return HOYLE_OK;
}

/* The hyper-parameters of `c` applied to every parameter group of `o` (of c.kind). AdamW's
 * group 0 holds the conv and linear weights, the only ones that decay (make_optimizer). */
void apply_opt_config(torch::optim::Optimizer &o, const tch_opt_config_t &c)
{
    auto &groups = o.param_groups();
    for (size_t i = 0; i < groups.size(); i++) {
        auto &opts = groups[i].options();
        opts.set_lr(c.lr);
        if (c.kind == TCH_OPT_ADAM) {
            auto &a = static_cast<torch::optim::AdamOptions &>(opts);
            a.betas({c.beta1, c.beta2}).eps(c.eps).weight_decay(0);
        } else if (c.kind == TCH_OPT_ADAMW) {
            auto &a = static_cast<torch::optim::AdamWOptions &>(opts);
            a.betas({c.beta1, c.beta2}).eps(c.eps).weight_decay(i == 0 ? c.weight_decay : 0);
        } else {
            auto &g = static_cast<torch::optim::SGDOptions &>(opts);
            g.momentum(c.momentum).nesterov(c.nesterov != 0).weight_decay(0);
        }
    }
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const tch_net &net,
                                                        const tch_opt_config_t &c)
{
    if (c.kind == TCH_OPT_ADAMW) {
        /* two groups: the conv and linear weights (decayed), then every other parameter (BN
         * affine parameters, biases: not decayed), each in the net's registration order */
        std::vector<at::Tensor> rest;
        for (const at::Tensor &p : net.params) {
            bool decays = false;
            for (const at::Tensor &w : net.l2_params) decays |= w.is_same(p);
            if (!decays) rest.push_back(p);
        }
        auto opts = torch::optim::AdamWOptions(c.lr);
        std::vector<torch::optim::OptimizerParamGroup> groups;
        groups.emplace_back(net.l2_params, std::make_unique<torch::optim::AdamWOptions>(opts));
        groups.emplace_back(rest, std::make_unique<torch::optim::AdamWOptions>(opts));
        auto o = std::make_unique<torch::optim::AdamW>(groups, opts);
        apply_opt_config(*o, c);
        return o;
    }
    /* weight_decay 0 in both: L2 is a term of the loss (see the top of the file) */
    if (c.kind == TCH_OPT_ADAM)
        return std::make_unique<torch::optim::Adam>(
            net.params,
            torch::optim::AdamOptions(c.lr).betas({c.beta1, c.beta2}).eps(c.eps).weight_decay(0));
    return std::make_unique<torch::optim::SGD>(net.params, torch::optim::SGDOptions(c.lr)
                                                               .momentum(c.momentum)
                                                               .nesterov(c.nesterov != 0)
                                                               .weight_decay(0));
}

} // namespace tch_impl

using namespace tch_impl;

/* ======================= the C API: optimisers and training ======================= */

extern "C" {

int tch_opt_create(tch_net_t *net, const tch_opt_config_t *config, tch_opt_t **out)
{
    if (!net || !config || !out) return hoyle_error(HOYLE_EINVAL, "tch_opt_create: NULL argument");
    int st = validate_opt_config(config);
    if (st) return st;
    try {
        auto o = std::make_unique<tch_opt>();
        o->cfg = *config;
        o->net_serial = net->serial;
        o->opt = make_optimizer(*net, *config);
        *out = o.release();
        return HOYLE_OK;
    }
    TCH_CATCH("tch_opt_create", HOYLE_EINVAL)
}

void tch_opt_free(tch_opt_t *opt) { delete opt; }

int64_t tch_opt_steps(const tch_opt_t *opt) { return opt ? opt->steps : 0; }

double tch_opt_lr(const tch_opt_t *opt) { return opt ? schedule_lr(opt->cfg, opt->steps) : 0.0; }

int tch_opt_get_config(const tch_opt_t *opt, tch_opt_config_t *out)
{
    if (!opt || !out) return hoyle_error(HOYLE_EINVAL, "tch_opt_get_config: NULL argument");
    *out = opt->cfg;
    return HOYLE_OK;
}

int tch_opt_set_config(tch_opt_t *opt, const tch_opt_config_t *config)
{
    static const char *const kinds[] = {"sgd", "adam", "adamw"};
    if (!opt || !config) return hoyle_error(HOYLE_EINVAL, "tch_opt_set_config: NULL argument");
    int st = validate_opt_config(config);
    if (st) return st;
    if (config->kind != opt->cfg.kind)
        return hoyle_error(HOYLE_EINVAL,
                           "tch_opt_set_config: the optimiser is %s, the config asks for %s "
                           "(its state would mean nothing to another kind)",
                           kinds[opt->cfg.kind], kinds[config->kind]);
    try {
        apply_opt_config(*opt->opt, *config);
        opt->cfg = *config;
        return HOYLE_OK;
    }
    TCH_CATCH("tch_opt_set_config", HOYLE_EINVAL)
}

int tch_train_step(tch_net_t *net, tch_opt_t *opt, const float *obs, const float *policy_target,
                   const uint8_t *legal_mask, const float *value_target, int n, tch_losses_t *out)
{
    if (!net || !opt) return hoyle_error(HOYLE_EINVAL, "tch_train_step: NULL net or optimiser");
    if (opt->net_serial != net->serial)
        return hoyle_error(HOYLE_EINVAL, "tch_train_step: optimiser belongs to another net");
    int st =
        validate_batch("tch_train_step", net->cfg, obs, policy_target, legal_mask, value_target, n);
    if (st) return st;
    if (n == 1 && (net->cfg.height * net->cfg.width == 1 || net->cfg.trunk == TCH_TRUNK_FC))
        return hoyle_error(HOYLE_EINVAL,
                           "tch_train_step: batch norm needs more than one value per channel "
                           "(batch of 1 on a 1x1 board or with the fc trunk)");
    try {
        tch_losses_t losses;
        { /* training mode (batch statistics) only inside this block, even when it throws */
            train_mode_scope training(net->module);
            /* the forward in training mode moves the batch-norm statistics: kept, to be put
             * back when the step is refused */
            std::vector<at::Tensor> stats;
            for (const auto &b : net->module.named_buffers(false)) stats.push_back(b.value.clone());
            auto [p, v] = run_forward(*net, obs_tensor(*net, obs, n));
            loss_terms t = compute_losses(*net, p, v, policy_target, legal_mask, value_target, n,
                                          opt->cfg.l2, opt->cfg.value_weight);
            if (!std::isfinite(t.total.item<double>())) {
                torch::NoGradGuard no_grad;
                size_t i = 0;
                for (const auto &b : net->module.named_buffers(false)) b.value.copy_(stats[i++]);
                return hoyle_error(HOYLE_EINVAL,
                                   "tch_train_step: loss is not finite (diverged? lower the "
                                   "learning rate); no update made");
            }
            /* the schedule is ours, not a torch::optim scheduler: set this step's rate */
            double lr = schedule_lr(opt->cfg, opt->steps);
            for (auto &g : opt->opt->param_groups()) g.options().set_lr(lr);
            opt->opt->zero_grad();
            t.total.backward();
            opt->opt->step();
            opt->steps++;
            store_losses(t, &losses);
        }
        if (out) *out = losses;
        return HOYLE_OK;
    }
    TCH_CATCH("tch_train_step", HOYLE_EINVAL)
}

int tch_eval_losses(tch_net_t *net, const tch_opt_config_t *config, const float *obs,
                    const float *policy_target, const uint8_t *legal_mask,
                    const float *value_target, int n, tch_losses_t *out)
{
    if (!net || !out) return hoyle_error(HOYLE_EINVAL, "tch_eval_losses: NULL net or output");
    tch_opt_config_t def;
    tch_opt_config_default(&def);
    if (!config) config = &def;
    int st = validate_batch("tch_eval_losses", net->cfg, obs, policy_target, legal_mask,
                            value_target, n);
    if (st) return st;
    try {
        c10::InferenceMode inference;
        auto [p, v] = run_forward(*net, obs_tensor(*net, obs, n));
        loss_terms t = compute_losses(*net, p, v, policy_target, legal_mask, value_target, n,
                                      config->l2, config->value_weight);
        tch_losses_t losses;
        store_losses(t, &losses);
        *out = losses;
        return HOYLE_OK;
    }
    TCH_CATCH("tch_eval_losses", HOYLE_EINVAL)
}

} // extern "C"
