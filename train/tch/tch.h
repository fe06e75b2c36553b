/* tch.h — the libtorch wrapper ("tch-c"): a plain C view of a residual policy/value network.
 *
 * This is the only door to libtorch (DESIGN.md, "Language and build"): the implementation
 * (tch_net.cpp, tch_train.cpp, tch_io.cpp) is C++ in the module libhoyle_torch.so, which the
 * loader tch_dl.c opens on the first call (docs/tch.md, "Build"); this header is C11. When
 * the module cannot be loaded every call fails with HOYLE_EUNSUP and a message naming the
 * files tried (set HOYLE_TORCH_MODULE to the module's path). Conventions (STYLE.md point 10):
 *   - opaque handles with create/free pairs; free(NULL) is a no-op;
 *   - every int-returning call gives 0 (HOYLE_OK) or a negative HOYLE_E* status and then
 *     records a one-line message read with hoyle_last_error() (core/error.h). No C++
 *     exception ever crosses into C: each entry point catches everything;
 *   - a failed call changes nothing the caller owns (outputs untouched, net unchanged),
 *     except when libtorch itself throws half-way through a training step (reported);
 *   - CPU only (Debian's libtorch 1.13 is a CPU build); float32 everywhere.
 *
 * Layouts (row-major, C order, no padding):
 *   observations   float obs[n][C][H][W]       NCHW, C = in_channels, H = height, W = width
 *   policy logits  float logits[n][A]           raw, unnormalised, A = num_actions
 *   policy target  float pi[n][A]               a distribution: >= 0, each row sums to 1
 *   legal mask     uint8_t legal[n][A]          nonzero = legal; NULL = all legal
 *   values         float v[n][V]                in [-1, 1] (tanh), V = num_values
 *
 * The network (docs/tch.md has the formulas): a 3x3 conv stem C->F with batch norm and ReLU,
 * `blocks` residual blocks of two 3x3 convs (F filters, batch norm, skip, ReLU), a policy head
 * (1x1 conv F->2, BN, ReLU, linear 2HW->A) and a value head (1x1 conv F->1, BN, ReLU, linear
 * HW->value_hidden, ReLU, linear ->V, tanh).
 *
 * Value convention (the wrapper itself does not care, callers must agree): num_values = 1
 * means "the value for the player to move" (two-player zero-sum games, puzzles);
 * num_values = N means one value per seat, in seat order.
 *
 * Threads: a net may be used by forward calls from several threads at once as long as no
 * training step, load or free on the same net runs concurrently (the caller serialises
 * those). tch_set_threads() sets libtorch's process-wide intra-op thread count. */
#ifndef HOYLE_TRAIN_TCH_TCH_H
#define HOYLE_TRAIN_TCH_TCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- network ---- */

typedef struct tch_net tch_net_t; /* opaque */

typedef struct tch_net_config {
    int in_channels;  /* C: observation planes, 1..1024 */
    int height;       /* H: board rows, 1..64 */
    int width;        /* W: board columns, 1..64 */
    int num_actions;  /* A: policy outputs, 1..1000000 */
    int num_values;   /* V: value outputs, 1..64 (see "Value convention" above) */
    int blocks;       /* B: residual blocks, 0..64 */
    int filters;      /* F: channels of the tower, 1..1024 */
    int value_hidden; /* width of the value head's hidden layer, 1..4096 */
    /* The head and trunk kinds (docs/tch.md, "Network"); all 0 = the layout above, which is
     * also what a checkpoint without a "net_heads" entry holds. */
    int policy_head;   /* a tch_policy_head_t */
    int policy_planes; /* CONV: P, with num_actions == P * H * W */
    int policy_lead;   /* CONV: L in [0, P]: action order, see tch_policy_head_t */
    int value_head;    /* a tch_value_head_t */
    int trunk;         /* a tch_trunk_t */
} tch_net_config_t;

/* DENSE: 1x1 conv F->2, BN, ReLU, linear 2HW->A (the default).
 * CONV:  1x1 conv F->P with a bias: P logits per square, no linear layer. Logit (p, sq), sq =
 *        row * W + column of the observation, is action p * HW + sq for the first L planes
 *        (plane-major) and L * HW + sq * (P - L) + (p - L) for the others (square-major):
 *        chess is P = 73, L = 0 (from-square * 73 + move type), Go-Bang with a moving phase
 *        P = 9, L = 1 (placements, then from-square * 8 + direction). Needs the conv trunk. */
typedef enum tch_policy_head { TCH_POLICY_DENSE = 0, TCH_POLICY_CONV = 1 } tch_policy_head_t;
/* DENSE: 1x1 conv F->1, BN, ReLU, linear HW->value_hidden (the default).
 * POOL:  the mean of each of the F channels over the board, linear F->value_hidden. Both then
 *        ReLU, linear ->V, tanh. POOL needs the conv trunk. */
