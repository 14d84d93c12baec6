/* SPDX-License-Identifier: MIT */
/*
 * run.c - the driver: parse a program, evaluate it, release everything.
 * The whole run is component "driver" for the profiles.
 */
#include "diag.h"
#include "env.h"
#include "eval.h"
#include "lexer.h"
#include "parser.h"
#include "run.h"
#include "strtab.h"
#include "tree.h"
#include "value.h"

#ifdef MONITOR
#include <dapto.h>
#endif

/* Run the program TEXT (LEN bytes, called NAME in messages), printing its
 * output to OUT and its errors to ERR.  Returns 0, or 1 after an error.
 * Everything the run built stays until calc_free(). */
int calc_run(const char *name, const char *text, size_t len, FILE *out,
             FILE *err)
{
    struct lexer lx;
    Node root;
    int status = 1;

#ifdef MONITOR
    _dapto_enter("driver");
#endif
    diag_init(name, err);
    lexer_init(&lx, text, len);
    root = parse_program(&lx);
    if (root != NULL && eval_program(root, out) == 0)
        status = 0;
#ifdef MONITOR
    _dapto_leave("driver");
#endif
    return status;
}

/* Release every string, node, environment and value of the last run. */
void calc_free(void)
{
    value_free_all();
    env_free();
    tree_free();
    strtab_free();
}
