/* SPDX-License-Identifier: MIT */
/*
 * lex.h - the Dapto lexer: turns a buffer into tokens with positions.  It
 * understands C comments, the line markers cpp writes ("# 12 \"file\"" and
 * "#line 12 \"file\""), strings, header names and the C text of operation
 * bodies.  It reports its own errors and then returns TOK_ERROR.
 */
#ifndef NOOSA_DAPTO_LEX_H
#define NOOSA_DAPTO_LEX_H

#include <stddef.h>

#include "diag.h"
#include "spec.h"

enum tok_kind {
    TOK_EOF,
    TOK_ERROR, /* the lexer has reported an error */
    TOK_IDENT,
    TOK_NUMBER, /* not part of the language; kept for messages */
    TOK_STR,
    TOK_BSTR,
    TOK_TEXT,
    TOK_SEMI,
    TOK_STAR,
    TOK_LPAREN,
    TOK_RPAREN,
    TOK_COMMA,
    TOK_COLON
};

struct token {
    enum tok_kind kind;
    struct pos pos;
    char *val;    /* IDENT, NUMBER, STR, BSTR (decoded), TEXT; owned */
    char *indent; /* TEXT: the blanks before the '{' when nothing else
                   * precedes it on its line, else ""; owned */
};

struct lexer {
    const unsigned char *p;          /* next byte */
    const unsigned char *end;
    const unsigned char *line_start; /* of the physical line of p */
    struct spec *spec;               /* interns file names */
    struct diags *diags;
    const char *file;
    unsigned long line;
    unsigned long col;
    int bol;            /* only blanks so far on this line */
    struct pos last;    /* just after the last byte that was not blank */
};

void lex_init(struct lexer *lx, const char *data, size_t len,
              const char *file, struct spec *spec, struct diags *diags);
/* Read the next token into TOK, which must be empty. */
void lex_next(struct lexer *lx, struct token *tok);
/* Free what TOK holds and make it empty. */
void token_clear(struct token *tok);
/* Describe TOK for "found ..." in a message, into BUF of SIZE bytes. */
const char *token_describe(const struct token *tok, char *buf, size_t size);

#endif /* NOOSA_DAPTO_LEX_H */
