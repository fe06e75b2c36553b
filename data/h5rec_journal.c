/* h5rec_journal.c — the append-only journal beside a record file, and the
 * record codec it stores.
 *
 * Journal layout (native byte order; a machine-local file, not an
 * interchange format):
 *   header  "HOYLEJNL" | u32 version (1) | u32 0 | u64 file_id      24 bytes
 *   entry   u32 'HREC' | u32 len | u64 index | payload[len] | u32 crc32(index, payload)
 * Invariant: the valid entries are consecutive game indices; the first
 * invalid entry (bad magic, short, bad CRC) and everything after it is a
 * torn write from a killed process and is ignored (cut off by writers). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "data/h5rec_internal.h"
#include "data/lockfile.h"

#define JOURNAL_MAGIC   "HOYLEJNL"
#define JOURNAL_VERSION 1u
#define JOURNAL_HEADER  24
#define ENTRY_MAGIC     0x43455248u /* "HREC" little-endian */
#define ENTRY_OVERHEAD  20          /* magic + len + index + crc */

/* ---- CRC-32 (IEEE, reflected 0xEDB88320), nibble table ---- */

static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u,
    0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    /* Four bits at a time with a 16-entry table: small and fast enough, since the
     * journal checksums each game once when written and once when read back. */
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};

uint32_t h5rec_crc32(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc = (crc >> 4) ^ crc_nibble[(crc ^ p[i]) & 15u];
        crc = (crc >> 4) ^ crc_nibble[(crc ^ (uint32_t)(p[i] >> 4)) & 15u];
    }
    return ~crc;
}

/* FNV-1a 64 of the config text, as 16 hex digits: identifies "the same
 * config" across runs for resume; not meant to resist tampering. */
void h5rec_hash_text(const char *text, char out[17])
{
    static const char hex[] = "0123456789abcdef";
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++) {
        h ^= *p;
        h *= 1099511628211ull;
    }
    for (int i = 15; i >= 0; i--, h >>= 4) out[i] = hex[h & 15u];
    out[16] = '\0';
}

/* ---- record codec ---- */

/* A growing byte buffer; the codec is the journal payload, native byte order
 * like the journal itself. */
typedef struct writer {
    uint8_t *buf;
    size_t len, cap;
} writer_t;

static int put(writer_t *w, const void *p, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + n) cap *= 2;
        uint8_t *b = realloc(w->buf, cap);
        if (b == NULL) return hoyle_error(HOYLE_ENOMEM, "h5rec: out of memory encoding a record");
        w->buf = b;
        w->cap = cap;
    }
    if (n) memcpy(w->buf + w->len, p, n);
    w->len += n;
    return HOYLE_OK;
}

/* u32 length then the bytes, no terminator; NULL encodes as "". */
static int put_str(writer_t *w, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    int rc = put(w, &n, 4);
    return rc < 0 ? rc : put(w, s, n);
}

/* Field order is the format: rec_decode reads the same sequence, and a change
 * here needs a new JOURNAL_VERSION (old journals would decode wrongly). */
int rec_encode(const game_record_t *r, uint8_t **bytes, size_t *len)
{
    writer_t w = {0};
    int32_t end = (int32_t)r->end;
    uint8_t has_ms = r->action_ms != NULL;
    int rc = put_str(&w, r->game_spec);
    for (int p = 0; p < RECORD_MAX_PLAYERS && rc == 0; p++) rc = put_str(&w, r->agent_spec[p]);
    if (rc == 0) rc = put_str(&w, r->opening_name);
    if (rc == 0) rc = put(&w, &r->opening_len, 4);
    if (rc == 0) rc = put(&w, r->opening_actions, 4 * (size_t)r->opening_len);
    if (rc == 0) rc = put(&w, r->returns, sizeof r->returns);
    if (rc == 0) rc = put(&w, &r->result, 8);
    if (rc == 0) rc = put(&w, &end, 4);
    if (rc == 0) rc = put(&w, &r->num_actions, 4);
    if (rc == 0) rc = put(&w, r->actions, 4 * (size_t)r->num_actions);
    if (rc == 0) rc = put(&w, &has_ms, 1);
    if (rc == 0 && has_ms) rc = put(&w, r->action_ms, 4 * (size_t)r->num_actions);
    if (rc == 0) rc = put(&w, &r->seed, 8);
    if (rc == 0) rc = put(&w, &r->pairing, 4);
    if (rc == 0) rc = put(&w, &r->round, 4);
    if (rc == 0) rc = put(&w, &r->game_index, 4);
    if (rc < 0) {
        free(w.buf);
        return rc;
    }
    *bytes = w.buf;
    *len = w.len;
    return HOYLE_OK;
}

