/* tch_dl.c — tch.h for programs: every tch_* call goes through libhoyle_torch.so, which is
 * dlopen()ed on the first call that needs it (tch_module.h).
 *
 * Why: linking libtorch costs every hoyle command about half a second of static
 * initialisation, even `hoyle games`. With the module loaded on demand only the commands
 * that build, run or read a net pay it.
 *
 * Where the module is looked for, first match wins:
 *   1. $HOYLE_TORCH_MODULE, when set and not empty (then nothing else is tried);
 *   2. libhoyle_torch.so next to the executable (the directory of /proc/self/exe);
 *   3. the build tree's module (HOYLE_TORCH_MODULE_BUILD, compiled in by CMake);
 *   4. the install directory (HOYLE_TORCH_MODULE_INSTALL, compiled in by CMake).
 * Loading happens once per process (pthread_once); when it fails every tch_* call returns
 * HOYLE_EUNSUP with the same one-line message naming what was tried. Invariant: `api` is
 * written only inside load_module() and is either NULL or a checked table for good. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "train/tch/tch_module.h"

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const tch_module_api_t *api; /* the module's table, NULL until loaded */
static char load_message[512];      /* why loading failed (when api stays NULL) */

/* The candidates tried so far, for the message: "A, B (reason), C". Truncated silently, so
 * the message stays one line even with long paths. */
typedef struct tried {
    char text[440];
    size_t len;
} tried_t;

static void tried_add(tried_t *t, const char *path, const char *why)
{
    if (t->len >= sizeof t->text) return;
    int n = snprintf(t->text + t->len, sizeof t->text - t->len, "%s%s%s%s%s", t->len ? ", " : "",
                     path, why ? " (" : "", why ? why : "", why ? ")" : "");
    if (n > 0) t->len += (size_t)n;
}

/* Try one candidate: 1 = loaded and checked (api set), 0 = no such file, -1 = the file is
 * there but unusable (libtorch missing, wrong ABI...). Each failure is added to `t`. */
static int try_module(const char *path, tried_t *t)
{
    if (access(path, F_OK) != 0) {
        tried_add(t, path, NULL);
        return 0;
    }
    /* RTLD_LOCAL: libtorch's symbols stay out of the program's namespace; only the table is
     * reached, through dlsym on this handle. A loaded module is never closed. */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        size_t len = strlen(path);
        if (!why) why = "dlopen failed";
        /* glibc's message may start with "PATH: ", which the list already says */
        if (strncmp(why, path, len) == 0 && strncmp(why + len, ": ", 2) == 0) why += len + 2;
        tried_add(t, path, why);
        return -1;
    }
    tch_module_entry_fn entry;
    /* POSIX requires this object-to-function pointer conversion to work for dlsym. */
    *(void **)&entry = dlsym(h, TCH_MODULE_SYMBOL);
    const tch_module_api_t *table = entry ? entry() : NULL;
    if (!table || table->abi != TCH_MODULE_ABI || table->size != sizeof *table) {
        tried_add(t, path, table ? "built for another hoyle version" : "not a hoyle module");
        dlclose(h);
        return -1;
    }
    api = table;
    return 1;
}

/* The pthread_once body: try the candidates in order (see the top of the file). */
static void load_module(void)
{
    const char *candidates[3];
    int count = 0;
    const char *env = getenv("HOYLE_TORCH_MODULE");
    static char beside_exe[4096];
    if (env && *env) {
        candidates[count++] = env;
    } else {
        ssize_t n = readlink("/proc/self/exe", beside_exe, sizeof beside_exe - 1);
        beside_exe[n > 0 ? n : 0] = '\0';
        char *slash = strrchr(beside_exe, '/');
        if (slash &&
            (size_t)(slash + 1 - beside_exe) + sizeof TCH_MODULE_FILE <= sizeof beside_exe) {
            memcpy(slash + 1, TCH_MODULE_FILE, sizeof TCH_MODULE_FILE);
            candidates[count++] = beside_exe;
        }
#ifdef HOYLE_TORCH_MODULE_BUILD
        candidates[count++] = HOYLE_TORCH_MODULE_BUILD;
#endif
#ifdef HOYLE_TORCH_MODULE_INSTALL
        candidates[count++] = HOYLE_TORCH_MODULE_INSTALL;
#endif
    }
    tried_t tried = {.len = 0};
    int unusable = 0;
    for (int i = 0; i < count; i++) {
        int seen = 0; /* the executable may sit in the build tree: try each path once */
        for (int j = 0; j < i; j++) seen |= strcmp(candidates[j], candidates[i]) == 0;
        if (seen) continue;
        int st = try_module(candidates[i], &tried);
        if (st > 0) return;
        unusable |= st < 0;
    }
    snprintf(load_message, sizeof load_message, "libtorch module %s: tried %s%s",
             unusable ? "not loaded" : "not found", tried.text,
             env && *env ? " (from HOYLE_TORCH_MODULE)" : "; set HOYLE_TORCH_MODULE");
}

