/* SPDX-License-Identifier: MIT */
/*
 * ui-keys.c - key names and the bytes keys send.  See ui-keys.h.
 */
#include "config.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui-keys.h"
#include "ui-text.h"

/* Function keys with a name and the bytes xterm sends for them. */
static const struct {
    int code;
    const char *name;
    const char *bytes;
} named[] = {
    {KEY_UP, "Up", "\033[A"},
    {KEY_DOWN, "Down", "\033[B"},
    {KEY_RIGHT, "Right", "\033[C"},
    {KEY_LEFT, "Left", "\033[D"},
    {KEY_HOME, "Home", "\033[H"},
    {KEY_END, "End", "\033[F"},
    {KEY_PPAGE, "PageUp", "\033[5~"},
    {KEY_NPAGE, "PageDown", "\033[6~"},
    {KEY_IC, "Insert", "\033[2~"},
    {KEY_DC, "Delete", "\033[3~"},
    {KEY_BTAB, "S-Tab", "\033[Z"},
    {KEY_BACKSPACE, "Backspace", "\177"},
    {KEY_ENTER, "Enter", "\r"},
};

/* Other spellings accepted by ui_keys_parse(). */
static const struct {
    const char *alias;
    const char *name;
} aliases[] = {
    {"PgUp", "PageUp"},   {"Prior", "PageUp"},  {"PgDn", "PageDown"},
    {"Next", "PageDown"}, {"Ins", "Insert"},    {"Del", "Delete"},
    {"Return", "Enter"},  {"RET", "Enter"},     {"Escape", "Esc"},
    {"BS", "Backspace"},  {"SPC", "Space"},     {"BTab", "S-Tab"},
    {"BackTab", "S-Tab"},
};

static const char *const fkey_bytes[] = {
    "\033OP",   "\033OQ",   "\033OR",   "\033OS",   "\033[15~", "\033[17~",
    "\033[18~", "\033[19~", "\033[20~", "\033[21~", "\033[23~", "\033[24~"};

/* The name of K without its Alt. */
static void base_name(const struct ui_key *k, char *buf, size_t size)
{
    size_t i;

    if (k->fn) {
        for (i = 0; i < sizeof named / sizeof named[0]; i++) {
            if (named[i].code == k->code) {
                snprintf(buf, size, "%s", named[i].name);
                return;
            }
        }
        if (k->code >= KEY_F(1) && k->code <= KEY_F(48)) {
            int n = k->code - KEY_F(0) - 1;
            static const char *const mods[] = {"", "S-", "C-", "C-S-"};

            snprintf(buf, size, "%sF%d", mods[n / 12], n % 12 + 1);
            return;
        }
        snprintf(buf, size, "Key-%d", k->code);
        return;
    }
    switch (k->code) {
    case 9:
        snprintf(buf, size, "Tab");
        return;
    case 13:
        snprintf(buf, size, "Enter");
        return;
    case 27:
        snprintf(buf, size, "Esc");
        return;
    case 32:
        snprintf(buf, size, "Space");
        return;
    case 127:
        snprintf(buf, size, "Backspace");
        return;
    case 0:
        snprintf(buf, size, "C-Space");
        return;
    default:
        break;
    }
    if (k->code > 0 && k->code < 32) {
        snprintf(buf, size, "C-%c", 'a' + k->code - 1);
        return;
    }
    if (k->code < 0 || k->code > 0x10ffff) {
        snprintf(buf, size, "Key-%d", k->code);
        return;
    }
    {
        char u[5];
        size_t n = 0;
        unsigned int c = (unsigned int)k->code;

        if (c < 0x80) {
            u[n++] = (char)c;
        } else if (c < 0x800) {
            u[n++] = (char)(0xc0 | (c >> 6));
            u[n++] = (char)(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            u[n++] = (char)(0xe0 | (c >> 12));
            u[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
            u[n++] = (char)(0x80 | (c & 0x3f));
        } else {
            u[n++] = (char)(0xf0 | (c >> 18));
            u[n++] = (char)(0x80 | ((c >> 12) & 0x3f));
            u[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
            u[n++] = (char)(0x80 | (c & 0x3f));
        }
        u[n] = '\0';
        snprintf(buf, size, "%s", u);
    }
}

const char *ui_keys_name(const struct ui_key *k, char *buf, size_t size)
{
    char base[32];

    base_name(k, base, sizeof base);
    if (!k->meta)
        snprintf(buf, size, "%s", base);
    else if (strncmp(base, "C-", 2) == 0)
        snprintf(buf, size, "C-M-%s", base + 2);
    else
        snprintf(buf, size, "M-%s", base);
    return buf;
}

/* Take a modifier prefix off *NAME; which one in *MOD ('C', 'M', 'S'). */
static int modifier(const char **name, char *mod)
{
    static const struct {
        const char *prefix;
        char mod;
    } prefixes[] = {{"C-", 'C'},    {"Ctrl-", 'C'}, {"Control-", 'C'},
                    {"M-", 'M'},    {"Alt-", 'M'},  {"Meta-", 'M'},
                    {"S-", 'S'},    {"Shift-", 'S'}};
    size_t i;

    for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i].prefix);

        if (strncasecmp(*name, prefixes[i].prefix, n) == 0 &&
            (*name)[n] != '\0') {
            *name += n;
            *mod = prefixes[i].mod;
            return 1;
        }
    }
    if ((*name)[0] == '^' && (*name)[1] != '\0' && (*name)[2] == '\0') {
        *name += 1;
        *mod = 'C';
        return 1;
    }
    return 0;
}

