/* SPDX-License-Identifier: MIT */
/*
 * fault-recover.h - the monitor's side of recovery points and reported
 * errors <protocol#recover>: what the program's recovery table says about
 * a stopped thread, and the two ways of converting its error: a verdict
 * for an error reported with dapto_error(), or a call of the runtime's
 * resume function that makes the thread fail its innermost recovery
 * point.  Everything read from the program is checked.  Nothing here
 * prints.
 */
#ifndef NOOSA_FAULT_RECOVER_H
#define NOOSA_FAULT_RECOVER_H

#include <stdint.h>
#include <sys/types.h>

struct target;

/* What the table says about one thread. */
struct fault_recover {
    int unsound;        /* the table could not be read or is not sound */
    char *problem;      /* what was wrong, then (set by the caller) */
    int table;          /* the program has a recovery table */
    uint64_t table_addr;
    int held;           /* the thread holds a slot ... */
    unsigned int slot;  /* ... this one */
    unsigned int depth; /* recovery points the thread is inside */
    uint64_t point;     /* its innermost one, 0 when none */
    char *file;         /* where that point is (NULL when unreadable) */
    char *func;
    int line;
    int reported;       /* the thread reports an error (dapto_error) */
    char *message;      /* its message */
    uint64_t resume;    /* the runtime's resume function */
    uint64_t stack;     /* and the stack it may run on */
    uint32_t stack_size;
};

/* Read what the table at TABLE_ADDR (0: the program has none) says about
 * thread TID.  Returns 0 (R filled; R->table 0 when there is no table),
 * or -1 with *cause and R->unsound when the table cannot be read or is
 * not sound.  Free R with fault_recover_clear(). */
int fault_recover_read(struct target *t, uint64_t table_addr, pid_t tid,
                       struct fault_recover *r, char **cause);
void fault_recover_clear(struct fault_recover *r);

/* Make thread TID, stopped at signal SIGNO (fault address ADDR), call the
 * runtime's resume function when it goes on, so that it fails its
 * innermost recovery point; the caller then resumes it without the
 * signal.  R must say the thread is inside one. */
int fault_recover_jump(struct target *t, const struct fault_recover *r,
                       pid_t tid, int signo, uint64_t addr, char **cause);

/* Convert the error thread R's slot reports: write the verdict; the
 * caller then resumes the thread without the signal. */
int fault_recover_verdict(struct target *t, const struct fault_recover *r,
                          char **cause);

#endif /* NOOSA_FAULT_RECOVER_H */
