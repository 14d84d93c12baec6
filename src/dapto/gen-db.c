/* SPDX-License-Identifier: MIT */
/*
 * gen-db.c - the generated monitoring database X_dapto.db, a Tcl file in
 * Noosa's format:
 *
 *   lappend n(aspects) NAME
 *   lappend n(events) [list NAME "doc" {param "doc" ...} VISIBLE]
 *   lappend n(operations) [list NAME "doc" {param "doc" ...} RESULT]
 *
 * Sourcing it must give back every documentation string exactly, whatever
 * it holds ($, brackets, braces, backslashes, quotes), so each one is
 * quoted for where it stands: a word of the list command, or an element of
 * the braced parameter list.
 */
#include "gen.h"
#include "quote.h"

/* {param "doc" ...} */
static void gen_db_params(struct buf *b, const struct sig *sig)
{
    size_t i;

    buf_putc(b, '{');
    for (i = 0; i < sig->nparams; i++) {
        if (i > 0)
            buf_putc(b, ' ');
        buf_printf(b, "%s ", sig->params[i].name);
        quote_tcl_elem(b, sig->params[i].doc);
    }
    buf_putc(b, '}');
}

void gen_db(const struct gen *g, struct buf *b)
{
    const struct spec *s = g->spec;
    const struct aspect *a;
    const struct sig *sig;
    size_t i, j;

    gen_banner(b, g, "# ", "");
    for (i = 0; i < s->naspects; i++) {
        a = &s->aspects[i];
        buf_printf(b, "\nlappend n(aspects) %s\n", a->name);
        for (j = 0; j < a->nsigs; j++) {
            sig = &a->sigs[j];
            if (sig->kind == SIG_HEADER)
                continue;
            buf_printf(b, "lappend n(%s) [list %s ",
                       sig->kind == SIG_EVENT ? "events" : "operations",
                       sig->name);
            quote_tcl_word(b, sig->doc);
            buf_putc(b, ' ');
            gen_db_params(b, sig);
            if (sig->kind == SIG_EVENT)
                buf_printf(b, " %d]\n", sig->visible);
            else
                buf_printf(b, " %s]\n", sig->result_type != NULL ?
                           sig->result_type : "{}");
        }
    }
}
