/* SPDX-License-Identifier: MIT */
/*
 * unwind.h - backtraces of a thread of the monitored program, stopped
 * under ptrace, through libunwind's ptrace accessors; frames are named
 * (function, file:line where debug information exists) through
 * symbols.h.  Nothing here prints.
 */
#ifndef NOOSA_UNWIND_H
#define NOOSA_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct symbols;

/* Frames of one backtrace at most (a stack overflow has thousands). */
#define UNWIND_MAX 16384

struct unwind_frame {
    uint64_t pc;      /* where the frame is: the faulting instruction for
                         frame 0 and signal frames, else a return address */
    int signal_frame; /* the kernel made this frame for a signal handler */
    /* Filled in by unwind_name(); strings belong to the symbols object. */
    const char *function;
    uint64_t offset;
    const char *file;
    int line;
    const char *module;
};

struct unwind_trace {
    pid_t tid;
    unsigned int n;
    int truncated; /* there were more than UNWIND_MAX frames */
    struct unwind_frame *frames;
};

/* Unwind thread TID, which must be stopped under ptrace by us.  Returns 0
 * (with at least frame 0), or -1 with *cause.  Free TR with
 * unwind_free() either way. */
int unwind_thread(pid_t tid, struct unwind_trace *tr, char **cause);
void unwind_free(struct unwind_trace *tr);

/* Name every frame of TR through SYM: function and offset, and file and
 * line of the call (for return addresses, the instruction before). */
void unwind_name(struct unwind_trace *tr, struct symbols *sym);

/* One frame as a line of text, gdb-like ("#1  0x... in f () at x.c:12");
 * the caller frees it.  INDEX is the number shown. */
char *unwind_frame_text(const struct unwind_frame *f, unsigned int index);

/* Whether frames A and B are the same place (a recursion). */
int unwind_same(const struct unwind_frame *a, const struct unwind_frame *b);

#endif /* NOOSA_UNWIND_H */
