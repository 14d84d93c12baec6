/* SPDX-License-Identifier: MIT */
/*
 * output.c - all-or-nothing output.  The generated files are written to
 * temporary files in the output directory (so rename() cannot cross file
 * systems) and renamed only when all of them were written and closed.  A
 * failed or interrupted run leaves no file half-written: the signals that
 * usually stop a program wait until the temporary files are gone.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "xmalloc.h"

/* Write LEN bytes of DATA to FD, retrying short writes. */
static int output_all(int fd, const char *data, size_t len)
{
    ssize_t n;

    while (len > 0) {
        n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

int output_write(const struct output_file *files, size_t n, char **cause)
{
    char **tmp = xcalloc(n, sizeof *tmp);
    mode_t mask = umask(0);
    sigset_t stop, old;
    size_t i, made = 0;
    int fd, r = -1;

    umask(mask);
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    sigaddset(&stop, SIGQUIT);
    sigprocmask(SIG_BLOCK, &stop, &old);
    for (i = 0; i < n; i++) {
        tmp[i] = xasprintf("%s.tmpXXXXXX", files[i].path);
        fd = mkstemp(tmp[i]);
        if (fd < 0) {
            *cause = xasprintf("cannot create '%s': %s", files[i].path,
                               strerror(errno));
            goto fail_create;
        }
        made++;
        if (fchmod(fd, 0666 & ~mask) < 0 ||
            output_all(fd, files[i].data, files[i].len) < 0) {
            *cause = xasprintf("cannot write '%s': %s", files[i].path,
                               strerror(errno));
            close(fd);
            goto fail_create;
        }
        if (close(fd) < 0) {
            *cause = xasprintf("cannot write '%s': %s", files[i].path,
                               strerror(errno));
            goto fail_create;
        }
    }
    for (i = 0; i < n; i++) {
        if (rename(tmp[i], files[i].path) < 0) {
            *cause = xasprintf("cannot create '%s': %s", files[i].path,
                               strerror(errno));
            goto fail_rename;
        }
    }
    r = 0;
    goto done;

fail_rename:
    /* Files before i are in place, but they do not match the old files
     * after them: remove them too, so nothing mixed is left. */
    for (size_t j = 0; j < i; j++)
        unlink(files[j].path);
    for (; i < n; i++)
        unlink(tmp[i]);
    goto done;
fail_create:
    for (i = 0; i < made; i++)
        unlink(tmp[i]);
done:
    sigprocmask(SIG_SETMASK, &old, NULL);
    for (i = 0; i < n; i++)
        free(tmp[i]);
    free(tmp);
    return r;
}
