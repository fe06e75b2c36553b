/* tch_net.cpp — the network half of the libtorch module: build, run and time the net; the
 * process-wide settings (threads, seed).
 *
 * The network is a TorchScript module built programmatically: parameters and batch-norm
 * buffers are registered on a torch::jit::Module and its forward() is TorchScript source
 * generated from the config (the residual blocks unrolled). The same module serves forward,
 * training (autograd runs through the interpreter) and export, so the exported file is
 * exactly what tch_forward computes: tch_export_torchscript is module.save().
 *
 * The graph executor's optimiser is switched off around our calls (a thread-local libtorch
 * flag): the graph then runs op by op like eager code, with no profiling runs and no
 * autodiff subgraphs, which keeps results deterministic. */
#include "train/tch/tch_internal.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace tch_impl
{

namespace
{

constexpr double kBnMomentum = 0.1; /* torch.nn.BatchNorm2d's defaults */
constexpr double kBnEps = 1e-5;
constexpr int kPolicyChannels = 2; /* AlphaGo Zero's head widths (docs/tch.md, "Network") */
constexpr int kValueChannels = 1;

/* at::set_num_threads() sets OpenMP's per-thread setting on the calling thread only (plus a
 * global that at::init_num_threads() copies). So tch_set_threads bumps a generation number
 * and each entry point that computes re-applies the global on a thread that has not seen
 * the current generation: the count is then process-wide, as the header promises. */
std::atomic<int> threads_generation{1};

void sync_threads()
{
    /* Denormal floats flushed to zero on every thread that computes (and so on the OpenMP
     * threads it starts, which copy its floating-point state): a net whose weights or
     * activations drift into the denormal range otherwise runs its matrix products 20-40x
     * slower (docs/tch.md, "Threads and speed"). */
    thread_local bool flushing = false;
    if (!flushing) {
        at::globalContext().setFlushDenormal(true);
        flushing = true;
    }
    thread_local int seen = 0;
    int g = threads_generation.load(std::memory_order_acquire);
    if (g != seen) {
        at::init_num_threads();
        seen = g;
    }
}

/* Serial numbers start at 1 so that a zeroed tch_opt never matches a real net. */
std::atomic<uint64_t> next_serial{1};

int check_range(const char *what, long long v, long long lo, long long hi)
{
    if (v < lo || v > hi)
        return hoyle_error(HOYLE_EINVAL, "tch: config %s = %lld out of range [%lld, %lld]", what, v,
                           lo, hi);
    return HOYLE_OK;
}

/* Collects the parameters, buffers and forward() source of one net. Parameters are
 * registered in call order, which is the order optimisers and checkpoints see them in. */
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
    /* linear weight [out][in] without bias (BN follows), Kaiming normal like conv(). */
    void fc(const std::string &name, int out, int in)
    {
        double std = std::sqrt(2.0 / (double)in);
        add_param(name + "_w", torch::empty({out, in}).normal_(0.0, std, gen), true);
    }
    /* 1x1 conv [out][in][1][1] + bias [out], both U(-1/sqrt(in), 1/sqrt(in)) (torch.nn's). */
    void conv_bias(const std::string &name, int out, int in)
    {
        double b = 1.0 / std::sqrt((double)in);
        add_param(name + "_w", torch::empty({out, in, 1, 1}).uniform_(-b, b, gen), true);
        add_param(name + "_b", torch::empty({out}).uniform_(-b, b, gen), false);
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
    /* TorchScript expression: batch-normalised linear map (no bias) of `x` [n][in]. */
    static std::string fc_bn(const std::string &x, const std::string &w, const std::string &b)
    {
        return "self.bn(torch.linear(" + x + ", self." + w + "_w), self." + b + "_g, self." + b +
               "_b, self." + b + "_m, self." + b + "_v)";
    }
    void line(const std::string &s) { code += "    " + s + "\n"; }
};

} // namespace

uint64_t new_net_serial() { return next_serial++; }

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
        (st = check_range("value_hidden", c->value_hidden, 1, 4096)) ||
        (st = check_range("policy_head", c->policy_head, 0, 1)) ||
        (st = check_range("value_head", c->value_head, 0, 1)) ||
        (st = check_range("trunk", c->trunk, 0, 1)))
        return st;
    const double hw = (double)c->height * c->width, F = c->filters;
    if (c->policy_head == TCH_POLICY_CONV) {
        if (c->policy_planes < 1 || (double)c->policy_planes * hw != (double)c->num_actions)
            return hoyle_error(HOYLE_EINVAL,
                               "tch: conv policy head: %d planes x %dx%d squares is not %d "
                               "actions",
                               c->policy_planes, c->height, c->width, c->num_actions);
        if ((st = check_range("policy_lead", c->policy_lead, 0, c->policy_planes))) return st;
    } else if (c->policy_planes || c->policy_lead) {
        return hoyle_error(HOYLE_EINVAL, "tch: policy_planes and policy_lead need the conv head");
    }
    if (c->trunk == TCH_TRUNK_FC &&
        (c->policy_head != TCH_POLICY_DENSE || c->value_head != TCH_VALUE_DENSE))
        return hoyle_error(HOYLE_EINVAL, "tch: the fc trunk takes the dense heads only");
    /* The policy's linear layer dominates; refuse nets that cannot sensibly fit in memory. */
    double total = 0;
    if (c->trunk == TCH_TRUNK_FC)
        total = (double)c->in_channels * hw * F + F * F * 2.0 * c->blocks +
                F * (c->num_actions + c->value_hidden);
    else
        total =
            F * F * 9.0 * (2.0 * c->blocks + 1) +
            (c->policy_head == TCH_POLICY_CONV ? F * c->policy_planes
                                               : (double)kPolicyChannels * hw * c->num_actions) +
            (c->value_head == TCH_VALUE_POOL ? F : hw) * c->value_hidden;
    if (total > 5e8)
        return hoyle_error(HOYLE_EINVAL, "tch: config gives %.3g parameters (limit 5e8)", total);
    return HOYLE_OK;
}

