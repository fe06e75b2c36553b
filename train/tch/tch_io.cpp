/* tch_io.cpp — the file half of the libtorch module: checkpoints (tch_save / tch_load) and
 * the TorchScript export.
 *
 * A checkpoint is a libtorch serialisation archive with named entries (docs/tch.md, "File
 * format"): the format tag, the net config as int64[8] (and the head kinds as int64[5] when
 * they are not the defaults), every parameter and buffer by name and, optionally, the
 * optimiser's config as float64[16], step count and state. Every write
 * goes to a temporary file that is fsynced and renamed over the target, so a crash leaves the
 * old file or the new one; tch_load validates every entry before it returns a net.
 *
 * The bytes depend only on the net, the optimiser and their values: the optimiser state is
 * written by parameter index (not through torch::optim's own serialiser, which keys it by
 * TensorImpl address and writes it in hash-map order), and the archive goes through a write
 * callback, so its internal folder name is "archive" and not the file's name. */
#include "train/tch/tch_internal.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>
#include <vector>
#include <zlib.h>

namespace tch_impl
{

namespace
{

/* The archive's "hoyle_format" entry; a new layout of the entries needs a new tag. (The
 * per-index optimiser state replaced the nested "opt_state" archive under the same tag:
 * tch_load reads both, and a reader that does not know the new entries says the state is
 * missing rather than misreading it.) */
const char *const kFormat = "hoyle-tch-1";

/* The temporary beside `path`: the same directory, so that rename() is atomic (one file
 * system); the pid keeps two processes writing the same target apart. */
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

/* Little-endian fields of the zip structures. */
uint32_t le16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
uint32_t le32(const unsigned char *p) { return le16(p) | le16(p + 2) << 16; }
uint64_t le64(const unsigned char *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

/* The CRC-32 of an entry's uncompressed bytes: stored (method 0) or deflated (8); false
 * when the data does not inflate to exactly `size` bytes or the method is another. */
bool entry_crc(const unsigned char *data, uint64_t csize, uint64_t size, uint32_t method,
               uint32_t *crc)
{
    if (method == 0) {
        if (csize != size) return false;
        uLong c = crc32(0L, Z_NULL, 0);
        for (uint64_t done = 0; done < size;) {
            uInt n = (uInt)std::min<uint64_t>(size - done, 1u << 30);
            c = crc32(c, data + done, n);
            done += n;
        }
        *crc = (uint32_t)c;
        return true;
    }
    if (method != 8 || csize > (1u << 30) || size > (1u << 30)) return false;
    std::vector<unsigned char> out(size + 1);
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return false;
    z.next_in = const_cast<unsigned char *>(data);
    z.avail_in = (uInt)csize;
    z.next_out = out.data();
    z.avail_out = (uInt)out.size();
    int rc = inflate(&z, Z_FINISH);
    bool ok = rc == Z_STREAM_END && z.total_out == size;
    inflateEnd(&z);
    if (ok) *crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), out.data(), (uInt)size);
    return ok;
}

/* Whether the zip archive in buf[n] is whole: every entry of the central directory has a
 * local header that agrees with it (version, flags, method, time, name), its data inside the file
 * with the CRC-32 the directory gives, and the same CRC in its data descriptor when it has one.
 * libtorch's reader checks none of this (its zip library is built without CRC checks), so
 * a changed byte in a weight or a header would otherwise load as a different net. On
 * failure *why says what is wrong. */
bool zip_whole(const unsigned char *buf, uint64_t n, std::string *why)
{
    auto fail = [why](const std::string &what) {
        *why = what;
        return false;
    };
    /* the smallest archive with one entry: its local header, directory record and end */
    if (n < 30 + 46 + 22) return fail("too short");
    int64_t eocd = -1;
    for (int64_t at = (int64_t)n - 22; at >= 0 && at >= (int64_t)n - 22 - 65535; at--)
        if (le32(buf + at) == 0x06054b50u) {
            eocd = at;
            break;
        }
    if (eocd < 0) return fail("no end of central directory");
    uint64_t entries = le16(buf + eocd + 10), cd = le32(buf + eocd + 16);
    if (entries == 0xffffu || cd == 0xffffffffu) { /* zip64: the locator just before it */
        if (eocd < 20 || le32(buf + eocd - 20) != 0x07064b50u) return fail("bad zip64 locator");
        uint64_t rec = le64(buf + eocd - 12);
        if (rec > n - 56 || le32(buf + rec) != 0x06064b50u) return fail("bad zip64 end");
        entries = le64(buf + rec + 32);
        cd = le64(buf + rec + 48);
    }
    if (entries == 0) return fail("no entries");
    for (uint64_t i = 0, at = cd; i < entries; i++) {
        if (at > n - 46 || le32(buf + at) != 0x02014b50u) return fail("bad central directory");
        uint32_t flags = le16(buf + at + 8), method = le16(buf + at + 10),
                 crc = le32(buf + at + 16);
        uint64_t csize = le32(buf + at + 20), size = le32(buf + at + 24);
        uint32_t nlen = le16(buf + at + 28), xlen = le16(buf + at + 30), clen = le16(buf + at + 32);
        uint64_t local = le32(buf + at + 42);
        const unsigned char *name = buf + at + 46, *x = name + nlen, *xend = x + xlen;
        if (at + 46 + nlen + xlen + clen > n) return fail("bad central directory");
        std::string entry((const char *)name, nlen);
        for (; x + 4 <= xend; x += 4 + le16(x + 2)) { /* zip64 sizes and offset */
            if (le16(x) != 0x0001u) continue;
            const unsigned char *f = x + 4, *fend = f + le16(x + 2);
            if (size == 0xffffffffu && f + 8 <= fend) size = le64(f), f += 8;
            if (csize == 0xffffffffu && f + 8 <= fend) csize = le64(f), f += 8;
            if (local == 0xffffffffu && f + 8 <= fend) local = le64(f);
        }
        if (local > n - 30 || nlen > n - 30 - local || le32(buf + local) != 0x04034b50u ||
            memcmp(buf + local + 4, buf + at + 6, 10) != 0 || /* version, flags, method, time */
            le16(buf + local + 26) != nlen || memcmp(buf + local + 30, name, nlen) != 0)
            return fail("entry " + entry + ": local header differs from the directory");
        uint64_t data = local + 30 + nlen + le16(buf + local + 28);
        uint32_t have = 0;
        if (data > n || csize > n - data || !entry_crc(buf + data, csize, size, method, &have) ||
            have != crc)
            return fail("entry " + entry + ": CRC-32 mismatch");
        uint64_t desc = data + csize;
        if (flags & 8u) { /* a data descriptor: optional signature, then the CRC again */
            if (desc + 4 <= n && le32(buf + desc) == 0x08074b50u) desc += 4;
            if (desc + 4 > n || le32(buf + desc) != crc)
                return fail("entry " + entry + ": data descriptor differs");
        }
        at += 46 + nlen + xlen + clen;
    }
    return true;
}

/* Read `path` whole into buf and check it with zip_whole; HOYLE_EIO naming the file
 * otherwise. The caller loads the checked bytes, not the file again (which could have
 * changed in between). */
int read_zip_file(const char *path, std::vector<char> &buf)
{
    FILE *f = fopen(path, "rb");
    if (!f) return hoyle_error(HOYLE_EIO, "tch_load: %s: %s", path, strerror(errno));
    buf.clear();
    char chunk[1 << 16];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) buf.insert(buf.end(), chunk, chunk + got);
    bool err = ferror(f) != 0;
    fclose(f);
    if (err) return hoyle_error(HOYLE_EIO, "tch_load: %s: read error", path);
    std::string why;
    if (buf.size() < 22 ||
        !zip_whole(reinterpret_cast<const unsigned char *>(buf.data()), buf.size(), &why))
        return hoyle_error(HOYLE_EIO, "tch_load: %s: damaged or not a checkpoint (%s)", path,
                           buf.size() < 22 ? "too short" : why.c_str());
    return HOYLE_OK;
}

