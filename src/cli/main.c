/* SPDX-License-Identifier: MIT */
/*
 * main.c - the noosa command: options, then one of the front ends: the
 * screen, batch mode, or the raw trace and describe pass of the
 * monitoring core.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "dap.h"
#include "dump.h"
#include "protocol.h"
#include "rawtrace.h"
#include "recorder.h"
#include "recread.h"
#include "screen.h"
#include "xmalloc.h"

static void usage(FILE *f)
{
    fprintf(f,
"Usage: noosa [OPTION...] PROGRAM [ARG...]\n"
"       noosa --batch [OPTION...] [PROGRAM [ARG...]]\n"
"       noosa [--batch] [OPTION...] -p PID\n"
"       noosa --raw-trace|--describe [OPTION...] PROGRAM [ARG...]\n"
"       noosa record [-o DIR] [OPTION...] PROGRAM [ARG...]\n"
"       noosa dump [OPTION...] DIR\n"
"       noosa [--batch] [OPTION...] --replay DIR   (or noosa DIR)\n"
"       noosa --dap [--dap-log=FILE] [OPTION...]\n"
"Run PROGRAM under the Noosa execution monitor: stop at its events, run Tcl\n"
"handlers on them, browse its values, profile it.\n"
"\n"
"Modes:\n"
"  (none)               the screen, when standard input and output are a\n"
"                       terminal; otherwise batch mode\n"
"  -b, --batch          no screen: the transcript goes to standard output;\n"
"                       commands come from -x and -e in order, else from\n"
"                       standard input\n"
"  --raw-trace          record every event and print each on one line\n"
"  --describe           print the program's interface without running it\n"
"  --dap                be a debug adapter for an editor: the Debug Adapter\n"
"                       Protocol on standard input and output (the program\n"
"                       comes with the launch or attach request)\n"
"  --replay=DIR         play the recording DIR (noosa record) as the\n"
"                       program, in the screen or batch mode; so does a\n"
"                       PROGRAM that is a recording's directory\n"
"\n"
"Options:\n"
"  -x, --command=FILE   run the commands in FILE (repeatable)\n"
"  -e, --eval=COMMAND   run COMMAND (repeatable)\n"
"  -p, --pid=PID        attach to process PID, a program linked with\n"
"                       libdapto that runs already; it stops there\n"
"  -n, --nx             do not read the start-up files (~/.noosarc,\n"
"                       ./.noosarc, $XDG_CONFIG_HOME/noosa/init.tcl)\n"
"  -B, --browsers=DIR   load the browsers in DIR too (repeatable)\n"
"  --lines=N            lines the transcript keeps (default 100000)\n"
"  --tty=PATH           give the program the terminal PATH (another\n"
"                       window's, see `tty') instead of the screen's pane\n"
"                       or noosa's own\n"
"  --timeout=MS         time allowed for each operation (default 10000)\n"
"  --ring-size=BYTES    size of the event ring (a power of two)\n"
"  --overwrite          let a full ring overwrite old events (losses are\n"
"                       counted) instead of making the program wait\n"
"  --no-tsc             CLOCK_MONOTONIC timestamps even with a usable TSC\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show the version and exit\n"
"\n"
"Debug adapter only:\n"
"  --dap-log=FILE       log every message and what the adapter does to FILE\n"
"\n"
"Raw trace only:\n"
"  -o, --output=FILE    write the trace to FILE\n"
"  --stop-at=EVENT      stop at every EVENT and run the --send operations\n"
"  --send='OP ARG...'   an operation to run at each stop (repeatable)\n"
"  --interrupt-after=MS interrupt the program after MS ms, then kill it\n"
"\n"
"Batch exit status: 1 when a command failed; else the status of the\n"
"program's last run if it ended by itself (128+N for signal N); else 0.\n"
"Type `help' at the prompt for the commands.\n");
}

/* A number for option NAME, or exit with a message. */
static unsigned long number(const char *name, const char *arg,
                            unsigned long max)
{
    char *end;
    unsigned long v = strtoul(arg, &end, 10);

    if (*arg == '\0' || *end != '\0' || v > max) {
        fprintf(stderr, "noosa: --%s wants a number up to %lu, got \"%s\"\n",
                name, max, arg);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    enum { OPT_RAW = 256, OPT_DESCRIBE, OPT_STOP_AT, OPT_SEND, OPT_TIMEOUT,
           OPT_INTERRUPT, OPT_RING, OPT_OVERWRITE, OPT_NO_TSC, OPT_LINES,
           OPT_REPLAY, OPT_TTY, OPT_DAP, OPT_DAP_LOG, OPT_DAP_TERMINAL };
    static const struct option longopts[] = {
        {"batch", no_argument, NULL, 'b'},
        {"command", required_argument, NULL, 'x'},
        {"eval", required_argument, NULL, 'e'},
        {"pid", required_argument, NULL, 'p'},
        {"nx", no_argument, NULL, 'n'},
        {"browsers", required_argument, NULL, 'B'},
        {"lines", required_argument, NULL, OPT_LINES},
        {"tty", required_argument, NULL, OPT_TTY},
        {"raw-trace", no_argument, NULL, OPT_RAW},
        {"describe", no_argument, NULL, OPT_DESCRIBE},
        {"replay", required_argument, NULL, OPT_REPLAY},
        {"dap", no_argument, NULL, OPT_DAP},
        {"dap-log", required_argument, NULL, OPT_DAP_LOG},
        {"dap-terminal", required_argument, NULL, OPT_DAP_TERMINAL},
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
    struct noosa_opts o;
    size_t nbrowsers = 0;
    const char *dap_log = NULL;
    int mode = 0, batch = 0, dap = 0, c, rc;

    /* the subcommands: noosa record, noosa dump */
    if (argc > 1 && strcmp(argv[1], "record") == 0)
        return recorder_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "dump") == 0)
        return dump_main(argc - 1, argv + 1);

    memset(&o, 0, sizeof o);
    o.max_lines = 100000;
    o.session.op_timeout_ms = 10000;
    o.session.fd_in = -1;
    o.session.fd_out = -1;
    o.session.fd_err = -1;
    while ((c = getopt_long(argc, argv, "+bx:e:nB:o:p:hV", longopts, NULL)) !=
           -1) {
        switch (c) {
        case 'b':
            batch = 1;
            break;
        case 'x':
        case 'e':
            o.scripts = xreallocarray(o.scripts, (size_t)o.nscripts + 1,
                                      sizeof *o.scripts);
            o.scripts[o.nscripts].is_file = c == 'x';
            o.scripts[o.nscripts++].text = optarg;
            break;
        case 'n':
            o.no_init = 1;
            break;
        case 'p':
            o.attach_pid = (pid_t)number("pid", optarg, 0x7fffffff);
            if (o.attach_pid == 0) {
                fprintf(stderr, "noosa: --pid wants a process id, got "
                        "\"%s\"\n", optarg);
                return 2;
            }
            break;
        case 'B':
            o.browser_dirs = xreallocarray(o.browser_dirs, nbrowsers + 2,
                                           sizeof *o.browser_dirs);
            o.browser_dirs[nbrowsers++] = optarg;
            o.browser_dirs[nbrowsers] = NULL;
            break;
        case OPT_TTY: {
            /* said now, before the screen takes the terminal */
            int fd = open(optarg, O_RDWR | O_NOCTTY | O_CLOEXEC);

            if (fd < 0 || !isatty(fd)) {
                fprintf(stderr, "noosa: --tty: %s: %s\n", optarg,
                        fd < 0 ? strerror(errno) : "not a terminal");
                exit(2);
            }
            close(fd);
            o.tty = optarg;
            break;
        }
        case OPT_LINES:
            o.max_lines = number("lines", optarg, 100000000);
            break;
        case OPT_RAW:
        case OPT_DESCRIBE:
            mode = c;
            break;
        case 'o':
            o.output = optarg;
            break;
        case OPT_REPLAY:
            o.replay = optarg;
            break;
        case OPT_DAP:
            dap = 1;
            break;
        case OPT_DAP_LOG:
            dap_log = optarg;
            break;
        case OPT_DAP_TERMINAL:
            /* the program's terminal in an editor (dap-term.c) */
            return dap_term_main(optarg);
        case OPT_STOP_AT:
            o.stop_at = optarg;
            break;
        case OPT_SEND:
            o.sends = xreallocarray(o.sends, (size_t)o.nsends + 1,
                                    sizeof *o.sends);
            o.sends[o.nsends++] = optarg;
            break;
        case OPT_TIMEOUT:
            o.session.op_timeout_ms =
                (int)number("timeout", optarg, 0x7fffffff);
            break;
        case OPT_INTERRUPT:
            o.interrupt_after_ms =
                (int)number("interrupt-after", optarg, 0x7fffffff);
            break;
        case OPT_RING:
            o.session.ring_size =
                (uint32_t)number("ring-size", optarg, 0x7fffffff);
            break;
        case OPT_OVERWRITE:
            o.session.overwrite = 1;
            break;
        case OPT_NO_TSC:
            o.session.no_tsc = 1;
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
    signal(SIGPIPE, SIG_IGN);

    if (dap_log != NULL && !dap) {
        fprintf(stderr, "noosa: --dap-log goes with --dap\n");
        return 2;
    }
    if (dap) {
        if (mode != 0 || batch || optind < argc || o.replay != NULL ||
            o.attach_pid != 0 || o.nscripts != 0) {
            fprintf(stderr, "noosa: --dap takes its program, recording or "
                    "process from the client's launch or attach request, "
                    "and its commands from it too\n");
            return 2;
        }
        rc = dap_main(&o, dap_log);
        free(o.browser_dirs);
        return rc;
    }

    /* a recording: noosa --replay DIR, or noosa DIR */
    if (o.replay == NULL && mode == 0 && optind < argc &&
        recread_is_recording(argv[optind]))
        o.replay = argv[optind];
    if (o.replay != NULL) {
        static char *replay_argv[2];

        if (mode != 0 || (optind < argc && argv[optind] != o.replay) ||
            (optind < argc && optind + 1 != argc)) {
            fprintf(stderr, "noosa: a recording is played alone: no "
                    "program, no arguments\n");
            return 2;
        }
        replay_argv[0] = (char *)o.replay;
        argv = replay_argv;
        argc = 1;
        optind = 0;
    }

    if (mode != 0) {
        if (optind >= argc) {
            fprintf(stderr, "noosa: no program given\n");
            usage(stderr);
            return 2;
        }
        o.argv = argv + optind;
        o.describe = mode == OPT_DESCRIBE;
        rc = rawtrace_run(&o);
        free(o.sends);
        return rc;
    }

    if (o.attach_pid != 0 && optind < argc) {
        fprintf(stderr, "noosa: -p attaches to a running program: no "
                "program to start can be given with it\n");
        return 2;
    }
    if (!batch) {
        if (optind >= argc && o.attach_pid == 0) {
            fprintf(stderr, "noosa: no program given\n");
            usage(stderr);
            return 2;
        }
        if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
            fprintf(stderr, "noosa: no terminal: running in batch mode\n");
        } else {
            o.argv = argv + optind;
            rc = screen_main(&o);
            if (rc != SCREEN_NO_TERMINAL) {
                free(o.scripts);
                free(o.browser_dirs);
                return rc;
            }
        }
    }
    o.argv = optind < argc ? argv + optind : NULL;
    rc = batch_main(&o);
    free(o.scripts);
    free(o.browser_dirs);
    free(o.sends);
    return rc;
}
