/* SPDX-License-Identifier: MIT */
/*
 * termprog.c - a program that uses its terminal as programs do, for the
 * screen's tests of the output pane (term.sh): run in noosa's pane and
 * in a terminal of its own, it must look the same in both.
 *
 *     termprog colours   colours and attributes, then a progress line
 *                        rewritten with \r
 *     termprog alt       the alternate screen: draws there with cursor
 *                        addressing, waits for a line, then leaves it
 *     termprog repl      a line editor in raw mode: keys one at a time,
 *                        Left, Right, C-a, C-e, Backspace, Enter (other
 *                        control keys are said); the line "size" says
 *                        the terminal's size, "quit" ends; SIGWINCH is
 *                        said as it comes
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t winched;

static void on_winch(int sig)
{
    (void)sig;
    winched = 1;
}

static void say_size(const char *what)
{
    struct winsize ws;

    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
        printf("%s %dx%d\r\n", what, ws.ws_col, ws.ws_row);
}

static void colours(void)
{
    int i;

    printf("\033[31mred\033[0m \033[1;32mgreen-bold\033[0m "
           "\033[4munderlined\033[0m \033[7mreverse\033[0m "
           "\033[38;5;208mpalette\033[0m plain\n");
    for (i = 0; i <= 100; i += 10) {
        printf("\rprogress %3d%% [%-10.*s]", i, i / 10, "##########");
        fflush(stdout);
        usleep(20000);
    }
    printf("\ndone \xc3\xa9t\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87|\n");
}

static void alt(void)
{
    char c;

    printf("before the alternate screen\n");
    printf("\033[?1049h\033[2J\033[3;5HALT SCREEN\033[5;1H\033[1mpress "
           "Enter\033[0m");
    fflush(stdout);
    if (read(STDIN_FILENO, &c, 1) < 0)
        return;
    printf("\033[?1049lback from it\n");
}

static struct termios saved;

static void restore(void)
{
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
}

/* Draw the prompt and LINE, the cursor at POS. */
static void redraw(const char *line, size_t len, size_t pos)
{
    printf("\r> %.*s\033[K", (int)len, line);
    if (len > pos)
        printf("\033[%zuD", len - pos);
    fflush(stdout);
}

static void repl(void)
{
    struct termios raw;
    char line[256];
    size_t len = 0, pos = 0;
    unsigned char c;
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_winch;
    sigaction(SIGWINCH, &sa, NULL);
    tcgetattr(STDIN_FILENO, &saved);
    atexit(restore);
    raw = saved;
    raw.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
    raw.c_iflag &= (tcflag_t) ~(ICRNL);
    raw.c_oflag &= (tcflag_t) ~(OPOST);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
    printf("repl ready\r\n");
    redraw(line, len, pos);
    for (;;) {
        ssize_t n = read(STDIN_FILENO, &c, 1);

        if (winched) {
            winched = 0;
            printf("\r\033[K");
            say_size("winch");
            redraw(line, len, pos);
        }
        if (n <= 0)
            continue;
        if (c == '\r' || c == '\n') {
            line[len] = '\0';
            printf("\r\n");
            if (strcmp(line, "quit") == 0)
                return;
            if (strcmp(line, "size") == 0)
                say_size("size");
            else
                printf("got [%s]\r\n", line);
            len = pos = 0;
        } else if (c == 1) {
            pos = 0;
        } else if (c == 5) {
            pos = len;
        } else if (c == 127 || c == 8) {
            if (pos > 0) {
                memmove(line + pos - 1, line + pos, len - pos);
                pos--;
                len--;
            }
        } else if (c == 27) {
            unsigned char seq[2];

            if (read(STDIN_FILENO, seq, 2) == 2 &&
                (seq[0] == '[' || seq[0] == 'O')) {
                if (seq[1] == 'D' && pos > 0)
                    pos--;
                else if (seq[1] == 'C' && pos < len)
                    pos++;
            }
        } else if (c < 32) {
            printf("\r\n[ctrl %d]\r\n", c); /* any other control key */
        } else if (len < sizeof line - 1) {
            memmove(line + pos + 1, line + pos, len - pos);
            line[pos++] = (char)c;
            len++;
        }
        redraw(line, len, pos);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (strcmp(mode, "colours") == 0)
        colours();
    else if (strcmp(mode, "alt") == 0)
        alt();
    else if (strcmp(mode, "repl") == 0)
        repl();
    else {
        fprintf(stderr, "usage: termprog colours|alt|repl\n");
        return 2;
    }
    return 0;
}
