/* SPDX-License-Identifier: MIT */
/*
 * parse.c - recursive-descent parser for the Dapto grammar (dapto(1), "The Dapto
 * language"):
 *
 *   spec: aspects.                 aspects: aspect_stmt / aspects aspect_stmt.
 *   aspect_stmt: 'aspect' iddef ';' sigs 'end' ';'.
 *   sig: event_sig / operation_sig / str / bstr.
 *   event_sig: 'event' iddef export str '(' optattrs ')' ';'.
 *   operation_sig: 'operation' iddef str '(' optparams ')' [':' typeid] text.
 *   attr, param: typeid ['<' C-type '>'] iddef str   (the C type: ptr's only).
 *
 * 'aspect', 'end', 'event' and 'operation' are keywords only where the
 * grammar allows them, so they remain usable as names of parameters.
 * The parser stops at the first syntax error: after one, any further
 * message would be a guess.  Messages say what was expected and what was
 * found instead.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "parse.h"
#include "xmalloc.h"

struct parser {
    struct lexer lx;
    struct token tok;
    struct spec *spec;
    struct diags *diags;
};

static void parse_next(struct parser *ps)
{
    token_clear(&ps->tok);
    lex_next(&ps->lx, &ps->tok);
}

/* Whether the current token is the keyword WORD. */
static int parse_is(const struct parser *ps, const char *word)
{
    return ps->tok.kind == TOK_IDENT && strcmp(ps->tok.val, word) == 0;
}

/* Take the value of the current token. */
static char *parse_take(struct parser *ps)
{
    char *v = ps->tok.val;

    ps->tok.val = NULL;
    return v;
}

/* Report "expected WHAT, found TOKEN" at the current token and fail.  A
 * lexical error has been reported already. */
static int parse_expected(struct parser *ps, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int parse_expected(struct parser *ps, const char *fmt, ...)
{
    char what[256], found[128];
    va_list ap;

    if (ps->tok.kind == TOK_ERROR)
        return -1;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    token_describe(&ps->tok, found, sizeof found);
    diag_error(ps->diags, &ps->tok.pos, "expected %s, found %s", what, found);
    return -1;
}

/* ptr<C-TYPE>: the C type a ptr parameter points to, the <...> being
 * the current token (read as a header name).  The type becomes
 * "ptr<C-TYPE>", its blanks made single spaces; noosa gives the value
 * that type's pointer (see dapto(1)). */
static int parse_ctype(struct parser *ps, struct param *p)
{
    const char *c = ps->tok.val;
    char *norm = xmalloc(strlen(c) + 1), *o = norm;
    int ok = 1, blank = 0;

    if (p->kind != TYPE_PTR) {
        free(norm);
        diag_error(ps->diags, &ps->tok.pos, "only ptr takes a C type in "
                   "angle brackets (ptr<struct node>); '%s' does not",
                   p->type);
        return -1;
    }
    while (*c == ' ' || *c == '\t')
        c++;
    ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_';
    for (; *c != '\0'; c++) {
        if (*c == ' ' || *c == '\t') {
            blank = 1;
            continue;
        }
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '_' || *c == '*'))
            ok = 0;
        if (blank && o > norm)
            *o++ = ' ';
        blank = 0;
        *o++ = *c;
    }
    *o = '\0';
    if (!ok) {
        diag_error(ps->diags, &ps->tok.pos, "'<%s>' is not a C type that a "
                   "ptr can point to: write it as ptr<struct node>, "
                   "ptr<Entry> or ptr<char *>", ps->tok.val);
        free(norm);
        return -1;
    }
    free(p->type);
    p->type = xasprintf("ptr<%s>", norm);
    free(norm);
    parse_next(ps);
    return 0;
}

/* '(' optparams ')', the '(' being the current token.  OWNER names the
 * event or operation in messages. */
