/* SPDX-License-Identifier: MIT */
/*
 * loop.h - the one poll() loop of the front end.  Modules add descriptors
 * with callbacks, and hooks that run just before the loop sleeps (to say
 * how long it may sleep, or that it must not) and just after it wakes.
 * Batch mode runs it while a command waits for the program; the screen
 * runs it all the time.
 */
#ifndef NOOSA_LOOP_H
#define NOOSA_LOOP_H

struct loop;

/* Called when FD is ready; REVENTS as from poll(). */
typedef void (*loop_fd_fn)(int fd, short revents, void *arg);

/* Called before sleeping: returns the longest time in milliseconds the
 * loop may sleep for this hook (-1: no limit, 0: do not sleep). */
typedef int (*loop_prepare_fn)(void *arg);

/* Called after poll() returned, before any descriptor callback. */
typedef void (*loop_finish_fn)(void *arg);

struct loop *loop_create(void);
void loop_free(struct loop *l);

/* Watch FD for EVENTS (POLLIN, ...), replacing an earlier watch of FD. */
void loop_add(struct loop *l, int fd, short events, loop_fd_fn fn, void *arg);
void loop_remove(struct loop *l, int fd);

void loop_add_hook(struct loop *l, loop_prepare_fn prepare,
                   loop_finish_fn finish, void *arg);
void loop_remove_hook(struct loop *l, void *arg);

/* Wait up to TIMEOUT_MS (-1: no limit) and run the callbacks of what is
 * ready.  Returns the number of callbacks run. */
int loop_once(struct loop *l, int timeout_ms);

#endif /* NOOSA_LOOP_H */
