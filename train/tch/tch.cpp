/* tch.cpp — libtorch behind the plain C header tch.h (the only C++ in hoyle).
 *
 * The network is a TorchScript module built programmatically: parameters and batch-norm
 * buffers are registered on a torch::jit::Module and its forward() is TorchScript source
 * generated from the config (the residual blocks unrolled). The same module serves forward,
 * training (autograd runs through the interpreter) and export, so the exported file is
 * exactly what tch_forward computes: tch_export_torchscript is module.save().
 *
 * Every extern "C" function catches every exception (TCH_CATCH) and turns it into a negative
 * status plus a one-line message. The graph executor's optimiser is switched off around our
 * calls (a thread-local libtorch flag): the graph then runs op by op like eager code, with
 * no profiling runs and no autodiff subgraphs, which keeps results deterministic. */
#include "train/tch/tch.h"

#include <torch/script.h>
#include <torch/torch.h>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

extern "C" {
#include "core/error.h"
}

namespace
{

const char *const kFormat = "hoyle-tch-1";
constexpr double kBnMomentum = 0.1;
constexpr double kBnEps = 1e-5;
constexpr int kPolicyChannels = 2;
constexpr int kValueChannels = 1;

/* First line of a libtorch message (they carry source locations and backtraces after). */
std::string first_line(const char *what)
{
    std::string s(what ? what : "");
    size_t nl = s.find('\n');
    if (nl != std::string::npos) s.resize(nl);
    if (s.size() > 300) s.resize(300);
    return s;
}

/* The shared tail of every entry point: `fn` names the function, `subject` what it worked on
 * (a path) or "", `code` is the status for ordinary exceptions. */
#define TCH_CATCH_AT(fn, subject, code)                                                            \
    catch (const c10::Error &e)                                                                    \
    {                                                                                              \
        return hoyle_error(code, "%s: %s%slibtorch: %s", fn, subject, *(subject) ? ": " : "",      \
                           first_line(e.what_without_backtrace()).c_str());                        \
    }                                                                                              \
    catch (const std::bad_alloc &) { return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", fn); }  \
    catch (const std::exception &e)                                                                \
    {                                                                                              \
        return hoyle_error(code, "%s: %s%s%s", fn, subject, *(subject) ? ": " : "",                \
                           first_line(e.what()).c_str());                                          \
    }                                                                                              \
    catch (...) { return hoyle_error(code, "%s: unknown C++ exception", fn); }
#define TCH_CATCH(fn, code) TCH_CATCH_AT(fn, "", code)

std::atomic<uint64_t> next_serial{1};

/* at::set_num_threads() sets OpenMP's per-thread setting on the calling thread only (plus a
 * global that at::init_num_threads() copies). So tch_set_threads bumps a generation number
 * and each entry point that computes re-applies the global on a thread that has not seen
 * the current generation: the count is then process-wide, as the header promises. */
std::atomic<int> threads_generation{1};

void sync_threads()
{
    thread_local int seen = 0;
    int g = threads_generation.load(std::memory_order_acquire);
    if (g != seen) {
        at::init_num_threads();
        seen = g;
    }
}

} // namespace

struct tch_net {
    tch_net_config_t cfg;
    uint64_t serial;                   /* binds optimisers to this net */
    torch::jit::Module module;         /* the network (parameters, buffers, forward) */
    std::vector<at::Tensor> params;    /* trainable tensors, registration order */
    std::vector<at::Tensor> l2_params; /* conv and linear weights (the L2 term) */
    explicit tch_net(const tch_net_config_t &c)
        : cfg(c), serial(next_serial++), module("__torch__.HoyleNet")
    {
    }
};

struct tch_opt {
    tch_opt_config_t cfg;
    uint64_t net_serial;
    int64_t steps = 0;
    std::unique_ptr<torch::optim::Optimizer> opt;
};

namespace
{

/* ---- config validation ---- */

int check_range(const char *what, long long v, long long lo, long long hi)
{
    if (v < lo || v > hi)
        return hoyle_error(HOYLE_EINVAL, "tch: config %s = %lld out of range [%lld, %lld]", what, v,
                           lo, hi);
    return HOYLE_OK;
}

int validate_net_config(const tch_net_config_t *c)
{
    int st;
    if ((st = check_range("in_channels", c->in_channels, 1, 1024)) ||
        (st = check_range("height", c->height, 1, 64)) ||
        (st = check_range("width", c->width, 1, 64)) ||
        (st = check_range("num_actions", c->num_actions, 1, 1000000)) ||
        (st = check_range("num_values", c->num_values, 1, 64)) ||
        (st = check_range("blocks", c->blocks, 0, 64)) ||
        (st = check_range("filters", c->filters, 1, 1024)) ||
        (st = check_range("value_hidden", c->value_hidden, 1, 4096)))
        return st;
    /* The policy's linear layer dominates; refuse nets that cannot sensibly fit in memory. */
    double hw = (double)c->height * c->width;
    double total = (double)kPolicyChannels * hw * c->num_actions +
                   (double)c->filters * c->filters * 9.0 * (2.0 * c->blocks + 1) +
                   hw * c->value_hidden;
    if (total > 5e8)
        return hoyle_error(HOYLE_EINVAL, "tch: config gives %.3g parameters (limit 5e8)", total);
    return HOYLE_OK;
}

bool finite_in(double v, double lo, double hi) { return std::isfinite(v) && v >= lo && v <= hi; }

int validate_opt_config(const tch_opt_config_t *c)
{
    if (c->kind != TCH_OPT_SGD && c->kind != TCH_OPT_ADAM)
        return hoyle_error(HOYLE_EINVAL, "tch: optimiser kind %d unknown", c->kind);
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

double schedule_lr(const tch_opt_config_t &c, int64_t t)
{
    double lr = c.lr;
    if (c.schedule == TCH_LR_STEP) {
        lr = c.lr * std::pow(c.gamma, (double)(t / c.step_size));
    } else if (c.schedule == TCH_LR_COSINE) {
        double f = (double)std::min<int64_t>(t, c.total_steps) / c.total_steps;
        lr = c.lr_min + (c.lr - c.lr_min) * 0.5 * (1.0 + std::cos(3.14159265358979323846 * f));
    }
    if (t < c.warmup_steps) lr *= (double)(t + 1) / c.warmup_steps;
    return lr;
}

/* ---- building the module ---- */

struct builder {
    tch_net &net;
    at::Generator gen;
    std::string code; /* the body of forward() */

    at::Tensor add_param(const std::string &name, at::Tensor t, bool l2)
    {
        t.set_requires_grad(true);
        net.module.register_parameter(name, t, false);
        net.params.push_back(t);
        if (l2) net.l2_params.push_back(t);
        return t;
    }
    /* conv weight [out][in][k][k], Kaiming normal (fan_in, ReLU gain). No bias: BN follows. */
    void conv(const std::string &name, int out, int in, int k)
    {
        double std = std::sqrt(2.0 / ((double)in * k * k));
        add_param(name + "_w", torch::empty({out, in, k, k}).normal_(0.0, std, gen), true);
    }
    void bn(const std::string &name, int ch)
    {
        add_param(name + "_g", torch::ones({ch}), false);
        add_param(name + "_b", torch::zeros({ch}), false);
        net.module.register_buffer(name + "_m", torch::zeros({ch}));
        net.module.register_buffer(name + "_v", torch::ones({ch}));
    }
    /* linear [out][in] + bias [out], both U(-1/sqrt(in), 1/sqrt(in)) like torch.nn.Linear. */
    void linear(const std::string &name, int out, int in)
    {
        double b = 1.0 / std::sqrt((double)in);
        add_param(name + "_w", torch::empty({out, in}).uniform_(-b, b, gen), true);
        add_param(name + "_b", torch::empty({out}).uniform_(-b, b, gen), false);
    }
    /* TorchScript expression: batch-normalised conv of `x`. */
    static std::string conv_bn(const std::string &x, const std::string &c, const std::string &b,
                               int pad)
    {
        std::string p = std::to_string(pad);
        return "self.bn(torch.conv2d(" + x + ", self." + c + "_w, None, [1, 1], [" + p + ", " + p +
               "]), self." + b + "_g, self." + b + "_b, self." + b + "_m, self." + b + "_v)";
    }
    void line(const std::string &s) { code += "    " + s + "\n"; }
};

/* Build the module for `cfg`, weights drawn from a private generator seeded with `seed`. */
std::unique_ptr<tch_net> build_net(const tch_net_config_t &cfg, uint64_t seed)
{
    auto net = std::make_unique<tch_net>(cfg);
    builder b{*net, at::detail::createCPUGenerator(seed), ""};
    const int C = cfg.in_channels, F = cfg.filters, HW = cfg.height * cfg.width;
    net->module.register_attribute("training", c10::BoolType::get(), false);

    b.conv("stem_conv", F, C, 3);
    b.bn("stem_bn", F);
    b.line("h = torch.relu(" + builder::conv_bn("x", "stem_conv", "stem_bn", 1) + ")");
    for (int i = 0; i < cfg.blocks; i++) {
        std::string p = "b" + std::to_string(i) + "_";
        b.conv(p + "conv1", F, F, 3);
        b.bn(p + "bn1", F);
        b.conv(p + "conv2", F, F, 3);
        b.bn(p + "bn2", F);
        b.line("r = torch.relu(" + builder::conv_bn("h", p + "conv1", p + "bn1", 1) + ")");
        b.line("h = torch.relu(" + builder::conv_bn("r", p + "conv2", p + "bn2", 1) + " + h)");
    }
    b.conv("pol_conv", kPolicyChannels, F, 1);
    b.bn("pol_bn", kPolicyChannels);
    b.linear("pol_fc", cfg.num_actions, kPolicyChannels * HW);
    b.line("p = torch.relu(" + builder::conv_bn("h", "pol_conv", "pol_bn", 0) + ")");
    b.line("p = torch.linear(torch.flatten(p, 1), self.pol_fc_w, self.pol_fc_b)");
    b.conv("val_conv", kValueChannels, F, 1);
    b.bn("val_bn", kValueChannels);
    b.linear("val_fc1", cfg.value_hidden, kValueChannels * HW);
    b.linear("val_fc2", cfg.num_values, cfg.value_hidden);
    b.line("v = torch.relu(" + builder::conv_bn("h", "val_conv", "val_bn", 0) + ")");
    b.line("v = torch.relu(torch.linear(torch.flatten(v, 1), self.val_fc1_w, self.val_fc1_b))");
    b.line("v = torch.tanh(torch.linear(v, self.val_fc2_w, self.val_fc2_b))");
    b.line("return p, v");

    char bn_src[256];
    snprintf(bn_src, sizeof bn_src,
             "def bn(self, x: Tensor, g: Tensor, b: Tensor, m: Tensor, v: Tensor) -> Tensor:\n"
             "    return torch.batch_norm(x, g, b, m, v, self.training, %.17g, %.17g, False)\n",
             kBnMomentum, kBnEps);
    net->module.define(std::string(bn_src) +
                       "def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:\n" + b.code);
    return net;
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

std::pair<at::Tensor, at::Tensor> run_forward(tch_net &net, const at::Tensor &x)
{
    sync_threads();
    torch::jit::GraphOptimizerEnabledGuard no_opt(false);
    auto out = net.module.forward({x}).toTuple();
    return {out->elements()[0].toTensor(), out->elements()[1].toTensor()};
}

at::Tensor obs_tensor(const tch_net &net, const float *obs, int n)
{
    const tch_net_config_t &c = net.cfg;
    return torch::from_blob(const_cast<float *>(obs), {n, c.in_channels, c.height, c.width},
                            torch::kFloat32);
}

/* ---- batch validation (before anything changes) ---- */

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
    if (l2c > 0)
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

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const tch_net &net,
                                                        const tch_opt_config_t &c)
{
    if (c.kind == TCH_OPT_ADAM)
        return std::make_unique<torch::optim::Adam>(
            net.params,
            torch::optim::AdamOptions(c.lr).betas({c.beta1, c.beta2}).eps(c.eps).weight_decay(0));
    return std::make_unique<torch::optim::SGD>(net.params, torch::optim::SGDOptions(c.lr)
                                                               .momentum(c.momentum)
                                                               .nesterov(c.nesterov != 0)
                                                               .weight_decay(0));
}

/* ---- files ---- */

std::string temp_path_for(const char *path)
{
    return std::string(path) + ".tmp." + std::to_string((long)getpid());
}

/* Flush the finished temporary to disk, then rename it over `path` (so a crash leaves the
 * old file or the new one, never a torn one). Removes the temporary on failure. */
int commit_temp(const std::string &tmp, const char *path, const char *where)
{
    int fd = open(tmp.c_str(), O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        int err = errno;
        if (fd >= 0) close(fd);
        unlink(tmp.c_str());
        return hoyle_error(HOYLE_EIO, "%s: %s: sync: %s", where, path, strerror(err));
    }
    close(fd);
    if (rename(tmp.c_str(), path) != 0) {
        int err = errno;
        unlink(tmp.c_str());
        return hoyle_error(HOYLE_EIO, "%s: rename to %s: %s", where, path, strerror(err));
    }
    return HOYLE_OK;
}

at::Tensor config_tensor(const tch_net_config_t &c)
{
    return torch::tensor({(int64_t)c.in_channels, (int64_t)c.height, (int64_t)c.width,
                          (int64_t)c.num_actions, (int64_t)c.num_values, (int64_t)c.blocks,
                          (int64_t)c.filters, (int64_t)c.value_hidden},
                         torch::kInt64);
}

at::Tensor opt_config_tensor(const tch_opt_config_t &c)
{
    return torch::tensor({(double)c.kind, c.lr, c.momentum, (double)c.nesterov, c.beta1, c.beta2,
                          c.eps, c.l2, c.value_weight, (double)c.schedule, (double)c.step_size,
                          c.gamma, (double)c.total_steps, c.lr_min, (double)c.warmup_steps},
                         torch::kFloat64);
}

/* Decode a stored optimiser config; false when the tensor has the wrong shape. */
bool opt_config_from(const at::Tensor &t, tch_opt_config_t *c)
{
    if (t.scalar_type() != torch::kFloat64 || t.dim() != 1 || t.size(0) != 15) return false;
    at::Tensor v = t.contiguous();
    const double *d = v.data_ptr<double>();
    for (int i = 0; i < 15; i++)
        if (!std::isfinite(d[i]) || std::fabs(d[i]) > 1e9) return false; /* safe int casts */
    c->kind = (int)d[0];
    c->lr = d[1];
    c->momentum = d[2];
    c->nesterov = (int)d[3];
    c->beta1 = d[4];
    c->beta2 = d[5];
    c->eps = d[6];
    c->l2 = d[7];
    c->value_weight = d[8];
    c->schedule = (int)d[9];
    c->step_size = (int)d[10];
    c->gamma = d[11];
    c->total_steps = (int)d[12];
    c->lr_min = d[13];
    c->warmup_steps = (int)d[14];
    return true;
}

} // namespace

/* ======================= the C API ======================= */

extern "C" {

int tch_net_create(const tch_net_config_t *config, uint64_t seed, tch_net_t **out)
{
    if (!config || !out) return hoyle_error(HOYLE_EINVAL, "tch_net_create: NULL argument");
    int st = validate_net_config(config);
    if (st) return st;
    try {
        *out = build_net(*config, seed).release();
        return HOYLE_OK;
    }
    TCH_CATCH("tch_net_create", HOYLE_EINVAL)
}

void tch_net_free(tch_net_t *net) { delete net; }

int tch_net_get_config(const tch_net_t *net, tch_net_config_t *out)
{
    if (!net || !out) return hoyle_error(HOYLE_EINVAL, "tch_net_get_config: NULL argument");
    *out = net->cfg;
    return HOYLE_OK;
}

int64_t tch_net_num_params(const tch_net_t *net)
{
    if (!net) return hoyle_error(HOYLE_EINVAL, "tch_net_num_params: NULL net");
    int64_t total = 0;
    for (const at::Tensor &p : net->params) total += p.numel();
    return total;
}

int tch_forward(tch_net_t *net, const float *obs, int n, float *logits, float *values)
{
    if (!net || !obs) return hoyle_error(HOYLE_EINVAL, "tch_forward: NULL net or observations");
    if (!logits && !values) return hoyle_error(HOYLE_EINVAL, "tch_forward: no output buffer");
    if (n <= 0) return hoyle_error(HOYLE_EINVAL, "tch_forward: batch size %d must be > 0", n);
    try {
        c10::InferenceMode inference;
        auto [p, v] = run_forward(*net, obs_tensor(*net, obs, n));
        /* Copy into the caller's buffers only once everything succeeded. */
        if (logits) {
            at::Tensor pc = p.contiguous();
            memcpy(logits, pc.data_ptr<float>(), sizeof(float) * (size_t)pc.numel());
        }
        if (values) {
            at::Tensor vc = v.contiguous();
            memcpy(values, vc.data_ptr<float>(), sizeof(float) * (size_t)vc.numel());
        }
        return HOYLE_OK;
    }
    TCH_CATCH("tch_forward", HOYLE_EINVAL)
}

int tch_bench_forward(tch_net_t *net, int batch, int iters, double *evals_per_s)
{
    if (!net || !evals_per_s) return hoyle_error(HOYLE_EINVAL, "tch_bench_forward: NULL argument");
    if (batch <= 0 || iters <= 0)
        return hoyle_error(HOYLE_EINVAL, "tch_bench_forward: batch %d and iters %d must be > 0",
                           batch, iters);
    try {
        const tch_net_config_t &c = net->cfg;
        at::Tensor x = torch::rand({batch, c.in_channels, c.height, c.width});
        std::vector<float> lg((size_t)batch * c.num_actions), v((size_t)batch * c.num_values);
        int st;
        for (int i = 0; i < 3; i++)
            if ((st = tch_forward(net, x.data_ptr<float>(), batch, lg.data(), v.data()))) return st;
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < iters; i++)
            if ((st = tch_forward(net, x.data_ptr<float>(), batch, lg.data(), v.data()))) return st;
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        *evals_per_s = s > 0 ? (double)batch * iters / s : 0.0;
        return HOYLE_OK;
    }
    TCH_CATCH("tch_bench_forward", HOYLE_EINVAL)
}

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

int tch_train_step(tch_net_t *net, tch_opt_t *opt, const float *obs, const float *policy_target,
                   const uint8_t *legal_mask, const float *value_target, int n, tch_losses_t *out)
{
    if (!net || !opt) return hoyle_error(HOYLE_EINVAL, "tch_train_step: NULL net or optimiser");
    if (opt->net_serial != net->serial)
        return hoyle_error(HOYLE_EINVAL, "tch_train_step: optimiser belongs to another net");
    int st =
        validate_batch("tch_train_step", net->cfg, obs, policy_target, legal_mask, value_target, n);
    if (st) return st;
    if (n == 1 && net->cfg.height * net->cfg.width == 1)
        return hoyle_error(HOYLE_EINVAL,
                           "tch_train_step: batch norm needs more than one value per channel "
                           "(batch of 1 on a 1x1 board)");
    try {
        tch_losses_t losses;
        {
            train_mode_scope training(net->module);
            auto [p, v] = run_forward(*net, obs_tensor(*net, obs, n));
            loss_terms t = compute_losses(*net, p, v, policy_target, legal_mask, value_target, n,
                                          opt->cfg.l2, opt->cfg.value_weight);
            if (!std::isfinite(t.total.item<double>()))
                return hoyle_error(HOYLE_EINVAL,
                                   "tch_train_step: loss is not finite (diverged? lower the "
                                   "learning rate); no update made");
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

int tch_set_threads(int threads)
{
    if (threads < 1 || threads > 1024)
        return hoyle_error(HOYLE_EINVAL, "tch_set_threads: %d threads must be in [1, 1024]",
                           threads);
    try {
        at::set_num_threads(threads);
        threads_generation.fetch_add(1, std::memory_order_acq_rel);
        return HOYLE_OK;
    }
    TCH_CATCH("tch_set_threads", HOYLE_EINVAL)
}

int tch_get_threads(void)
{
    try {
        sync_threads();
        return at::get_num_threads();
    }
    TCH_CATCH("tch_get_threads", HOYLE_EINVAL)
}

int tch_seed(uint64_t seed)
{
    try {
        torch::manual_seed(seed);
        return HOYLE_OK;
    }
    TCH_CATCH("tch_seed", HOYLE_EINVAL)
}

int tch_save(const tch_net_t *net, const tch_opt_t *opt, const char *path)
{
    if (!net || !path || !*path) return hoyle_error(HOYLE_EINVAL, "tch_save: NULL net or path");
    if (opt && opt->net_serial != net->serial)
        return hoyle_error(HOYLE_EINVAL, "tch_save: optimiser belongs to another net");
    try {
        std::string tmp = temp_path_for(path);
        try {
            torch::NoGradGuard no_grad;
            torch::serialize::OutputArchive ar;
            ar.write("hoyle_format", c10::IValue(std::string(kFormat)));
            ar.write("net_config", config_tensor(net->cfg));
            for (const auto &p : net->module.named_parameters(false))
                ar.write("param_" + p.name, p.value.detach().clone());
            for (const auto &b : net->module.named_buffers(false))
                ar.write("buffer_" + b.name, b.value.detach().clone(), true);
            if (opt) {
                ar.write("opt_config", opt_config_tensor(opt->cfg));
                ar.write("opt_steps", torch::tensor({(int64_t)opt->steps}, torch::kInt64));
                torch::serialize::OutputArchive state(ar.compilation_unit());
                opt->opt->save(state);
                ar.write("opt_state", state);
            }
            ar.save_to(tmp);
        } catch (...) {
            unlink(tmp.c_str());
            throw;
        }
        return commit_temp(tmp, path, "tch_save");
    }
    TCH_CATCH_AT("tch_save", path, HOYLE_EIO)
}

int tch_load(const char *path, tch_net_t **net_out, tch_opt_t **opt_out)
{
    if (!path || !net_out) return hoyle_error(HOYLE_EINVAL, "tch_load: NULL path or output");
    FILE *f = fopen(path, "rb");
    if (!f) return hoyle_error(HOYLE_EIO, "tch_load: %s: %s", path, strerror(errno));
    fclose(f);
    try {
        torch::NoGradGuard no_grad;
        torch::serialize::InputArchive ar;
        ar.load_from(path);
        c10::IValue fmt;
        if (!ar.try_read("hoyle_format", fmt) || !fmt.isString() || fmt.toStringRef() != kFormat)
            return hoyle_error(HOYLE_EIO, "tch_load: %s: not a %s checkpoint", path, kFormat);
        at::Tensor ct;
        if (!ar.try_read("net_config", ct) || ct.scalar_type() != torch::kInt64 || ct.dim() != 1 ||
            ct.size(0) != 8)
            return hoyle_error(HOYLE_EIO, "tch_load: %s: bad net_config entry", path);
        ct = ct.contiguous();
        const int64_t *c = ct.data_ptr<int64_t>();
        for (int i = 0; i < 8; i++)
            if (c[i] < 0 || c[i] > 100000000)
                return hoyle_error(HOYLE_EIO, "tch_load: %s: bad net_config entry", path);
        tch_net_config_t cfg = {(int)c[0], (int)c[1], (int)c[2], (int)c[3],
                                (int)c[4], (int)c[5], (int)c[6], (int)c[7]};
        if (validate_net_config(&cfg)) {
            std::string why = hoyle_last_error();
            return hoyle_error(HOYLE_EIO, "tch_load: %s: %s", path, why.c_str());
        }
        std::unique_ptr<tch_net> net = build_net(cfg, 0);
        auto copy_in = [&](const std::string &key, at::Tensor dst, bool buffer) -> bool {
            at::Tensor src;
            if (!ar.try_read(key, src, buffer) || src.scalar_type() != dst.scalar_type() ||
                src.sizes() != dst.sizes()) {
                hoyle_error(HOYLE_EIO, "tch_load: %s: entry %s missing or mis-shaped", path,
                            key.c_str());
                return false;
            }
            dst.copy_(src);
            return true;
        };
        for (const auto &p : net->module.named_parameters(false))
            if (!copy_in("param_" + p.name, p.value, false)) return HOYLE_EIO;
        for (const auto &b : net->module.named_buffers(false))
            if (!copy_in("buffer_" + b.name, b.value, true)) return HOYLE_EIO;

        std::unique_ptr<tch_opt> opt;
        at::Tensor oc;
        if (opt_out && ar.try_read("opt_config", oc)) {
            opt = std::make_unique<tch_opt>();
            at::Tensor steps;
            if (!opt_config_from(oc, &opt->cfg) || validate_opt_config(&opt->cfg) ||
                !ar.try_read("opt_steps", steps) || steps.scalar_type() != torch::kInt64 ||
                steps.numel() != 1 || steps.item<int64_t>() < 0)
                return hoyle_error(HOYLE_EIO, "tch_load: %s: bad optimiser entries", path);
            opt->steps = steps.item<int64_t>();
            opt->net_serial = net->serial;
            opt->opt = make_optimizer(*net, opt->cfg);
            torch::serialize::InputArchive state;
            if (!ar.try_read("opt_state", state))
                return hoyle_error(HOYLE_EIO, "tch_load: %s: optimiser state missing", path);
            opt->opt->load(state);
        }
        *net_out = net.release();
        if (opt_out) *opt_out = opt.release();
        return HOYLE_OK;
    }
    TCH_CATCH_AT("tch_load", path, HOYLE_EIO)
}

int tch_export_torchscript(const tch_net_t *net, const char *path)
{
    if (!net || !path || !*path)
        return hoyle_error(HOYLE_EINVAL, "tch_export_torchscript: NULL net or path");
    try {
        std::string tmp = temp_path_for(path);
        try {
            net->module.save(tmp);
        } catch (...) {
            unlink(tmp.c_str());
            throw;
        }
        return commit_temp(tmp, path, "tch_export_torchscript");
    }
    TCH_CATCH_AT("tch_export_torchscript", path, HOYLE_EIO)
}

} // extern "C"
