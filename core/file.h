/* file.h — whole files written so that a crash never leaves a half-written
 * one: the one atomic writer of hoyle (training state and logs, TD nets). */
#ifndef HOYLE_CORE_FILE_H
#define HOYLE_CORE_FILE_H

#include <stddef.h>

/* Write `len` bytes to `path` atomically: PATH.tmp is written in full,
 * fsync'ed and renamed over path. HOYLE_EIO with a message on failure (the
 * temporary is removed, path is unchanged). */
int file_write_atomic(const char *path, const void *data, size_t len);

#endif
