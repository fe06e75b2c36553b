/* models.c — shipped models found by name (models.h): one list of folders, searched in
 * order, serves the lookup of a name and the listing of every name. */
#include "core/models.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/file.h"

enum { DIRS_MAX = 6, DIR_MAX = 1024, LIST_MAX = 128 };

bool model_is_name(const char *value)
{
    size_t n = strlen(value);
    if (n == 0 || n >= MODEL_NAME_MAX) return false;
    for (const char *c = value; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-'))
            return false;
    return true;
}

/* The folders a name is looked up in, in order (models.h); returns how many. */
static int model_dirs(char dirs[DIRS_MAX][DIR_MAX])
{
    int n = 0;
    const char *env = getenv("HOYLE_MODELS");
    if (env && env[0] && (size_t)snprintf(dirs[n], DIR_MAX, "%s", env) < DIR_MAX) n++;
    snprintf(dirs[n++], DIR_MAX, "models");
    /* the checkout of the running binary: CHECKOUT/build/apps/hoyle, so up to 3 folders up */
    char exe[DIR_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        for (int up = 0; up < 3; up++) {
            char *slash = strrchr(exe, '/');
            if (slash == NULL) break;
            *slash = '\0';
            if ((size_t)snprintf(dirs[n], DIR_MAX, "%s/models", exe) < DIR_MAX) n++;
        }
    }
#ifdef HOYLE_MODELS_DIR /* the checkout this program was built from (core/CMakeLists.txt) */
    snprintf(dirs[n++], DIR_MAX, "%s", HOYLE_MODELS_DIR);
#endif
    return n;
}

int model_find(const char *value, const char *ext, const char *who, char *path, size_t cap)
{
    struct stat st;
    if (value[0] == '\0') return hoyle_error(HOYLE_EINVAL, "%s: no model given", who);
    if ((size_t)snprintf(path, cap, "%s", value) < cap && stat(path, &st) == 0 &&
        S_ISREG(st.st_mode))
        return HOYLE_OK;
    char where[4200];
    if (!model_is_name(value))
        return hoyle_error(HOYLE_EINVAL, "%s: no file '%s' (%s)", who, value,
                           file_resolved(value, where, sizeof where));
    char dirs[DIRS_MAX][DIR_MAX];
    int n = model_dirs(dirs);
    for (int i = 0; i < n; i++)
        if ((size_t)snprintf(path, cap, "%s/%s.%s", dirs[i], value, ext) < cap &&
            stat(path, &st) == 0 && S_ISREG(st.st_mode))
            return HOYLE_OK;
    return hoyle_error(HOYLE_EINVAL,
                       "%s: no model '%s' (no such file, and no shipped model %s.%s in "
                       "$HOYLE_MODELS or models/)",
                       who, value, value, ext);
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

int models_each(const char *ext, int (*fn)(const char *name, const char *path, void *ctx),
                void *ctx)
{
    char dirs[DIRS_MAX][DIR_MAX];
    int ndirs = model_dirs(dirs), count = 0, seen_n = 0;
    char seen[LIST_MAX][MODEL_NAME_MAX];
    size_t el = strlen(ext);
    for (int d = 0; d < ndirs; d++) {
        DIR *dir = opendir(dirs[d]);
        if (dir == NULL) continue;
        char names[LIST_MAX][MODEL_NAME_MAX];
        int k = 0;
        for (struct dirent *e; (e = readdir(dir)) != NULL && k < LIST_MAX;) {
            size_t len = strlen(e->d_name);
            if (len <= el + 1 || len - el - 1 >= MODEL_NAME_MAX || e->d_name[len - el - 1] != '.' ||
                strcmp(e->d_name + len - el, ext) != 0)
                continue;
            memcpy(names[k], e->d_name, len - el - 1);
            names[k][len - el - 1] = '\0';
            if (model_is_name(names[k])) k++;
        }
        closedir(dir);
        qsort(names, (size_t)k, MODEL_NAME_MAX, by_name);
        for (int i = 0; i < k; i++) {
            bool dup = false;
            for (int j = 0; j < seen_n && !dup; j++) dup = strcmp(seen[j], names[i]) == 0;
            char path[DIR_MAX + 2 * MODEL_NAME_MAX];
            struct stat st;
            if (dup || seen_n == LIST_MAX ||
                (size_t)snprintf(path, sizeof path, "%s/%s.%s", dirs[d], names[i], ext) >=
                    sizeof path ||
                stat(path, &st) != 0 || !S_ISREG(st.st_mode))
                continue;
            memcpy(seen[seen_n++], names[i], MODEL_NAME_MAX);
            count++;
            int rc = fn(names[i], path, ctx);
            if (rc) return rc;
        }
    }
    return count;
}
