/* samples.c — sample arrays and HDF5 shard files (samples.h).
 * Invariant: a shard at its final path is complete; it is only ever created
 * by renaming a fully written, fsync'ed PATH.tmp. */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/h5attr.h"
#include "train/samples.h"

/* HDF5 chunk height: big enough for deflate to pay off, small enough that reading a few
 * rows (h5py, notebooks) does not inflate a whole shard. */
#define SHARD_CHUNK_ROWS 256

void sample_set_init(sample_set_t *s, const int obs_shape[3], int num_actions)
{
    memset(s, 0, sizeof *s);
    memcpy(s->obs_shape, obs_shape, sizeof s->obs_shape);
    s->obs_size = obs_shape[0] * obs_shape[1] * obs_shape[2];
    s->num_actions = num_actions;
}

void sample_set_done(sample_set_t *s)
{
    free(s->obs);
    free(s->policy);
    free(s->legal);
    free(s->value);
    free(s->game_id);
    free(s->move);
    free(s->flags);
    memset(s, 0, sizeof *s);
}

void sample_set_clear(sample_set_t *s) { s->n = 0; }

/* realloc *p to cap items; on failure *p is unchanged (still valid, still owned). */
static int grow(void **p, int64_t cap, size_t item)
{
    void *q = realloc(*p, (size_t)cap * item);
    if (q == NULL) return -1;
    *p = q;
    return 0;
}

/* Capacity for `need` rows in every column. Doubling keeps pushes amortised O(1); cap is
 * raised only when all seven columns grew, so a failure leaves a consistent (larger) set. */
static int reserve(sample_set_t *s, int64_t need)
{
    if (need <= s->cap) return HOYLE_OK;
    int64_t cap = s->cap ? s->cap : 256;
    while (cap < need) cap *= 2;
    size_t A = (size_t)s->num_actions;
    if (grow((void **)&s->obs, cap, sizeof(float) * (size_t)s->obs_size) ||
        grow((void **)&s->policy, cap, sizeof(float) * A) || grow((void **)&s->legal, cap, A) ||
        grow((void **)&s->value, cap, sizeof(float)) ||
        grow((void **)&s->game_id, cap, sizeof(int64_t)) ||
        grow((void **)&s->move, cap, sizeof(int32_t)) || grow((void **)&s->flags, cap, 1))
        return hoyle_error(HOYLE_ENOMEM, "samples: out of memory (%lld samples)", (long long)cap);
    s->cap = cap;
    return HOYLE_OK;
}

int64_t sample_set_push(sample_set_t *s)
{
    int status = reserve(s, s->n + 1);
    if (status) return status;
    int64_t i = s->n++;
    size_t A = (size_t)s->num_actions;
    /* a new row starts all zero: callers fill only what they know (e.g. legal actions) */
    memset(s->obs + i * s->obs_size, 0, sizeof(float) * (size_t)s->obs_size);
    memset(s->policy + (size_t)i * A, 0, sizeof(float) * A);
    memset(s->legal + (size_t)i * A, 0, A);
    s->value[i] = 0;
    s->game_id[i] = 0;
    s->move[i] = 0;
    s->flags[i] = 0;
    return i;
}

int sample_set_append(sample_set_t *s, const sample_set_t *src, int64_t from, int64_t count)
{
    if (src->obs_size != s->obs_size || src->num_actions != s->num_actions)
        return hoyle_error(HOYLE_EINVAL, "samples: shapes differ");
    if (count <= 0) return HOYLE_OK; /* nothing to copy (an empty set has no arrays yet) */
    int status = reserve(s, s->n + count);
    if (status) return status;
    size_t A = (size_t)s->num_actions, O = (size_t)s->obs_size, n = (size_t)s->n;
    size_t f = (size_t)from, c = (size_t)count;
    memcpy(s->obs + n * O, src->obs + f * O, sizeof(float) * O * c);
    memcpy(s->policy + n * A, src->policy + f * A, sizeof(float) * A * c);
    memcpy(s->legal + n * A, src->legal + f * A, A * c);
    memcpy(s->value + n, src->value + f, sizeof(float) * c);
    memcpy(s->game_id + n, src->game_id + f, sizeof(int64_t) * c);
    memcpy(s->move + n, src->move + f, sizeof(int32_t) * c);
    memcpy(s->flags + n, src->flags + f, c);
    s->n += count;
    return HOYLE_OK;
}

/* ---- writing ---- */

