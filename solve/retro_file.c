/* retro_file.c — endgame table files (retro_internal.h): the header, the
 * checksums, the atomic write and the checked read-only mapping. A file that
 * fails any check is refused whole with a message naming it and the check.
 * Codes are written in pieces through one small buffer, the checksum and the
 * counts taken piece by piece, the header last at the front: the same bytes
 * as the whole array written at once, with no copy of it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "solve/retro_internal.h"

/* One 8-byte word into the sum. */
static uint64_t sum_word(uint64_t h, const uint8_t *d)
{
    uint64_t w;
    memcpy(&w, d, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    return h ^ h >> 29;
}

void retro_sum_init(retro_sum_t *s)
{
    s->h = 0xcbf29ce484222325ULL;
    s->ntail = 0;
}

void retro_sum_add(retro_sum_t *s, const void *data, size_t n)
{
    const uint8_t *d = data;
    if (s->ntail > 0) { /* complete the word the last piece began */
        size_t k = 8 - s->ntail < n ? 8 - s->ntail : n;
        memcpy(s->tail + s->ntail, d, k);
        s->ntail += k, d += k, n -= k;
        if (s->ntail < 8) return;
        s->h = sum_word(s->h, s->tail), s->ntail = 0;
    }
    for (; n >= 8; d += 8, n -= 8) s->h = sum_word(s->h, d);
    memcpy(s->tail, d, n);
    s->ntail = n;
}

uint64_t retro_sum_end(const retro_sum_t *s)
{
    uint64_t h = s->h;
    for (size_t i = 0; i < s->ntail; i++) h = (h ^ s->tail[i]) * 0x100000001b3ULL;
    return h;
}

uint64_t retro_checksum(const void *data, size_t n)
{
    retro_sum_t s;
    retro_sum_init(&s);
    retro_sum_add(&s, data, n);
    return retro_sum_end(&s);
}

const char *retro_metric_name(retro_metric_t m) { return m == RETRO_DTC ? "dtc" : "dtm"; }

const char *retro_metric_suffix(retro_metric_t m) { return m == RETRO_DTC ? ".dtc" : ".tb"; }

int retro_metric_parse(const char *text, retro_metric_t *out)
{
    if (strcmp(text, "dtm") == 0 || strcmp(text, "end") == 0)
        *out = RETRO_DTM;
    else if (strcmp(text, "dtc") == 0)
        *out = RETRO_DTC;
    else
        return hoyle_error(HOYLE_EINVAL,
                           "metric '%s': want dtm (to the end) or dtc (to conversion)", text);
    return 0;
}

const char *retro_magic(retro_metric_t m, int part)
{
    if (m == RETRO_DTC) return part ? RETRO_MAGIC_DTCP : RETRO_MAGIC_DTC;
    return part ? RETRO_MAGIC_PART : RETRO_MAGIC;
}

/* What a metric's files hold, for the message that refuses one. */
static const char *metric_words(retro_metric_t m)
{
    return m == RETRO_DTC ? "distance to conversion (DTC)" : "distance to the end (DTM)";
}

int retro_path(char *buf, size_t cap, const char *dir, const char *name, const char *suffix)
{
    int n = snprintf(buf, cap, "%s/%s%s", dir, name, suffix);
    if (n < 0 || (size_t)n >= cap) return hoyle_error(HOYLE_EINVAL, "%s: path too long", dir);
    return 0;
}

/* Add codes [first, first + n) to h's counts and longest win. */
static void count_add(retro_header_t *h, uint64_t first, const retro_code_t *codes, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        retro_code_t c = codes[k];
        if (c == RETRO_INVALID)
            h->invalid++;
        else if (retro_is_win(c)) {
            h->wins++;
            if ((uint32_t)retro_dist(c) > h->longest_win)
                h->longest_win = (uint32_t)retro_dist(c), h->longest_win_idx = first + k;
        } else if (retro_is_loss(c))
            h->losses++;
        else
            h->draws++;
    }
}

static void count_reset(retro_header_t *h)
{
    h->wins = h->draws = h->losses = h->invalid = 0;
    h->longest_win = 0;
    h->longest_win_idx = 0;
}

void retro_header_count(retro_header_t *h, const retro_code_t *codes)
{
    count_reset(h);
    count_add(h, 0, codes, h->size);
}

