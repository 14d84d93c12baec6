/* SPDX-License-Identifier: MIT */
/*
 * dump.h - `noosa dump` (dump.c): a recording's events as text, and its
 * exports.
 */
#ifndef NOOSA_DUMP_H
#define NOOSA_DUMP_H

/* noosa dump's options and recording in ARGV (ARGV[0] is "dump");
 * returns noosa's exit status. */
int dump_main(int argc, char **argv);

#endif /* NOOSA_DUMP_H */