/* An int64 attribute: a scalar when n == 0, else a vector of n (-1 on an HDF5 error). */
static int put_ints(hid_t loc, const char *name, const int64_t *v, hsize_t n)
{
    hid_t sp = n == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate2(loc, name, H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, H5T_NATIVE_INT64, v);
    if (a >= 0) H5Aclose(a);
    H5Sclose(sp);
    return rc < 0 ? -1 : 0;
}

/* An N x dims... dataset, unlimited along N, chunked by SHARD_CHUNK_ROWS rows,
 * shuffle + deflate(4), filled from `data` (N rows). */
static int put_dset(hid_t fid, const char *name, hid_t file_type, hid_t mem_type, int rank,
                    const hsize_t *dims, const void *data)
{
    hsize_t maxdims[4], chunk[4];
    for (int k = 0; k < rank; k++) {
        maxdims[k] = k == 0 ? H5S_UNLIMITED : dims[k];
        chunk[k] = k == 0 ? SHARD_CHUNK_ROWS : dims[k];
    }
    hid_t sp = H5Screate_simple(rank, dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, rank, chunk);
    H5Pset_shuffle(dcpl);
    H5Pset_deflate(dcpl, 4);
    hid_t d = H5Dcreate2(fid, name, file_type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    herr_t rc = d < 0 ? -1 : 0;
    if (d >= 0 && dims[0] > 0) rc = H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    if (d >= 0) H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return rc < 0 ? -1 : 0;
}

/* The whole shard (attributes then datasets, docs/formats.md) into `path`; -1 on any HDF5
 * error. Errors are collected with |= so every handle is still closed. */
static int write_file(const char *path, const sample_set_t *s, const samples_meta_t *m)
{
    hid_t fid = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (fid < 0) return -1;
    hsize_t n = (hsize_t)s->n, A = (hsize_t)s->num_actions;
    hsize_t obs_dims[4] = {n, (hsize_t)s->obs_shape[0], (hsize_t)s->obs_shape[1],
                           (hsize_t)s->obs_shape[2]};
    hsize_t pol_dims[2] = {n, A};
    int64_t version = SAMPLES_SCHEMA_VERSION,
            shape[3] = {s->obs_shape[0], s->obs_shape[1], s->obs_shape[2]};
    int64_t actions = s->num_actions, created = (int64_t)time(NULL);
    int rc = 0;
    rc |= h5_attr_put_str(fid, "hoyle_schema", SAMPLES_SCHEMA_NAME);
    rc |= put_ints(fid, "hoyle_schema_version", &version, 0);
    rc |= h5_attr_put_str(fid, "program_version", HOYLE_VERSION);
    rc |= h5_attr_put_str(fid, "game", m ? m->game_spec : "");
    rc |= h5_attr_put_str(fid, "params", m ? m->params : "");
    rc |= h5_attr_put_str(fid, "network_id", m ? m->network_id : "");
    rc |= h5_attr_put_str(fid, "config", m ? m->config : "");
    rc |= put_ints(fid, "generation", m ? &m->generation : &(int64_t){0}, 0);
    rc |= put_ints(fid, "games", m ? &m->games : &(int64_t){0}, 0);
    rc |= put_ints(fid, "obs_shape", shape, 3);
    rc |= put_ints(fid, "num_actions", &actions, 0);
    rc |= put_ints(fid, "created_unix", &created, 0);
    if (m && m->stats) rc |= h5_attr_put_str(fid, "selfplay_stats", m->stats);
    rc |= put_dset(fid, "obs", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 4, obs_dims, s->obs);
    rc |= put_dset(fid, "policy", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 2, pol_dims, s->policy);
    rc |= put_dset(fid, "legal", H5T_STD_U8LE, H5T_NATIVE_UINT8, 2, pol_dims, s->legal);
    rc |= put_dset(fid, "value", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 1, &n, s->value);
    rc |= put_dset(fid, "game_id", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, &n, s->game_id);
    rc |= put_dset(fid, "move", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, &n, s->move);
    rc |= put_dset(fid, "flags", H5T_STD_U8LE, H5T_NATIVE_UINT8, 1, &n, s->flags);
    if (H5Fclose(fid) < 0) rc = -1;
    return rc;
}

/* Write PATH.tmp, fsync it, then put it in place: rename() replaces an existing file,
 * link() (replace = 0) refuses to, so a file that appeared since the caller's check is
 * not lost either. */
static int write_shard(const char *path, const sample_set_t *s, const samples_meta_t *meta,
                       int replace)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return hoyle_error(HOYLE_EINVAL, "shard '%s': path too long", path);
    unlink(tmp); /* a stale temporary from a killed run */
    int rc;
    /* HDF5 prints its error stack to stderr by default; our message replaces it */
    H5E_BEGIN_TRY { rc = write_file(tmp, s, meta); }
    H5E_END_TRY;
    if (rc) {
        unlink(tmp);
        return hoyle_error(HOYLE_EIO, "shard '%s': cannot write (HDF5 error)", tmp);
    }
    int fd = open(tmp, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        if (fd >= 0) close(fd);
        unlink(tmp);
        return hoyle_error(HOYLE_EIO, "shard '%s': fsync: %s", tmp, strerror(errno));
    }
    close(fd);
    if (!replace) {
        int e = link(tmp, path) == 0 ? 0 : errno;
        /* no hard links on this file system: check, then rename (as h5rec_create does) */
        if ((e == EPERM || e == ENOTSUP || e == EOPNOTSUPP) && access(path, F_OK) != 0)
            e = rename(tmp, path) == 0 ? 0 : errno;
        unlink(tmp); /* linked: the second name goes; renamed: already gone */
        if (e == EEXIST) return hoyle_error(HOYLE_EIO, "shard '%s': the file already exists", path);
        if (e) return hoyle_error(HOYLE_EIO, "shard '%s': cannot create: %s", path, strerror(e));
        return HOYLE_OK;
    }
    if (rename(tmp, path) != 0) {
        unlink(tmp);
        return hoyle_error(HOYLE_EIO, "shard '%s': rename: %s", path, strerror(errno));
    }
    return HOYLE_OK;
}

