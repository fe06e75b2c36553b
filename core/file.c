/* file.c — the atomic whole-file writer (file.h). */
#include "core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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
