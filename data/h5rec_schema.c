/* h5rec_schema.c — the HDF5 layout of a game-record file (docs/formats.md).
 *
 *   /games            compound table, one row per game (row_t below)
 *   /actions          int32, every game's actions back to back
 *   /action_ms        float32, thinking time per action (ms), aligned with /actions
 *   /agents           vlen UTF-8 strings, distinct agent specs (games.agent indexes it)
 *   /openings         compound {name, actions_offset, num_actions}, distinct openings
 *   /opening_actions  int32, the openings' actions back to back
 * Root attributes name the schema, program, config and games. Every dataset
 * is 1-D, chunked and extendible; numeric ones are gzip + shuffle.
 * This file: types, attributes, create and load; h5rec_rows.c appends and
 * reads rows. When and where to write is h5rec.c's job. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "data/h5rec_internal.h"

/* ---- HDF5 error plumbing ---- */

/* Filled by h5s_detail() for the message it is about to build. */
static char detail_buf[256];

/* n == 0 is the innermost frame, where HDF5 says what actually failed; the
 * outer frames only repeat "cannot write dataset" on the way up. Its
 * description only: the function name is HDF5's internals. */
static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)data;
    if (n == 0) snprintf(detail_buf, sizeof detail_buf, "%s", e->desc);
    return 0;
}

/* Why the system would refuse to read `path` (strerror, "Is a directory"),
 * or NULL when it can be opened: then the failure is in the contents. Asked
 * after HDF5 failed, so the message gives the system's reason in one line
 * rather than HDF5's error stack. */
static const char *read_reason(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return strerror(errno);
    if (S_ISDIR(st.st_mode)) return strerror(EISDIR);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return strerror(errno);
    close(fd);
    return NULL;
}

/* The same for creating `path`, which HDF5 could not: a probe create, undone. */
static const char *create_reason(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return strerror(errno);
    close(fd);
    unlink(path);
    return NULL;
}

const char *h5s_detail(void)
{
    detail_buf[0] = '\0';
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk_cb, NULL);
    return detail_buf[0] ? detail_buf : "HDF5 error";
}

/* The auto-printer would dump HDF5's error stack to stderr for conditions we
 * report ourselves, in one line that names the file. */
void h5s_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

/* ---- types ---- */

/* The termination column is an HDF5 enum, so h5py shows the names of
 * record_end_name() rather than bare numbers. */
static hid_t end_type(void)
{
    hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
    for (int i = 0; i < RECORD_END_COUNT; i++) {
        int8_t v = (int8_t)i;
        H5Tenum_insert(t, record_end_name((record_end_t)i), &v);
    }
    return t;
}

/* `packed` = the file type (no padding, smaller on disk); unpacked = the
 * in-memory row_t, which HDF5 converts to and from on each transfer. */
hid_t h5s_row_type(int packed)
{
    hsize_t two = RECORD_MAX_PLAYERS;
    hid_t ai = H5Tarray_create2(H5T_NATIVE_INT32, 1, &two);
    hid_t ad = H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, &two);
    hid_t en = end_type();
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(row_t));
    H5Tinsert(t, "game", HOFFSET(row_t, game), H5T_NATIVE_INT32);
    H5Tinsert(t, "pairing", HOFFSET(row_t, pairing), H5T_NATIVE_INT32);
    H5Tinsert(t, "round", HOFFSET(row_t, round), H5T_NATIVE_INT32);
    H5Tinsert(t, "game_index", HOFFSET(row_t, game_index), H5T_NATIVE_INT32);
    H5Tinsert(t, "agent", HOFFSET(row_t, agent), ai);
    H5Tinsert(t, "opening", HOFFSET(row_t, opening), H5T_NATIVE_INT32);
    H5Tinsert(t, "seed", HOFFSET(row_t, seed), H5T_NATIVE_UINT64);
    H5Tinsert(t, "result", HOFFSET(row_t, result), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "returns", HOFFSET(row_t, returns), ad);
    H5Tinsert(t, "termination", HOFFSET(row_t, end), en);
    H5Tinsert(t, "num_actions", HOFFSET(row_t, num_actions), H5T_NATIVE_INT32);
    H5Tinsert(t, "actions_offset", HOFFSET(row_t, actions_offset), H5T_NATIVE_INT64);
    H5Tclose(ai);
    H5Tclose(ad);
    H5Tclose(en);
    if (packed) H5Tpack(t);
    return t;
}

