/* loop_learn.c — the training loop's learning options: config words, the `auto` net layout,
 * checkpoint retention and the warm start (loop_internal.h; docs/training.md).
 * Invariant: retention never removes net 0, the newest nets (the one a resume loads is the
 * newest) or the newest evaluated net (the next evaluation's opponent). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file.h"
#include "train/loop_internal.h"

/* Multiply-accumulates of one position's forward pass (batch norm, ReLU and pooling left out:
 * they are linear in the activations and the same order for every layout compared here). */
int64_t loop_net_macs(const tch_net_config_t *c)
{
    const int64_t C = c->in_channels, HW = (int64_t)c->height * c->width, F = c->filters,
                  A = c->num_actions, VH = c->value_hidden, B = c->blocks, V = c->num_values;
    if (c->trunk == TCH_TRUNK_FC) return C * HW * F + 2 * B * F * F + F * A + F * VH + VH * V;
    int64_t macs = 9 * C * F * HW + 2 * B * 9 * F * F * HW;
    macs += c->policy_head == TCH_POLICY_CONV ? F * c->policy_planes * HW : 2 * F * HW + 2 * HW * A;
    macs += c->value_head == TCH_VALUE_POOL ? F * VH : F * HW + HW * VH;
    return macs + VH * V;
}

void loop_resolve_net(const game_t *g, int policy_head, int value_head, int trunk,
                      tch_net_config_t *c)
{
    c->policy_head = TCH_POLICY_DENSE, c->policy_planes = c->policy_lead = 0;
    c->value_head = value_head;
    c->trunk = trunk == LOOP_AUTO ? TCH_TRUNK_CONV : trunk;
    /* auto trunk: fc for one-row observations, when it costs no more per forward */
    if (trunk == LOOP_AUTO && (c->height == 1 || c->width == 1) &&
        c->value_head == TCH_VALUE_DENSE) {
        tch_net_config_t fc = *c;
        fc.trunk = TCH_TRUNK_FC;
        if (loop_net_macs(&fc) <= loop_net_macs(c)) c->trunk = TCH_TRUNK_FC;
    }
    /* conv policy head: only where the game lays its actions out as planes x squares (and
     * the sizes agree), else the dense head; auto also needs it to cost no more */
    bool fits = c->trunk == TCH_TRUNK_CONV && g->policy_planes > 0 &&
                (int64_t)g->policy_planes * c->height * c->width == c->num_actions;
    if (policy_head == TCH_POLICY_DENSE || !fits) return;
    tch_net_config_t conv = *c;
    conv.policy_head = TCH_POLICY_CONV;
    conv.policy_planes = g->policy_planes;
    conv.policy_lead = g->policy_lead;
    if (policy_head == TCH_POLICY_CONV || loop_net_macs(&conv) <= loop_net_macs(c)) *c = conv;
}

/* "CxHxW -> A, B blocks x F filters, value_hidden V, policy P, value Q, trunk T": what a net
 * is, for a message that compares two. */
static void net_desc(const tch_net_config_t *c, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "%dx%dx%d -> %d, %d blocks x %d filters, value_hidden %d, %s policy, %s value, "
             "%s trunk",
             c->in_channels, c->height, c->width, c->num_actions, c->blocks, c->filters,
             c->value_hidden, c->policy_head == TCH_POLICY_CONV ? "conv" : "dense",
             c->value_head == TCH_VALUE_POOL ? "pool" : "dense",
             c->trunk == TCH_TRUNK_FC ? "fc" : "conv");
}

int train_net_file(const char *from, char *path, size_t cap)
{
    struct stat sb;
    char where[4200];
    if (stat(from, &sb) != 0)
        return hoyle_error(HOYLE_EINVAL, "'%s' (%s): %s", from,
                           file_resolved(from, where, sizeof where), strerror(errno));
    if (!S_ISDIR(sb.st_mode)) {
        snprintf(path, cap, "%s", from);
        return HOYLE_OK;
    }
    loop_state_t st; /* a run folder: its newest finished net */
    char state[1300];
    snprintf(state, sizeof state, "%s/state.txt", from);
    int s = loop_state_load(state, &st);
    if (s > 0) return hoyle_error(HOYLE_EINVAL, "'%s': a folder without state.txt", from);
    if (s < 0) return hoyle_error_prefix(HOYLE_EINVAL, "'%s'", from);
    snprintf(path, cap, "%s/net-%06" PRId64 ".pt", from, st.generation);
    return HOYLE_OK;
}

int loop_warm_start(const char *at, const char *from, const tch_net_config_t *want, tch_net_t **out)
{
    char path[1300];
    if (train_net_file(from, path, sizeof path)) return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    tch_net_t *net = NULL;
    if (tch_load(path, &net, NULL)) return hoyle_error_prefix(HOYLE_EINVAL, "%s", at);
    tch_net_config_t have;
    tch_net_get_config(net, &have);
    if (memcmp(&have, want, sizeof have) != 0) {
        char a[256], b[256];
        net_desc(&have, a, sizeof a);
        net_desc(want, b, sizeof b);
        tch_net_free(net);
        return hoyle_error(HOYLE_EINVAL, "%s: '%s' is %s; the config asks for %s", at, path, a, b);
    }
    *out = net;
    return HOYLE_OK;
}

bool loop_keep_net(int64_t gen, int64_t newest, int keep_every, int keep_last,
                   const loop_eval_cfg_t *ev)
{
    if (keep_every <= 0 || gen <= 0 || gen > newest - keep_last) return true;
    if (gen % keep_every == 0) return true;
    if (!ev) return false;
    for (int k = 0; k < ev->num_anchors; k++) /* fixed net anchors, met at every evaluation */
        if (loop_eval_anchor_net(ev->anchors[k]) == gen) return true;
    /* the newest evaluated net: the opponent of the next evaluation */
    return ev->every > 0 && gen % ev->every == 0 && gen + ev->every > newest;
}

int loop_prune_nets(const char *dir, int64_t newest, int keep_every, int keep_last,
                    const loop_eval_cfg_t *ev)
{
    char path[1300];
    for (int64_t g = 1; keep_every > 0 && g <= newest - keep_last; g++) {
        if (loop_keep_net(g, newest, keep_every, keep_last, ev)) continue;
        snprintf(path, sizeof path, "%s/net-%06" PRId64 ".pt", dir, g);
        if (unlink(path) != 0 && errno != ENOENT)
            return hoyle_error(HOYLE_EIO, "'%s': cannot remove: %s", path, strerror(errno));
    }
    return HOYLE_OK;
}