static int write_all(int fd, const void *data, size_t n)
{
    const uint8_t *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n > (1u << 30) ? (1u << 30) : n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* Stream h->size codes from `fill` into open file `fd` after the header,
 * then the header (counts and sums filled here) at the front. */
static int write_stream(int fd, retro_header_t *h, retro_fill_fn fill, void *ctx, retro_code_t *buf,
                        size_t piece_codes)
{
    uint8_t head[RETRO_HEADER_BYTES] = {0};
    retro_sum_t sum;
    retro_sum_init(&sum);
    count_reset(h);
    if (lseek(fd, RETRO_HEADER_BYTES, SEEK_SET) < 0) return -1;
    for (uint64_t first = 0; first < h->size;) {
        size_t n = h->size - first < piece_codes ? (size_t)(h->size - first) : piece_codes;
        fill(ctx, first, n, buf);
        count_add(h, first, buf, n);
        retro_sum_add(&sum, buf, n * sizeof *buf);
        if (write_all(fd, buf, n * sizeof *buf)) return -1;
        first += n;
    }
    h->sum = retro_sum_end(&sum);
    h->hsum = retro_checksum(h, offsetof(retro_header_t, hsum));
    memcpy(head, h, sizeof *h);
    if (lseek(fd, 0, SEEK_SET) < 0 || write_all(fd, head, sizeof head)) return -1;
    return fsync(fd);
}

int retro_table_stream(const char *path, retro_header_t *h, retro_fill_fn fill, void *ctx,
                       size_t piece_codes)
{
    h->version = RETRO_VERSION;
    h->header_bytes = RETRO_HEADER_BYTES;
    h->endian = RETRO_ENDIAN;
    h->entry_bytes = sizeof(retro_code_t);
    if (piece_codes == 0) piece_codes = RETRO_PIECE_CODES;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return hoyle_error(HOYLE_EINVAL, "%s: path too long", path);
    retro_code_t *buf = malloc(piece_codes * sizeof *buf);
    if (buf == NULL) return hoyle_error(HOYLE_ENOMEM, "%s: out of memory", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        free(buf);
        return hoyle_error(HOYLE_EIO, "%s: %s", tmp, strerror(errno));
    }
    int bad = write_stream(fd, h, fill, ctx, buf, piece_codes) != 0;
    int err = errno;
    free(buf);
    if (close(fd) != 0 && !bad) bad = 1, err = errno;
    if (!bad && rename(tmp, path) != 0) bad = 1, err = errno;
    if (bad) {
        unlink(tmp);
        return hoyle_error(HOYLE_EIO, "%s: %s", path, strerror(err));
    }
    return 0;
}

/* The fill of retro_table_write: codes out of an array. */
static void fill_array(void *ctx, uint64_t first, size_t n, retro_code_t *out)
{
    memcpy(out, (const retro_code_t *)ctx + first, n * sizeof *out);
}

int retro_table_write(const char *path, retro_header_t *h, const retro_code_t *codes)
{
    return retro_table_stream(path, h, fill_array, (void *)codes, 0);
}

/* The header checks, in the order a reader meets them; *metric gets the
 * file's metric by its magic (asked: `want`, or RETRO_METRIC_ANY). */
static const char *header_problem(const retro_header_t *h, size_t file_bytes, int part, int want,
                                  retro_metric_t *metric, char *buf, size_t cap)
{
    int found = -1;
    for (int m = RETRO_DTM; m <= RETRO_DTC && found < 0; m++)
        if (memcmp(h->magic, retro_magic((retro_metric_t)m, part), 8) == 0) found = m;
    if (found < 0) return "not a hoyle endgame table (bad magic)";
    if (want != RETRO_METRIC_ANY && found != want) {
        snprintf(buf, cap, "holds the %s, not the %s asked for",
                 metric_words((retro_metric_t)found), metric_words((retro_metric_t)want));
        return buf;
    }
    *metric = (retro_metric_t)found;
    if (h->endian != RETRO_ENDIAN) return "written on a machine of other byte order";
    if (h->version != RETRO_VERSION) return "unsupported format version";
    if (h->header_bytes != RETRO_HEADER_BYTES || h->entry_bytes != sizeof(retro_code_t))
        return "unsupported layout";
    if (h->hsum != retro_checksum(h, offsetof(retro_header_t, hsum)))
        return "corrupt header (checksum mismatch)";
    if (memchr(h->game, 0, sizeof h->game) == NULL || memchr(h->name, 0, sizeof h->name) == NULL)
        return "corrupt header (names)";
    if (h->size > (file_bytes - RETRO_HEADER_BYTES) / sizeof(retro_code_t) ||
        file_bytes != RETRO_HEADER_BYTES + h->size * sizeof(retro_code_t))
        return "truncated or overlong (size does not match the header)";
    return NULL;
}

int retro_table_map(const char *path, const char *want_game, const char *want_name, int part,
                    int metric, retro_table_t *out)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return hoyle_error(HOYLE_EIO, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < RETRO_HEADER_BYTES) {
        close(fd);
        return hoyle_error(HOYLE_EINVAL, "%s: not a hoyle endgame table (too short)", path);
    }
    size_t bytes = (size_t)st.st_size;
    void *map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return hoyle_error(HOYLE_EIO, "%s: mmap: %s", path, strerror(errno));
    retro_table_t t = {.map = map, .map_bytes = bytes};
    memcpy(&t.h, map, sizeof t.h);
    t.codes = (const retro_code_t *)((const uint8_t *)map + RETRO_HEADER_BYTES);
    char buf[160];
    const char *why = header_problem(&t.h, bytes, part, metric, &t.metric, buf, sizeof buf);
    if (why == NULL && t.h.sum != retro_checksum(t.codes, t.h.size * sizeof(retro_code_t)))
        why = "corrupt (checksum mismatch)";
    if (why) {
        munmap(map, bytes);
        return hoyle_error(HOYLE_EINVAL, "%s: %s", path, why);
    }
    if ((want_game && strcmp(t.h.game, want_game) != 0) ||
        (want_name && strcmp(t.h.name, want_name) != 0)) {
        munmap(map, bytes);
        return hoyle_error(HOYLE_EINVAL, "%s: a table of %s %s, not of %s %s", path, t.h.game,
                           t.h.name, want_game ? want_game : t.h.game,
                           want_name ? want_name : t.h.name);
    }
    *out = t;
    return 0;
}

