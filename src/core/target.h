/* SPDX-License-Identifier: MIT */
/*
 * target.h - the monitored program under ptrace: start, continue,
 * interrupt, kill, faults before delivery, breakpoints, memory.
 *
 * Everything is driven by the caller's poll loop: target_fd() becomes
 * readable when something may have happened (a SIGCHLD self-pipe), and
 * target_poll() then collects what did, without blocking.  The functions
 * that block say so.  The module installs one SIGCHLD handler for the
 * process (the caller must not install its own); apart from that pipe it
 * keeps no global state.  Nothing here prints.
 *
 * Every thread is traced (PTRACE_O_TRACECLONE), and the program is killed
 * when the monitor dies (PTRACE_O_EXITKILL).  Processes the program
 * creates are reported and let go at once: never stopped, never killed
 * with it.  Signals other than the fatal
 * ones are passed on silently; stopping signals leave the program in a
 * group-stop that SIGCONT ends, as without a tracer.
 */
#ifndef NOOSA_TARGET_H
#define NOOSA_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct target;

struct target_opts {
    char *const *argv;     /* program and arguments; a name without '/' is
                              looked up in PATH */
    char *const *env;      /* extra NAME=VALUE strings (NULL-terminated),
                              or NULL */
    int fd_in;             /* descriptors for the program's 0, 1, 2; */
    int fd_out;            /* -1 to inherit the monitor's */
    int fd_err;
    const int *keep_fds;   /* descriptors the program inherits as they are */
    int nkeep;
};

enum target_event_kind {
    TARGET_EV_EXITED = 1, /* status: the program called exit */
    TARGET_EV_KILLED,     /* signo, core: the program died of a signal */
    TARGET_EV_FAULT,      /* tid, signo, code, addr: a fatal signal is about
                             to be delivered; the thread waits until
                             target_fault_pass() or target_kill() */
    TARGET_EV_INTERRUPTED, /* every thread is stopped (target_interrupt) */
    TARGET_EV_BREAK,       /* tid, addr: target_run_to() got there; every
                              thread is stopped */
    TARGET_EV_FORK,        /* tid, status, code: thread tid created
                              process status (code 1: by vfork); it is
                              not traced, unless target_keep_children() */
    TARGET_EV_EXEC,        /* tid: the program executed another program
                              (still traced, same pid); it waits at the
                              exec, stopped, for target_continue() or
                              target_run_to() */
    TARGET_EV_BREAKPOINT   /* tid, addr: thread tid hit the breakpoint
                              at addr (target_break_insert); it waits,
                              alone, for target_break_go() */
};

struct target_event {
    enum target_event_kind kind;
    pid_t tid;
    int status;
    int signo;
    int code;      /* si_code of a fault */
    int core;      /* KILLED: a core was dumped */
    int held;      /* FORK: the thread waits at its fork (target_hold_forks) */
    uint64_t addr; /* FAULT: fault address; BREAK: breakpoint address */
};

/* Keep the processes the program creates (KEEP 1) stopped at their
 * first stop, traced, until target_adopt() or target_release_child();
 * otherwise (the default) they are let go there. */
void target_keep_children(struct target *t, int keep);

/* Keep a thread that forks (HOLD 1) stopped at its fork, its fork() not
 * returned, until the caller takes the TARGET_EV_FORK (held set) and
 * resumes it (target_resume_thread) or lets the process go; otherwise
 * (the default) it goes on at once.  For a parent let go at its fork,
 * which must emit nothing monitored after it. */
void target_hold_forks(struct target *t, int hold);

/* A target for process CHILD, which PARENT's program created and which
 * was kept (target_keep_children): waits up to TIMEOUT_MS for its first
 * stop; it is then stopped, with its one thread.  Attached or started
 * as its parent is (started: it dies with noosa). */
int target_adopt(struct target **out, struct target *parent, pid_t child,
                 int timeout_ms, char **cause);

/* Let go of CHILD, kept at its first stop. */
void target_release_child(struct target *t, pid_t child);

/* Start the program stopped at its first instruction (all threads
 * stopped).  Blocks until the exec has succeeded or failed.  A missing
 * or non-executable program and a failed exec are reported in *cause. */
int target_start(struct target **out, const struct target_opts *opts,
                 char **cause);

/* Attach to process PID, which runs already: seize every thread (without
 * PTRACE_O_EXITKILL: it outlives noosa) and stop them all (waiting at
 * most TIMEOUT_MS).  No such process, another user's, a process traced
 * already, and ptrace refused (with the kernel's reason) are said in
 * *cause. */
int target_attach(struct target **out, pid_t pid, int timeout_ms,
                  char **cause);
/* Whether T was attached to (target_attach) rather than started. */
int target_is_attached(const struct target *t);
/* Let every thread go on untraced (stopping those that run first, so
 * that each gets its pending signal), a breakpoint of target_run_to()
 * not reached undone; T then counts as ended.  A program noosa started
 * is reaped when it ends (while targets are polled, or by
 * target_reap_loose()). */