/* Build the module for `cfg`, weights drawn from a private generator seeded with `seed`. */
std::unique_ptr<tch_net> build_net(const tch_net_config_t &cfg, uint64_t seed)
{
    auto net = std::make_unique<tch_net>(cfg);
    builder b{*net, at::detail::createCPUGenerator(seed), ""};
    const int C = cfg.in_channels, F = cfg.filters, HW = cfg.height * cfg.width;
    /* bn() reads self.training: train_mode_scope flips it for training steps */
    net->module.register_attribute("training", c10::BoolType::get(), false);

    if (cfg.trunk == TCH_TRUNK_FC) {
        /* one row of C*H*W numbers: linear layers (no bias, BN follows), dense heads */
        b.fc("stem_fc", F, C * HW);
        b.bn("stem_bn", F);
        b.line("h = torch.relu(self.bn(torch.linear(torch.flatten(x, 1), self.stem_fc_w), "
               "self.stem_bn_g, self.stem_bn_b, self.stem_bn_m, self.stem_bn_v))");
        for (int i = 0; i < cfg.blocks; i++) {
            std::string p = "b" + std::to_string(i) + "_";
            b.fc(p + "fc1", F, F);
            b.bn(p + "bn1", F);
            b.fc(p + "fc2", F, F);
            b.bn(p + "bn2", F);
            b.line("r = torch.relu(" + builder::fc_bn("h", p + "fc1", p + "bn1") + ")");
            b.line("h = torch.relu(" + builder::fc_bn("r", p + "fc2", p + "bn2") + " + h)");
        }
        b.linear("pol_fc", cfg.num_actions, F);
        b.line("p = torch.linear(h, self.pol_fc_w, self.pol_fc_b)");
        b.linear("val_fc1", cfg.value_hidden, F);
        b.linear("val_fc2", cfg.num_values, cfg.value_hidden);
        b.line("v = torch.relu(torch.linear(h, self.val_fc1_w, self.val_fc1_b))");
        b.line("v = torch.tanh(torch.linear(v, self.val_fc2_w, self.val_fc2_b))");
        b.line("return p, v");
    } else {
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
        if (cfg.policy_head == TCH_POLICY_CONV) {
            /* P logits per square; then the action order of tch.h (tch_policy_head_t) */
            const int P = cfg.policy_planes, L = cfg.policy_lead;
            const std::string l = std::to_string(L);
            b.conv_bias("pol_conv", P, F);
            b.line("p = torch.conv2d(h, self.pol_conv_w, self.pol_conv_b)");
            if (L == P)
                b.line("p = torch.flatten(p, 1)");
            else if (L == 0)
                b.line("p = torch.flatten(p.permute([0, 2, 3, 1]), 1)");
            else
                b.line("p = torch.cat([torch.flatten(p[:, 0:" + l + "], 1), torch.flatten(p[:, " +
                       l + ":].permute([0, 2, 3, 1]), 1)], 1)");
        } else {
            b.conv("pol_conv", kPolicyChannels, F, 1);
            b.bn("pol_bn", kPolicyChannels);
            b.linear("pol_fc", cfg.num_actions, kPolicyChannels * HW);
            b.line("p = torch.relu(" + builder::conv_bn("h", "pol_conv", "pol_bn", 0) + ")");
            b.line("p = torch.linear(torch.flatten(p, 1), self.pol_fc_w, self.pol_fc_b)");
        }
        if (cfg.value_head == TCH_VALUE_POOL) {
            b.linear("val_fc1", cfg.value_hidden, F);
            b.line("v = torch.mean(h, [2, 3])");
        } else {
            b.conv("val_conv", kValueChannels, F, 1);
            b.bn("val_bn", kValueChannels);
            b.linear("val_fc1", cfg.value_hidden, kValueChannels * HW);
            b.line("v = torch.flatten(torch.relu(" +
                   builder::conv_bn("h", "val_conv", "val_bn", 0) + "), 1)");
        }
        b.linear("val_fc2", cfg.num_values, cfg.value_hidden);
        b.line("v = torch.relu(torch.linear(v, self.val_fc1_w, self.val_fc1_b))");
        b.line("v = torch.tanh(torch.linear(v, self.val_fc2_w, self.val_fc2_b))");
        b.line("return p, v");
    }

    /* One TorchScript helper for every batch norm; the constants are printed with 17 digits
     * so that the compiled graph uses exactly kBnMomentum and kBnEps. */
    char bn_src[256];
    snprintf(bn_src, sizeof bn_src,
             "def bn(self, x: Tensor, g: Tensor, b: Tensor, m: Tensor, v: Tensor) -> Tensor:\n"
             "    return torch.batch_norm(x, g, b, m, v, self.training, %.17g, %.17g, False)\n",
             kBnMomentum, kBnEps);
    net->module.define(std::string(bn_src) +
                       "def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:\n" + b.code);
    return net;
}