/* The net config as int64[8], in tch_net_config_t order (docs/tch.md, "File format"). */
at::Tensor config_tensor(const tch_net_config_t &c)
{
    return torch::tensor({(int64_t)c.in_channels, (int64_t)c.height, (int64_t)c.width,
                          (int64_t)c.num_actions, (int64_t)c.num_values, (int64_t)c.blocks,
                          (int64_t)c.filters, (int64_t)c.value_hidden},
                         torch::kInt64);
}

/* The head and trunk kinds as int64[5] ("net_heads", in tch_net_config_t order), written only
 * when one is not 0: a file without it holds today's default layout, as every older one does. */
at::Tensor heads_tensor(const tch_net_config_t &c)
{
    return torch::tensor({(int64_t)c.policy_head, (int64_t)c.policy_planes, (int64_t)c.policy_lead,
                          (int64_t)c.value_head, (int64_t)c.trunk},
                         torch::kInt64);
}

bool has_heads(const tch_net_config_t &c)
{
    return c.policy_head || c.policy_planes || c.policy_lead || c.value_head || c.trunk;
}

/* The optimiser config as float64[16], in tch_opt_config_t order; the ints are exact as
 * doubles. One tensor rather than 16 entries keeps the archive's key list short. Files written
 * before AdamW hold the first 15 (weight_decay was always 0). */
