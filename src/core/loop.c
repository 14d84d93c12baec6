/* SPDX-License-Identifier: MIT */
/*
 * loop.c - the front end's poll() loop: descriptors with callbacks and
 * sleep hooks.  Callbacks may add and remove watches, including their
 * own, while the loop runs.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "xmalloc.h"

struct loop_watch {
    int fd; /* -1 once removed */
    short events;
    loop_fd_fn fn;
    void *arg;
};

struct loop_hook {
    loop_prepare_fn prepare;
    loop_finish_fn finish;
    void *arg;
};

struct loop {
    struct loop_watch *watches;
    size_t nwatches;
    struct loop_hook *hooks;
    size_t nhooks;
    struct pollfd *pfds;
    size_t pfd_cap;
};

struct loop *loop_create(void)
{
    return xcalloc(1, sizeof(struct loop));
}

void loop_free(struct loop *l)
{
    if (l == NULL)
        return;
    free(l->watches);
    free(l->hooks);
    free(l->pfds);
    free(l);
}

void loop_add(struct loop *l, int fd, short events, loop_fd_fn fn, void *arg)
{
    size_t i;

    for (i = 0; i < l->nwatches; i++) {
        if (l->watches[i].fd == fd)
            break;
    }
    if (i == l->nwatches) {
        for (i = 0; i < l->nwatches; i++) {
            if (l->watches[i].fd == -1)
                break;
        }
    }
    if (i == l->nwatches) {
        l->watches = xreallocarray(l->watches, l->nwatches + 1,
                                   sizeof *l->watches);
        l->nwatches++;
    }
    l->watches[i].fd = fd;
    l->watches[i].events = events;
    l->watches[i].fn = fn;
    l->watches[i].arg = arg;
}

void loop_remove(struct loop *l, int fd)
{
    size_t i;

    for (i = 0; i < l->nwatches; i++) {
        if (l->watches[i].fd == fd)
            l->watches[i].fd = -1;
    }
}

void loop_add_hook(struct loop *l, loop_prepare_fn prepare,
                   loop_finish_fn finish, void *arg)
{
    l->hooks = xreallocarray(l->hooks, l->nhooks + 1, sizeof *l->hooks);
    l->hooks[l->nhooks].prepare = prepare;
    l->hooks[l->nhooks].finish = finish;
    l->hooks[l->nhooks].arg = arg;
    l->nhooks++;
}

void loop_remove_hook(struct loop *l, void *arg)
{
    size_t i;

    for (i = 0; i < l->nhooks; i++) {
        if (l->hooks[i].arg == arg) {
            memmove(&l->hooks[i], &l->hooks[i + 1],
                    (l->nhooks - i - 1) * sizeof *l->hooks);
            l->nhooks--;
            i--;
        }
    }
}

int loop_once(struct loop *l, int timeout_ms)
{
    size_t i, n = 0, nhooks = l->nhooks;
    int rc, ran = 0;

    for (i = 0; i < nhooks && i < l->nhooks; i++) {
        int t;

        if (l->hooks[i].prepare == NULL)
            continue;
        t = l->hooks[i].prepare(l->hooks[i].arg);
        if (t >= 0 && (timeout_ms < 0 || t < timeout_ms))
            timeout_ms = t;
    }
    if (l->pfd_cap < l->nwatches) {
        l->pfd_cap = l->nwatches;
        l->pfds = xreallocarray(l->pfds, l->pfd_cap, sizeof *l->pfds);
    }
    for (i = 0; i < l->nwatches; i++) {
        if (l->watches[i].fd < 0)
            continue;
        l->pfds[n].fd = l->watches[i].fd;
        l->pfds[n].events = l->watches[i].events;
        l->pfds[n].revents = 0;
        n++;
    }
    rc = poll(l->pfds, (nfds_t)n, timeout_ms);
    for (i = 0; i < l->nhooks; i++) {
        if (l->hooks[i].finish != NULL)
            l->hooks[i].finish(l->hooks[i].arg);
    }
    if (rc <= 0)
        return 0;
    /* Callbacks may change the watches: look each ready descriptor up
     * again and skip it when its watch is gone. */
    for (i = 0; i < n; i++) {
        size_t j;

        if (l->pfds[i].revents == 0)
            continue;
        for (j = 0; j < l->nwatches; j++) {
            if (l->watches[j].fd == l->pfds[i].fd) {
                l->watches[j].fn(l->pfds[i].fd, l->pfds[i].revents,
                                 l->watches[j].arg);
                ran++;
                break;
            }
        }
    }
    return ran;
}
