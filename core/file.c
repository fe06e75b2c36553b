/* file.c — the atomic whole-file writer (file.h). */
#include "core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

int file_write_atomic(const char *path, const void *data, size_t len)
{
    char tmp[1400];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return hoyle_error(HOYLE_EINVAL, "'%s': path too long", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return hoyle_error(HOYLE_EIO, "'%s': %s", tmp, strerror(errno));
    const char *bytes = data;
    size_t done = 0; /* write() may stop short (signals, pipes): loop until all is out */
    while (done < len) {
        ssize_t w = write(fd, bytes + done, len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += (size_t)w;
    }
    /* fsync before rename: otherwise a crash can leave the new name on an empty file */
    int ok = done == len && fsync(fd) == 0;
    close(fd);
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return hoyle_error(HOYLE_EIO, "'%s': cannot write: %s", path, strerror(e));
    }
    return HOYLE_OK;
}

int file_make_folders(const char *path)
{
    char buf[4096];
    struct stat st;
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return hoyle_error(HOYLE_EINVAL, "'%s': path too long", path);
    /* each prefix that ends at a '/' (or the end), the root excluded */
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        char c = *p;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return hoyle_error(HOYLE_EIO, "'%s': cannot make the folder: %s", buf, strerror(errno));
        if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
            return hoyle_error(HOYLE_EIO, "'%s': cannot make the folder: a file is in the way",
                               buf);
        *p = c;
        if (c == '\0') return HOYLE_OK;
    }
}

const char *file_resolved(const char *path, char *out, size_t cap)
{
    char cwd[4096];
    if (path[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
        snprintf(out, cap, "%s", path);
    else
        snprintf(out, cap, "%s/%s", strcmp(cwd, "/") ? cwd : "", path);
    return out;
}
