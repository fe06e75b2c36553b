/* fifteen_pdb.c — additive pattern databases for the Fifteen puzzle (Korf &
 * Felner 2002, "Disjoint pattern database heuristics"): the partitions, the
 * breadth-first build, and the checksummed cache file.
 *
 * Build: a breadth-first search backwards from the goal over abstract
 * states = (cells of the pattern's tiles, the region of the blank), where a
 * region is a connected set of cells free of pattern tiles: the blank moves
 * through its region at no cost (it only moves other tiles), and moving a
 * pattern tile into the region costs one. A region is named by its lowest
 * cell. The first time a placement is reached, its depth is its entry.
 *
 * Cache file: one header line naming the tables exactly
 *   "hoyle-pdb 1 n=4 blank=0 patterns=1,4,5,8,9,12/2,3,6,7,10,11/13,14,15\n",
 * one line with the 64-bit checksum of the tables in hex, then the tables'
 * bytes in pattern order, nothing after them. Invariant: tables handed out
 * came from a build or from a file whose header, size and checksum matched. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "solve/fifteen_internal.h"

/* The partitions for the blank first (cell 0); the blank last uses them
 * turned by 180 degrees (cell c -> cells - 1 - c). 4 x 4: 6-6-3 (the left
 * two columns, the right two above the bottom row, the rest of the bottom
 * row); 3 x 3: 4-4 (the first four goal cells, the last four). */
static const uint8_t part4[3][7] = {
    {6, 1, 4, 5, 8, 9, 12}, {6, 2, 3, 6, 7, 10, 11}, {3, 13, 14, 15}};
/* 4 x 4, 5-5-5 (weaker, built in a tenth of the time: for tests): the top
 * right, the left column and below, the bottom right. */
static const uint8_t part4_555[3][7] = {
    {5, 1, 2, 3, 6, 7}, {5, 4, 5, 8, 9, 12}, {5, 10, 11, 13, 14, 15}};
static const uint8_t part3[2][7] = {{4, 1, 2, 3, 4}, {4, 5, 6, 7, 8}};

static uint64_t checksum(const uint8_t *data, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, data + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++) h = (h ^ data[i]) * 0x100000001b3ULL;
    return h;
}

/* Flood `seed` (a bit mask) through `free` cells of an n x n board. */
static uint32_t flood(uint32_t seed, uint32_t free_cells, int n, uint32_t not_left,
                      uint32_t not_right)
{
    uint32_t full = (n * n == 32) ? 0xFFFFFFFFu : ((1u << (n * n)) - 1);
    uint32_t r = seed, prev;
    do {
        prev = r;
        uint32_t grow = r | ((r << 1) & not_left) | ((r >> 1) & not_right) | (r << n) | (r >> n);
        r = grow & free_cells & full;
        r |= seed;
    } while (r != prev);
    return r;
}

typedef struct queue {
    uint32_t *a;
    size_t n, cap;
} queue_t;

static int push(queue_t *q, uint32_t v)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 1 << 16;
        uint32_t *a = realloc(q->a, cap * sizeof *a);
        if (a == NULL) return hoyle_error(HOYLE_ENOMEM, "pdb: out of memory (queue)");
        q->a = a, q->cap = cap;
    }
    q->a[q->n++] = v;
    return HOYLE_OK;
}

/* Fill table[16^k] for the pattern `label[0..k)`: see the file comment. A
 * queue entry is index | blank region's lowest cell << 24. */
