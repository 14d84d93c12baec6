/* SPDX-License-Identifier: MIT */
/*
 * rawtrace.h - the raw-trace driver (`noosa --raw-trace`) and the
 * describe pass (`noosa --describe`).
 */
#ifndef NOOSA_RAWTRACE_H
#define NOOSA_RAWTRACE_H

#include <stdint.h>

struct rawtrace_opts {
    char *const *argv;      /* program and arguments */
    const char *output;     /* trace file, NULL for standard output */
    int describe;           /* run to main, print the interface, kill */
    const char *stop_at;    /* stop at every occurrence of this event */
    char **sends;           /* "OP ARG ..." run at each stop */
    int nsends;
    int timeout_ms;         /* for each operation */
    int interrupt_after_ms; /* interrupt, then kill, after this; 0: never */
    uint32_t ring_size;     /* 0: default */
    int overwrite;
    int no_tsc;
};

/* Run the program as O says; returns noosa's exit status (0 when the
 * program ran, whatever it did; 1 when it could not be run). */
int rawtrace_run(const struct rawtrace_opts *o);

#endif /* NOOSA_RAWTRACE_H */
