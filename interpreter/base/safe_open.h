/*
** safe_open.h
** Opening the files cairn reads and writes: only regular files, checked on
** the open descriptor (fstat), never blocking on a FIFO or a device, never
** following a link out of a given folder, read with a bound. Every open of
** a file named by a ruleset, a save, a sim part or an output option goes
** through here (docs/sandbox.md, "Files").
*/
#ifndef CAIRN_SAFE_OPEN_H
#define CAIRN_SAFE_OPEN_H

#include <stddef.h>
#include <stdio.h>

/* Opens path to read. The open cannot block (O_NONBLOCK, cleared once the
** descriptor is known to be a regular file); a folder, FIFO, socket or
** device is refused. With within (a realpath result) not NULL, the file,
** its links resolved, must lie inside that folder. Returns the descriptor
** (O_CLOEXEC) or -1 with why set ("is a FIFO, not a regular file"; the
** path is not in it) and errno kept. */
int safe_open_read(const char *path, const char *within, char *why, size_t whysz);

/* The same as a FILE ("rb"); NULL and why on failure. */
FILE *safe_fopen_read(const char *path, const char *within, char *why, size_t whysz);

/* Reads all of path (safe_open_read), at most max bytes: more is an error
** ("larger than MAX bytes"). Returns a NUL-terminated malloc'd buffer and
** its length in *len, or NULL with why set. */
char *safe_read_file(const char *path, const char *within, size_t max, size_t *len, char *why,
                     size_t whysz);

/* Opens path to write from its start ("w"): a new file, or an existing
** regular file (emptied only once it is known to be one). A FIFO, device,
** folder or socket is refused without blocking, a loop of symlinks is
** refused (ELOOP) and the link left alone. NULL with why set. */
FILE *safe_fopen_write(const char *path, char *why, size_t whysz);

/* What kind of file mode m is, for a message: "a FIFO", "a folder", ... */
const char *safe_open_kind(unsigned mode);

#endif