static int build_pattern(const fifteen_pdb_t *p, int k, const uint8_t *label, uint8_t *table)
{
    int n = p->n, cells = p->cells;
    uint32_t not_left = 0, not_right = 0, adj[FPDB_MAX_CELLS];
    for (int c = 0; c < cells; c++) {
        if (c % n) not_left |= 1u << c;
        if (c % n != n - 1) not_right |= 1u << c;
    }
    for (int c = 0; c < cells; c++) {
        adj[c] = 0;
        if (c % n) adj[c] |= 1u << (c - 1);
        if (c % n != n - 1) adj[c] |= 1u << (c + 1);
        if (c >= n) adj[c] |= 1u << (c - n);
        if (c + n < cells) adj[c] |= 1u << (c + n);
    }
    uint32_t full = (1u << cells) - 1;
    size_t entries = (size_t)1 << (4 * k);
    uint16_t *seen = calloc(entries, sizeof *seen);
    queue_t cur = {0}, next = {0};
    int status =
        seen ? HOYLE_OK : hoyle_error(HOYLE_ENOMEM, "pdb: out of memory (%zu entries)", entries);
    memset(table, 0xFF, entries);
    uint32_t start = 0, occ = 0;
    for (int j = 0; j < k; j++) start |= (uint32_t)label[j] << (4 * j), occ |= 1u << label[j];
    if (!status) {
        uint32_t region = flood(1u << p->blank_goal, full & ~occ, n, not_left, not_right);
        int rep = __builtin_ctz(region);
        seen[start] |= (uint16_t)(1u << rep);
        table[start] = 0;
        status = push(&cur, start | (uint32_t)rep << 24);
    }
    for (int depth = 0; !status && cur.n > 0; depth++) {
        next.n = 0;
        for (size_t i = 0; i < cur.n && !status; i++) {
            uint32_t idx = cur.a[i] & 0xFFFFFF, rep = cur.a[i] >> 24;
            uint8_t pos[FPDB_MAX_TILES];
            occ = 0;
            for (int j = 0; j < k; j++) pos[j] = (idx >> (4 * j)) & 15, occ |= 1u << pos[j];
            uint32_t region = flood(1u << rep, full & ~occ, n, not_left, not_right);
            for (int j = 0; j < k && !status; j++) {
                uint32_t targets = adj[pos[j]] & region;
                while (targets && !status) {
                    int to = __builtin_ctz(targets);
                    targets &= targets - 1;
                    uint32_t nocc = (occ & ~(1u << pos[j])) | 1u << to;
                    uint32_t nregion = flood(1u << pos[j], full & ~nocc, n, not_left, not_right);
                    int nrep = __builtin_ctz(nregion);
                    uint32_t nidx =
                        idx + (uint32_t)(((int32_t)to - (int32_t)pos[j]) * (1 << (4 * j)));
                    if (seen[nidx] & (1u << nrep)) continue;
                    seen[nidx] |= (uint16_t)(1u << nrep);
                    if (table[nidx] == 0xFF) table[nidx] = (uint8_t)(depth + 1);
                    status = push(&next, nidx | (uint32_t)nrep << 24);
                }
            }
        }
        queue_t t = cur;
        cur = next, next = t;
    }
    free(cur.a);
    free(next.a);
    free(seen);
    return status;
}

/* The header line that names these tables exactly. */
static void header_line(const fifteen_pdb_t *p, char *buf, size_t cap)
{
    size_t used =
        (size_t)snprintf(buf, cap, "hoyle-pdb 1 n=%d blank=%d patterns=", p->n, p->blank_goal);
    for (int i = 0; i < p->num_patterns && used < cap; i++)
        for (int j = 0; j < p->size[i] && used < cap; j++)
            used += (size_t)snprintf(buf + used, cap - used, "%s%d", j ? "," : (i ? "/" : ""),
                                     p->label[i][j]);
    if (used < cap) snprintf(buf + used, cap - used, "\n");
}

/* Read the cache file into p->block; a reason on failure (NULL: read). */
static const char *load(fifteen_pdb_t *p, const char *path, bool *exists)
{
    FILE *f = fopen(path, "rb");
    *exists = f != NULL;
    if (f == NULL) return "missing";
    char want[256], line[256];
    header_line(p, want, sizeof want);
    const char *why = NULL;
    unsigned long long sum = 0;
    if (fgets(line, sizeof line, f) == NULL || strcmp(line, want) != 0)
        why = "made for other tables (its header differs)";
    else if (fgets(line, sizeof line, f) == NULL || sscanf(line, "%16llx", &sum) != 1)
        why = "truncated (no checksum)";
    else if (fread(p->block, 1, p->block_bytes, f) != p->block_bytes)
        why = "truncated";
    else if (fgetc(f) != EOF)
        why = "longer than its tables";
    else if (checksum(p->block, p->block_bytes) != (uint64_t)sum)
        why = "corrupt (checksum mismatch)";
    fclose(f);
    return why;
}

/* mkdir -p; errors show up when the file is written. */
static void make_dirs(const char *dir)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *q = tmp + 1; *q; q++)
        if (*q == '/') {
            *q = '\0';
            mkdir(tmp, 0755);
            *q = '/';
        }
    mkdir(tmp, 0755);
}

static int save(const fifteen_pdb_t *p, const char *path)
{
    char tmp[1100], head[256];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    header_line(p, head, sizeof head);
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) return hoyle_error(HOYLE_EIO, "%s: %s", tmp, strerror(errno));
    int ok = fputs(head, f) >= 0 &&
             fprintf(f, "%016llx\n", (unsigned long long)checksum(p->block, p->block_bytes)) > 0 &&
             fwrite(p->block, 1, p->block_bytes, f) == p->block_bytes;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return hoyle_error(HOYLE_EIO, "%s: %s", path, strerror(e));
    }
    return HOYLE_OK;
}

static void default_dir(char *buf, size_t cap)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0])
        snprintf(buf, cap, "%s/hoyle", xdg);
    else if (home && home[0])
        snprintf(buf, cap, "%s/.cache/hoyle", home);
    else
        buf[0] = '\0';
}

