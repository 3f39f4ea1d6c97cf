#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CWaylandShims.h"

int meridian_create_shm_file(size_t size) {
    int fd = memfd_create("meridian-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    int rc;
    do { rc = ftruncate(fd, (off_t)size); } while (rc < 0 && errno == EINTR);
    if (rc < 0) { int e = errno; close(fd); errno = e; return -1; }
    /* The compositor maps this file too: forbid it from shrinking under its feet. */
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
    return fd;
}
