/* SPDX-License-Identifier: MIT */
/*
 * profile-export.c - the profiles in other tools' formats:
 *
 *  - folded stacks ("a;b;c 1234" per line), which flamegraph.pl,
 *    speedscope and inferno read: self time in nanoseconds, calls, or
 *    frequency counts per component stack;
 *  - the Chrome trace-event format (JSON), which Perfetto, chrome://tracing
 *    and speedscope read: the time profile's timeline as B and E events
 *    per thread, timestamps in microseconds since the program started.
 *
 * Names come from the program: they are sanitised for the line format and
 * escaped for JSON.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "session.h"
#include "sink.h"
#include "profile-int.h"
#include "stacks.h"
#include "xmalloc.h"

/* A name for a folded line: no ';' (the separator), no control
 * characters (a line each). */
static void put_folded_name(FILE *f, const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;

        fputc(c == ';' ? ':' : c < 0x20 || c == 0x7f ? '?' : c, f);
    }
}

static void put_folded_path(FILE *f, const struct cct *cct, uint32_t node)
{
    if (node == CCT_ROOT)
        return;
    if (cct_parent(cct, node) != CCT_ROOT) {
        put_folded_path(f, cct, cct_parent(cct, node));
        fputc(';', f);
    }
    put_folded_name(f, cct_text(cct, cct_name(cct, node)));
}

int profile_export_folded(struct profile *p, FILE *f,
                          enum profile_metric metric, pid_t thread,
                          char **cause)
{
    struct cct *cct = stacks_cct(p->st);
    size_t n, i, k, lines = 0;
    uint64_t *v;
    int found = 0;

    if (p->time.in_program || p->freq.in_program)
        ptime_program_read(p); /* (may add nodes) */
    n = cct_nnodes(cct);
    v = xcalloc(n, sizeof *v);

    if (metric == PROFILE_M_AUTO)
        metric = p->time.nthreads > 0 ? PROFILE_M_TIME : PROFILE_M_EVENTS;
    if (metric == PROFILE_M_EVENTS && thread != 0) {
        xcause(cause, "the frequency profile counts all threads together");
        goto fail;
    }
    if (metric == PROFILE_M_EVENTS) {
        for (i = 0; i <= p->freq.mask; i++) {
            const struct fcount *c = &p->freq.slots[i];

            if (c->n != 0 && c->node < n)
                v[c->node] += c->n;
        }
    } else {
        for (i = 0; i < p->time.nthreads; i++) {
            const struct tthread *th = &p->time.threads[i];

            if (thread != 0 && th->tid != thread)
                continue;
            found = 1;
            for (k = 0; k < th->n && k < n; k++)
                v[k] += metric == PROFILE_M_TIME ? (uint64_t)th->self[k]
                                                 : th->calls[k];
        }
        if (thread != 0 && !found) {
            xcause(cause, "no thread %d in the time profile", (int)thread);
            goto fail;
        }
    }
    for (k = 1; k < n; k++) {
        if (v[k] == 0)
            continue;
        put_folded_path(f, cct, (uint32_t)k);
        fprintf(f, " %llu\n", (unsigned long long)v[k]);
        lines++;
    }
    if (lines == 0) {
        xcause(cause, "nothing to export: the %s profile is empty",
               metric == PROFILE_M_EVENTS ? "frequency" : "time");
        goto fail;
    }
    free(v);
    return 0;

fail:
    free(v);
    return -1;
}