int fifteen_pdb_open(int n, int blank_goal, fifteen_partition_t partition, const char *dir,
                     FILE *log, fifteen_pdb_t **out)
{
    if (n != 3 && n != 4)
        return hoyle_error(HOYLE_EUNSUP, "pdb: pattern databases exist for 3 x 3 and 4 x 4 only");
    if (blank_goal != 0 && blank_goal != n * n - 1)
        return hoyle_error(HOYLE_EUNSUP, "pdb: the blank's goal must be the first or last cell");
    fifteen_pdb_t *p = calloc(1, sizeof *p);
    if (p == NULL) return hoyle_error(HOYLE_ENOMEM, "pdb: out of memory");
    p->n = n, p->cells = n * n, p->blank_goal = blank_goal;
    const uint8_t(*part)[7] = n == 3 ? part3 : partition == FIFTEEN_PDB_555 ? part4_555 : part4;
    p->num_patterns = n == 4 ? 3 : 2;
    memset(p->pat_of, -1, sizeof p->pat_of);
    for (int i = 0; i < p->num_patterns; i++) {
        p->size[i] = part[i][0];
        for (int j = 0; j < p->size[i]; j++) {
            int l = part[i][1 + j];
            if (blank_goal) l = p->cells - 1 - l;
            p->label[i][j] = (uint8_t)l;
            p->pat_of[l] = (int8_t)i;
            p->shift_of[l] = (uint8_t)(4 * j);
        }
        p->block_bytes += (size_t)1 << (4 * p->size[i]);
    }
    for (int c = 0; c < p->cells; c++) p->transpose[c] = (uint8_t)((c % n) * n + c / n);
    p->block = malloc(p->block_bytes);
    if (p->block == NULL) {
        size_t bytes = p->block_bytes;
        free(p);
        return hoyle_error(HOYLE_ENOMEM, "pdb: out of memory (%zu bytes)", bytes);
    }
    size_t off = 0;
    for (int i = 0; i < p->num_patterns; i++)
        p->table[i] = p->block + off, off += (size_t)1 << (4 * p->size[i]);

    char dirbuf[900];
    if (dir == NULL) default_dir(dirbuf, sizeof dirbuf), dir = dirbuf;
    if (dir[0])
        snprintf(p->path, sizeof p->path, "%s/fifteen-pdb-%dx%d-blank%d%s.bin", dir, n, n,
                 blank_goal, n == 4 && partition == FIFTEEN_PDB_555 ? "-555" : "");
    bool exists = false;
    const char *why = p->path[0] ? load(p, p->path, &exists) : "missing";
    if (why == NULL) {
        p->from_cache = true;
        *out = p;
        return HOYLE_OK;
    }
    if (exists && log) fprintf(log, "pdb: %s is %s; rebuilding it\n", p->path, why);
    if (log)
        fprintf(log, "pdb: building the %dx%d tables%s...\n", n, n,
                p->path[0] ? " (once: they are cached)" : " (in memory)");
    int status = HOYLE_OK;
    for (int i = 0; i < p->num_patterns && !status; i++)
        status = build_pattern(p, p->size[i], p->label[i], p->table[i]);
    if (status) {
        fifteen_pdb_free(p);
        return status;
    }
    if (p->path[0]) {
        make_dirs(dir);
        if (save(p, p->path)) {
            if (log)
                fprintf(log, "pdb: cannot write the cache (%s); tables kept in memory\n",
                        hoyle_last_error());
            p->path[0] = '\0';
        } else if (log)
            fprintf(log, "pdb: wrote %s\n", p->path);
    }
    *out = p;
    return HOYLE_OK;
}

void fifteen_pdb_free(fifteen_pdb_t *p)
{
    if (p == NULL) return;
    free(p->block);
    free(p);
}

const char *fifteen_pdb_path(const fifteen_pdb_t *p) { return p->path; }
bool fifteen_pdb_from_cache(const fifteen_pdb_t *p) { return p->from_cache; }

void fpdb_indices(const fifteen_pdb_t *p, const uint8_t *pos, uint32_t *idx, uint32_t *ridx)
{
    for (int i = 0; i < p->num_patterns; i++) {
        idx[i] = ridx[i] = 0;
        for (int j = 0; j < p->size[i]; j++) {
            int l = p->label[i][j];
            idx[i] |= (uint32_t)pos[l] << (4 * j);
            ridx[i] |= (uint32_t)p->transpose[pos[p->transpose[l]]] << (4 * j);
        }
    }
}

int fifteen_pdb_value(const fifteen_pdb_t *p, const fifteen_board_t *b)
{
    uint8_t pos[FPDB_MAX_CELLS];
    for (int c = 0; c < b->cells; c++) pos[b->goal_cell[b->cell[c]]] = (uint8_t)c;
    uint32_t idx[FPDB_MAX_PATTERNS], ridx[FPDB_MAX_PATTERNS];
    fpdb_indices(p, pos, idx, ridx);
    int h = 0, r = 0;
    for (int i = 0; i < p->num_patterns; i++) h += p->table[i][idx[i]], r += p->table[i][ridx[i]];
    return h > r ? h : r;
}