typedef struct reader {
    const uint8_t *p;
    size_t left;
} reader_t;

/* Short input is EIO: a malformed payload, reported by rec_decode. */
static int get(reader_t *r, void *out, size_t n)
{
    if (n > r->left) return HOYLE_EIO;
    if (n) memcpy(out, r->p, n);
    r->p += n;
    r->left -= n;
    return HOYLE_OK;
}

/* The length is checked against what is left before allocating, so a corrupt
 * length cannot ask for gigabytes. */
static int get_str(reader_t *r, char **out)
{
    uint32_t n;
    if (get(r, &n, 4) < 0 || n > r->left) return HOYLE_EIO;
    if ((*out = malloc((size_t)n + 1)) == NULL) return HOYLE_ENOMEM;
    get(r, *out, n);
    (*out)[n] = '\0';
    return HOYLE_OK;
}

static int get_array(reader_t *r, int32_t n, size_t elem, void **out)
{
    if (n < 0 || (size_t)n * elem > r->left) return HOYLE_EIO;
    if ((*out = calloc(n ? (size_t)n : 1, elem)) == NULL) return HOYLE_ENOMEM;
    return get(r, *out, (size_t)n * elem);
}

int rec_decode(const uint8_t *bytes, size_t len, game_record_t *out)
{
    reader_t rd = {bytes, len};
    game_record_t r = {0};
    int32_t end = 0;
    uint8_t has_ms = 0;
    int rc = get_str(&rd, &r.game_spec);
    for (int p = 0; p < RECORD_MAX_PLAYERS && rc == 0; p++) rc = get_str(&rd, &r.agent_spec[p]);
    if (rc == 0) rc = get_str(&rd, &r.opening_name);
    if (rc == 0) rc = get(&rd, &r.opening_len, 4);
    if (rc == 0) rc = get_array(&rd, r.opening_len, 4, (void **)&r.opening_actions);
    if (rc == 0) rc = get(&rd, r.returns, sizeof r.returns);
    if (rc == 0) rc = get(&rd, &r.result, 8);
    if (rc == 0) rc = get(&rd, &end, 4);
    if (rc == 0) rc = get(&rd, &r.num_actions, 4);
    if (rc == 0) rc = get_array(&rd, r.num_actions, 4, (void **)&r.actions);
    if (rc == 0) rc = get(&rd, &has_ms, 1);
    if (rc == 0 && has_ms) rc = get_array(&rd, r.num_actions, 4, (void **)&r.action_ms);
    /* records without per-action times decode with zeros, so readers never
     * meet a NULL action_ms */
    if (rc == 0 && !has_ms) {
        r.action_ms = calloc(r.num_actions ? (size_t)r.num_actions : 1, sizeof(float));
        if (r.action_ms == NULL) rc = HOYLE_ENOMEM;
    }
    if (rc == 0) rc = get(&rd, &r.seed, 8);
    if (rc == 0) rc = get(&rd, &r.pairing, 4);
    if (rc == 0) rc = get(&rd, &r.round, 4);
    if (rc == 0) rc = get(&rd, &r.game_index, 4);
    r.end = (record_end_t)end;
    /* trailing bytes are as wrong as missing ones: the entry is not what
     * this version wrote */
    if (rc < 0 || rd.left != 0) {
        game_record_free(&r);
        return hoyle_error(rc == HOYLE_ENOMEM ? HOYLE_ENOMEM : HOYLE_EIO,
                           "h5rec: journal entry is malformed");
    }
    *out = r;
    return HOYLE_OK;
}

/* ---- pending list ---- */

/* Doubling growth; separated from the push so that h5rec_append can reserve
 * before writing the journal and then push without a failure path. */
int pending_reserve(h5rec_t *h)
{
    if (h->num_pending == h->cap_pending) {
        int64_t cap = h->cap_pending ? 2 * h->cap_pending : 64;
        h5rec_blob_t *p = realloc(h->pending, (size_t)cap * sizeof *p);
        if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "h5rec: out of memory");
        h->pending = p;
        h->cap_pending = cap;
    }
    return HOYLE_OK;
}

int pending_push(h5rec_t *h, h5rec_blob_t blob)
{
    int rc = pending_reserve(h);
    if (rc == 0) h->pending[h->num_pending++] = blob;
    return rc;
}