at::Tensor opt_config_tensor(const tch_opt_config_t &c)
{
    return torch::tensor({(double)c.kind, c.lr, c.momentum, (double)c.nesterov, c.beta1, c.beta2,
                          c.eps, c.l2, c.value_weight, (double)c.schedule, (double)c.step_size,
                          c.gamma, (double)c.total_steps, c.lr_min, (double)c.warmup_steps,
                          c.weight_decay},
                         torch::kFloat64);
}

/* Decode a stored optimiser config; false when the tensor has the wrong shape. */
bool opt_config_from(const at::Tensor &t, tch_opt_config_t *c)
{
    if (t.scalar_type() != torch::kFloat64 || t.dim() != 1 || (t.size(0) != 15 && t.size(0) != 16))
        return false;
    at::Tensor v = t.contiguous();
    const double *d = v.data_ptr<double>();
    const int len = (int)t.size(0);
    for (int i = 0; i < len; i++)
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
    c->weight_decay = len > 15 ? d[15] : 0.0;
    return true;
}

/* The key torch::optim uses for a parameter's state (see torch/optim/serialize.h). */
std::string state_key(const at::Tensor &p) { return c10::guts::to_string(p.unsafeGetTensorImpl()); }

/* The optimiser's parameters in order: param_groups() in order, each group's params(). */
std::vector<at::Tensor> opt_params(const torch::optim::Optimizer &o)
{
    std::vector<at::Tensor> v;
    for (const auto &g : o.param_groups())
        for (const auto &p : g.params()) v.push_back(p);
    return v;
}

/* Write the optimiser state as "opt/state/size" (int64[1], the parameter count) and, for
 * each parameter i that has state, "opt/state/<i>/<field>": Adam's and AdamW's step (int64[1]),
 * exp_avg, exp_avg_sq and max_exp_avg_sq (when amsgrad made one); SGD's momentum_buffer. */
void write_opt_state(torch::serialize::OutputArchive &ar, const tch_opt &opt)
{
    const torch::optim::Optimizer &o = *opt.opt;
    std::vector<at::Tensor> params = opt_params(o);
    ar.write("opt/state/size", torch::tensor({(int64_t)params.size()}, torch::kInt64), true);
    const auto &state = o.state();
    for (size_t i = 0; i < params.size(); i++) {
        auto it = state.find(state_key(params[i]));
        if (it == state.end()) continue;
        const std::string pre = "opt/state/" + std::to_string(i) + "/";
        auto put = [&](const char *name, const at::Tensor &t) {
            if (t.defined()) ar.write(pre + name, t.detach().clone(), true);
        };
        auto put_adam = [&](const auto &s) {
            ar.write(pre + "step", torch::tensor({(int64_t)s.step()}, torch::kInt64), true);
            put("exp_avg", s.exp_avg());
            put("exp_avg_sq", s.exp_avg_sq());
            put("max_exp_avg_sq", s.max_exp_avg_sq());
        };
        if (opt.cfg.kind == TCH_OPT_ADAM) {
            put_adam(static_cast<const torch::optim::AdamParamState &>(*it->second));
        } else if (opt.cfg.kind == TCH_OPT_ADAMW) {
            put_adam(static_cast<const torch::optim::AdamWParamState &>(*it->second));
        } else {
            const auto &s = static_cast<const torch::optim::SGDParamState &>(*it->second);
            put("momentum_buffer", s.momentum_buffer());
        }
    }
}

