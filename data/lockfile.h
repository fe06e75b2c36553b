/* lockfile.h — an exclusive POSIX lock held on an open file, the one lock
 * implementation of hoyle: a record file's journal (h5rec) and a training
 * run folder's `lock` file (train/loop_state.c) use it.
 *
 * The lock is an fcntl(F_SETLK) write lock on the whole file: it never
 * waits, it is released when the descriptor is closed (also when the
 * process is killed, so a `kill -9` leaves no stale lock), and it works on
 * NFS where flock() may not. Two descriptors of one process do not exclude
 * each other (POSIX record-lock semantics): the lock keeps other processes
 * out, which is what both users need. */
#ifndef HOYLE_DATA_LOCKFILE_H
#define HOYLE_DATA_LOCKFILE_H

/* Results of lockfile_open besides a descriptor (>= 0). */
enum {
    LOCKFILE_OPEN_FAILED = -1, /* open() failed; errno says why */
    LOCKFILE_BUSY = -2         /* another process holds the lock */
};

/* Open `path` with open(path, open_flags | O_CREAT, 0644) and lock it.
 * Returns the locked descriptor (the caller closes it, which releases the
 * lock) or one of the negative results above, with nothing left open. No
 * message is set: each caller names what the file is for. */
int lockfile_open(const char *path, int open_flags);

#endif