int ui_keys_parse(const char *name, struct ui_key *k)
{
    int ctrl = 0, shift = 0;
    char mod;
    size_t i;

    memset(k, 0, sizeof *k);
    while (modifier(&name, &mod)) {
        if (mod == 'C')
            ctrl = 1;
        else if (mod == 'M')
            k->meta = 1;
        else
            shift = 1;
    }
    for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (strcasecmp(name, aliases[i].alias) == 0) {
            name = aliases[i].name;
            break;
        }
    }
    if (strcasecmp(name, "S-Tab") == 0) {
        name = "Tab";
        shift = 1;
    }
    if (strncasecmp(name, "Key-", 4) == 0 && name[4] >= '0' &&
        name[4] <= '9') {
        char *end;
        long n = strtol(name + 4, &end, 10);

        if (*end != '\0' || ctrl || shift || n < KEY_MIN || n > 0xffff)
            return 0;
        k->fn = 1;
        k->code = (int)n;
        return 1;
    }
    if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' &&
        name[1] <= '9') {
        char *end;
        long n = strtol(name + 1, &end, 10);

        if (*end != '\0' || n < 1 || n > 12)
            return 0;
        k->fn = 1;
        k->code = KEY_F((int)n + (shift ? 12 : 0) + (ctrl ? 24 : 0));
        return 1;
    }
    if (strcasecmp(name, "Tab") == 0) {
        if (ctrl)
            return 0;
        if (shift) {
            k->fn = 1;
            k->code = KEY_BTAB;
        } else {
            k->code = 9;
        }
        return 1;
    }
    for (i = 0; i < sizeof named / sizeof named[0]; i++) {
        if (strcasecmp(name, named[i].name) == 0) {
            if (ctrl || shift)
                return 0;
            if (named[i].code == KEY_ENTER)
                k->code = 13;
            else if (named[i].code == KEY_BACKSPACE)
                k->code = 127;
            else {
                k->fn = 1;
                k->code = named[i].code;
            }
            return 1;
        }
    }
    if (shift)
        return 0;
    if (strcasecmp(name, "Esc") == 0) {
        if (ctrl)
            return 0;
        k->code = 27;
        return 1;
    }
    if (strcasecmp(name, "Space") == 0) {
        k->code = ctrl ? 0 : 32;
        return 1;
    }
    {
        uint32_t wc;
        size_t n = strlen(name);

        if (n == 0 || ui_text_decode(name, n, &wc) != n || wc == 0xfffd ||
            wc < 0x20 || wc == 0x7f)
            return 0;
        if (ctrl) {
            if (wc >= 'A' && wc <= 'Z')
                wc += 'a' - 'A';
            if (wc < 'a' || wc > 'z')
                return 0;
            k->code = (int)(wc - 'a' + 1);
            return 1;
        }
        k->code = (int)wc;
        return 1;
    }
}

size_t ui_keys_bytes(const struct ui_key *k, char *buf, size_t size)
{
    char tmp[16];
    size_t n = 0, i;
    const char *seq = NULL;

    if (k->fn) {
        for (i = 0; i < sizeof named / sizeof named[0]; i++) {
            if (named[i].code == k->code)
                seq = named[i].bytes;
        }
        if (k->code >= KEY_F(1) && k->code <= KEY_F(12))
            seq = fkey_bytes[k->code - KEY_F(1)];
        if (seq == NULL)
            return 0;
        n = strlen(seq);
        memcpy(tmp, seq, n);
    } else if (k->code >= 0 && k->code < 0x80) {
        tmp[n++] = (char)k->code;
    } else if (k->code >= 0x80 && k->code <= 0x10ffff) {
        char name[32];
        struct ui_key plain = *k;

        plain.meta = 0;
        base_name(&plain, name, sizeof name);
        n = strlen(name);
        memcpy(tmp, name, n);
    } else {
        return 0;
    }
    if (k->meta) {
        memmove(tmp + 1, tmp, n);
        tmp[0] = '\033';
        n++;
    }
    if (n > size)
        return 0;
    memcpy(buf, tmp, n);
    return n;
}

int ui_keys_printable(const struct ui_key *k)
{
    return !k->fn && !k->meta && k->code >= 32 && k->code != 127 &&
           k->code <= 0x10ffff;
}
