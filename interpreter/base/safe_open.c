/*
** safe_open.c
** The one door for opening a file by name: O_NONBLOCK so that a FIFO or a
** device cannot hang the open, then fstat on the descriptor itself (not a
** second look at the name) so that only a regular file is read or written,
** then blocking restored. Confinement to a folder compares the realpath of
** the name with the folder and checks that the name still leads to the file
** that was opened (the same device and inode), so a link swapped in between
** is caught too. Reads are bounded by a byte count the caller gives.
*/
#define _GNU_SOURCE /* O_CLOEXEC, O_NOCTTY on older libcs */
#include "safe_open.h"

#include "pathcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *safe_open_kind(unsigned mode) {
    mode_t m = (mode_t)mode;
    if (S_ISDIR(m)) return "a folder";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
    if (S_ISLNK(m)) return "a symlink";
    if (S_ISREG(m)) return "a regular file";
    return "not a file";
}

static void say(char *why, size_t whysz, const char *msg) {
    if (why && whysz) snprintf(why, whysz, "%s", msg);
}

/* fd is open: refuse what is not a regular file; restore blocking. */
static int regular_or_close(int fd, char *why, size_t whysz) {
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        say(why, whysz, strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        if (why && whysz)
            snprintf(why, whysz, "it is %s, not a regular file", safe_open_kind(st.st_mode));
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        say(why, whysz, strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int safe_open_read(const char *path, const char *within, char *why, size_t whysz) {
    if (!path) {
        say(why, whysz, "no file name");
        errno = EINVAL;
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        say(why, whysz, e == ELOOP ? "a loop of symlinks" : strerror(e));
        errno = e;
        return -1;
    }
    if (regular_or_close(fd, why, whysz) < 0) return -1;
    if (within) {
        char *real = realpath(path, NULL);
        struct stat named, opened;
        int same = real && stat(real, &named) == 0 && fstat(fd, &opened) == 0 &&
                   named.st_dev == opened.st_dev && named.st_ino == opened.st_ino;
        int inside = same && pathcheck_inside(real, within);
        free(real);
        if (!inside) {
            say(why, whysz, same ? "it leads out of its folder (a symlink?)"
                                 : "it changed while it was opened");
            close(fd);
            errno = EACCES;
            return -1;
        }
    }
    return fd;
}

/* fd as a stream in mode; NULL (fd closed, why said, errno kept) when
** fdopen fails. */
static FILE *stream_of(int fd, const char *mode, char *why, size_t whysz) {
    FILE *f = fdopen(fd, mode);
    if (!f) {
        int e = errno;
        say(why, whysz, strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

FILE *safe_fopen_read(const char *path, const char *within, char *why, size_t whysz) {
    int fd = safe_open_read(path, within, why, whysz);
    if (fd < 0) return NULL;
    return stream_of(fd, "rb", why, whysz);
}

char *safe_read_file(const char *path, const char *within, size_t max, size_t *len, char *why,
                     size_t whysz) {
    int fd = safe_open_read(path, within, why, whysz);
    if (fd < 0) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            say(why, whysz, "out of memory");
            close(fd);
            errno = ENOMEM;
            return NULL;
        }
        if (n + 1 >= cap) {
            if (cap > max + 1) break; /* read one byte past max: too big */
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            say(why, whysz, strerror(e));
            free(buf);
            close(fd);
            errno = e;
            return NULL;
        }
        if (r == 0) break;
        n += (size_t)r;
        if (n > max) break;
    }
    close(fd);
    if (n > max) {
        if (why && whysz) snprintf(why, whysz, "it is larger than %zu bytes", max);
        free(buf);
        errno = EFBIG;
        return NULL;
    }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

FILE *safe_fopen_write(const char *path, char *why, size_t whysz) {
    if (!path) {
        say(why, whysz, "no file name");
        errno = EINVAL;
        return NULL;
    }
    /* no O_TRUNC: a FIFO or device is refused before anything is changed;
    ** a FIFO with no reader fails the open at once (ENXIO) */
    int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd < 0) {
        int e = errno;
        if (e == ENXIO) say(why, whysz, "it is a FIFO, not a regular file");
        else if (e == ELOOP) say(why, whysz, "it is a loop of symlinks");
        else say(why, whysz, strerror(e));
        errno = e;
        return NULL;
    }
    if (regular_or_close(fd, why, whysz) < 0) return NULL;
    if (ftruncate(fd, 0) != 0) {
        int e = errno;
        say(why, whysz, strerror(e));
        close(fd);
        errno = e;
        return NULL;
    }
    return stream_of(fd, "w", why, whysz);
}
