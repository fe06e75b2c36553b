/* tch_internal.hpp — what the libtorch module's C++ files share (not public; tch.h is the API).
 *
 * The module (libhoyle_torch.so) is built from tch_net.cpp (building and running the network,
 * process-wide settings), tch_train.cpp (optimisers, losses, training steps), tch_io.cpp
 * (checkpoints and the TorchScript export) and tch_module.cpp (the function table the C
 * loader tch_dl.c reads). Everything here lives in namespace tch_impl; only the extern "C"
 * tch_* functions of tch.h are entry points, and each of them catches every exception. */
#ifndef HOYLE_TRAIN_TCH_TCH_INTERNAL_HPP
#define HOYLE_TRAIN_TCH_TCH_INTERNAL_HPP

#include "train/tch/tch.h"

#include <torch/script.h>
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "core/error.h"
}

namespace tch_impl
{

/* First line of a libtorch message (they carry source locations and backtraces after),
 * capped so that it fits hoyle_error's one-line buffer with room for a prefix. */
inline std::string first_line(const char *what)
{
    std::string s(what ? what : "");
    size_t nl = s.find('\n');
    if (nl != std::string::npos) s.resize(nl);
    if (s.size() > 300) s.resize(300);
    return s;
}

/* A fresh serial number for a new net (optimisers remember theirs, see tch_opt). */
uint64_t new_net_serial();

/* The inference copy of a net (tch_net.cpp): batch norm folded into the layer before it. */
struct folded_net;

} // namespace tch_impl

/* The shared tail of every entry point: `fn` names the function, `subject` what it worked on
 * (a path) or "", `code` is the status for ordinary exceptions. */
#define TCH_CATCH_AT(fn, subject, code)                                                            \
    catch (const c10::Error &e)                                                                    \
    {                                                                                              \
        return hoyle_error(code, "%s: %s%slibtorch: %s", fn, subject, *(subject) ? ": " : "",      \
                           tch_impl::first_line(e.what_without_backtrace()).c_str());              \
    }                                                                                              \
    catch (const std::bad_alloc &) { return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", fn); }  \
    catch (const std::exception &e)                                                                \
    {                                                                                              \
        return hoyle_error(code, "%s: %s%s%s", fn, subject, *(subject) ? ": " : "",                \
                           tch_impl::first_line(e.what()).c_str());                                \
    }                                                                                              \
    catch (...) { return hoyle_error(code, "%s: unknown C++ exception", fn); }
#define TCH_CATCH(fn, code) TCH_CATCH_AT(fn, "", code)

struct tch_net {
    tch_net_config_t cfg;
    uint64_t serial;                   /* binds optimisers to this net */
    torch::jit::Module module;         /* the network (parameters, buffers, forward) */
    std::vector<at::Tensor> params;    /* trainable tensors, registration order */
    std::vector<at::Tensor> l2_params; /* conv and linear weights (the L2 term) */
    /* tch_forward's inference copy, rebuilt when a parameter or buffer changed since it was
     * made (their version counters: every optimiser step, load and copy_ bumps them; the
     * batch-norm statistics a training forward moves do not, but a step that moved them
     * either steps the parameters too or puts the statistics back with copy_). The mutex
     * guards it: several self-play workers may call tch_forward on one net at once. */
    std::mutex infer_mu;
    std::shared_ptr<const tch_impl::folded_net> infer;
    explicit tch_net(const tch_net_config_t &c)
        : cfg(c), serial(tch_impl::new_net_serial()), module("__torch__.HoyleNet")
    {
    }
};

struct tch_opt {
    tch_opt_config_t cfg;
    uint64_t net_serial; /* the serial of the net whose parameters `opt` updates */
    int64_t steps = 0;   /* optimisation steps taken (drives the learning-rate schedule) */
    std::unique_ptr<torch::optim::Optimizer> opt;
};

namespace tch_impl
{

/* ---- tch_net.cpp ---- */

/* HOYLE_EINVAL + message when a config field is out of range or the net is too large. */
int validate_net_config(const tch_net_config_t *c);

/* Build the module for `cfg`, weights drawn from a private generator seeded with `seed`.
 * Throws on libtorch errors (callers are inside a TCH_CATCH). */
std::unique_ptr<tch_net> build_net(const tch_net_config_t &cfg, uint64_t seed);

/* Run forward() on x (NCHW) with the thread count applied and the graph optimiser off:
 * returns (logits [n][A], values [n][V]). Throws on libtorch errors. */
std::pair<at::Tensor, at::Tensor> run_forward(tch_net &net, const at::Tensor &x);

/* A tensor view (no copy) of the caller's observations obs[n][C][H][W]. */
at::Tensor obs_tensor(const tch_net &net, const float *obs, int n);

/* What forward() computes, in evaluation mode, through the inference copy: batch norm folded
 * into the convolution or linear map before it, the ops called directly (no interpreter).
 * Equal to run_forward's outputs up to float rounding (about 1e-6). Call inside
 * c10::InferenceMode; throws on libtorch errors. */
std::pair<at::Tensor, at::Tensor> run_inference(tch_net &net, const at::Tensor &x);

/* ---- tch_train.cpp ---- */

/* HOYLE_EINVAL + message when an optimiser config field is out of range. */
int validate_opt_config(const tch_opt_config_t *c);

/* A libtorch SGD, Adam or AdamW over net.params as `c` says (SGD and Adam without weight
 * decay: their L2 is in the loss; AdamW in two groups, decaying the conv/linear weights). */
std::unique_ptr<torch::optim::Optimizer> make_optimizer(const tch_net &net,
                                                        const tch_opt_config_t &c);

/* Set the hyper-parameters of `c` (of the optimiser's own kind) on every parameter group. */
void apply_opt_config(torch::optim::Optimizer &o, const tch_opt_config_t &c);

} // namespace tch_impl

#endif