typedef enum tch_value_head { TCH_VALUE_DENSE = 0, TCH_VALUE_POOL = 1 } tch_value_head_t;
/* CONV: the 3x3 stem and residual blocks above (the default).
 * FC:   the observation flattened to C*H*W, a linear stem C*H*W->F with BN and ReLU, `blocks`
 *       residual blocks of two linear F->F layers (BN, skip, ReLU), then a dense policy
 *       (linear F->A) and value (linear F->value_hidden, ReLU, linear ->V, tanh): for one-row
 *       inputs such as backgammon's 14x1x26, where 3x3 convolutions see little. Needs the
 *       DENSE heads; a training batch of one is rejected (batch norm over one value). */
typedef enum tch_trunk { TCH_TRUNK_CONV = 0, TCH_TRUNK_FC = 1 } tch_trunk_t;

/* Build a freshly initialised net (Kaiming-normal convs, uniform linears, BN gamma=1 beta=0)
 * from `seed` alone: the same config and seed give bit-identical weights, independent of
 * tch_seed() and of other threads. The net starts in evaluation mode. */
int tch_net_create(const tch_net_config_t *config, uint64_t seed, tch_net_t **out);
void tch_net_free(tch_net_t *net);

/* Copy the net's config into *out. */
int tch_net_get_config(const tch_net_t *net, tch_net_config_t *out);

/* Number of trainable scalars (weights + biases + BN affine parameters). */
int64_t tch_net_num_params(const tch_net_t *net);

/* Evaluate n positions: obs[n][C][H][W] -> logits[n][A], values[n][V]. Evaluation mode
 * (batch norm uses running statistics), no autograd. `values` may be NULL when only the
 * policy is wanted, `logits` may be NULL when only values are. Observations are not
 * checked for NaN (hot path). Thread-safe as described at the top. */
int tch_forward(tch_net_t *net, const float *obs, int n, float *logits, float *values);

/* Time `iters` forward calls of `batch` random positions after a short warm-up and store
 * positions per second (batch * iters / seconds) in *evals_per_s. */
int tch_bench_forward(tch_net_t *net, int batch, int iters, double *evals_per_s);

/* ---- optimiser ---- */

typedef struct tch_opt tch_opt_t; /* opaque; bound to the net it was created for */

/* SGD (optionally with momentum and Nesterov), Adam, and AdamW (Adam with decoupled weight
 * decay: each step also multiplies the conv and linear weights by 1 - lr * weight_decay). */
typedef enum tch_opt_kind { TCH_OPT_SGD = 0, TCH_OPT_ADAM = 1, TCH_OPT_ADAMW = 2 } tch_opt_kind_t;

/* Learning-rate schedule, a function of the number of steps already taken (t = 0, 1, ...):
 *   CONSTANT  lr(t) = lr
 *   STEP      lr(t) = lr * gamma^floor(t / step_size)
 *   COSINE    lr(t) = lr_min + (lr - lr_min) * (1 + cos(pi * min(t, total_steps) / total_steps)) /
 * 2 then, for t < warmup_steps, multiplied by (t + 1) / warmup_steps. */
typedef enum tch_lr_schedule {
    TCH_LR_CONSTANT = 0,
    TCH_LR_STEP = 1,
    TCH_LR_COSINE = 2
} tch_lr_schedule_t;

typedef struct tch_opt_config {
    int kind;            /* a tch_opt_kind_t (an int so that C++ can check any value safely) */
    double lr;           /* base learning rate, > 0 */
    double momentum;     /* SGD: momentum in [0, 1) (0 = plain SGD); ignored by Adam */
    int nesterov;        /* SGD: nonzero = Nesterov momentum (needs momentum > 0) */
    double beta1, beta2; /* Adam, AdamW: moment decay rates in [0, 1) */
    double eps;          /* Adam, AdamW: denominator epsilon, > 0 */
    double l2;           /* L2 coefficient c in the loss (c * sum of squared conv/linear weights) */
    double value_weight; /* weight of the value loss in the total, >= 0 */
    int schedule;        /* a tch_lr_schedule_t */
    int step_size;       /* STEP: steps between decays, >= 1 */
    double gamma;        /* STEP: decay factor in (0, 1] */
    int total_steps;     /* COSINE: length of the cosine, >= 1 */
    double lr_min;       /* COSINE: final learning rate, in [0, lr] */
    int warmup_steps;    /* linear warm-up steps, >= 0 */
    double weight_decay; /* AdamW: decoupled decay of the conv/linear weights, in [0, 1]; must
                            be 0 for SGD and Adam (their L2 is `l2`, a term of the loss) */
} tch_opt_config_t;

