/* SPDX-License-Identifier: MIT */
/*
 * question.h - questions answered in the program <protocol#question>:
 * aggregations (count, sum, min, max, average, a power-of-two histogram)
 * of an event's parameter or of a duration, grouped by up to two keys,
 * under a condition, that the program keeps itself in per-thread tables.
 * No record crosses to noosa for them: noosa places one clause per
 * question in the event's filter (a consumer whose clauses count instead
 * of recording), and merges the threads' tables when the answer is asked
 * for, at stops, and when the program ends (kept until the next run).
 *
 * Its command is in src/tcl/cmd-question.c, which compiles conditions
 * (Tcl expressions) into clause programs; nothing here knows Tcl.
 */
#ifndef NOOSA_QUESTION_H
#define NOOSA_QUESTION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dispatch.h"
#include "registry.h"
#include "session.h"
#include "sink.h"

/* Questions at once: the question area's definitions but the last, which
 * is the time profile's <protocol#cct>. */
#define QUESTION_MAX 31

enum question_value {
    QUESTION_COUNT,    /* counts only */
    QUESTION_PARAM,    /* a parameter (integer or double) */
    QUESTION_DURATION  /* ns from a start event, or enter to leave */
};

enum question_key {
    QUESTION_KEY_PARAM,  /* a parameter (integer, pointer or string) */
    QUESTION_KEY_THREAD  /* the thread */
};

/* A question as the user asks it.  Events are named: each run resolves
 * them in its interface. */
struct question_spec {
    const char *name;
    const char *on;         /* the event counted */
    const char *from;       /* durations: the start event (NULL with on
                               "leave": the matching enter) */
    enum question_value value;
    const char *param;      /* QUESTION_PARAM: its name */
    unsigned int nkeys;     /* 0..2 */
    struct {
        enum question_key kind;
        const char *param;  /* QUESTION_KEY_PARAM */
    } key[2];
    int hist;               /* keep a histogram of the value */
    uint32_t entries;       /* keys a thread's table holds (power of two) */
    /* The condition on ON as the program evaluates it (cond.h; NULL:
     * none), and its text for listings. */
    const unsigned char *prog;
    size_t prog_len;
    const char *cond;
    /* -within COMPONENT (or, OUTSIDE, -outside): only the events of a
     * thread with (without) a frame of it on its stack <design#relations>;
     * NULL: wherever. */
    const char *within;
    int outside;
};

struct questions;
struct relations;

/* The questions of a session, counted through dispatcher D, saying into
 * SINK what the user must know (a question the program cannot answer). */
struct questions *questions_create(struct session *s, struct dispatch *d,
                                   struct sink *sink);
void questions_free(struct questions *qs);
/* The relations that answer -within and name derived events. */
void questions_set_relations(struct questions *qs, struct relations *rel);

/* Check SPEC against event EV's interface (the current run's, or the
 * described one) and add it; it is answered from now on (from the next
 * run when the program cannot answer it now).  Returns 0, or -1 with
 * *cause (caller frees). */
int questions_add(struct questions *qs, const struct question_spec *spec,
                  struct registry *reg, char **cause);
int questions_delete(struct questions *qs, const char *name);
int questions_reset(struct questions *qs, const char *name);

/* Whether there is a question NAME. */
int questions_has(const struct questions *qs, const char *name);

/* The questions, in order of addition. */
unsigned int questions_count(const struct questions *qs);
const char *questions_name(const struct questions *qs, unsigned int i);
/* "count of tick where {$i > 3} by thread", for listings (caller frees). */
char *questions_describe(const struct questions *qs, const char *name);
/* Where it is answered: "in the program: N events checked, M counted",
 * or why not (caller frees); NULL for no such question. */
char *questions_where(const struct questions *qs, const char *name);

/* One group of an answer. */
struct question_row {
    char *key[2];        /* the keys as text */
    uint64_t count;
    int64_t sum, min, max;    /* integer values and durations (ns) */
    double dsum, dmin, dmax;  /* double values */
    uint64_t *hist;      /* DAPTO_Q_HIST buckets, or NULL */
};

/* An answer: what the program's tables held when it was asked for. */
struct question_answer {
    unsigned int nkeys;
    const char *keyname[2];  /* column titles (the question's) */
    enum question_value value;
    int is_double;           /* the value is a double parameter */
    int hist;
    struct question_row *rows;
    size_t nrows;
    uint32_t threads;        /* thread tables merged */
    uint64_t overflow;       /* events whose key found no room */
    uint64_t lost;           /* signal handlers' events not kept */
    uint64_t unmatched;      /* durations without their start */
    uint64_t torn;           /* entries read in the middle of an update */
    uint64_t no_slot;        /* question events of threads without tables */
    int final;               /* kept from a run that ended */
    /* "checked N, recorded M": the events the program looked at for the
     * question and those it counted <protocol#counters> (has_counts 0:
     * not known); for a derived event, what the program looked at and
     * recorded of it (has_derived) */
    int has_counts;
    uint64_t checked, recorded;
    int has_derived;
    uint64_t dchecked, drecorded;
};

/* The answer to question NAME now (or as kept at the end of the last
 * run).  Returns 0, or -1 with *cause (no such question, never answered).
 * Free with question_answer_free(). */
int questions_answer(struct questions *qs, const char *name,
                     struct question_answer *a, char **cause);
void question_answer_free(struct question_answer *a);

/* Histogram bucket B's lowest value (<protocol#question>). */
int64_t question_bucket_low(unsigned int b);

/* Orders of rows in question_format(). */
enum question_sort {
    QUESTION_SORT_COUNT, /* most counted first (the default) */
    QUESTION_SORT_KEY,   /* by the keys' text */
    QUESTION_SORT_SUM,
    QUESTION_SORT_MAX,
    QUESTION_SORT_AVG
};

/* Sort A's rows by SORT. */
void question_sort(struct question_answer *a, enum question_sort sort);

/* Answer A to question NAME (described DESC) as text: a header, a table
 * of its rows (at most LIMIT; 0: all) and each row's histogram as bars,
 * then what was not counted (caller frees). */
char *question_format(const struct question_answer *a, const char *name,
                      const char *desc, size_t limit);

/* Answer A as CSV: a header line, then a row per group; with a
 * histogram, a last column of "low:count" pairs.  Returns 0, or -1 with
 * errno. */
int question_csv(const struct question_answer *a, FILE *f);

/* The measurement window <protocol#question>: open (questions count),
 * closed, or opened by each FROM event and closed by each TO event (closed
 * until the first FROM). */
enum question_window {
    QUESTION_WINDOW_OPEN,
    QUESTION_WINDOW_CLOSED,
    QUESTION_WINDOW_EVENTS
};

/* Set the window (FROM and TO with QUESTION_WINDOW_EVENTS); 0, or -1 with
 * *cause. */
int questions_window(struct questions *qs, enum question_window w, const char *from,
                     const char *to, char **cause);
/* "open", "closed", "opened by A, closed by B (open now)" (caller frees). */
char *questions_window_text(const struct questions *qs);

/* The program ended: keep every answer until the next run, and print
 * them unless told not to. */
void questions_ended(struct questions *qs);
int questions_print_at_end(const struct questions *qs);
void questions_set_print_at_end(struct questions *qs, int on);

#endif /* NOOSA_QUESTION_H */
