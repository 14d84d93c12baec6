/* SPDX-License-Identifier: MIT */
/*
 * target-int.h - what the files of the target share <design#target>:
 * struct target and its threads, the SIGCHLD self-pipe and the live
 * targets, and the functions one file gives the others, in the order of
 * the files.  Not for use outside src/core/target*.c.
 */
#ifndef NOOSA_TARGET_INT_H
#define NOOSA_TARGET_INT_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#include "target.h"

enum thread_state {
    TH_RUNNING,
    TH_STOPPED, /* stopped by the monitor; resumed by target_continue */
    TH_FAULT,   /* in a signal-delivery-stop for a fatal signal */
    TH_GROUP,   /* in a group-stop, listening */
    TH_BREAK    /* stopped at a breakpoint (target_break_insert), until
                   target_break_go */
};

struct target_thread {
    pid_t tid;
    enum thread_state state;
    int pending_sig; /* a signal to deliver when resumed */
    int want_stop;   /* target_stop_thread() asked it to stop */
    int mid_call;    /* stopped inside a system call that has not
                        returned (a clone or fork event kept by an
                        interrupt): no call may be made in it */
    uint64_t at_bp;  /* TH_BREAK: the breakpoint's address */
    int paused;      /* stopped by target_pause() */
#if defined(__x86_64__)
    /* TH_BREAK: its registers as the hit found them (have_regs), which
     * the probe's arguments are read from; forgotten as it goes on or
     * they are set */
    struct user_regs_struct regs;
    int have_regs;
#endif
};

/* A breakpoint at a probe site, and the byte it replaced; one removed is
 * kept (live 0) so that a hit that was on its way is still known. */
struct target_bp {
    uint64_t addr;
    unsigned char orig;
    unsigned char emul; /* bytes of the nop, or TARGET_EMUL_RET */
    unsigned char live;
};

/* Code noosa replaced (a probe handled in the program), and what was
 * there. */
struct target_patch {
    uint64_t addr;
    unsigned int len;
    unsigned char orig[32];
};

/* A 16-bit counter of the program noosa added DELTA to. */
struct target_cnt {
    uint64_t addr;
    int delta;
};

/* Events collected by one reap at most (it goes on at the next poll);
 * the queue itself grows as needed: an event given back (target_unread)
 * or collected is never dropped, or a thread would wait at a fault
 * nobody was told of. */
#define TARGET_QUEUE 1024

struct target {
    pid_t pid;
    int alive;
    int attached;     /* seized while it ran (target_attach): let go at
                         the end, never killed */
    pid_t inject_tid; /* the thread running a call of target_inject() */
    int inject_done;  /* its SIGSEGV (the call returned to 0) came */
    char *exec_path;  /* the program of the last exec (TARGET_EV_EXEC) */
    struct target_thread *threads;
    unsigned int nthreads;
    unsigned int athreads;
    unsigned long threads_gen; /* counts threads added and removed */

    int interrupting; /* waiting for every thread to stop */
    int breaking;     /* the stop is for a breakpoint hit */
    struct target_event brk_ev;

    uint64_t bp_addr; /* armed breakpoint, 0 if none */
    long bp_word;     /* the word it replaced */

    struct target_event *queue; /* a ring of qcap */
    unsigned int qhead, qlen, qcap;

    int reap_more;     /* the last reap stopped early */
    uint64_t last_reap; /* CLOCK_MONOTONIC ns of the last full reap */
    unsigned long wakes_seen; /* target_wakes at the last full reap */
    /* wait statuses of our threads that another target collected (its
     * target_free() reaps any child), handled at the next reap */
    struct target_status {
        pid_t tid;
        int status;
    } *stash;
    unsigned int nstash;

    /* Processes the program created: traced by the kernel's doing until
     * their first stop is collected and they are detached. */
    pid_t *children;
    unsigned int nchildren;
    unsigned int achildren;
    int keep_children; /* target_keep_children(): they wait at their
                          first stop for target_adopt() or
                          target_release_child() */
    int hold_forks;    /* target_hold_forks(): a thread that forked
                          waits at its fork stop */
    pid_t *vforked;    /* those of them made by vfork (sharing memory) */
    unsigned int nvforked;

    /* what noosa changed in the program <design#probes>: breakpoints at
     * probe sites (sorted by address) and counters, and the children
     * made by vfork that are watched until they execute or end (they
     * share the breakpoints) */
    struct target_bp *bps;
    unsigned int nbps, abps;
    struct target_cnt *cnts;
    unsigned int ncnts;
    struct target_patch *patches;
    unsigned int npatches;
    pid_t *vkids;
    unsigned int nvkids;
    int memfd; /* /proc/PID/mem once used, else -1 (reopened after an
                  exec: the file stays with the image it was opened on) */
};


/* target.c: the SIGCHLD self-pipe and the wake-ups it counted, and the
 * live targets (set and changed there alone) */
extern int target_pipe[2];
extern unsigned long target_wakes;
extern volatile sig_atomic_t target_signalled;
extern struct target **target_all;
extern unsigned int target_nall;

int target_setup_pipe(char **cause);
struct target_thread *target_thread(struct target *t, pid_t tid);
void target_forget_regs(struct target *t, pid_t tid);
struct target_thread *target_add_thread(struct target *t, pid_t tid,
                                        enum thread_state state);
void target_push(struct target *t, const struct target_event *ev);
void target_register(struct target *t);
void target_resume(struct target *t, struct target_thread *th);
void target_check_stopped(struct target *t);
void target_stop_all(struct target *t);
void target_reap(struct target *t);
long target_now_ms(void);
void target_collect(struct target *t);
pid_t target_stopped_tid(const struct target *t);

/* target-break.c */
struct target_bp *target_bp_find(const struct target *t, uint64_t addr);
void target_undo_in(const struct target *t, pid_t pid);
void target_forget_changes(struct target *t);
int target_emulate(pid_t tid, const struct target_bp *bp, int memfd);
int target_bp_hit(struct target *t, struct target_thread *th);
int target_take_vforked(struct target *t, pid_t child);
void target_child_go(struct target *t, pid_t child);
void target_vkids_go(struct target *t);
void target_watch_vkids(struct target *t);

#endif
