/* SPDX-License-Identifier: MIT */
/*
 * question-view.c - answers to questions as text and CSV: the table of
 * groups, each group's histogram as bars, and what the program could not
 * count, said plainly.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "question.h"
#include "xmalloc.h"

static double avg(const struct question_answer *a, const struct question_row *r)
{
    if (r->count == 0)
        return 0;
    return a->is_double ? r->dsum / (double)r->count : (double)r->sum / (double)r->count;
}

static enum question_sort sort_by;
static const struct question_answer *sort_answer;

static int cmp_keys(const struct question_row *x, const struct question_row *y)
{
    unsigned int i;
    int c;

    for (i = 0; i < 2 && x->key[i] != NULL && y->key[i] != NULL; i++) {
        /* numbers by value, the rest by text */
        char *ex, *ey;
        long long vx = strtoll(x->key[i], &ex, 0), vy = strtoll(y->key[i], &ey, 0);

        if (*ex == '\0' && *ey == '\0' && *x->key[i] != '\0' && *y->key[i] != '\0') {
            if (vx != vy)
                return vx < vy ? -1 : 1;
        } else if ((c = strcmp(x->key[i], y->key[i])) != 0) {
            return c;
        }
    }
    return 0;
}

static int cmp_rows(const void *pa, const void *pb)
{
    const struct question_row *x = pa, *y = pb;
    const struct question_answer *a = sort_answer;
    double dx, dy;

    switch (sort_by) {
    case QUESTION_SORT_KEY:
        return cmp_keys(x, y);
    case QUESTION_SORT_SUM:
        dx = a->is_double ? x->dsum : (double)x->sum;
        dy = a->is_double ? y->dsum : (double)y->sum;
        break;
    case QUESTION_SORT_MAX:
        dx = a->is_double ? x->dmax : (double)x->max;
        dy = a->is_double ? y->dmax : (double)y->max;
        break;
    case QUESTION_SORT_AVG:
        dx = avg(a, x);
        dy = avg(a, y);
        break;
    default:
        dx = (double)x->count;
        dy = (double)y->count;
        break;
    }
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return cmp_keys(x, y);
}

void question_sort(struct question_answer *a, enum question_sort sort)
{
    if (a->nrows < 2)
        return;
    sort_by = sort;
    sort_answer = a;
    qsort(a->rows, a->nrows, sizeof *a->rows, cmp_rows);
}

static void number(FILE *f, const struct question_answer *a, int64_t i, double d)
{
    if (a->is_double)
        fprintf(f, " %14.6g", d);
    else
        fprintf(f, " %14" PRId64, i);
}