void target_detach(struct target *t);

/* Programs noosa started and let go (target_detach) that have not been
 * reaped yet. */
unsigned int target_loose(void);
/* Take what target_fd() has to read and reap those of them that have
 * ended (every target poll does it too; a wake-up meant for a target is
 * kept for it). */
void target_reap_loose(void);
/* The end of one program let go that was reaped: 1 with its pid and
 * either its exit status or the signal that killed it (*SIGNO not 0),
 * oldest first; 0 when none is left to tell. */
int target_loose_ended(pid_t *pid, int *status, int *signo);

/* Make thread TID, stopped, call FN(ARGS[0], ARGS[1], ARGS[2]) and come
 * back: its registers are saved, the call runs on a frame below its
 * stack pointer and returns to address 0, where the SIGSEGV ends it;
 * then the registers are restored (an interrupted system call restarts
 * when the thread goes on).  The other threads stay as they are.  PUMP,
 * when not NULL, is called often meanwhile (the call may wait for the
 * monitor).  Returns 0 with *RET (the function's return value), or -1
 * with *cause (the program ended, the call crashed or did not return
 * within TIMEOUT_MS).  Blocks. */
int target_inject(struct target *t, pid_t tid, uint64_t fn,
                  const uint64_t args[3], void (*pump)(void *), void *arg,
                  int timeout_ms, uint64_t *ret, char **cause);
/* The ids of T's threads, up to MAX into TIDS; returns how many. */
unsigned int target_threads(const struct target *t, pid_t *tids,
                            unsigned int max);
/* A stopped thread to make calls in (not one kept inside a system call,
 * at a clone or fork): the leader when it can be, else any; 0 none. */
pid_t target_main_thread(const struct target *t);
/* What thread TID is doing, in words (for messages). */
const char *target_thread_state(const struct target *t, pid_t tid);
/* The instruction pointer of stopped thread TID. */
int target_pc(struct target *t, pid_t tid, uint64_t *pc);

/* Kill the program if it is alive and reap it (blocks for that), then
 * free T.  A program attached to is let go instead (target_detach). */
void target_free(struct target *t);

pid_t target_pid(const struct target *t);
/* The program of the last exec (read at its stop), or NULL. */
const char *target_exec_path(const struct target *t);
int target_alive(const struct target *t);
/* Whether every thread is stopped (at the start, after an interrupt or a
 * breakpoint; threads waiting on a fault count as stopped). */
int target_stopped(const struct target *t);

/* A descriptor to poll for reading; when it is readable, call
 * target_poll() until it returns 0. */
int target_fd(const struct target *t);

/* Collect what happened, without blocking: 1 with *ev filled, 0 when
 * nothing is pending. */
int target_poll(struct target *t, struct target_event *ev);

/* Whether T may have something to collect although target_fd() is not
 * readable: the descriptor is every target's, and a wake-up that another
 * target took (its target_poll() or target_wait()) may have been for T;
 * or T has collected events already that no one took (target_interrupt()
 * and the like collect what is pending, an end too).  A caller polls the
 * targets behind before it sleeps. */
int target_behind(const struct target *t);

/* Wait up to NS nanoseconds, spinning (a yield a turn: whoever shares
 * the CPU runs), for a thread of a target (or a child of noosa) to have
 * a wait status to collect: 1 when one has; every target is then behind
 * (target_behind()) until its next target_poll().  For a caller that
 * expects a stop within microseconds (a thread just let go past a
 * probe): SIGCHLD is held meanwhile, so that the stop costs noosa no
 * signal handler and the program's CPU no signal to send it. */
int target_spin(uint64_t ns);

/* Wait up to TIMEOUT_MS (-1: no limit) for an event: 1 with *ev, 0 on
 * timeout.  Blocks, by definition. */
int target_wait(struct target *t, struct target_event *ev, int timeout_ms);

/* Give EV back: the next target_poll() returns it first. */
void target_unread(struct target *t, const struct target_event *ev);

/* Resume every thread that the monitor stopped.  Threads waiting on a
 * fault stay there. */
int target_continue(struct target *t, char **cause);

/* Stop every thread of a running program; TARGET_EV_INTERRUPTED follows
 * once they all are. */
int target_interrupt(struct target *t, char **cause);

/* Stop thread TID alone (the others run on) and wait until it is
 * stopped, at most TIMEOUT_MS; what else happens meanwhile is kept for
 * target_poll().  Returns 0 (it is stopped: registers and memory may be
 * changed), or -1 with *cause.  Blocks. */
int target_stop_thread(struct target *t, pid_t tid, int timeout_ms,
                       char **cause);
/* Let thread TID, stopped alone or with the others, go on. */
int target_resume_thread(struct target *t, pid_t tid, char **cause);