/* Fill *config with defaults: SGD, lr 0.02, momentum 0.9, no Nesterov, Adam betas 0.9/0.999,
 * eps 1e-8, l2 1e-4, value_weight 1, constant schedule (step_size 1000, gamma 0.1,
 * total_steps 100000, lr_min 0), no warm-up, weight_decay 0. */
void tch_opt_config_default(tch_opt_config_t *config);

/* Create an optimiser over all trainable parameters of `net` (the net must outlive every
 * use of the optimiser; freeing them in either order is safe). */
int tch_opt_create(tch_net_t *net, const tch_opt_config_t *config, tch_opt_t **out);
void tch_opt_free(tch_opt_t *opt);

/* Steps taken so far, and the learning rate the next step will use (the schedule at the
 * current step count: what a log of "the learning rate now" should print). */
int64_t tch_opt_steps(const tch_opt_t *opt);
double tch_opt_lr(const tch_opt_t *opt);

/* Copy the optimiser's config into *out. */
int tch_opt_get_config(const tch_opt_t *opt, tch_opt_config_t *out);
/* Replace the hyper-parameters (learning rate and schedule, momentum, Nesterov, betas, eps,
 * weight decay, l2, value_weight) and keep the state: step count, momentum buffers, Adam
 * moments. This is how a resumed run applies its config to a loaded checkpoint. A different
 * `kind` is refused (HOYLE_EINVAL, nothing changed): the state of one kind means nothing to
 * another. */
int tch_opt_set_config(tch_opt_t *opt, const tch_opt_config_t *config);

/* ---- training ---- */

typedef struct tch_losses {
    double policy; /* mean over the batch of -sum_a pi_a log softmax(masked logits)_a */
    double value;  /* mean over the batch of sum_j (v_j - z_j)^2 */
    double l2;     /* c * sum of squared conv/linear weights (already multiplied by c) */
    double total;  /* policy + value_weight * value + l2: the minimised quantity */
} tch_losses_t;

/* One optimisation step on a batch of n positions, in training mode (batch norm uses batch
 * statistics and updates its running statistics; so a batch of one 1x1 board is rejected).
 * The losses are those of the forward pass before the update. Inputs are validated first
 * (HOYLE_EINVAL, nothing changed): finite observations; targets finite, >= 0, rows summing
 * to 1 within 1e-3; no target mass (> 1e-6) on an illegal action; at least one legal action
 * per row; value targets in [-1, 1]. Illegal actions' logits are masked to -inf before the
 * log-softmax. A non-finite loss (divergence) gives HOYLE_EINVAL and no update (batch-norm
 * running statistics have moved). `out` may be NULL. */
int tch_train_step(tch_net_t *net, tch_opt_t *opt, const float *obs, const float *policy_target,
                   const uint8_t *legal_mask, const float *value_target, int n, tch_losses_t *out);

/* Losses of a batch without training (evaluation mode, no update); same validation. */
int tch_eval_losses(tch_net_t *net, const tch_opt_config_t *config, const float *obs,
                    const float *policy_target, const uint8_t *legal_mask,
                    const float *value_target, int n, tch_losses_t *out);

/* ---- process-wide settings ---- */

/* libtorch's intra-op thread count (>= 1) for every thread's later calls. Process-wide;
 * call it early, not while other threads are inside tch_* calls. The default is libtorch's
 * (the number of cores, or OMP_NUM_THREADS). */
int tch_set_threads(int threads);
/* The intra-op thread count this thread's calls use (> 0), or a negative status. */
int tch_get_threads(void);
/* Seed libtorch's global generator (used by tch_bench_forward's random inputs only; net
 * initialisation takes its own seed). */
int tch_seed(uint64_t seed);

/* ---- files ---- */

/* Save config, weights, batch-norm statistics and (when opt is not NULL) the optimiser's
 * config, step count and state to `path`, atomically (a temporary file in the same directory
 * renamed over `path`). The format is a libtorch serialisation archive (zip) whose
 * "hoyle_format" entry is "hoyle-tch-1"; see docs/tch.md. */
int tch_save(const tch_net_t *net, const tch_opt_t *opt, const char *path);

/* Load a file written by tch_save into a new net (*net_out). When opt_out is not NULL it
 * receives a new optimiser with the saved config, step count and state, or NULL when the
 * file holds none. Missing, corrupt or foreign files give HOYLE_EIO and allocate nothing. */
int tch_load(const char *path, tch_net_t **net_out, tch_opt_t **opt_out);

/* Write the net, in evaluation mode, as a TorchScript module (atomically, like tch_save)
 * that Python's torch.jit.load (and libtorch's torch::jit::load) can run:
 *   module(x: float32[n][C][H][W]) -> (logits: float32[n][A], values: float32[n][V])
 * Its outputs equal tch_forward's up to float rounding. */
int tch_export_torchscript(const tch_net_t *net, const char *path);

#ifdef __cplusplus
}
#endif

#endif
