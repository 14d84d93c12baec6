/* SPDX-License-Identifier: MIT */
/*
 * main.c - the calc command: read a program from a file, from standard
 * input ("-") or from the command line (-e), and run it.
 *
 * Exit status: 0 when the program ran to its end, 1 when it had an error
 * or could not be read, 2 for a wrong command line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "run.h"
#include "xmalloc.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

static const char calc_usage[] =
    "Usage: calc [FILE | -e PROGRAM]\n"
    "Run a program in calc, a small expression language.\n"
    "\n"
    "FILE \"-\" or no FILE reads standard input.\n"
    "\n"
    "  -e, --eval=PROGRAM  run PROGRAM, given as text\n"
    "  -h, --help          show this help and exit\n"
    "  -V, --version       show the version and exit\n"
    "\n"
    "Example program:\n"
    "  fn fact(n) = if n < 2 then 1 else n * fact(n - 1);\n"
    "  let square = fn (x) x * x in print square(7) + 1;\n"
    "  print \"10! =\", fact(10);\n"
    "\n"
    "Errors are reported as FILE:LINE:COLUMN: error: MESSAGE and make the\n"
    "exit status 1.\n";

static void calc_usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "calc: ");
    fprintf(stderr, msg, arg);
    fputs("\nTry 'calc --help' for more information.\n", stderr);
    exit(2);
}

/* All of F in a buffer the caller frees, or NULL with errno set. */
static char *calc_read(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0, got;
    char *data = xmalloc(cap);

    for (;;) {
        got = fread(data + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                int e = errno;

                free(data);
                errno = e != 0 ? e : EIO;
                return NULL;
            }
            if (feof(f))
                break;
        } else {
            cap *= 2;
            data = xrealloc(data, cap);
        }
    }
    *len = n;
    return data;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        { "eval", required_argument, NULL, 'e' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *program = NULL, *path = "-";
    char *text = NULL;
    size_t len;
    FILE *f;
    int c, status;

    while ((c = getopt_long(argc, argv, "e:hV", options, NULL)) != -1) {
        switch (c) {
        case 'e':
            program = optarg;
            break;
        case 'h':
            fputs(calc_usage, stdout);
            return 0;
        case 'V':
            printf("calc (noosa example) %s\n", PACKAGE_VERSION);
            return 0;
        default:
            fputs("Try 'calc --help' for more information.\n", stderr);
            return 2;
        }
    }
    if (argc - optind > 1)
        calc_usage_error("too many arguments, starting with '%s'", argv[optind + 1]);
    if (program != NULL && optind < argc)
        calc_usage_error("-e and a FILE ('%s') cannot be used together",
                         argv[optind]);
    if (program != NULL) {
        status = calc_run("-e", program, strlen(program), stdout, stderr);
    } else {
        if (optind < argc)
            path = argv[optind];
        f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
        if (f == NULL) {
            fprintf(stderr, "calc: cannot open '%s': %s\n", path, strerror(errno));
            return 1;
        }
        text = calc_read(f, &len);
        if (text == NULL) {
            fprintf(stderr, "calc: cannot read '%s': %s\n", path, strerror(errno));
            if (f != stdin)
                fclose(f);
            return 1;
        }
        if (f != stdin)
            fclose(f);
        status = calc_run(strcmp(path, "-") == 0 ? "<stdin>" : path, text, len,
                          stdout, stderr);
    }
    calc_free();
    free(text);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "calc: cannot write the output: %s\n", strerror(errno));
        return 1;
    }
    return status;
}