static void histogram(FILE *f, const struct question_row *r)
{
    unsigned int b, lo = DAPTO_Q_HIST, hi = 0;
    uint64_t most = 0;
    int w;

    for (b = 0; b < DAPTO_Q_HIST; b++) {
        if (r->hist[b] == 0)
            continue;
        lo = b < lo ? b : lo;
        hi = b;
        most = r->hist[b] > most ? r->hist[b] : most;
    }
    if (most == 0)
        return;
    fprintf(f, "  %20s  %-40s %s\n", "value", "distribution", "count");
    for (b = lo; b <= hi; b++) {
        w = (int)((r->hist[b] * 40 + most - 1) / most);
        if (r->hist[b] == 0)
            w = 0;
        fprintf(f, "  %20" PRId64 " |%-40.*s %" PRIu64 "\n", question_bucket_low(b),
                w, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@", r->hist[b]);
    }
}

char *question_format(const struct question_answer *a, const char *name,
                      const char *desc, size_t limit)
{
    char *text = NULL;
    size_t len = 0, i, n = a->nrows;
    uint64_t total = 0;
    unsigned int k;
    FILE *f = open_memstream(&text, &len);
    const char *unit = a->value == QUESTION_DURATION ? "(ns)" : "";

    if (f == NULL)
        return xstrdup("question: out of memory\n");
    for (i = 0; i < a->nrows; i++)
        total += a->rows[i].count;
    fprintf(f, "question %s: %s\n", name, desc);
    fprintf(f, "  %" PRIu64 " events counted by the program in %" PRIu32 " thread%s%s\n",
            total, a->threads, a->threads == 1 ? "" : "s",
            a->final ? " (the run has ended)" : "");
    /* SmartMonitor's "checked N, recorded M" */
    if (a->has_counts)
        fprintf(f, "  checked %" PRIu64 ", recorded %" PRIu64 "\n", a->checked,
                a->recorded);
    if (a->has_derived)
        fprintf(f, "  derived event: checked %" PRIu64 ", recorded %" PRIu64 "\n",
                a->dchecked, a->drecorded);
    if (limit != 0 && n > limit)
        n = limit;
    if (a->nrows > 0) {
        fputs(" ", f);
        for (k = 0; k < a->nkeys; k++)
            fprintf(f, " %-16s", a->keyname[k]);
        fprintf(f, " %14s", "count");
        if (a->value != QUESTION_COUNT) {
            char h[32];

            snprintf(h, sizeof h, "sum%s", unit);
            fprintf(f, " %14s", h);
            snprintf(h, sizeof h, "min%s", unit);
            fprintf(f, " %14s", h);
            snprintf(h, sizeof h, "max%s", unit);
            fprintf(f, " %14s", h);
            snprintf(h, sizeof h, "avg%s", unit);
            fprintf(f, " %14s", h);
        }
        fputc('\n', f);
    }
    for (i = 0; i < n; i++) {
        const struct question_row *r = &a->rows[i];

        fputs(" ", f);
        for (k = 0; k < a->nkeys; k++)
            fprintf(f, " %-16s", r->key[k] != NULL ? r->key[k] : "");
        fprintf(f, " %14" PRIu64, r->count);
        if (a->value != QUESTION_COUNT) {
            number(f, a, r->sum, r->dsum);
            number(f, a, r->min, r->dmin);
            number(f, a, r->max, r->dmax);
            fprintf(f, " %14.6g", avg(a, r));
        }
        fputc('\n', f);
    }
    if (n < a->nrows)
        fprintf(f, "  ... %zu more groups (-limit 0 shows all)\n", a->nrows - n);
    for (i = 0; a->hist && i < n; i++) {
        const struct question_row *r = &a->rows[i];

        if (a->nkeys > 0) {
            fputs(" ", f);
            for (k = 0; k < a->nkeys; k++)
                fprintf(f, " %s = %s", a->keyname[k], r->key[k] != NULL ? r->key[k] : "");
            fputc('\n', f);
        }
        histogram(f, r);
    }
    if (a->overflow != 0)
        fprintf(f, "  %" PRIu64 " events were not counted: their keys found no room "
                "in a thread's table (-keys N for a larger one)\n", a->overflow);
    if (a->lost != 0)
        fprintf(f, "  %" PRIu64 " events of signal handlers were not counted: they "
                "came while their thread counted, more of them than it keeps\n", a->lost);
    if (a->unmatched != 0)
        fprintf(f, "  %" PRIu64 " durations were not counted: their start was not "
                "seen (or nested deeper than %d)\n", a->unmatched, DAPTO_Q_STACK);
    if (a->torn != 0)
        fprintf(f, "  %" PRIu64 " groups were read while their thread was updating "
                "them: each may lack the one event in flight\n", a->torn);
    if (a->no_slot != 0)
        fprintf(f, "  %" PRIu64 " question events of threads beyond the program's "
                "tables were not counted\n", a->no_slot);
    fclose(f);
    return text;
}

/* S as a CSV field. */
static void field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s != '\0'; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int question_csv(const struct question_answer *a, FILE *f)
{
    size_t i;
    unsigned int k, b;

    for (k = 0; k < a->nkeys; k++) {
        field(f, a->keyname[k]);
        fputc(',', f);
    }
    fputs("count", f);
    if (a->value != QUESTION_COUNT)
        fputs(a->value == QUESTION_DURATION ? ",sum_ns,min_ns,max_ns,avg_ns"
                                            : ",sum,min,max,avg", f);
    if (a->hist)
        fputs(",histogram", f);
    fputc('\n', f);
    for (i = 0; i < a->nrows; i++) {
        const struct question_row *r = &a->rows[i];

        for (k = 0; k < a->nkeys; k++) {
            field(f, r->key[k] != NULL ? r->key[k] : "");
            fputc(',', f);
        }
        fprintf(f, "%" PRIu64, r->count);
        if (a->value != QUESTION_COUNT) {
            if (a->is_double)
                fprintf(f, ",%.17g,%.17g,%.17g", r->dsum, r->dmin, r->dmax);
            else
                fprintf(f, ",%" PRId64 ",%" PRId64 ",%" PRId64, r->sum, r->min, r->max);
            fprintf(f, ",%.17g", avg(a, r));
        }
        if (a->hist) {
            const char *sep = "";

            fputc(',', f);
            for (b = 0; b < DAPTO_Q_HIST; b++) {
                if (r->hist[b] == 0)
                    continue;
                fprintf(f, "%s%" PRId64 ":%" PRIu64, sep, question_bucket_low(b), r->hist[b]);
                sep = " ";
            }
        }
        fputc('\n', f);
    }
    if (fflush(f) != 0 || ferror(f)) {
        if (errno == 0)
            errno = EIO;
        return -1;
    }
    return 0;
}
