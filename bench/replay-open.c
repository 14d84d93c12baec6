/* SPDX-License-Identifier: MIT */
/*
 * replay-open.c - where the opening of a recording's stream goes (make
 * bench-replay): for the stream FILE, the time to map it and touch each
 * of its pages once, to check every packet of the mapping once touched
 * (recfile_check, as the reader does), and to read it with read() into a
 * reused 1 MiB buffer; the best of ROUNDS each, in ms.
 *
 *     replay-open FILE [ROUNDS]
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "recfile.h"

static double now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void best(double *b, double t)
{
    if (*b < 0 || t < *b)
        *b = t;
}

int main(int argc, char **argv)
{
    int rounds = argc > 2 ? atoi(argv[2]) : 3, fd;
    double touch = -1, check = -1, rd = -1;
    static unsigned char buf[1 << 20];
    volatile unsigned int sink = 0;
    struct stat st;

    if (argc < 2 || (fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "usage: replay-open FILE [ROUNDS]\n");
        return 2;
    }
    for (int r = 0; r < rounds; r++) {
        size_t n = (size_t)st.st_size, off = 0;
        double t0 = now_ms(), t1, t2;
        unsigned char *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
        ssize_t k;

        if (m == MAP_FAILED) {
            perror("mmap");
            return 1;
        }
        for (size_t i = 0; i < n; i += 4096)
            sink += m[i];
        t1 = now_ms();
        while (off + RECFILE_PACKET_HEADER <= n) {
            uint64_t len = recfile_get64(m + off + RECFILE_OFF_PACKET) / 8;

            if (len < RECFILE_PACKET_HEADER || len > n - off)
                break;
            sink += recfile_check(m + off, (size_t)len);
            off += (size_t)len;
        }
        t2 = now_ms();
        munmap(m, n);
        best(&touch, t1 - t0);
        best(&check, t2 - t1);
        t0 = now_ms();
        off = 0;
        while ((k = pread(fd, buf, sizeof buf, (off_t)off)) > 0) {
            sink += buf[0];
            off += (size_t)k;
        }
        best(&rd, now_ms() - t0);
    }
    printf("  %zu MB: map and touch each page %.1f ms, check the packets "
           "%.1f ms, read() %.1f ms\n", (size_t)st.st_size >> 20, touch,
           check, rd);
    close(fd);
    return sink == 0xffffffffu; /* (so that the sums are made) */
}
