/* SPDX-License-Identifier: MIT */
/*
 * eval.h - calc's evaluator: runs a program's tree, item by item, with
 * the built-in functions in an outermost environment and the top-level
 * definitions in the global environment inside it.
 */
#ifndef CALC_EVAL_H
#define CALC_EVAL_H

#include <stdio.h>

#include "env.h"
#include "tree.h"
#include "value.h"

/* Deepest nesting of function calls a program may reach. */
#define EVAL_MAX_DEPTH 1000

/* An active call. */
struct eval_frame {
    Node call;       /* the call node */
    Value fn;        /* the function called */
    Environment env; /* of its parameters (NULL for a built-in) */
};

int eval_program(Node root, FILE *out);
int eval_depth(void);
const struct eval_frame *eval_frame(int i);
Environment eval_current_env(void);

#endif /* CALC_EVAL_H */