int samples_write_shard(const char *path, const sample_set_t *s, const samples_meta_t *meta)
{
    return write_shard(path, s, meta, 1);
}

int samples_create_shard(const char *path, const sample_set_t *s, const samples_meta_t *meta)
{
    return write_shard(path, s, meta, 0);
}

/* ---- reading ---- */

/* Read an int64 attribute of exactly `count` values (a scalar counts as 1). */
static int get_int(hid_t loc, const char *name, int64_t *out, int count)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) return -1;
    hid_t sp = H5Aget_space(a);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    herr_t rc = n == count ? H5Aread(a, H5T_NATIVE_INT64, out) : -1;
    H5Sclose(sp);
    H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

static int get_schema(hid_t fid)
{
    char *v = NULL;
    if (h5_attr_get_str(fid, "hoyle_schema", &v) < 0) return -1;
    int ok = strcmp(v, SAMPLES_SCHEMA_NAME) == 0 ? 0 : -1;
    free(v);
    return ok;
}

/* Read a whole dataset of n rows into dst; -1 when it is missing or has another row count
 * (the row width is fixed by the shapes read_file already checked). */
static int read_dset(hid_t fid, const char *name, hid_t mem_type, int64_t n, void *dst)
{
    hid_t d = H5Dopen2(fid, name, H5P_DEFAULT);
    if (d < 0) return -1;
    hid_t sp = H5Dget_space(d);
    hsize_t dims[4] = {0};
    int rank = H5Sget_simple_extent_ndims(sp);
    herr_t rc = rank >= 1 && rank <= 4 ? 0 : -1;
    if (rc == 0) H5Sget_simple_extent_dims(sp, dims, NULL);
    if (rc == 0 && (int64_t)dims[0] != n) rc = -1;
    if (rc == 0 && n > 0) rc = H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, dst);
    H5Sclose(sp);
    H5Dclose(d);
    return rc < 0 ? -1 : 0;
}

/* Append the rows of one shard to s. Rows are read in place past s->n and counted only once
 * every dataset was read, so a damaged shard leaves s->n as it was. */
