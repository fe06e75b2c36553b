/* lockfile.c — an exclusive, non-waiting fcntl lock on an open file (lockfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "data/lockfile.h"

int lockfile_open(const char *path, int open_flags)
{
    int fd = open(path, open_flags | O_CREAT, 0644);
    if (fd < 0) return LOCKFILE_OPEN_FAILED;
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET}; /* l_len 0: the whole file */
    if (fcntl(fd, F_SETLK, &lk) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return LOCKFILE_BUSY;
    }
    return fd;
}
