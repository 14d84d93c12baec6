/* SPDX-License-Identifier: MIT */
/*
 * opcall.h - calling a generated operation the way the runtime does, for
 * the compile tests: arguments are encoded with the runtime's own
 * dapto_put_*() functions, the operation runs through its description in
 * the aspect, and results are read back with dapto_get_*().  The code is
 * valid C and C++, like the drivers that use it.
 */
#ifndef NOOSA_TESTS_OPCALL_H
#define NOOSA_TESTS_OPCALL_H

#include <string.h>

#include <dapto.h>

struct opcall {
    unsigned char argbuf[512];
    unsigned char resbuf[1024];
    struct dapto_out args;  /* where the test writes the arguments */
    struct dapto_in req;    /* what the operation reads */
    struct dapto_out res;   /* where the operation writes its results */
    struct dapto_in results; /* where the test reads them */
};

static inline void opcall_out(struct dapto_out *o, unsigned char *buf,
                              size_t size)
{
    o->p = buf;
    o->base = buf;
    o->end = buf + size;
    o->count = 0;
    o->truncated = 0;
    o->aspect = NULL;
    o->index = 0;
}

static inline void opcall_in(struct dapto_in *in, const unsigned char *p,
                             const unsigned char *end)
{
    in->p = p;
    in->end = end;
    in->index = 0;
    in->failed = 0;
    in->message[0] = '\0';
}

/* Start a call: arguments go to c->args. */
static inline void opcall_begin(struct opcall *c)
{
    opcall_out(&c->args, c->argbuf, sizeof c->argbuf);
}

/* The operation NAME of aspect A, or NULL. */
static inline const struct dapto_operation *
opcall_find(const struct dapto_aspect *a, const char *name)
{
    unsigned int i;

    for (i = 0; i < a->nops; i++) {
        if (strcmp(a->ops[i].name, name) == 0)
            return &a->ops[i];
    }
    return NULL;
}

/* Run NAME with the arguments written so far.  Returns -1 when there is
 * no such operation, 1 when it refused its arguments (c->req.message says
 * why), 0 when it ran; its results are then read from c->results. */
static inline int opcall_run(struct opcall *c, const struct dapto_aspect *a,
                             const char *name)
{
    const struct dapto_operation *op = opcall_find(a, name);

    if (op == NULL)
        return -1;
    opcall_in(&c->req, c->argbuf, c->args.p);
    opcall_out(&c->res, c->resbuf, sizeof c->resbuf);
    op->fn(&c->req, &c->res);
    opcall_in(&c->results, c->resbuf, c->res.p);
    return c->req.failed ? 1 : 0;
}

#endif /* NOOSA_TESTS_OPCALL_H */
