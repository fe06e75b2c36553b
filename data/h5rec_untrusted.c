/* h5rec_untrusted.c — h5rec_open_untrusted(): a record file read in a child
 * process (core/sandbox.h), so that a damaged file on which the HDF5 library
 * itself crashes is an error naming the file, not the end of `hoyle report`
 * or of `hoyle serve`.
 *
 * The child opens the file with h5rec_open_read, reads every game and sends
 * them back encoded (rec_encode, the journal's codec) after the metadata:
 *   "HRUN" | str program_version | str config_text | str config_path |
 *   str created | str config_hash | u64 file_id | u32 num_games | str spec... |
 *   i64 n | n x (u32 len | bytes)
 * (native byte order; str = u32 length + bytes). The parent checks every
 * length against what is left before it uses it and holds the games as the
 * handle's pending blobs, so h5rec_read decodes them from memory.
 * Invariant: the parent never runs HDF5 code on the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/sandbox.h"
#include "data/h5rec_internal.h"

#define UNTRUSTED_MAGIC "HRUN"

/* ---- child: encode ---- */

static int put(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n > 0) {
        ssize_t k = write(fd, b, n);
        if (k <= 0) return hoyle_error(HOYLE_EIO, "h5rec: writing to the parent failed");
        b += k;
        n -= (size_t)k;
    }
    return HOYLE_OK;
}

static int put_str(int fd, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    int rc = put(fd, &n, 4);
    return rc < 0 ? rc : put(fd, s ? s : "", n);
}

static int child_read_all(void *arg, int fd)
{
    const char *path = arg;
    h5rec_t *h = NULL;
    int rc = h5rec_open_read(path, &h);
    if (rc < 0) return rc;
    rc = put(fd, UNTRUSTED_MAGIC, 4);
    const char *strs[] = {h->program_version, h->config_text, h->config_path, h->created,
                          h->config_hash};
    for (size_t i = 0; i < 5 && rc == 0; i++) rc = put_str(fd, strs[i]);
    uint32_t ng = (uint32_t)h->meta.num_games;
    if (rc == 0) rc = put(fd, &h->file_id, 8);
    if (rc == 0) rc = put(fd, &ng, 4);
    for (uint32_t i = 0; i < ng && rc == 0; i++) rc = put_str(fd, h->game_specs[i]);
    int64_t n = h5rec_count(h);
    if (rc == 0) rc = put(fd, &n, 8);
    for (int64_t i = 0; i < n && rc == 0; i++) {
        game_record_t r;
        uint8_t *bytes = NULL;
        size_t len = 0;
        if ((rc = h5rec_read(h, i, &r)) < 0) break;
        rc = rec_encode(&r, &bytes, &len);
        game_record_free(&r);
        uint32_t l32 = (uint32_t)len;
        if (rc == 0) rc = put(fd, &l32, 4);
        if (rc == 0) rc = put(fd, bytes, len);
        free(bytes);
    }
    h5rec_close(h);
    return rc;
}

/* ---- parent: decode ---- */

typedef struct cursor {
    const uint8_t *p;
    size_t left;
} cursor_t;

static int take(cursor_t *c, void *out, size_t n)
{
    if (n > c->left) return -1;
    memcpy(out, c->p, n);
    c->p += n;
    c->left -= n;
    return 0;
}

/* A new NUL-terminated copy of the next string; NULL when short or out of memory. */
static char *take_str(cursor_t *c)
{
    uint32_t n;
    if (take(c, &n, 4) || n > c->left) return NULL;
    char *s = malloc((size_t)n + 1);
    if (s == NULL) return NULL;
    memcpy(s, c->p, n);
    s[n] = '\0';
    c->p += n;
    c->left -= n;
    return s;
}

/* Fill h from the child's answer; -1 when it is malformed, -2 out of memory. */
static int parse_answer(h5rec_t *h, cursor_t *c)
{
    char magic[4], *hash = NULL;
    uint32_t ng = 0;
    int64_t n = 0;
    if (take(c, magic, 4) || memcmp(magic, UNTRUSTED_MAGIC, 4) != 0) return -1;
    if (!(h->program_version = take_str(c)) || !(h->config_text = take_str(c)) ||
        !(h->config_path = take_str(c)) || !(h->created = take_str(c)) || !(hash = take_str(c)))
        return -1;
    int bad = strlen(hash) != 16;
    if (!bad) memcpy(h->config_hash, hash, 17);
    free(hash);
    if (bad || take(c, &h->file_id, 8) || take(c, &ng, 4) || ng < 1 || ng > H5REC_MAX_GAMES)
        return -1;
    for (uint32_t i = 0; i < ng; i++)
        if (!(h->game_specs[i] = take_str(c))) return -1;
    h->meta.num_games = (int)ng;
    if (take(c, &n, 8) || n < 0) return -1;
    for (int64_t i = 0; i < n; i++) {
        uint32_t len;
        if (take(c, &len, 4) || len > c->left) return -1;
        h5rec_blob_t b = {malloc(len ? len : 1), len};
        if (b.bytes == NULL) return -2;
        memcpy(b.bytes, c->p, len);
        c->p += len;
        c->left -= len;
        if (pending_push(h, b) < 0) {
            free(b.bytes);
            return -2;
        }
    }
    return c->left == 0 ? 0 : -1;
}

int h5rec_open_untrusted(const char *path, h5rec_t **out)
{
    h5rec_t *h = NULL;
    int rc = h5h_new(path, &h);
    if (rc < 0) return rc;
    char what[300];
    snprintf(what, sizeof what, "file '%s': reading it", path);
    uint8_t *buf = NULL;
    size_t len = 0;
    rc = sandbox_run(what, child_read_all, (void *)path, NULL, &buf, &len);
    if (rc == 0) {
        cursor_t c = {buf, len};
        int p = parse_answer(h, &c);
        if (p == -2) rc = hoyle_error(HOYLE_ENOMEM, "file '%s': out of memory", path);
        if (p == -1)
            rc = hoyle_error(HOYLE_EIO, "file '%s': the reader's answer is malformed", path);
    }
    free(buf);
    if (rc < 0) {
        h5h_free(h);
        return rc;
    }
    h->meta.created_unix = h5s_created_unix(h->created);
    h5h_meta_view(h);
    *out = h;
    return HOYLE_OK;
}

/* ---- the schema attribute alone ---- */

static int child_schema(void *arg, int fd)
{
    const char *path = arg;
    char *schema = NULL;
    h5s_quiet();
    H5E_BEGIN_TRY
    {
        hid_t fid = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
        if (fid >= 0) {
            if (h5_attr_get_str(fid, "hoyle_schema", &schema)) schema = NULL;
            H5Fclose(fid);
        }
    }
    H5E_END_TRY;
    int rc = schema ? put(fd, schema, strlen(schema)) : 0;
    free(schema);
    return rc;
}

int h5rec_probe_schema(const char *path, char **out)
{
    *out = NULL;
    char what[300];
    snprintf(what, sizeof what, "file '%s': reading its schema", path);
    sandbox_limits_t lim;
    sandbox_limits_default(&lim);
    lim.output_bytes = 4096;
    lim.wall_ms = 10000;
    uint8_t *buf = NULL;
    size_t len = 0;
    int rc = sandbox_run(what, child_schema, (void *)path, &lim, &buf, &len);
    if (rc < 0) return rc;
    if (len > 0 && memchr(buf, 0, len) == NULL) {
        *out = (char *)buf; /* NUL-terminated by sandbox_run */
        return HOYLE_OK;
    }
    free(buf);
    return HOYLE_OK;
}