void retro_table_unmap(retro_table_t *t)
{
    if (t->map) munmap(t->map, t->map_bytes);
    t->map = NULL;
    t->codes = NULL;
}

int retro_table_info(const char *path, retro_info_t *out)
{
    retro_table_t t;
    int rc = retro_table_map(path, NULL, NULL, 0, RETRO_METRIC_ANY, &t);
    if (rc < 0) return rc;
    memset(out, 0, sizeof *out);
    out->metric = t.metric;
    memcpy(out->game, t.h.game, sizeof out->game);
    memcpy(out->name, t.h.name, sizeof out->name);
    out->size = t.h.size;
    out->wins = t.h.wins, out->draws = t.h.draws, out->losses = t.h.losses;
    out->invalid = t.h.invalid;
    out->longest_win = t.h.longest_win;
    out->longest_win_idx = t.h.longest_win_idx;
    out->checksum = t.h.sum;
    retro_table_unmap(&t);
    return 0;
}

void retro_code_text(retro_code_t c, char *buf, size_t cap)
{
    if (c == RETRO_INVALID)
        snprintf(buf, cap, "invalid");
    else if (retro_is_win(c))
        snprintf(buf, cap, "win in %d plies", retro_dist(c));
    else if (retro_is_loss(c))
        snprintf(buf, cap, "loss in %d plies", retro_dist(c));
    else
        snprintf(buf, cap, "draw");
}

int retro_code_cmp(retro_code_t a, retro_code_t b)
{
    /* a score: wins above draws above losses; faster wins, slower losses */
    long sa = retro_is_win(a)    ? 100000 - retro_dist(a)
              : retro_is_loss(a) ? -100000 + retro_dist(a)
                                 : 0;
    long sb = retro_is_win(b)    ? 100000 - retro_dist(b)
              : retro_is_loss(b) ? -100000 + retro_dist(b)
                                 : 0;
    return (sa > sb) - (sa < sb);
}

int retro_tables_list(const game_t *g, const char *dir, char names[][RETRO_CLASS_MAX], int max)
{
    DIR *d = opendir(dir);
    if (d == NULL) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < max;) {
        size_t len = strlen(e->d_name);
        char path[4096];
        retro_info_t in;
        if (len < 4 || strcmp(e->d_name + len - 3, ".tb") != 0) continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
        if (retro_table_info(path, &in) == 0 && strcmp(in.game, g->spec) == 0)
            memcpy(names[n++], in.name, RETRO_CLASS_MAX);
    }
    closedir(d);
    qsort(names, (size_t)n, RETRO_CLASS_MAX, (int (*)(const void *, const void *))strcmp);
    return n;
}

int retro_table_fits(const game_t *g, const char *path, const retro_table_t *t)
{
    const retro_index_t *ix = retro_index_find(g);
    uint64_t size = 0;
    int rc = ix ? ix->class_parse(g, t->h.name, NULL, &size) : HOYLE_EUNSUP;
    if (rc < 0)
        return hoyle_error(HOYLE_EINVAL, "%s: class '%s' is not one of %s", path, t->h.name,
                           g->spec);
    if (size != t->h.size)
        return hoyle_error(HOYLE_EINVAL,
                           "%s: %llu indices, class %s has %llu (an older layout: tables of like "
                           "sides once stored both colourings); build it again",
                           path, (unsigned long long)t->h.size, t->h.name,
                           (unsigned long long)size);
    return 0;
}
