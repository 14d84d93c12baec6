/* SPDX-License-Identifier: MIT */
/*
 * screen-pty.c - the program's terminal.  The program runs with a pty's
 * slave as its standard input, output and error (the session's fd_in,
 * fd_out, fd_err), so it never writes over the screen; the loop reads
 * the master into the program's terminal (ui-term.h, a terminal
 * emulator) that the output pane shows, and what the user types in that
 * pane, as that terminal encodes it, is written to the master, with the
 * terminal's answers to the program's questions.  The pty has the pane's
 * size (screen_relayout), so the program gets SIGWINCH as it changes.
 *
 * With `tty PATH` (or --tty) the program's runs get that terminal
 * instead (the session's); the pty stays, unused, and the pane says
 * where the program is.
 *
 * noosa keeps the slave open for the whole session, so the master never
 * reads end of file between runs, and the pty (with its line discipline:
 * echo, line editing, ^D for end of input) outlives each run.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "interp.h"
#include "loop.h"
#include "screen.h"
#include "xmalloc.h"

/* Bytes read from the program in one turn of the loop at most, so that
 * a chatty program cannot starve the keyboard. */
#define PTY_TURN (64 * 1024)

int screen_pty_open(struct screen *s, char **cause)
{
    char name[128];
    struct termios t;
    int master, slave;

    master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) {
        xcause(cause, "cannot open a pty for the program: %s",
               strerror(errno));
        return -1;
    }
    if (grantpt(master) != 0 || unlockpt(master) != 0 ||
        ptsname_r(master, name, sizeof name) != 0) {
        xcause(cause, "cannot set up a pty for the program: %s",
               strerror(errno));
        close(master);
        return -1;
    }
    slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) {
        xcause(cause, "%s: %s", name, strerror(errno));
        close(master);
        return -1;
    }
    /* a terminal as a program expects one: lines, echo, ^D, ONLCR */
    if (tcgetattr(slave, &t) == 0) {
        t.c_iflag |= ICRNL | IUTF8;
        t.c_oflag |= OPOST | ONLCR;
        t.c_lflag |= ICANON | ECHO | ECHOE | ECHOK | ISIG | IEXTEN;
        tcsetattr(slave, TCSANOW, &t);
    }
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    s->pty_master = master;
    s->pty_slave = slave;
    return 0;
}

void screen_pty_close(struct screen *s)
{
    if (s->pty_master >= 0) {
        if (s->loop != NULL)
            loop_remove(s->loop, s->pty_master);
        close(s->pty_master);
    }
    if (s->pty_slave >= 0)
        close(s->pty_slave);
    s->pty_master = s->pty_slave = -1;
    free(s->pty_pending);
    s->pty_pending = NULL;
    s->pty_npending = 0;
}

void screen_pty_resize(struct screen *s, int rows, int cols)
{
    struct winsize ws;

    if (s->pty_master < 0 || rows <= 0 || cols <= 0)
        return;
    memset(&ws, 0, sizeof ws);
    ws.ws_row = (unsigned short)rows;
    ws.ws_col = (unsigned short)cols;
    ioctl(s->pty_master, TIOCSWINSZ, &ws);
}

static void on_master(int fd, short revents, void *arg);

/* Watch the master: for reading always, for writing while input waits. */
static void watch(struct screen *s)
{
    loop_add(s->loop, s->pty_master,
             POLLIN | (s->pty_npending > 0 ? POLLOUT : 0), on_master, s);
}

void screen_pty_watch(struct screen *s)
{
    watch(s);
}

/* Write what input waits, as much as the pty takes. */
static void flush_input(struct screen *s)
{
    while (s->pty_npending > 0) {
        ssize_t n = write(s->pty_master, s->pty_pending, s->pty_npending);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN) {
                screen_message(s, 1, "Cannot write to the program: %s",
                               strerror(errno));
                s->pty_npending = 0;
            }
            break;
        }
        memmove(s->pty_pending, s->pty_pending + n,
                s->pty_npending - (size_t)n);
        s->pty_npending -= (size_t)n;
    }
}

void screen_pty_read(struct screen *s)
{
    char buf[8192];
    size_t total = 0;
    ssize_t n;

    if (s->pty_master < 0)
        return;
    while (total < PTY_TURN) {
        n = read(s->pty_master, buf, sizeof buf);
        if (n <= 0)
            break;
        ui_term_feed(s->out, buf, (size_t)n);
        total += (size_t)n;
    }
    if (total > 0) {
        s->dirty = 1;
        screen_pty_flush_term(s);
    }
}

void screen_pty_flush_term(struct screen *s)
{
    char buf[4096];
    size_t n;

    while ((n = ui_term_output(s->out, buf, sizeof buf)) > 0)
        screen_pty_input(s, buf, n);
}

const char *screen_pty_elsewhere(struct screen *s)
{
    return s->in != NULL ? session_tty(s->in->session) : NULL;
}

static void on_master(int fd, short revents, void *arg)
{
    struct screen *s = arg;

    (void)fd;
    if (revents & POLLOUT)
        flush_input(s);
    screen_pty_read(s);
    watch(s);
}

void screen_pty_input(struct screen *s, const char *buf, size_t n)
{
    if (s->pty_master < 0 || n == 0)
        return;
    s->pty_pending = xrealloc(s->pty_pending, s->pty_npending + n);
    memcpy(s->pty_pending + s->pty_npending, buf, n);
    s->pty_npending += n;
    flush_input(s);
    watch(s);
}