hid_t h5s_opening_type(int packed)
{
    hid_t s = h5_str_type();
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(opening_row_t));
    H5Tinsert(t, "name", HOFFSET(opening_row_t, name), s);
    H5Tinsert(t, "actions_offset", HOFFSET(opening_row_t, actions_offset), H5T_NATIVE_INT64);
    H5Tinsert(t, "num_actions", HOFFSET(opening_row_t, num_actions), H5T_NATIVE_INT32);
    H5Tclose(s);
    if (packed) H5Tpack(t);
    return t;
}

/* ---- attributes ---- */

/* Little-endian in the file whatever the host, so files move between
 * machines; the memory side is native int. */
static int attr_put_int(hid_t loc, const char *name, int value)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, H5T_NATIVE_INT, &value);
    if (a >= 0) H5Aclose(a);
    H5Sclose(sp);
    return rc < 0 ? -1 : 0;
}

/* The strings as (u32 length, bytes) pairs, so that moving a byte from one
 * string to the next changes the checksum. */
static uint32_t crc_str(uint32_t crc, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    crc = h5rec_crc32(crc, &n, 4);
    return h5rec_crc32(crc, s ? s : "", n);
}

uint32_t h5s_root_crc(const h5rec_t *h)
{
    char id[17];
    snprintf(id, sizeof id, "%016llx", (unsigned long long)h->file_id);
    const char *strs[] = {h->program_version, h->created,     h->config_text,
                          h->config_path,     h->config_hash, id};
    uint32_t crc = 0;
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) crc = crc_str(crc, strs[i]);
    for (int i = 0; i < h->meta.num_games; i++) crc = crc_str(crc, h->game_specs[i]);
    return crc;
}

uint32_t h5s_tables_crc(const h5s_tables_t *t)
{
    uint32_t crc = 0;
    for (int64_t i = 0; i < t->num_agents; i++) crc = crc_str(crc, t->agents[i]);
    for (int64_t i = 0; i < t->num_openings; i++) {
        const opening_row_t *o = &t->openings[i];
        crc = crc_str(crc, o->name);
        crc = h5rec_crc32(crc, &o->actions_offset, 8);
        crc = h5rec_crc32(crc, &o->num_actions, 4);
    }
    return crc;
}

