/* SPDX-License-Identifier: MIT */
/*
 * recorder.h - `noosa record` (recorder.c): a program run with its events
 * recorded to a directory, without a screen.
 */
#ifndef NOOSA_RECORDER_H
#define NOOSA_RECORDER_H

/* noosa record's options and program in ARGV (ARGV[0] is "record");
 * returns noosa's exit status. */
int recorder_main(int argc, char **argv);

#endif /* NOOSA_RECORDER_H */
