/* SPDX-License-Identifier: MIT */
/*
 * parser.h - calc's parser: builds the syntax tree of a whole program.
 */
#ifndef CALC_PARSER_H
#define CALC_PARSER_H

#include "lexer.h"
#include "tree.h"

/* Deepest nesting of expressions the parser accepts. */
#define PARSE_MAX_DEPTH 200

/* Tallest tree an expression may make (long chains of operators make
 * tall trees without nesting). */
#define PARSE_MAX_HEIGHT 1000

/* Most parameters of a function, and arguments of a call. */
#define PARSE_MAX_ARGS 32

Node parse_program(struct lexer *lx);

#endif /* CALC_PARSER_H */