static int read_file(const char *path, sample_set_t *s, int64_t *games_out)
{
    hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (fid < 0) return hoyle_error(HOYLE_EIO, "shard '%s': not an HDF5 file", path);
    int64_t version = 0, shape[3] = {0}, actions = 0, games = 0;
    int rc = HOYLE_OK;
    if (get_schema(fid) || get_int(fid, "hoyle_schema_version", &version, 1) ||
        version != SAMPLES_SCHEMA_VERSION || get_int(fid, "obs_shape", shape, 3) ||
        get_int(fid, "num_actions", &actions, 1) || get_int(fid, "games", &games, 1))
        rc = hoyle_error(HOYLE_EIO, "shard '%s': not a %s v%d file", path, SAMPLES_SCHEMA_NAME,
                         SAMPLES_SCHEMA_VERSION);
    else if (shape[0] != s->obs_shape[0] || shape[1] != s->obs_shape[1] ||
             shape[2] != s->obs_shape[2] || actions != s->num_actions)
        rc = hoyle_error(HOYLE_EINVAL,
                         "shard '%s': shapes [%lld,%lld,%lld]/%lld differ from the "
                         "game's",
                         path, (long long)shape[0], (long long)shape[1], (long long)shape[2],
                         (long long)actions);
    int64_t n = 0;
    if (rc == HOYLE_OK) { /* the row count, from the smallest dataset */
        hid_t d = H5Dopen2(fid, "value", H5P_DEFAULT);
        hsize_t dim = 0;
        if (d >= 0) {
            hid_t sp = H5Dget_space(d);
            H5Sget_simple_extent_dims(sp, &dim, NULL);
            H5Sclose(sp);
            H5Dclose(d);
        }
        n = (int64_t)dim;
        if (d < 0) rc = hoyle_error(HOYLE_EIO, "shard '%s': no dataset 'value'", path);
    }
    if (rc == HOYLE_OK) rc = reserve(s, s->n + n);
    if (rc == HOYLE_OK) {
        size_t at = (size_t)s->n, A = (size_t)s->num_actions, O = (size_t)s->obs_size;
        if (read_dset(fid, "obs", H5T_NATIVE_FLOAT, n, s->obs + at * O) ||
            read_dset(fid, "policy", H5T_NATIVE_FLOAT, n, s->policy + at * A) ||
            read_dset(fid, "legal", H5T_NATIVE_UINT8, n, s->legal + at * A) ||
            read_dset(fid, "value", H5T_NATIVE_FLOAT, n, s->value + at) ||
            read_dset(fid, "game_id", H5T_NATIVE_INT64, n, s->game_id + at) ||
            read_dset(fid, "move", H5T_NATIVE_INT32, n, s->move + at))
            rc = hoyle_error(HOYLE_EIO, "shard '%s': a dataset is missing or damaged", path);
        else if (H5Lexists(fid, "flags", H5P_DEFAULT) <= 0) /* written before flags existed */
            memset(s->flags + at, 0, (size_t)n);
        else if (read_dset(fid, "flags", H5T_NATIVE_UINT8, n, s->flags + at))
            rc = hoyle_error(HOYLE_EIO, "shard '%s': dataset 'flags' is damaged", path);
        if (rc == HOYLE_OK) s->n += n;
    }
    H5Fclose(fid);
    if (rc == HOYLE_OK && games_out) *games_out = games;
    return rc;
}

int samples_read_shard(const char *path, sample_set_t *s, int64_t *games_out)
{
    /* HDF5 cannot say "no such file"; errno can */
    if (access(path, R_OK) != 0)
        return hoyle_error(HOYLE_EIO, "shard '%s': %s", path, strerror(errno));
    int rc;
    H5E_BEGIN_TRY { rc = read_file(path, s, games_out); }
    H5E_END_TRY;
    return rc;
}

/* Row and game counts from the attributes and one dataset's extent, without reading data
 * (replay_load_dir sizes the window with it before loading anything). */
static int info_file(const char *path, int64_t *n, int64_t *games)
{
    hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (fid < 0) return -1;
    int rc = get_schema(fid) || get_int(fid, "games", games, 1) ? -1 : 0;
    hid_t d = rc ? -1 : H5Dopen2(fid, "value", H5P_DEFAULT);
    if (d >= 0) {
        hid_t sp = H5Dget_space(d);
        hsize_t dim = 0;
        H5Sget_simple_extent_dims(sp, &dim, NULL);
        *n = (int64_t)dim;
        H5Sclose(sp);
        H5Dclose(d);
    } else {
        rc = -1;
    }
    H5Fclose(fid);
    return rc;
}

int samples_shard_info(const char *path, int64_t *n, int64_t *games)
{
    int rc;
    H5E_BEGIN_TRY { rc = info_file(path, n, games); }
    H5E_END_TRY;
    if (rc)
        return hoyle_error(HOYLE_EIO, "shard '%s': missing or not a %s file", path,
                           SAMPLES_SCHEMA_NAME);
    return HOYLE_OK;
}

int samples_shard_stats(const char *path, char **out)
{
    *out = NULL;
    int rc = 1;
    H5E_BEGIN_TRY
    {
        hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        if (fid < 0)
            rc = -1;
        else if (H5Aexists(fid, "selfplay_stats") > 0)
            rc = h5_attr_get_str(fid, "selfplay_stats", out) < 0 ? -1 : 0;
        if (fid >= 0) H5Fclose(fid);
    }
    H5E_END_TRY;
    if (rc < 0) return hoyle_error(HOYLE_EIO, "shard '%s': cannot read its statistics", path);
    return rc;
}
