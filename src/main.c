/* SPDX-License-Identifier: MIT */
/*
 * main.c - the noosa command: options, then one of the front ends.  For
 * now the front ends are the raw trace and the describe pass.
 */
#include "config.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "rawtrace.h"
#include "xmalloc.h"

static void usage(FILE *f)
{
    fprintf(f,
"Usage: noosa --raw-trace [OPTION...] PROGRAM [ARG...]\n"
"       noosa --describe [OPTION...] PROGRAM [ARG...]\n"
"Run PROGRAM under the Noosa execution monitor.\n"
"\n"
"Modes:\n"
"  --raw-trace          record every event of the program's monitoring\n"
"                       interface and print each on one line:\n"
"                         EVENT thread=TID time=NS PARAM=VALUE ... [stopped]\n"
"                       strings quoted with C escapes; other lines start\n"
"                       with '# ' (aspects, losses, errors, faults, exit)\n"
"  --describe           start PROGRAM, let its constructors register their\n"
"                       interfaces, stop at main, print the interface, kill\n"
"\n"
"Options:\n"
"  -o, --output=FILE    write the trace to FILE instead of standard output\n"
"  --stop-at=EVENT      stop the program at every EVENT (NAME or\n"
"                       ASPECT.NAME) and, there, run the --send operations\n"
"                       then resume\n"
"  --send='OP ARG...'   an operation to run at each stop (repeatable);\n"
"                       results are printed as '# send OP ARG... -> VALUE...'\n"
"  --timeout=MS         time allowed for each operation (default 10000)\n"
"  --interrupt-after=MS interrupt the program after MS milliseconds,\n"
"                       report that every thread stopped, and kill it\n"
"  --ring-size=BYTES    size of the event ring (a power of two)\n"
"  --overwrite          let a full ring overwrite old events (losses are\n"
"                       counted) instead of making the program wait\n"
"  --no-tsc             CLOCK_MONOTONIC timestamps even with a usable TSC\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show the version and exit\n");
}

int main(int argc, char **argv)
{
    enum { OPT_RAW = 256, OPT_DESCRIBE, OPT_STOP_AT, OPT_SEND, OPT_TIMEOUT,
           OPT_INTERRUPT, OPT_RING, OPT_OVERWRITE, OPT_NO_TSC };
    static const struct option longopts[] = {
        {"raw-trace", no_argument, NULL, OPT_RAW},
        {"describe", no_argument, NULL, OPT_DESCRIBE},
        {"output", required_argument, NULL, 'o'},
        {"stop-at", required_argument, NULL, OPT_STOP_AT},
        {"send", required_argument, NULL, OPT_SEND},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"interrupt-after", required_argument, NULL, OPT_INTERRUPT},
        {"ring-size", required_argument, NULL, OPT_RING},
        {"overwrite", no_argument, NULL, OPT_OVERWRITE},
        {"no-tsc", no_argument, NULL, OPT_NO_TSC},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    struct rawtrace_opts o;
    int mode = 0, c, rc;
    char *end;

    memset(&o, 0, sizeof o);
    o.timeout_ms = 10000;
    while ((c = getopt_long(argc, argv, "+o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_RAW:
        case OPT_DESCRIBE:
            mode = c;
            break;
        case 'o':
            o.output = optarg;
            break;
        case OPT_STOP_AT:
            o.stop_at = optarg;
            break;
        case OPT_SEND:
            o.sends = xreallocarray(o.sends, (size_t)o.nsends + 1,
                                    sizeof *o.sends);
            o.sends[o.nsends++] = optarg;
            break;
        case OPT_TIMEOUT:
        case OPT_INTERRUPT:
        case OPT_RING: {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || v > 0x7fffffffUL) {
                fprintf(stderr, "noosa: bad number \"%s\" for --%s\n", optarg,
                        c == OPT_TIMEOUT     ? "timeout"
                        : c == OPT_INTERRUPT ? "interrupt-after"
                                             : "ring-size");
                return 2;
            }
            if (c == OPT_TIMEOUT)
                o.timeout_ms = (int)v;
            else if (c == OPT_INTERRUPT)
                o.interrupt_after_ms = (int)v;
            else
                o.ring_size = (uint32_t)v;
            break;
        }
        case OPT_OVERWRITE:
            o.overwrite = 1;
            break;
        case OPT_NO_TSC:
            o.no_tsc = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        case 'V':
            printf("noosa %s (channel protocol %d.%d.%d)\n", PACKAGE_VERSION,
                   DAPTO_PROTO_MAJOR, DAPTO_PROTO_MEDIAN, DAPTO_PROTO_MINOR);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (mode == 0) {
        fprintf(stderr, "noosa: say --raw-trace or --describe (the screen "
                "and batch mode are not there yet)\n");
        usage(stderr);
        return 2;
    }
    if (optind >= argc) {
        fprintf(stderr, "noosa: no program given\n");
        usage(stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    o.argv = argv + optind;
    o.describe = mode == OPT_DESCRIBE;
    rc = rawtrace_run(&o);
    free(o.sends);
    return rc;
}