static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c);
        else if (c >= 0x80) {
            /* keep valid UTF-8 sequences, escape stray bytes */
            const unsigned char *u = (const unsigned char *)s;
            int len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2
                                                                          : 0;
            int j;

            for (j = 1; j < len && (u[j] & 0xc0) == 0x80; j++)
                ;
            if (len == 0 || j < len) {
                fprintf(f, "\\u%04x", c);
                continue;
            }
            fwrite(s, 1, (size_t)len, f);
            s += len - 1;
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

/* Microseconds with three decimals, from nanoseconds. */
static void put_us(FILE *f, int64_t ns)
{
    if (ns < 0)
        ns = 0;
    fprintf(f, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

struct depth {
    pid_t tid;
    long pid; /* its process's (one track each: <design#processes>) */
    unsigned int depth;
    int named;
    int64_t last;
};

static struct depth *depth_of(struct depth **d, size_t *n, size_t *cap,
                              pid_t tid)
{
    size_t i;

    for (i = 0; i < *n; i++) {
        if ((*d)[i].tid == tid)
            return &(*d)[i];
    }
    *d = xgrow(*d, *n, cap, sizeof **d);
    (*d)[*n].tid = tid;
    (*d)[*n].pid = 0;
    (*d)[*n].depth = 0;
    (*d)[*n].named = 0;
    (*d)[*n].last = 0;
    return &(*d)[(*n)++];
}

int profile_export_chrome(struct profile *p, FILE *f, char **cause)
{
    const struct ptime *t = &p->time;
    struct cct *cct = stacks_cct(p->st);
    char *const *argv = session_argv(p->session);
    struct depth *d = NULL;
    size_t nd = 0, dcap = 0, i;
    long pid = t->pid > 0 ? (long)t->pid : 1;

    if (t->nmarks == 0 && t->in_program) {
        xcause(cause, "nothing to export: the time profile is kept in the "
               "program, which keeps no timeline (\"profile timeline N\" "
               "before the run keeps one, from the records of every enter "
               "and leave)");
        return -1;
    }
    if (t->nmarks == 0) {
        xcause(cause, "nothing to export: the time profile has no timeline "
               "(turn it on with \"profile time on\" and run the program)");
        return -1;
    }
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
    fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%ld,"
               "\"tid\":0,\"args\":{\"name\":", pid);
    put_json_string(f, argv != NULL && argv[0] != NULL ? argv[0] : "program");
    fputs("}}", f);
    for (i = 0; i < t->nmarks; i++) {
        const struct tmark *m = PTIME_MARK(t, i);
        struct depth *dt = depth_of(&d, &nd, &dcap, (pid_t)m->tid);
        uint32_t node = m->what >> 1;

        if (!dt->named) {
            /* first mark of the thread: its process (named at its first
             * thread, when it is not the first one) and its name */
            const struct tthread *th =
                ptime_thread(p, (pid_t)m->tid, 0);
            size_t k;

            dt->pid = th != NULL && th->pid > 0 ? (long)th->pid : pid;
            for (k = 0; k + 1 < nd && d[k].pid != dt->pid; k++)
                ;
            if (k + 1 == nd && dt->pid != pid)
                fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_name\","
                           "\"pid\":%ld,\"tid\":0,\"args\":{\"name\":"
                           "\"process %ld\"}}", dt->pid, dt->pid);
            fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%ld,"
                       "\"tid\":%d,\"args\":{\"name\":\"thread %d\"}}",
                    dt->pid, (int)m->tid, (int)m->tid);
            dt->named = 1;
        }
        dt->last = m->ns;
        if (m->what & 1) {
            if (dt->depth == 0)
                continue; /* entered before the timeline began */
            dt->depth--;
            fprintf(f, ",\n{\"ph\":\"E\",\"pid\":%ld,\"tid\":%d,\"ts\":",
                    dt->pid, (int)m->tid);
        } else {
            dt->depth++;
            fputs(",\n{\"ph\":\"B\",\"name\":", f);
            put_json_string(f, cct_text(cct, cct_name(cct, node)));
            fprintf(f, ",\"cat\":\"component\",\"pid\":%ld,\"tid\":%d,\"ts\":",
                    dt->pid, (int)m->tid);
        }
        put_us(f, m->ns);
        fputc('}', f);
    }
    /* close what is still open, at each thread's last mark */
    for (i = 0; i < nd; i++) {
        while (d[i].depth > 0) {
            d[i].depth--;
            fprintf(f, ",\n{\"ph\":\"E\",\"pid\":%ld,\"tid\":%d,\"ts\":",
                    d[i].pid, (int)d[i].tid);
            put_us(f, d[i].last);
            fputc('}', f);
        }
    }
    fprintf(f, "\n],\"otherData\":{\"marks\":%zu,\"dropped\":%llu}}\n",
            t->nmarks, (unsigned long long)t->marks_dropped);
    free(d);
    return 0;
}