std::pair<at::Tensor, at::Tensor> run_forward(tch_net &net, const at::Tensor &x)
{
    sync_threads();
    torch::jit::GraphOptimizerEnabledGuard no_opt(false);
    auto out = net.module.forward({x}).toTuple(); /* forward() returns (p, v) */
    return {out->elements()[0].toTensor(), out->elements()[1].toTensor()};
}

/* ---- the inference copy ---- */

/* One layer of the inference copy: a weight and a bias (batch norm folded in, or the layer's
 * own bias). */
struct layer {
    at::Tensor w, b;
};

struct folded_net {
    std::vector<layer> trunk;    /* the stem, then each block's two layers */
    layer pol, pol_fc;           /* conv head: pol = the 1x1 conv; dense: folded conv + linear */
    layer val, val_fc1, val_fc2; /* val: the dense value head's folded 1x1 conv */
    /* what it was made from: every parameter and buffer with its version counter then */
    std::vector<at::Tensor> src;
    std::vector<uint32_t> version;

    bool fresh() const
    {
        for (size_t i = 0; i < src.size(); i++)
            if (src[i]._version() != version[i]) return false;
        return true;
    }
};

namespace
{

at::Tensor attr(const tch_net &net, const std::string &name)
{
    return net.module.attr(name).toTensor().detach();
}

/* w' = w * s and b' = beta - mean * s per output channel, s = gamma / sqrt(var + eps): the
 * scale in double, then back to float. */
layer fold(const tch_net &net, const std::string &w, const std::string &bn)
{
    at::Tensor g = attr(net, bn + "_g").to(at::kDouble),
               beta = attr(net, bn + "_b").to(at::kDouble);
    at::Tensor mean = attr(net, bn + "_m").to(at::kDouble),
               var = attr(net, bn + "_v").to(at::kDouble);
    at::Tensor s = g / torch::sqrt(var + kBnEps);
    at::Tensor weight = attr(net, w + "_w");
    std::vector<int64_t> shape(weight.dim(), 1);
    shape[0] = -1;
    return {(weight.to(at::kDouble) * s.view(shape)).to(at::kFloat).contiguous(),
            (beta - mean * s).to(at::kFloat).contiguous()};
}

layer plain(const tch_net &net, const std::string &name)
{
    return {attr(net, name + "_w").clone(), attr(net, name + "_b").clone()};
}

std::shared_ptr<const folded_net> make_folded(const tch_net &net)
{
    auto f = std::make_shared<folded_net>();
    const tch_net_config_t &c = net.cfg;
    const bool fc = c.trunk == TCH_TRUNK_FC;
    f->trunk.push_back(fold(net, fc ? "stem_fc" : "stem_conv", "stem_bn"));
    for (int i = 0; i < c.blocks; i++) {
        std::string p = "b" + std::to_string(i) + "_";
        f->trunk.push_back(fold(net, p + (fc ? "fc1" : "conv1"), p + "bn1"));
        f->trunk.push_back(fold(net, p + (fc ? "fc2" : "conv2"), p + "bn2"));
    }
    if (fc || c.policy_head != TCH_POLICY_CONV) {
        if (!fc) f->pol = fold(net, "pol_conv", "pol_bn");
        f->pol_fc = plain(net, "pol_fc");
    } else {
        f->pol = plain(net, "pol_conv");
    }
    if (!fc && c.value_head != TCH_VALUE_POOL) f->val = fold(net, "val_conv", "val_bn");
    f->val_fc1 = plain(net, "val_fc1");
    f->val_fc2 = plain(net, "val_fc2");
    for (const auto &p : net.module.named_parameters(false)) f->src.push_back(p.value);
    for (const auto &b : net.module.named_buffers(false)) f->src.push_back(b.value);
    for (const at::Tensor &t : f->src) f->version.push_back(t._version());
    return f;
}

/* The net's inference copy, rebuilt first when the weights changed since it was made. */
std::shared_ptr<const folded_net> inference_copy(tch_net &net)
{
    std::lock_guard<std::mutex> lock(net.infer_mu);
    if (!net.infer || !net.infer->fresh()) {
        c10::InferenceMode off(false); /* the copy is ordinary tensors, made outside inference */
        net.infer = make_folded(net);
    }
    return net.infer;
}

at::Tensor conv(const at::Tensor &x, const layer &l, int pad)
{
    return at::conv2d(x, l.w, l.b, {1, 1}, {pad, pad});
}

} // namespace