static int parse_params(struct parser *ps, struct sig *sig, const char *owner)
{
    struct param *p;
    size_t cap = 0;

    parse_next(ps);
    if (ps->tok.kind == TOK_RPAREN) {
        parse_next(ps);
        return 0;
    }
    for (;;) {
        if (ps->tok.kind != TOK_IDENT)
            return parse_expected(ps, sig->nparams == 0 ?
                                  "a parameter type or ')' in the parameter "
                                  "list of %s" :
                                  "a parameter type after ',' in the "
                                  "parameter list of %s", owner);
        sig->params = xgrow(sig->params, sig->nparams, &cap, sizeof *sig->params);
        p = &sig->params[sig->nparams];
        memset(p, 0, sizeof *p);
        p->type_pos = ps->tok.pos;
        p->type = parse_take(ps);
        p->kind = type_lookup(p->type);
        sig->nparams++;
        parse_next(ps);
        if (ps->tok.kind == TOK_BSTR && parse_ctype(ps, p) != 0)
            return -1;
        if (ps->tok.kind != TOK_IDENT)
            return parse_expected(ps, "a parameter name after the type '%s'",
                                  p->type);
        p->pos = ps->tok.pos;
        p->name = parse_take(ps);
        parse_next(ps);
        if (ps->tok.kind != TOK_STR)
            return parse_expected(ps, "the documentation string of "
                                  "parameter '%s'", p->name);
        p->doc = parse_take(ps);
        parse_next(ps);
        if (ps->tok.kind == TOK_RPAREN) {
            parse_next(ps);
            return 0;
        }
        if (ps->tok.kind != TOK_COMMA)
            return parse_expected(ps, "',' or ')' after parameter '%s'",
                                  p->name);
        parse_next(ps);
    }
}

/* event_sig, the 'event' being the current token. */
static int parse_event(struct parser *ps, struct aspect *a)
{
    struct sig sig;
    char owner[128];

    memset(&sig, 0, sizeof sig);
    sig.kind = SIG_EVENT;
    parse_next(ps);
    if (ps->tok.kind != TOK_IDENT)
        return parse_expected(ps, "the event's name after 'event'");
    sig.pos = ps->tok.pos;
    sig.name = parse_take(ps);
    snprintf(owner, sizeof owner, "event '%s'", sig.name);
    parse_next(ps);
    if (ps->tok.kind == TOK_STAR) {
        sig.visible = 1;
        parse_next(ps);
    }
    if (ps->tok.kind != TOK_STR) {
        parse_expected(ps, sig.visible ?
                       "the documentation string of %s after '*'" :
                       "'*' or the documentation string of %s", owner);
        goto fail;
    }
    sig.doc = parse_take(ps);
    parse_next(ps);
    if (ps->tok.kind != TOK_LPAREN) {
        parse_expected(ps, "'(' to begin the parameter list of %s", owner);
        goto fail;
    }
    if (parse_params(ps, &sig, owner) < 0)
        goto fail;
    if (ps->tok.kind != TOK_SEMI) {
        parse_expected(ps, "';' after the event's parameter list");
        goto fail;
    }
    parse_next(ps);
    spec_add_sig(a, &sig);
    return 0;

fail:
    spec_free_sig(&sig);
    return -1;
}

/* operation_sig, the 'operation' being the current token. */
static int parse_operation(struct parser *ps, struct aspect *a)
{
    struct sig sig;
    char owner[128];

    memset(&sig, 0, sizeof sig);
    sig.kind = SIG_OPERATION;
    parse_next(ps);
    if (ps->tok.kind != TOK_IDENT)
        return parse_expected(ps, "the operation's name after 'operation'");
    sig.pos = ps->tok.pos;
    sig.name = parse_take(ps);
    snprintf(owner, sizeof owner, "operation '%s'", sig.name);
    parse_next(ps);
    if (ps->tok.kind != TOK_STR) {
        parse_expected(ps, "the documentation string of %s", owner);
        goto fail;
    }
    sig.doc = parse_take(ps);
    parse_next(ps);
    if (ps->tok.kind != TOK_LPAREN) {
        parse_expected(ps, "'(' to begin the parameter list of %s", owner);
        goto fail;
    }
    if (parse_params(ps, &sig, owner) < 0)
        goto fail;
    if (ps->tok.kind == TOK_COLON) {
        parse_next(ps);
        if (ps->tok.kind != TOK_IDENT) {
            parse_expected(ps, "the result type of %s after ':'", owner);
            goto fail;
        }
        sig.result_pos = ps->tok.pos;
        sig.result_type = parse_take(ps);
        sig.result_kind = type_lookup(sig.result_type);
        parse_next(ps);
        if (ps->tok.kind != TOK_TEXT) {
            parse_expected(ps, "'{' to begin the body of %s", owner);
            goto fail;
        }
    } else if (ps->tok.kind != TOK_TEXT) {
        parse_expected(ps, "':' and a result type, or '{' to begin the body "
                       "of %s", owner);
        goto fail;
    }
    sig.body_pos = ps->tok.pos;
    sig.body = parse_take(ps);
    sig.body_indent = ps->tok.indent;
    ps->tok.indent = NULL;
    parse_next(ps);
    spec_add_sig(a, &sig);
    return 0;

fail:
    spec_free_sig(&sig);
    return -1;
}