int h5s_attr_put_u32(hid_t loc, const char *name, uint32_t value)
{
    hid_t a;
    if (H5Aexists(loc, name) > 0) {
        a = H5Aopen(loc, name, H5P_DEFAULT);
    } else {
        hid_t sp = H5Screate(H5S_SCALAR);
        a = H5Acreate2(loc, name, H5T_STD_U32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        H5Sclose(sp);
    }
    herr_t rc = a < 0 ? -1 : H5Awrite(a, H5T_NATIVE_UINT32, &value);
    if (a >= 0) H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

int h5s_attr_get_u32(hid_t loc, const char *name, uint32_t *value)
{
    htri_t e = H5Aexists(loc, name);
    if (e == 0) return 0;
    hid_t a = e > 0 ? H5Aopen(loc, name, H5P_DEFAULT) : H5I_INVALID_HID;
    hid_t sp = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    int ok = sp >= 0 && H5Sget_simple_extent_npoints(sp) == 1 &&
             H5Aread(a, H5T_NATIVE_UINT32, value) >= 0;
    if (sp >= 0) H5Sclose(sp);
    if (a >= 0) H5Aclose(a);
    return ok ? 1 : -1;
}

/* ---- datasets ---- */

/* A transfer list with a 64 KiB type-conversion buffer: HDF5's default
 * allocates (and for compounds zeroes) 1 MiB twice per read or write, which
 * dominated the cost of reading one game. */
static hid_t small_dxpl(void)
{
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_buffer(dxpl, 64 * 1024, NULL, NULL);
    return dxpl;
}

/* 1-D, empty, unlimited (extendible needs chunking), chunked by `chunk`
 * elements. Shuffle + deflate for the numeric columns, whose small integers
 * compress well; the string tables are tiny and stay uncompressed. Every
 * dataset carries the Fletcher-32 filter, which HDF5 verifies on each read
 * (docs/formats.md, "Checksums"), but /agents (see make_dset). */
static int make_dset_(hid_t fid, const char *name, hid_t type, hsize_t chunk, int compress,
                      int checksum)
{
    hsize_t zero = 0, unlimited = H5S_UNLIMITED;
    hid_t sp = H5Screate_simple(1, &zero, &unlimited);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    if (compress) {
        H5Pset_shuffle(dcpl);
        H5Pset_deflate(dcpl, 4);
    }
    /* last in the pipeline: the checksum covers the stored (compressed)
     * bytes, so a damaged chunk is refused before it is inflated */
    if (checksum) H5Pset_fletcher32(dcpl);
    hid_t d = H5Dcreate2(fid, name, type, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(sp);
    if (d < 0) return -1;
    H5Dclose(d);
    return 0;
}

static int make_dset(hid_t fid, const char *name, hid_t type, hsize_t chunk, int compress)
{
    /* HDF5 refuses any filter on a dataset of variable-length strings
     * (/agents): tables_crc32 covers those strings instead */
    int vlen_str = H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0;
    return make_dset_(fid, name, type, chunk, compress, !vlen_str);
}

/* Element count of a 1-D dataset; -1 when it is missing or not 1-D. */
int64_t h5s_dset_len(hid_t fid, const char *name)
{
    hid_t d = H5Dopen2(fid, name, H5P_DEFAULT);
    if (d < 0) return -1;
    hid_t sp = H5Dget_space(d);
    hsize_t n = 0;
    int nd = H5Sget_simple_extent_ndims(sp);
    if (nd == 1) H5Sget_simple_extent_dims(sp, &n, NULL);
    H5Sclose(sp);
    H5Dclose(d);
    return nd == 1 ? (int64_t)n : -1;
}

/* Append n elements of `memtype` at the end of 1-D dataset `name`. */
int h5s_dset_append(hid_t fid, const char *name, hid_t memtype, hsize_t n, const void *data)
{
    if (n == 0) return 0;
    hid_t d = H5Dopen2(fid, name, H5P_DEFAULT);
    if (d < 0) return -1;
    hid_t sp = H5Dget_space(d);
    hsize_t cur = 0;
    H5Sget_simple_extent_dims(sp, &cur, NULL);
    H5Sclose(sp);
    hsize_t total = cur + n;
    int rc = -1;
    if (H5Dset_extent(d, &total) >= 0) {
        hid_t fsp = H5Dget_space(d), msp = H5Screate_simple(1, &n, NULL);
        H5Sselect_hyperslab(fsp, H5S_SELECT_SET, &cur, NULL, &n, NULL);
        hid_t dxpl = small_dxpl();
        rc = H5Dwrite(d, memtype, msp, fsp, dxpl, data) < 0 ? -1 : 0;
        H5Pclose(dxpl);
        H5Sclose(msp);
        H5Sclose(fsp);
    }
    H5Dclose(d);
    return rc;
}

/* Read n elements starting at `start` of 1-D dataset `name` into buf. */
int h5s_dset_read_id(hid_t d, hid_t memtype, hsize_t start, hsize_t n, void *buf)
{
    if (n == 0) return 0;
    hid_t fsp = H5Dget_space(d), msp = H5Screate_simple(1, &n, NULL);
    int rc = -1;
    if (H5Sselect_hyperslab(fsp, H5S_SELECT_SET, &start, NULL, &n, NULL) >= 0) {
        hid_t dxpl = small_dxpl();
        rc = H5Dread(d, memtype, msp, fsp, dxpl, buf) < 0 ? -1 : 0;
        H5Pclose(dxpl);
    }
    H5Sclose(msp);
    H5Sclose(fsp);
    return rc;
}

int h5s_dset_read(hid_t fid, const char *name, hid_t memtype, hsize_t start, hsize_t n, void *buf)
{
    if (n == 0) return 0;
    hid_t d = H5Dopen2(fid, name, H5P_DEFAULT);
    if (d < 0) return -1;
    int rc = h5s_dset_read_id(d, memtype, start, n, buf);
    H5Dclose(d);
    return rc;
}

/* ---- create / load ---- */

/* The schema name and version are what a reader checks first (load_meta);
 * the rest describes the run: program, config text and hash, file_id (which
 * the journal header repeats), and the games' specs. */
static int write_root_attrs(hid_t fid, const h5rec_t *h)
{
    char id[17];
    snprintf(id, sizeof id, "%016llx", (unsigned long long)h->file_id);
    int rc = h5_attr_put_str(fid, "hoyle_schema", H5REC_SCHEMA_NAME);
    rc |= attr_put_int(fid, "hoyle_schema_version", H5REC_SCHEMA_VERSION);
    rc |= h5_attr_put_str(fid, "program", "hoyle");
    rc |= h5_attr_put_str(fid, "program_version", h->program_version);
    rc |= h5_attr_put_str(fid, "created", h->created);
    rc |= h5_attr_put_str(fid, "config", h->config_text);
    rc |= h5_attr_put_str(fid, "config_path", h->config_path);
    rc |= h5_attr_put_str(fid, "config_hash", h->config_hash);
    rc |= h5_attr_put_str(fid, "file_id", id);
    hsize_t n = (hsize_t)h->meta.num_games;
    hid_t t = h5_str_type(), sp = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate2(fid, "games", t, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0 || H5Awrite(a, t, h->game_specs) < 0) rc = -1;
    if (a >= 0) H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    return rc;
}

int h5s_create(const char *path, const h5rec_t *h)
{
    /* Persistent free-space tracking: space freed when a checkpoint rewrites
     * a partly filled chunk is reused by the next one instead of leaking. */
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_file_space_strategy(fcpl, H5F_FSPACE_STRATEGY_FSM_AGGR, 1, 1);
    /* The 1.10 file format: superblock, object headers and chunk indexes
     * carry checksums, so damaged metadata is refused too (HDF5 >= 1.10 and
     * h5py read it). */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_LATEST);
    hid_t fid = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    H5Pclose(fapl);
    H5Pclose(fcpl);
    if (fid < 0) {
        const char *why = create_reason(path); /* the record file's name, not the temp's */
        if (why) return hoyle_error(HOYLE_EIO, "file '%s': cannot create: %s", h->path, why);
        return H5S_FAIL(path, "cannot create");
    }
    hid_t rt = h5s_row_type(1), ot = h5s_opening_type(1), st = h5_str_type();
    int rc = write_root_attrs(fid, h);
    rc |= make_dset(fid, "games", rt, 1024, 1);
    rc |= make_dset(fid, "actions", H5T_STD_I32LE, 16384, 1);
    rc |= make_dset(fid, "action_ms", H5T_IEEE_F32LE, 16384, 1);
    rc |= make_dset(fid, "agents", st, 64, 0);
    rc |= make_dset(fid, "openings", ot, 64, 0);
    rc |= make_dset(fid, "opening_actions", H5T_STD_I32LE, 4096, 1);
    if (rc == 0) {
        hid_t d = H5Dopen2(fid, "action_ms", H5P_DEFAULT);
        rc |= h5_attr_put_str(d, "units", "ms");
        H5Dclose(d);
        h5s_tables_t empty = {0};
        rc |= h5s_attr_put_u32(fid, "strings_crc32", h5s_root_crc(h));
        rc |= h5s_attr_put_u32(fid, "tables_crc32", h5s_tables_crc(&empty));
    }
    H5Tclose(rt);
    H5Tclose(ot);
    H5Tclose(st);
    if (rc != 0) {
        int err = H5S_FAIL(path, "cannot write the schema");
        H5Fclose(fid);
        return err;
    }
    if (H5Fclose(fid) < 0) return H5S_FAIL(path, "cannot close");
    return HOYLE_OK;
}

/* Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil). */
/* Used to turn the stored ISO time back into unix seconds without timegm(),
 * which is not in C11 and would depend on the TZ environment. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int64_t h5s_created_unix(const char *created)
{
    int y = 1970, mo = 1, d = 1, hh = 0, mi = 0, ss = 0;
    sscanf(created, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &hh, &mi, &ss);
    return days_from_civil(y, mo, d) * 86400 + hh * 3600 + mi * 60 + ss;
}

/* Checks in order: is it hoyle's, which schema version, then the run's
 * attributes. A foreign or newer file is refused with a message naming what
 * it is, never half-loaded. */
static int load_meta(hid_t fid, const char *path, h5rec_t *h)
{
    char *schema = NULL, *id = NULL;
    int version = 0;
    if (h5_attr_get_str(fid, "hoyle_schema", &schema) < 0)
        return hoyle_error(HOYLE_EIO,
                           "file '%s' is not a hoyle game-record file (no "
                           "'hoyle_schema' attribute)",
                           path);
    int bad = strcmp(schema, H5REC_SCHEMA_NAME) != 0;
    if (bad) {
        int err = hoyle_error(HOYLE_EIO, "file '%s' holds '%s', not '%s'", path, schema,
                              H5REC_SCHEMA_NAME);
        free(schema);
        return err;
    }
    free(schema);
    hid_t a = H5Aexists(fid, "hoyle_schema_version") > 0
                  ? H5Aopen(fid, "hoyle_schema_version", H5P_DEFAULT)
                  : H5I_INVALID_HID;
    if (a < 0 || H5Aread(a, H5T_NATIVE_INT, &version) < 0) version = -1;
    if (a >= 0) H5Aclose(a);
    if (version != H5REC_SCHEMA_VERSION)
        return hoyle_error(HOYLE_EIO,
                           "file '%s' has %s schema version %d; this program reads "
                           "version %d",
                           path, H5REC_SCHEMA_NAME, version, H5REC_SCHEMA_VERSION);
    if (h5_attr_get_str(fid, "program_version", &h->program_version) < 0 ||
        h5_attr_get_str(fid, "created", &h->created) < 0 ||
        h5_attr_get_str(fid, "config", &h->config_text) < 0 ||
        h5_attr_get_str(fid, "config_path", &h->config_path) < 0 ||
        h5_attr_get_str(fid, "config_hash", &id) < 0 || strlen(id) != 16)
        goto broken;
    memcpy(h->config_hash, id, 17);
    free(id);
    id = NULL;
    if (h5_attr_get_str(fid, "file_id", &id) < 0) goto broken;
    h->file_id = strtoull(id, NULL, 16);
    free(id);
    id = NULL;

    a = H5Aexists(fid, "games") > 0 ? H5Aopen(fid, "games", H5P_DEFAULT) : H5I_INVALID_HID;
    if (a < 0) goto broken;
    hid_t sp = H5Aget_space(a), t = h5_str_type();
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    int ok = n >= 1 && n <= H5REC_MAX_GAMES;
    char *specs[H5REC_MAX_GAMES] = {0};
    if (ok && H5Aread(a, t, specs) >= 0) {
        for (int i = 0; i < n; i++) h->game_specs[i] = strdup(specs[i] ? specs[i] : "");
        H5Dvlen_reclaim(t, sp, H5P_DEFAULT, specs);
        h->meta.num_games = (int)n;
    } else {
        ok = 0;
    }
    H5Tclose(t);
    H5Sclose(sp);
    H5Aclose(a);
    if (!ok) goto broken;

    h->meta.created_unix = h5s_created_unix(h->created);
    uint32_t crc = 0;
    int has = h5s_attr_get_u32(fid, "strings_crc32", &crc);
    if (has < 0 || (has == 1 && crc != h5s_root_crc(h)))
        return hoyle_error(
            HOYLE_EIO, "file '%s': root attributes: checksum mismatch (the file is damaged)", path);
    return HOYLE_OK;
broken:
    free(id);
    return hoyle_error(HOYLE_EIO, "file '%s': hoyle root attributes are missing or malformed",
                       path);
}

/* Loads the metadata and the game count; the file is closed again (readers
 * reopen it through h5s_reader_open when they read games). */
int h5s_load(const char *path, h5rec_t *h)
{
    hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (fid < 0) {
        const char *why = read_reason(path);
        if (why) return hoyle_error(HOYLE_EIO, "file '%s': %s", path, why);
        return hoyle_error(HOYLE_EIO, "file '%s' is not a readable HDF5 file (%s)", path,
                           h5s_detail());
    }
    int rc = load_meta(fid, path, h);
    if (rc == 0) {
        static const char *const names[] = {"games",  "actions",  "action_ms",
                                            "agents", "openings", "opening_actions"};
        int64_t len[6];
        for (int i = 0; i < 6 && rc == 0; i++)
            if ((len[i] = h5s_dset_len(fid, names[i])) < 0)
                rc = hoyle_error(HOYLE_EIO, "file '%s': dataset /%s is missing or not 1-D", path,
                                 names[i]);
        /* /action_ms is aligned with /actions row for row: a mismatch means
         * a torn or foreign file */
        if (rc == 0 && len[1] != len[2])
            rc =
                hoyle_error(HOYLE_EIO, "file '%s': /actions and /action_ms differ in length", path);
        if (rc == 0) h->h5_count = len[0];
    }
    H5Fclose(fid);
    return rc;
}
