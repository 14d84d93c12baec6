/* SPDX-License-Identifier: MIT */
/*
 * recguard.c - a recording's files cut to their last whole write when
 * noosa dies.  See recguard.h.
 *
 * The committed lengths live in a memfd both processes map: a head, then
 * a slot a file (its name and length), appended by noosa, which stores a
 * slot's length with one 8-byte store after each whole write.  The
 * guarding process is a grandchild (noosa never reaps it, nor does it
 * show among noosa's children), in a session of its own (a signal to
 * noosa's process group does not reach it), with nothing open but the
 * directory, the table and its end of the pipe: it sleeps in read(2) and
 * acts when the pipe says noosa is done ('d': exit) or gone (end of file:
 * cut, then exit).  Between fork() and _exit() it makes system calls
 * only (noosa may have threads).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recfile.h"
#include "recguard.h"
#include "xmalloc.h"

#define RG_MAGIC 0x4e524731u /* "NRG1" */
#define RG_SLOT_NAME 56

struct rg_slot {
    uint64_t len;            /* committed: whole up to here */
    char name[RG_SLOT_NAME]; /* in the directory, NUL-terminated */
};

struct rg_head {
    uint32_t magic;
    uint32_t nslots; /* slots whose name is written (release store) */
    unsigned char pad[sizeof(struct rg_slot) - 8];
};

_Static_assert(sizeof(struct rg_slot) == 64, "a slot is 64 bytes");
_Static_assert(sizeof(struct rg_head) == 64, "the head is a slot's size");

struct recguard {
    int dirfd, table_fd, pipe_fd;
    unsigned char *table;
    size_t size;     /* of the table */
    uint32_t nslots; /* noosa's count (the table's, as stored) */
};

static struct rg_slot *slot_at(unsigned char *table, uint32_t i)
{
    return (struct rg_slot *)(void *)(table + sizeof(struct rg_head) +
                                      (size_t)i * sizeof(struct rg_slot));
}

void recguard_cut(int dirfd, int table_fd)
{
    struct stat st;
    unsigned char *table;
    struct rg_head *h;
    uint32_t n, i, max;
    int whole_metadata = 1;

    if (fstat(table_fd, &st) != 0 || (size_t)st.st_size < sizeof *h)
        return;
    table = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, table_fd, 0);
    if (table == MAP_FAILED)
        return;
    h = (struct rg_head *)(void *)table;
    max = (uint32_t)(((size_t)st.st_size - sizeof *h) / sizeof(struct rg_slot));
    n = __atomic_load_n(&h->nslots, __ATOMIC_ACQUIRE);
    if (h->magic != RG_MAGIC || n > max)
        n = 0;
    for (i = 0; i < n; i++) {
        const struct rg_slot *s = slot_at(table, i);
        uint64_t len = __atomic_load_n(&s->len, __ATOMIC_ACQUIRE);
        struct stat fs;
        int fd;

        if (memchr(s->name, '\0', sizeof s->name) == NULL ||
            s->name[0] == '\0' || strchr(s->name, '/') != NULL)
            continue;
        if (strcmp(s->name, RECFILE_METADATA) == 0 && len == 0)
            whole_metadata = 0;
        fd = openat(dirfd, s->name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (fstat(fd, &fs) == 0 && (uint64_t)fs.st_size > len)
            (void)ftruncate(fd, (off_t)len);
        close(fd);
    }
    if (!whole_metadata) {
        /* not even the metadata's start: no recording at all, rather
         * than files no reader takes */
        for (i = 0; i < n; i++) {
            const struct rg_slot *s = slot_at(table, i);

            if (memchr(s->name, '\0', sizeof s->name) != NULL &&
                s->name[0] != '\0' && strchr(s->name, '/') == NULL)
                (void)unlinkat(dirfd, s->name, 0);
        }
    }
    munmap(table, (size_t)st.st_size);
}

/* Close every descriptor but A, B and C (system calls only). */
static void close_others(int a, int b, int c)
{
    int keep[3] = {a, b, c}, i, j, t;
    unsigned int from = 3;

    for (i = 0; i < 3; i++)
        for (j = i + 1; j < 3; j++)
            if (keep[j] < keep[i]) {
                t = keep[i];
                keep[i] = keep[j];
                keep[j] = t;
            }
    for (i = 0; i <= 3; i++) {
        unsigned int to = i < 3 ? (unsigned int)keep[i] : ~0u;

        if (i < 3 && (unsigned int)keep[i] < from)
            continue;
        if (to > from) {
#if defined(SYS_close_range)
            if (syscall(SYS_close_range, from, to - 1, 0) != 0)
#endif
                for (unsigned int fd = from; fd < to && fd < 65536; fd++)
                    close((int)fd);
        }
        if (i < 3)
            from = (unsigned int)keep[i] + 1;
    }
}