/* Rebuild the state written by write_opt_state for the fresh optimiser `opt`; false when an
 * entry is missing, of the wrong type or shape, or the parameter count differs. */
bool read_opt_state(torch::serialize::InputArchive &ar, tch_opt &opt)
{
    torch::optim::Optimizer &o = *opt.opt;
    std::vector<at::Tensor> params = opt_params(o);
    at::Tensor size;
    if (!ar.try_read("opt/state/size", size, true) || size.scalar_type() != torch::kInt64 ||
        size.numel() != 1 || size.item<int64_t>() != (int64_t)params.size())
        return false;
    auto &state = o.state();
    for (size_t i = 0; i < params.size(); i++) {
        const std::string pre = "opt/state/" + std::to_string(i) + "/";
        const at::Tensor &p = params[i];
        /* true: present and shaped like the parameter; false: absent; throws nothing */
        auto get = [&](const char *name, at::Tensor &t, bool *bad) {
            if (!ar.try_read(pre + name, t, true)) return false;
            if (t.scalar_type() != p.scalar_type() || t.sizes() != p.sizes()) *bad = true;
            return true;
        };
        bool bad = false;
        if (opt.cfg.kind == TCH_OPT_ADAM || opt.cfg.kind == TCH_OPT_ADAMW) {
            at::Tensor step, m, v, vmax;
            if (!ar.try_read(pre + "step", step, true)) continue; /* no state yet */
            if (step.scalar_type() != torch::kInt64 || step.numel() != 1 ||
                step.item<int64_t>() < 0 || !get("exp_avg", m, &bad) || !get("exp_avg_sq", v, &bad))
                return false;
            bool has_max = get("max_exp_avg_sq", vmax, &bad);
            if (bad) return false;
            auto fill = [&](auto s) {
                s->step(step.item<int64_t>());
                s->exp_avg(m);
                s->exp_avg_sq(v);
                if (has_max) s->max_exp_avg_sq(vmax);
                state[state_key(p)] = std::move(s);
            };
            if (opt.cfg.kind == TCH_OPT_ADAM)
                fill(std::make_unique<torch::optim::AdamParamState>());
            else
                fill(std::make_unique<torch::optim::AdamWParamState>());
        } else {
            at::Tensor buf;
            if (!get("momentum_buffer", buf, &bad)) continue;
            if (bad) return false;
            auto s = std::make_unique<torch::optim::SGDParamState>();
            s->momentum_buffer(buf);
            state[state_key(p)] = std::move(s);
        }
    }
    return true;
}

} // namespace

} // namespace tch_impl

using namespace tch_impl;

/* ======================= the C API: files ======================= */

