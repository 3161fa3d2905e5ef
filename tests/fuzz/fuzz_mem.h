/* tests/fuzz/fuzz_mem.h — fuzz inputs as files that never reach the disk (make fuzz).
**
** The readers take a path; a memfd gives one (/proc/self/fd/N) that vanishes with its
** descriptor, so a harness leaves no /tmp/fst-fuzz-* file behind, not even when it
** crashes. Writers that must produce a file write to /dev/null.
*/
#ifndef FST_FUZZ_MEM_H
#define FST_FUZZ_MEM_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Put n bytes into an anonymous memory file and its path into path; returns the
** descriptor (close it when done), -1 when it cannot be made. */
static inline int fuzz_memfile(const uint8_t *data, size_t n, char *path, size_t cap)
{
    int fd = memfd_create("fst-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < n;) {
        ssize_t k = write(fd, data + done, n - done);
        if (k <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)k;
    }
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