/* The guarding process: never returns. */
static void guardian(int dirfd, int table_fd, int rfd)
{
    static const int quiet[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP,
                                SIGTTIN, SIGTTOU, SIGPIPE, SIGUSR1, SIGUSR2};
    struct sigaction sa;
    sigset_t none;
    char c;
    ssize_t n;
    int null;
    size_t i;

    setsid();
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    for (i = 0; i < sizeof quiet / sizeof quiet[0]; i++)
        sigaction(quiet[i], &sa, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_NAME, "noosa-recguard", 0, 0, 0);
    null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2)
            close(null);
    }
    close_others(dirfd, table_fd, rfd);
    for (;;) {
        n = read(rfd, &c, 1);
        if (n == 1 && c == 'd')
            _exit(0); /* closed by noosa: the files are whole */
        if (n == 0 || (n < 0 && errno != EINTR))
            break;
    }
    recguard_cut(dirfd, table_fd);
    _exit(0);
}

int recguard_start(struct recguard **out, const char *dir, char **cause)
{
    struct recguard *g = xcalloc(1, sizeof *g);
    int p[2] = {-1, -1}, status;
    pid_t pid, w;

    g->dirfd = g->table_fd = g->pipe_fd = -1;
    g->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (g->dirfd < 0)
        goto fail;
    g->table_fd = memfd_create("noosa-recording", MFD_CLOEXEC);
    g->size = 64 * sizeof(struct rg_slot);
    if (g->table_fd < 0 || ftruncate(g->table_fd, (off_t)g->size) != 0)
        goto fail;
    g->table = mmap(NULL, g->size, PROT_READ | PROT_WRITE, MAP_SHARED,
                    g->table_fd, 0);
    if (g->table == MAP_FAILED) {
        g->table = NULL;
        goto fail;
    }
    ((struct rg_head *)(void *)g->table)->magic = RG_MAGIC;
    if (pipe2(p, O_CLOEXEC) != 0)
        goto fail;
    pid = fork();
    if (pid < 0)
        goto fail;
    if (pid == 0) {
        /* (its child guards; it goes at once, so noosa never has a
         * child of its own to reap later) */
        if (fork() != 0)
            _exit(0);
        close(p[1]);
        guardian(g->dirfd, g->table_fd, p[0]);
    }
    close(p[0]);
    p[0] = -1;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    g->pipe_fd = p[1];
    *out = g;
    return 0;

fail:
    xcause(cause, "%s: cannot guard the recording's files: %s", dir,
           strerror(errno));
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
    g->pipe_fd = -1;
    recguard_stop(g);
    *out = NULL;
    return -1;
}

int recguard_file(struct recguard *g, const char *name)
{
    struct rg_slot *s;
    size_t need;

    if (g == NULL || g->table == NULL)
        return -1;
    need = sizeof(struct rg_head) + ((size_t)g->nslots + 1) * sizeof *s;
    if (need > g->size) {
        size_t size = g->size * 2;
        void *t;

        if (ftruncate(g->table_fd, (off_t)size) != 0)
            return -1;
        t = mremap(g->table, g->size, size, MREMAP_MAYMOVE);
        if (t == MAP_FAILED)
            return -1;
        g->table = t;
        g->size = size;
    }
    s = slot_at(g->table, g->nslots);
    memset(s, 0, sizeof *s);
    strncpy(s->name, name, sizeof s->name - 1);
    __atomic_store_n(&((struct rg_head *)(void *)g->table)->nslots,
                     g->nslots + 1, __ATOMIC_RELEASE);
    return (int)g->nslots++;
}

void recguard_forget(struct recguard *g, int slot)
{
    if (g == NULL || g->table == NULL || slot < 0 ||
        (uint32_t)slot >= g->nslots)
        return;
    /* (a slot without a name is skipped) */
    __atomic_store_n(&slot_at(g->table, (uint32_t)slot)->name[0], '\0',
                     __ATOMIC_RELEASE);
}

void recguard_commit(struct recguard *g, int slot, uint64_t len)
{
    if (g == NULL || g->table == NULL || slot < 0 ||
        (uint32_t)slot >= g->nslots)
        return;
    __atomic_store_n(&slot_at(g->table, (uint32_t)slot)->len, len,
                     __ATOMIC_RELEASE);
}

void recguard_stop(struct recguard *g)
{
    if (g == NULL)
        return;
    if (g->table != NULL && g->dirfd >= 0 && g->table_fd >= 0)
        recguard_cut(g->dirfd, g->table_fd);
    if (g->pipe_fd >= 0) {
        while (write(g->pipe_fd, "d", 1) < 0 && errno == EINTR)
            ;
        close(g->pipe_fd);
    }
    if (g->table != NULL)
        munmap(g->table, g->size);
    if (g->table_fd >= 0)
        close(g->table_fd);
    if (g->dirfd >= 0)
        close(g->dirfd);
    free(g);
}
