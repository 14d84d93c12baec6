/* SPDX-License-Identifier: MIT */
/*
 * dapto.c - the dapto command: read a Dapto specification (a file, or
 * standard input for "-"), compile it, and write X_dapto.h, X_dapto.c and
 * X_dapto.db next to it or in the directory given with -o.  This file
 * deals with the command line and files only; compile.c does the rest.
 *
 * Exit status: 0 on success, 1 when the specification has errors or a
 * file cannot be read or written, 2 for a wrong command line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "compile.h"
#include "output.h"
#include "xmalloc.h"

static const char usage_text[] =
    "Usage: dapto [-o DIR] [-n NAME] FILE.dapto\n"
    "Compile a Dapto monitoring interface into C and Tcl.\n"
    "\n"
    "Writes NAME_dapto.h (event stubs), NAME_dapto.c (encoders, operations\n"
    "and the interface's description) and NAME_dapto.db (the Tcl database).\n"
    "FILE \"-\" reads standard input.\n"
    "\n"
    "  -o, --output-dir=DIR  write the files into DIR (default: next to FILE,\n"
    "                        or the current directory for standard input)\n"
    "  -n, --name=NAME       base name of the files and prefix of the C names\n"
    "                        (default: FILE's name without its extension, or\n"
    "                        \"stdin\")\n"
    "  -h, --help            show this help and exit\n"
    "  -V, --version         show the version and exit\n"
    "\n"
    "Errors are reported as FILE:LINE:COLUMN: error: MESSAGE; the exit status\n"
    "is 1 when there are any, and no file is written.  See dapto(1).\n";

static void usage_error(const char *fmt, const char *arg)
{
    fputs("dapto: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'dapto --help' for more information.\n", stderr);
    exit(2);
}

/* Read all of F into a buffer the caller frees; *LEN gets its size. */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 0, n = 0, got;
    char *data = NULL;

    for (;;) {
        data = xgrow(data, n + 4096, &cap, 1);
        got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(data);
        return NULL;
    }
    *len = n;
    return data;
}

/* The base name of PATH without directory and extension: "csm" for
 * "dir/csm.dapto".  The caller frees it. */
static char *base_of(const char *path)
{
    const char *s = strrchr(path, '/'), *dot;

    s = s != NULL ? s + 1 : path;
    dot = strrchr(s, '.');
    if (dot == NULL || dot == s)
        return xstrdup(s);
    return xstrndup(s, (size_t)(dot - s));
}

/* Whether NAME can be a file name in the output directory and appear in
 * the #include of the generated C file. */
static int name_ok(const char *name)
{
    const unsigned char *p;

    if (name[0] == '\0')
        return 0;
    for (p = (const unsigned char *)name; *p != '\0'; p++) {
        if (*p < 0x20 || *p == 0x7f || *p == '/' || *p == '"' || *p == '\\')
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "output-dir", required_argument, NULL, 'o' },
        { "name", required_argument, NULL, 'n' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const char *outdir = NULL, *name = NULL, *input, *file;
    char *data, *base, *dir, *cause = NULL, *paths[3];
    struct compile_options opts;
    struct compile_output out;
    struct output_file files[3];
    struct diags diags;
    size_t len;
    FILE *f;
    int c, status = 1;

    while ((c = getopt_long(argc, argv, "o:n:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            outdir = optarg;
            break;
        case 'n':
            name = optarg;
            break;
        case 'h':
            fputs(usage_text, stdout);
            return 0;
        case 'V':
            printf("dapto (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return 0;
        default:
            usage_error("%s", "invalid command line");
        }
    }
    if (optind == argc)
        usage_error("%s", "no input file (give FILE.dapto, or - for standard input)");
    if (argc - optind > 1)
        usage_error("unexpected argument '%s': give one input file",
                    argv[optind + 1]);
    input = argv[optind];
    if (name != NULL && !name_ok(name))
        usage_error("invalid name '%s' for -n: it must not be empty or hold "
                    "'/', '\"', '\\' or control characters", name);
    if (outdir != NULL && outdir[0] == '\0')
        usage_error("%s", "empty directory for -o");

    if (strcmp(input, "-") == 0) {
        file = "<stdin>";
        f = stdin;
        base = xstrdup(name != NULL ? name : "stdin");
        dir = xstrdup(outdir != NULL ? outdir : "");
    } else {
        const char *slash = strrchr(input, '/');

        file = input;
        f = fopen(input, "rb");
        if (f == NULL) {
            fprintf(stderr, "dapto: cannot open '%s': %s\n", input,
                    strerror(errno));
            return 1;
        }
        base = name != NULL ? xstrdup(name) : base_of(input);
        dir = outdir != NULL ? xstrdup(outdir) :
              slash != NULL ? xstrndup(input, (size_t)(slash - input + 1)) :
              xstrdup("");
    }
    data = read_all(f, &len);
    if (data == NULL) {
        fprintf(stderr, "dapto: cannot read '%s': %s\n", file,
                strerror(errno));
        goto fail_read;
    }
    if (!name_ok(base)) {
        fprintf(stderr, "dapto: cannot make output file names from '%s'; "
                "give one with -n NAME\n", input);
        goto fail_name;
    }

    {
        const char *sep = dir[0] == '\0' || dir[strlen(dir) - 1] == '/' ? "" : "/";

        paths[0] = xasprintf("%s%s%s_dapto.h", dir, sep, base);
        paths[1] = xasprintf("%s%s%s_dapto.c", dir, sep, base);
        paths[2] = xasprintf("%s%s%s_dapto.db", dir, sep, base);
    }
    opts.file = file;
    opts.base = base;
    opts.source = paths[1];
    diag_init(&diags);
    if (compile_buffer(data, len, &opts, &out, &diags) < 0) {
        diag_print(&diags, stderr);
        goto fail_compile;
    }
    diag_print(&diags, stderr);
    files[0].path = paths[0];
    files[0].data = out.h.data;
    files[0].len = out.h.len;
    files[1].path = paths[1];
    files[1].data = out.c.data;
    files[1].len = out.c.len;
    files[2].path = paths[2];
    files[2].data = out.db.data;
    files[2].len = out.db.len;
    if (output_write(files, 3, &cause) < 0) {
        fprintf(stderr, "dapto: %s\n", cause);
        free(cause);
    } else {
        status = 0;
    }
    compile_output_free(&out);

fail_compile:
    diag_free(&diags);
    free(paths[0]);
    free(paths[1]);
    free(paths[2]);
fail_name:
    free(data);
fail_read:
    if (f != stdin)
        fclose(f);
    free(base);
    free(dir);
    return status;
}