void pending_clear(h5rec_t *h)
{
    for (int64_t i = 0; i < h->num_pending; i++) free(h->pending[i].bytes);
    h->num_pending = 0;
}

/* ---- journal file ---- */

static void make_header(uint64_t file_id, uint8_t hdr[JOURNAL_HEADER])
{
    uint32_t version = JOURNAL_VERSION, zero = 0;
    memcpy(hdr, JOURNAL_MAGIC, 8);
    memcpy(hdr + 8, &version, 4);
    memcpy(hdr + 12, &zero, 4);
    memcpy(hdr + 16, &file_id, 8);
}

/* -1 on error (errno set); loops on short writes and EINTR. */
static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Read the whole journal into a new buffer (*len bytes). */
static int slurp(int fd, const char *path, uint8_t **out, size_t *len)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return hoyle_error(HOYLE_EIO, "journal '%s': %s", path, strerror(errno));
    size_t n = (size_t)st.st_size, got = 0;
    uint8_t *buf = malloc(n ? n : 1);
    if (buf == NULL) return hoyle_error(HOYLE_ENOMEM, "journal '%s': out of memory", path);
    /* a short read leaves *len below the size: parse() treats the missing
     * tail as torn */
    while (got < n) {
        ssize_t k = pread(fd, buf + got, n - got, (off_t)got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    *out = buf;
    *len = got;
    return HOYLE_OK;
}

/* Parse the journal image: header check, then entries into h->pending.
 * *valid_end = offset after the last valid entry; *header_ok = 0 when the
 * file is an (incomplete) header prefix that a writer may rewrite. */
static int parse(h5rec_t *h, const uint8_t *buf, size_t len, size_t *valid_end, int *header_ok)
{
    uint8_t hdr[JOURNAL_HEADER];
    make_header(h->file_id, hdr);
    *header_ok = 0;
    *valid_end = 0;
    if (len < JOURNAL_HEADER) {
        /* a kill while the header was being written leaves a prefix of it */
        if (memcmp(buf, hdr, len) == 0) return HOYLE_OK; /* empty or torn header */
        return hoyle_error(HOYLE_EIO, "journal '%s' is not a hoyle journal", h->journal_path);
    }
    if (memcmp(buf, hdr, 16) != 0)
        return hoyle_error(HOYLE_EIO, "journal '%s' is not a hoyle journal (version 1)",
                           h->journal_path);
    if (memcmp(buf + 16, hdr + 16, 8) != 0)
        return hoyle_error(HOYLE_EIO,
                           "journal '%s' belongs to another file (file_id differs from "
                           "'%s'); move it away",
                           h->journal_path, h->path);
    *header_ok = 1;
    size_t off = JOURNAL_HEADER;
    while (len - off >= ENTRY_OVERHEAD) {
        uint32_t magic, n, crc;
        int64_t index;
        memcpy(&magic, buf + off, 4);
        memcpy(&n, buf + off + 4, 4);
        /* n is checked against the bytes left before it is used as an
         * offset: a torn length must not read past the buffer */
        if (magic != ENTRY_MAGIC || n > len - off - ENTRY_OVERHEAD) break;
        memcpy(&index, buf + off + 8, 8);
        memcpy(&crc, buf + off + 16 + n, 4);
        if (h5rec_crc32(0, buf + off + 8, 8 + (size_t)n) != crc) break;
        /* entries must continue the file's numbering: an index ahead of it
         * means games were lost in between, which is corruption, not a tear */
        int64_t expect = h->h5_count + h->num_pending;
        if (index > expect)
            return hoyle_error(HOYLE_EIO,
                               "journal '%s': entry for game %lld follows game %lld "
                               "(gap)",
                               h->journal_path, (long long)index, (long long)expect - 1);
        if (index == expect) {
            h5rec_blob_t blob = {malloc(n ? n : 1), n};
            if (blob.bytes == NULL) return hoyle_error(HOYLE_ENOMEM, "journal: out of memory");
            memcpy(blob.bytes, buf + off + 16, n);
            int rc = pending_push(h, blob);
            if (rc < 0) {
                free(blob.bytes);
                return rc;
            }
        } /* index < expect: already in the .h5 (killed after rename) */
        off += ENTRY_OVERHEAD + n;
    }
    *valid_end = off;
    return HOYLE_OK;
}

int journal_open_writer(h5rec_t *h)
{
    /* Takes the writer's lock (data/lockfile.h: released when the fd closes,
     * also on a kill), loads the complete entries, and cuts a torn tail so that the next
     * append lands right after the last good entry. */
    int fd = lockfile_open(h->journal_path, O_RDWR | O_APPEND);
    if (fd == LOCKFILE_OPEN_FAILED)
        return hoyle_error(HOYLE_EIO, "journal '%s': cannot open: %s", h->journal_path,
                           strerror(errno));
    if (fd == LOCKFILE_BUSY) {
        return hoyle_error(HOYLE_EIO,
                           "file '%s' is being written by another process (journal "
                           "'%s' is locked)",
                           h->path, h->journal_path);
    }
    uint8_t *buf = NULL;
    size_t len = 0, valid_end = 0;
    int header_ok = 0;
    int rc = slurp(fd, h->journal_path, &buf, &len);
    if (rc == 0) rc = parse(h, buf, len, &valid_end, &header_ok);
    free(buf);
    if (rc == 0 && !header_ok) { /* new journal, or a header torn by a kill */
        uint8_t hdr[JOURNAL_HEADER];
        make_header(h->file_id, hdr);
        if (ftruncate(fd, 0) != 0 || write_all(fd, hdr, JOURNAL_HEADER) != 0)
            rc = hoyle_error(HOYLE_EIO, "journal '%s': cannot write: %s", h->journal_path,
                             strerror(errno));
    } else if (rc == 0 && valid_end < len && ftruncate(fd, (off_t)valid_end) != 0) {
        rc = hoyle_error(HOYLE_EIO, "journal '%s': cannot cut torn tail: %s", h->journal_path,
                         strerror(errno));
    }
    if (rc < 0) {
        pending_clear(h);
        close(fd);
        return rc;
    }
    h->journal_fd = fd;
    return HOYLE_OK;
}

/* Loads what a reader may see without locking or writing: the writer may be
 * running, and its in-flight entry simply fails the CRC for now. */
int journal_load_reader(h5rec_t *h)
{
    int fd = open(h->journal_path, O_RDONLY);
    if (fd < 0) {
        if (errno == ENOENT) return HOYLE_OK;
        return hoyle_error(HOYLE_EIO, "journal '%s': cannot open: %s", h->journal_path,
                           strerror(errno));
    }
    uint8_t *buf = NULL;
    size_t len = 0, valid_end = 0;
    int header_ok = 0;
    int rc = slurp(fd, h->journal_path, &buf, &len);
    close(fd);
    if (rc == 0) rc = parse(h, buf, len, &valid_end, &header_ok);
    free(buf);
    if (rc < 0) pending_clear(h);
    return rc;
}

/* One write() per entry, so a kill leaves at most one torn entry at the end. */
int journal_append(h5rec_t *h, const h5rec_blob_t *blob)
{
    size_t n = blob->len;
    uint8_t *e = malloc(ENTRY_OVERHEAD + n);
    if (e == NULL) return hoyle_error(HOYLE_ENOMEM, "journal: out of memory");
    uint32_t magic = ENTRY_MAGIC, n32 = (uint32_t)n;
    int64_t index = h->h5_count + h->num_pending;
    memcpy(e, &magic, 4);
    memcpy(e + 4, &n32, 4);
    memcpy(e + 8, &index, 8);
    memcpy(e + 16, blob->bytes, n);
    uint32_t crc = h5rec_crc32(0, e + 8, 8 + n);
    memcpy(e + 16 + n, &crc, 4);
    off_t before = lseek(h->journal_fd, 0, SEEK_END);
    int bad = before < 0 || write_all(h->journal_fd, e, ENTRY_OVERHEAD + n) != 0;
    if (!bad && h->sync) bad = fdatasync(h->journal_fd);
    free(e);
    if (bad) {
        int err = errno;
        /* Cut a partial entry so that later entries stay reachable. */
        if (before >= 0 && ftruncate(h->journal_fd, before) != 0) err = errno;
        return hoyle_error(HOYLE_EIO, "journal '%s': write failed: %s", h->journal_path,
                           strerror(err));
    }
    return HOYLE_OK;
}

/* Keeps the header: the journal still belongs to the same .h5. */
int journal_reset(h5rec_t *h)
{
    if (ftruncate(h->journal_fd, JOURNAL_HEADER) != 0)
        return hoyle_error(HOYLE_EIO, "journal '%s': cannot empty: %s", h->journal_path,
                           strerror(errno));
    if (h->sync && fdatasync(h->journal_fd) != 0)
        return hoyle_error(HOYLE_EIO, "journal '%s': fsync: %s", h->journal_path, strerror(errno));
    return HOYLE_OK;
}
