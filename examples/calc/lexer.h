/* SPDX-License-Identifier: MIT */
/*
 * lexer.h - calc's lexical analyser: turns the program text into tokens
 * with their coordinates (line and column, both from 1).  Identifiers and
 * string literals are stored in the string table.
 */
#ifndef CALC_LEXER_H
#define CALC_LEXER_H

#include <stddef.h>

/* Token kinds.  The numbers are part of the monitoring interface (the
 * `kind` of the token event); add new kinds at the end. */
enum token_kind {
    T_EOF,
    T_ERROR, /* a lexical error, already reported */
    T_INT,
    T_STR,
    T_IDENT,
    T_LET,
    T_IN,
    T_FN,
    T_IF,
    T_THEN,
    T_ELSE,
    T_PRINT,
    T_AND,
    T_OR,
    T_NOT,
    T_PLUS,
    T_MINUS,
    T_STAR,
    T_SLASH,
    T_PERCENT,
    T_EQ,
    T_NE,
    T_LT,
    T_LE,
    T_GT,
    T_GE,
    T_ASSIGN,
    T_LPAREN,
    T_RPAREN,
    T_COMMA,
    T_SEMI,
    T_NKINDS
};

/* Longest token text kept for messages and events, NUL included. */
#define TOKEN_TEXT_MAX 48

struct token {
    int kind;         /* enum token_kind */
    int line, col;    /* where it starts */
    long ival;        /* T_INT: the value */
    int idn;          /* T_IDENT, T_STR: string table index; else -1 */
    char text[TOKEN_TEXT_MAX]; /* the source text, cut with "..." */
};

struct lexer {
    const char *text; /* the program; not owned */
    size_t len;
    size_t pos;
    int line, col; /* of text[pos] */
};

void lexer_init(struct lexer *lx, const char *text, size_t len);
int lexer_next(struct lexer *lx, struct token *t);
const char *lexer_kind_name(int kind);

#endif /* CALC_LEXER_H */