extern "C" {

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
            /* clones: the archive must not alias tensors that later training steps change */
            ar.write("hoyle_format", c10::IValue(std::string(kFormat)));
            ar.write("net_config", config_tensor(net->cfg));
            if (has_heads(net->cfg)) ar.write("net_heads", heads_tensor(net->cfg));
            for (const auto &p : net->module.named_parameters(false))
                ar.write("param_" + p.name, p.value.detach().clone());
            for (const auto &b : net->module.named_buffers(false))
                ar.write("buffer_" + b.name, b.value.detach().clone(), true);
            if (opt) {
                ar.write("opt_config", opt_config_tensor(opt->cfg));
                ar.write("opt_steps", torch::tensor({(int64_t)opt->steps}, torch::kInt64));
                write_opt_state(ar, *opt);
            }
            /* Through a callback, not save_to(path): libtorch names the archive's folder
             * after the file it writes (here the temporary), the callback gets "archive". */
            int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
            if (fd < 0) {
                int err = errno;
                return hoyle_error(HOYLE_EIO, "tch_save: %s: %s", tmp.c_str(), strerror(err));
            }
            int werr = 0;
            try {
                ar.save_to([&](const void *buf, size_t n) -> size_t {
                    const char *p = (const char *)buf;
                    size_t done = 0;
                    while (done < n) {
                        ssize_t w = write(fd, p + done, n - done);
                        if (w < 0 && errno == EINTR) continue;
                        if (w <= 0) {
                            werr = w < 0 ? errno : EIO;
                            break;
                        }
                        done += (size_t)w;
                    }
                    return done;
                });
            } catch (...) {
                close(fd);
                if (!werr) throw;
            }
            if (!werr && close(fd) != 0) werr = errno;
            if (werr) {
                unlink(tmp.c_str());
                return hoyle_error(HOYLE_EIO, "tch_save: %s: write: %s", path, strerror(werr));
            }
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
    /* libtorch's message for a missing file is long and vague, and its reader checks no
     * CRC: check the file ourselves first */
    std::vector<char> bytes;
    if (int status = read_zip_file(path, bytes)) return status;
    try {
        torch::NoGradGuard no_grad;
        torch::serialize::InputArchive ar;
        ar.load_from(bytes.data(), bytes.size());
        c10::IValue fmt;
        if (!ar.try_read("hoyle_format", fmt) || !fmt.isString() || fmt.toStringRef() != kFormat)
            return hoyle_error(HOYLE_EIO, "tch_load: %s: not a %s checkpoint", path, kFormat);
        at::Tensor ct;
        if (!ar.try_read("net_config", ct) || ct.scalar_type() != torch::kInt64 || ct.dim() != 1 ||
            ct.size(0) != 8)
            return hoyle_error(HOYLE_EIO, "tch_load: %s: bad net_config entry", path);
        ct = ct.contiguous();
        const int64_t *c = ct.data_ptr<int64_t>();
        for (int i = 0; i < 8; i++) /* the int casts below must be safe; ranges come next */
            if (c[i] < 0 || c[i] > 100000000)
                return hoyle_error(HOYLE_EIO, "tch_load: %s: bad net_config entry", path);
        tch_net_config_t cfg = {(int)c[0], (int)c[1], (int)c[2], (int)c[3], (int)c[4],
                                (int)c[5], (int)c[6], (int)c[7], 0,         0,
                                0,         0,         0};
        at::Tensor ht; /* absent: the default heads and trunk (all 0) */
        if (ar.try_read("net_heads", ht)) {
            if (ht.scalar_type() != torch::kInt64 || ht.dim() != 1 || ht.size(0) != 5)
                return hoyle_error(HOYLE_EIO, "tch_load: %s: bad net_heads entry", path);
            ht = ht.contiguous();
            const int64_t *h = ht.data_ptr<int64_t>();
            for (int i = 0; i < 5; i++)
                if (h[i] < 0 || h[i] > 100000000)
                    return hoyle_error(HOYLE_EIO, "tch_load: %s: bad net_heads entry", path);
            cfg.policy_head = (int)h[0];
            cfg.policy_planes = (int)h[1];
            cfg.policy_lead = (int)h[2];
            cfg.value_head = (int)h[3];
            cfg.trunk = (int)h[4];
        }
        if (validate_net_config(&cfg)) return hoyle_error_prefix(HOYLE_EIO, "tch_load: %s", path);
        /* Rebuild the same module from the config (seed 0: every weight is overwritten), then
         * copy each tensor in, checked against the shape the config implies. */
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

        /* The optimiser, when asked for and present: a fresh one over the new net's tensors,
         * then its saved state (momenta, Adam moments) loaded in parameter order. */
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
            /* files written before the per-index layout hold torch::optim's own archive */
            torch::serialize::InputArchive state;
            if (ar.try_read("opt_state", state))
                opt->opt->load(state);
            else if (!read_opt_state(ar, *opt))
                return hoyle_error(HOYLE_EIO, "tch_load: %s: optimiser state missing or bad", path);
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