/* Make thread TID, stopped, call FN(ARG0, ARG1) when it goes on, on a
 * frame below its stack pointer (STACK_TOP 0) or at STACK_TOP, with a
 * return address of 0: FN must never return.  Returns 0, -2 with *cause
 * when the stack cannot take the frame (nothing changed), -1 with *cause
 * on other failures. */
int target_call(struct target *t, pid_t tid, uint64_t fn, uint64_t arg0,
                uint64_t arg1, uint64_t stack_top, char **cause);

/* Deliver the pending fatal signal of thread TID to the program (its
 * handler, if any, runs; else the program dies). */
int target_fault_pass(struct target *t, pid_t tid, char **cause);

/* Resume thread TID, waiting on a fault, without delivering its signal:
 * the caller has changed the thread (its registers or memory) so that it
 * recovers. */
int target_fault_discard(struct target *t, pid_t tid, char **cause);

/* Send SIGKILL; TARGET_EV_KILLED follows. */
int target_kill(struct target *t);

/* Put a breakpoint at ADDR and resume; TARGET_EV_BREAK follows when a
 * thread gets there (the breakpoint is then removed).  The program must
 * be stopped. */
int target_run_to(struct target *t, uint64_t addr, char **cause);

/*
 * Breakpoints at probe sites <design#probes>: a breakpoint instruction
 * in place of the first byte of an instruction that the target knows how
 * to carry out itself when the thread goes on (EMUL: a nop of that many
 * bytes, or TARGET_EMUL_RET for a return), so that no thread ever has to
 * step over it.  The target keeps what it changed in the program's code
 * and counters (target_counter_add: a probe's semaphore) and undoes it
 * in every process that goes on without noosa: a forked child let go
 * (one made by vfork, which shares the memory, is watched until it
 * executes or ends instead, its hits carried out), a child adopted
 * (target_adopt: it starts clean), the program at target_detach().  An
 * exec leaves nothing of them.  A hit at a breakpoint removed meanwhile
 * is carried out silently.  All-stop is the caller's: a thread that hits
 * one waits alone, the others run on.
 */
#define TARGET_EMUL_RET 0xff
int target_break_insert(struct target *t, uint64_t addr, unsigned int emul,
                        char **cause);
int target_break_remove(struct target *t, uint64_t addr, char **cause);
/* Let thread TID, waiting at a breakpoint, go on as if the instruction
 * had been there (its effect carried out). */
int target_break_go(struct target *t, pid_t tid, char **cause);
/* Add DELTA to the 16-bit counter at ADDR in the program (a probe's
 * semaphore), kept to be undone as the code is. */
int target_counter_add(struct target *t, uint64_t addr, int delta,
                       char **cause);
/* Keep LEN bytes ORIG that noosa replaced at ADDR (a probe handled in
 * the program), to be undone with the rest; target_patch_forget() when
 * they are back (or unmapped). */
void target_patch_keep(struct target *t, uint64_t addr,
                       const unsigned char *orig, unsigned int len);
void target_patch_forget(struct target *t, uint64_t addr);
/* Forget the counter at ADDR (unmapped: nothing to undo there). */
void target_counter_forget(struct target *t, uint64_t addr);
/* Write LEN bytes of code at ADDR (read-only pages too: /proc/PID/mem),
 * without keeping anything to undo. */
int target_write_code(struct target *t, uint64_t addr, const void *buf,
                      size_t len, char **cause);
/* Stop every thread that runs (the others stay as they are), to change
 * code they may be running, waiting up to TIMEOUT_MS; what else happens
 * meanwhile is kept for target_poll().  target_unpause() lets go those
 * it stopped.  Blocks. */
int target_pause(struct target *t, int timeout_ms, char **cause);
void target_unpause(struct target *t);
/* The registers of stopped thread TID (struct user_regs_struct). */
struct user_regs_struct;
int target_regs(struct target *t, pid_t tid, struct user_regs_struct *regs);

/* Read or write LEN bytes of the program's memory at ADDR (process_vm,
 * else ptrace on a stopped thread). */
int target_read(struct target *t, uint64_t addr, void *buf, size_t len,
                char **cause);
int target_write(struct target *t, uint64_t addr, const void *buf,
                 size_t len, char **cause);

/* Read up to LEN bytes at ADDR: how many could be read from the start
 * (process_vm_readv, which stops at the first page it cannot read; else
 * ptrace on a stopped thread, a word at a time, up to the first word it
 * cannot read).  Never an error: 0 bytes is the answer for a bad address
 * or a program that is gone. */
size_t target_read_some(struct target *t, uint64_t addr, void *buf,
                        size_t len);
/* Whether thread TID is stopped under ptrace (its registers can be
 * read): stopped by the monitor or at a fatal signal. */
int target_thread_stopped(const struct target *t, pid_t tid);

/* The kernel's name for a signal ("SIGSEGV"), or "signal N". */
const char *target_signal_name(int signo, char *buf, size_t size);

#endif /* NOOSA_TARGET_H */