/* The loaded table, or NULL with the load failure recorded as this thread's error. */
static const tch_module_api_t *module(void)
{
    pthread_once(&load_once, load_module);
    if (!api) hoyle_error(HOYLE_EUNSUP, "%s", load_message);
    return api;
}

/* A module call's status: when negative, the module's message becomes the caller's
 * (the module has its own copy of core/error.c, see tch_module.h). */
static int64_t pass(int64_t status)
{
    if (status < 0) hoyle_error((int)status, "%s", api->last_error());
    return status;
}

/* ---- tch.h, forwarded ---- */

int tch_net_create(const tch_net_config_t *config, uint64_t seed, tch_net_t **out)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->net_create(config, seed, out)) : HOYLE_EUNSUP;
}

/* A net or optimiser exists only once the module is loaded, so NULL never loads it. */
void tch_net_free(tch_net_t *net)
{
    if (net && module()) api->net_free(net);
}

int tch_net_get_config(const tch_net_t *net, tch_net_config_t *out)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->net_get_config(net, out)) : HOYLE_EUNSUP;
}

int64_t tch_net_num_params(const tch_net_t *net)
{
    const tch_module_api_t *m = module();
    return m ? pass(m->net_num_params(net)) : HOYLE_EUNSUP;
}

int tch_forward(tch_net_t *net, const float *obs, int n, float *logits, float *values)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->forward(net, obs, n, logits, values)) : HOYLE_EUNSUP;
}

int tch_bench_forward(tch_net_t *net, int batch, int iters, double *evals_per_s)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->bench_forward(net, batch, iters, evals_per_s)) : HOYLE_EUNSUP;
}

int tch_opt_create(tch_net_t *net, const tch_opt_config_t *config, tch_opt_t **out)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->opt_create(net, config, out)) : HOYLE_EUNSUP;
}

void tch_opt_free(tch_opt_t *opt)
{
    if (opt && module()) api->opt_free(opt);
}

int64_t tch_opt_steps(const tch_opt_t *opt) { return opt && module() ? api->opt_steps(opt) : 0; }

double tch_opt_lr(const tch_opt_t *opt) { return opt && module() ? api->opt_lr(opt) : 0.0; }

int tch_opt_get_config(const tch_opt_t *opt, tch_opt_config_t *out)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->opt_get_config(opt, out)) : HOYLE_EUNSUP;
}

int tch_opt_set_config(tch_opt_t *opt, const tch_opt_config_t *config)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->opt_set_config(opt, config)) : HOYLE_EUNSUP;
}

int tch_train_step(tch_net_t *net, tch_opt_t *opt, const float *obs, const float *policy_target,
                   const uint8_t *legal_mask, const float *value_target, int n, tch_losses_t *out)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(
                   m->train_step(net, opt, obs, policy_target, legal_mask, value_target, n, out))
             : HOYLE_EUNSUP;
}

int tch_eval_losses(tch_net_t *net, const tch_opt_config_t *config, const float *obs,
                    const float *policy_target, const uint8_t *legal_mask,
                    const float *value_target, int n, tch_losses_t *out)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->eval_losses(net, config, obs, policy_target, legal_mask, value_target,
                                        n, out))
             : HOYLE_EUNSUP;
}

int tch_set_threads(int threads)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->set_threads(threads)) : HOYLE_EUNSUP;
}

int tch_get_threads(void)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->get_threads()) : HOYLE_EUNSUP;
}

int tch_seed(uint64_t seed)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->seed(seed)) : HOYLE_EUNSUP;
}

int tch_save(const tch_net_t *net, const tch_opt_t *opt, const char *path)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->save(net, opt, path)) : HOYLE_EUNSUP;
}

int tch_load(const char *path, tch_net_t **net_out, tch_opt_t **opt_out)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->load(path, net_out, opt_out)) : HOYLE_EUNSUP;
}

int tch_export_torchscript(const tch_net_t *net, const char *path)
{
    const tch_module_api_t *m = module();
    return m ? (int)pass(m->export_torchscript(net, path)) : HOYLE_EUNSUP;
}