std::pair<at::Tensor, at::Tensor> run_inference(tch_net &net, const at::Tensor &x)
{
    sync_threads();
    std::shared_ptr<const folded_net> f = inference_copy(net);
    const tch_net_config_t &c = net.cfg;
    const std::vector<layer> &t = f->trunk;
    at::Tensor h, p, v;
    if (c.trunk == TCH_TRUNK_FC) {
        h = at::linear(torch::flatten(x, 1), t[0].w, t[0].b).relu_();
        for (int i = 0; i < c.blocks; i++) {
            at::Tensor r = at::linear(h, t[1 + 2 * i].w, t[1 + 2 * i].b).relu_();
            h = at::linear(r, t[2 + 2 * i].w, t[2 + 2 * i].b).add_(h).relu_();
        }
        p = at::linear(h, f->pol_fc.w, f->pol_fc.b);
        v = h;
    } else {
        h = conv(x, t[0], 1).relu_();
        for (int i = 0; i < c.blocks; i++) {
            at::Tensor r = conv(h, t[1 + 2 * i], 1).relu_();
            h = conv(r, t[2 + 2 * i], 1).add_(h).relu_();
        }
        if (c.policy_head == TCH_POLICY_CONV) {
            const int P = c.policy_planes, L = c.policy_lead;
            p = conv(h, f->pol, 0);
            if (L == P)
                p = torch::flatten(p, 1);
            else if (L == 0)
                p = torch::flatten(p.permute({0, 2, 3, 1}), 1);
            else
                p = torch::cat({torch::flatten(p.slice(1, 0, L), 1),
                                torch::flatten(p.slice(1, L).permute({0, 2, 3, 1}), 1)},
                               1);
        } else {
            p = at::linear(torch::flatten(conv(h, f->pol, 0).relu_(), 1), f->pol_fc.w, f->pol_fc.b);
        }
        v = c.value_head == TCH_VALUE_POOL ? torch::mean(h, {2, 3})
                                           : torch::flatten(conv(h, f->val, 0).relu_(), 1);
    }
    v = at::linear(v, f->val_fc1.w, f->val_fc1.b).relu_();
    v = at::linear(v, f->val_fc2.w, f->val_fc2.b).tanh_();
    return {p, v};
}

at::Tensor obs_tensor(const tch_net &net, const float *obs, int n)
{
    const tch_net_config_t &c = net.cfg;
    /* const_cast is safe: no caller writes to the view (forward only reads its input) */
    return torch::from_blob(const_cast<float *>(obs), {n, c.in_channels, c.height, c.width},
                            torch::kFloat32);
}

} // namespace tch_impl

using namespace tch_impl;

/* ======================= the C API: nets ======================= */

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
    for (const at::Tensor &p : net->params) total += p.numel(); /* BN buffers not included */
    return total;
}

int tch_forward(tch_net_t *net, const float *obs, int n, float *logits, float *values)
{
    if (!net || !obs) return hoyle_error(HOYLE_EINVAL, "tch_forward: NULL net or observations");
    if (!logits && !values) return hoyle_error(HOYLE_EINVAL, "tch_forward: no output buffer");
    if (n <= 0) return hoyle_error(HOYLE_EINVAL, "tch_forward: batch size %d must be > 0", n);
    try {
        c10::InferenceMode inference;
        auto [p, v] = run_inference(*net, obs_tensor(*net, obs, n));
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
        for (int i = 0; i < 3; i++) /* warm-up: first calls allocate and pick kernels */
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

} // extern "C"
