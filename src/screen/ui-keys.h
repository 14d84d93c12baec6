/* SPDX-License-Identifier: MIT */
/*
 * ui-keys.h - keys as the screen sees them: their names (for bindings,
 * `bind F5 {...}`, and the help), and the bytes a terminal would send for
 * them (what readline and the program read).  The model only: codes are
 * curses' KEY_* constants, but nothing here talks to a terminal.
 *
 * Names: a character is itself ("a", "/"), "Space"; control characters
 * are "C-a" ... "C-z"; "Tab", "S-Tab", "Enter", "Esc", "Backspace",
 * "Up", "Down", "Left", "Right", "Home", "End", "PageUp", "PageDown",
 * "Insert", "Delete", "F1" ... "F12", "S-F1", "C-F1", "C-S-F1"; Alt (or
 * Esc first) adds "M-" after any "C-": "M-x", "C-M-x", "M-F5".
 */
#ifndef NOOSA_UI_KEYS_H
#define NOOSA_UI_KEYS_H

#include <stddef.h>

struct ui_key {
    int code; /* a character (Unicode), or a KEY_* code when FN */
    int fn;
    int meta; /* Alt, or Esc just before */
};

/* The name of K in BUF (SIZE >= 32); returns BUF.  An unknown function
 * key is "Key-NNN". */
const char *ui_keys_name(const struct ui_key *k, char *buf, size_t size);

/* The key named NAME (as written by ui_keys_name(), case of named keys
 * ignored); 0 when it is not a key name. */
int ui_keys_parse(const char *name, struct ui_key *k);

/* The bytes a terminal sends for K (xterm style), at most SIZE; returns
 * their number, 0 for a key that sends none. */
size_t ui_keys_bytes(const struct ui_key *k, char *buf, size_t size);

/* Whether K types a character (printable, no Alt). */
int ui_keys_printable(const struct ui_key *k);

#endif /* NOOSA_UI_KEYS_H */