/* aspect_stmt, the 'aspect' being the current token. */
static int parse_aspect(struct parser *ps)
{
    struct aspect *a;
    struct sig sig;
    int after_body = 0, r;

    parse_next(ps);
    if (ps->tok.kind != TOK_IDENT)
        return parse_expected(ps, "the aspect's name after 'aspect'");
    a = spec_add_aspect(ps->spec);
    a->pos = ps->tok.pos;
    a->name = parse_take(ps);
    parse_next(ps);
    if (ps->tok.kind != TOK_SEMI)
        return parse_expected(ps, "';' after the aspect's name");
    parse_next(ps);
    for (;;) {
        if (parse_is(ps, "end")) {
            a->end_pos = ps->tok.pos;
            parse_next(ps);
            if (ps->tok.kind != TOK_SEMI)
                return parse_expected(ps, "';' after 'end'");
            parse_next(ps);
            a->closed = 1;
            return 0;
        }
        r = 0;
        if (parse_is(ps, "event")) {
            r = parse_event(ps, a);
        } else if (parse_is(ps, "operation")) {
            r = parse_operation(ps, a);
        } else if (ps->tok.kind == TOK_STR || ps->tok.kind == TOK_BSTR) {
            memset(&sig, 0, sizeof sig);
            sig.kind = SIG_HEADER;
            sig.angled = ps->tok.kind == TOK_BSTR;
            sig.pos = ps->tok.pos;
            sig.name = parse_take(ps);
            spec_add_sig(a, &sig);
            parse_next(ps);
        } else if (parse_is(ps, "aspect") || ps->tok.kind == TOK_EOF) {
            parse_expected(ps, "'end;' to close aspect '%s'%s", a->name,
                           ps->tok.kind == TOK_EOF ? "" :
                           " before the next aspect");
            diag_note(ps->diags, &a->pos, "aspect '%s' begins here", a->name);
            return -1;
        } else if (after_body && ps->tok.kind == TOK_SEMI) {
            diag_error(ps->diags, &ps->tok.pos, "unexpected ';' after the "
                       "body of operation '%s': an operation ends with its "
                       "body", a->sigs[a->nsigs - 1].name);
            return -1;
        } else {
            return parse_expected(ps, "'event', 'operation', a header name "
                                  "or 'end'");
        }
        if (r < 0)
            return -1;
        after_body = a->nsigs > 0 &&
                     a->sigs[a->nsigs - 1].kind == SIG_OPERATION;
    }
}

struct spec *parse_spec(const char *data, size_t len, const char *file,
                        struct diags *diags)
{
    struct parser ps;
    struct pos start;

    memset(&ps, 0, sizeof ps);
    ps.spec = spec_new();
    ps.diags = diags;
    lex_init(&ps.lx, data, len, file, ps.spec, diags);
    start.file = ps.lx.file;
    start.line = 1;
    start.col = 1;
    parse_next(&ps);
    if (ps.tok.kind == TOK_EOF)
        diag_error(diags, &start, "empty specification: expected 'aspect'");
    while (ps.tok.kind != TOK_EOF) {
        if (!parse_is(&ps, "aspect")) {
            parse_expected(&ps, "'aspect'");
            break;
        }
        if (parse_aspect(&ps) < 0)
            break;
    }
    token_clear(&ps.tok);
    return ps.spec;
}
