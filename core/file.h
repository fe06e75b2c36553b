/* file.h — whole files written so that a crash never leaves a half-written
 * one: the one atomic writer of hoyle (training state and logs, TD nets);
 * and the folders an output goes into made when missing (mkdir -p). */
#ifndef HOYLE_CORE_FILE_H
#define HOYLE_CORE_FILE_H

#include <stddef.h>

/* Write `len` bytes to `path` atomically: PATH.tmp is written in full,
 * fsync'ed and renamed over path. HOYLE_EIO with a message on failure (the
 * temporary is removed, path is unchanged). */
int file_write_atomic(const char *path, const void *data, size_t len);

/* Make the folder `path` and every missing folder above it (mkdir -p), as
 * tournaments, studies and training runs do for their outputs. 0 when it
 * exists (or was made); HOYLE_EIO naming the folder that could not be made
 * (or that is a file), HOYLE_EINVAL for a path longer than 4095 bytes. */
int file_make_folders(const char *path);

/* `path` as this process resolves it, for messages that say where a file
 * was looked for: itself when absolute, else the current folder joined to
 * it (links not followed; the file need not exist). Returns `out`. */
const char *file_resolved(const char *path, char *out, size_t cap);

#endif
