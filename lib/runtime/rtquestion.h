/* SPDX-License-Identifier: MIT */
/*
 * rtquestion.h - the runtime's side of questions <protocol#question>:
 * counting an event into the calling thread's table of a question, or
 * marking the start of a duration, when a question's clause of the
 * event's filter fires (rtfilter.c).  The monitor's side is
 * lib/channel/qarea.h.
 *
 * rtq_fire() trusts nothing it reads from the area: the header and the
 * definition are copied once and checked against the area's size and the
 * slot's before any table is touched.  No allocation, no stdio, no system
 * call; async-signal-safe in the sense that an evaluation interrupted by
 * a signal handler's own is left alone (the handler's is kept, counted
 * when the thread lets go, or counted as lost <protocol#question>).
 */
#ifndef NOOSA_RTQUESTION_H
#define NOOSA_RTQUESTION_H

#include <stdint.h>
#include <string.h>

#include "dapto.h"
#include "protocol.h"

/* What counting reads and writes. */
struct rtq_env {
    unsigned char *area; /* the question area; NULL: none */
    uint32_t size;       /* its bytes */
    /* Where the calling thread keeps its slot (NULL until taken,
     * RTQ_NO_SLOT when there was none left); NULL: in the runtime's own
     * thread-local variable. */
    unsigned char **slot;
    uint64_t (*now)(void); /* a timestamp (record time units) */
    /* The attach the thread's slot and checked copies belong to: when it
     * is not the one the thread saw last, they are forgotten first
     * <protocol#attach>.  NULL: never. */
    const uint32_t *epoch;
    int tsc;               /* now() is the TSC: read inline (x86) */
};

#define RTQ_NO_SLOT ((unsigned char *)1)

/* The string a parameter holds (resolved from an intern id when needed),
 * as the filter reads it. */
struct rtq_str {
    const unsigned char *s;
    uint32_t n;
};

/* One parameter of the event, as the filter found it: *KIND is its tag
 * (enum dapto_kind), and its integer, double or string in *I, *D or *S.
 * Returns 0, or -1 when there is no such parameter. */
typedef int (*rtq_arg_fn)(const void *ctx, unsigned int k, int *kind,
                          int64_t *i, double *d, struct rtq_str *s);

/* Clause flags FLAGS (DAPTO_CL_QUESTION or DAPTO_CL_QSTART) of question
 * Q fired on an event of thread TID whose parameters ARG reads (with
 * CTX). */
void rtq_fire(const struct rtq_env *env, unsigned int q, unsigned int flags,
              uint32_t tid, rtq_arg_fn arg, const void *ctx);

/* rtq_fire() for an event whose values are encoded at VALS (LEN bytes)
 * <protocol#record>, counted without calling back when the thread has
 * the plan of the question's commonest shapes (one integer or thread key
 * at most, an integer value or none, the key's entry found at the first
 * probe): 0 when done (counted, or nothing to count), -1 when the caller
 * must call rtq_fire(). */
int rtq_fire_vals(const struct rtq_env *env, unsigned int q, unsigned int flags,
                  uint32_t tid, const unsigned char *vals, uint32_t len);

/* rtq_fire_vals() for an event whose arguments ARGS (NARGS, of the kinds
 * of PARAMS, as dapto.h says) its record would hold whole. */
int rtq_fire_args(const struct rtq_env *env, unsigned int q, unsigned int flags,
                  uint32_t tid, const union dapto_arg *args,
                  const struct dapto_param *params, unsigned int nargs);

/* A question of the commonest shapes (no key, or one: an integer or
 * string parameter, or the thread; no value, or an integer parameter,
 * with or without a histogram) counted straight from a filter's kept
 * clause: the entry of no key, or the key's entry at its first probe, in
 * the calling thread's table, as the general path made it, used while the
 * definition's epoch and the table's check stay what they were (a reset
 * or redefinition takes a new epoch <protocol#question>).  Kept and used
 * by one thread; the caller keeps a signal handler's events off it. */
#define RTQ_HOT_ADDRS 8 /* a power of two */

struct rtq_hot {
    const uint32_t *epoch_at; /* the definition's epoch; NULL: no plan */
    const uint64_t *check_at; /* the table's check */
    struct dapto_qentry *e;   /* the entry of no key */
    uint64_t check;
    uint32_t epoch;
    uint32_t value_arg;       /* the parameter summed; UINT32_MAX: none */
    uint32_t hist_off;        /* the entry's histogram; 0: none */
    /* One key: its kind (DAPTO_QK_*; NONE: e is the entry), parameter,
     * and the table's entries. */
    uint32_t key;
    uint32_t key_arg;
    unsigned char *ents;
    uint32_t mask;            /* nent - 1 */
    uint32_t ent_size;
    uint32_t text_off;
    /* A string key's bytes the event's record would hold whole (the
     * other parameters' room taken off <protocol#record>): longer, the
     * record decides. */
    uint32_t str_room;
    /* A string key's entries by the address of the string last found
     * there (a label, a name: a program passes the same few addresses),
     * so that a key is not hashed again: used only when the bytes at the
     * address are still the entry's whole text, which a key of at most
     * DAPTO_Q_TEXT bytes is <protocol#question>.  Emptied when a plan is
     * made of another table (or none), whose entries are then another
     * table's or cleared; the entries found this way in HITS (tests).
     * A key shorter than a word is compared with its own copy here (its
     * bytes and terminator in W, where M's bytes are set), the entry's
     * bytes not read again; a longer one (M 0) with the entry's text. */
    struct {
        const char *s;
        struct dapto_qentry *e;
        uint64_t w, m;
    } by_addr[RTQ_HOT_ADDRS];
    uint64_t hits;
};

/* Make *H for question Q, counted on events whose parameters are PARAMS
 * (N of them, as dapto.h describes them): 0, or -1 (H->epoch_at NULL)
 * when the question has not that shape, the key or value parameter is not
 * of the question's kind, or the general path has not made its table (or,
 * without a key, its entry) yet. */
int rtq_hot_plan(const struct rtq_env *env, unsigned int q,
                 const struct dapto_param *params, unsigned int n, struct rtq_hot *h);

/* The mixer of keys' hashes <protocol#question>. */
static inline uint64_t rtq_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

/* FNV-1a over N bytes at S: a string key's hash <protocol#question>. */
static inline uint64_t rtq_hash_bytes(const unsigned char *s, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    uint32_t i;

    for (i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
/* Whether the measurement window of ENV's area is open: questions count
 * <protocol#question>. */
static inline int rtq_open(const struct rtq_env *env)
{
    const struct dapto_question_area *h =
        (const struct dapto_question_area *)(const void *)env->area;

    return h == NULL || env->size < sizeof *h ||
           __atomic_load_n(&h->closed, __ATOMIC_RELAXED) == 0;
}

/* Open (OPEN) or close the measurement window of ENV's area: a
 * DAPTO_CL_WINDOW clause fired. */
void rtq_window(const struct rtq_env *env, int open);

/* The thread's plan of its call tree: the table and its geometry,
 * checked once by the general path (cct_plan) and used while the area
 * and the definition's epoch stay the same (epochs are not reused
 * <protocol#question>).  Only its own thread writes the table, so
 * nothing else of it needs to be read again: the hot path reads the
 * definition's epoch from the area and nothing else that noosa writes.
 * The current path's entry and the time of the last entry or exit are
 * kept here as well as in the table (depth, since), which the thread
 * only writes. */
struct cct_plan {
    /* the env it is for when that env reads the TSC (the hooks' fast
     * path), else NULL */
    const struct rtq_env *env;
    const unsigned char *area;  /* the area it is of; NULL: none yet */
    unsigned char **slotp;      /* the env's slot pointer it is for */
    const uint32_t *epoch_at;   /* the definition's epoch in the area */
    uint32_t epoch;
    uint32_t nent;              /* a power of two */
    uint32_t ent_size;
    uint64_t mult;              /* ticks to ns, 32.32 */
    struct dapto_qtable *t;
    unsigned char *ents;
    struct dapto_qentry *cur;   /* the entry of t->depth; NULL: the top */
    uint64_t since;             /* t->since */
};

/* Whether the thread is counting (a signal handler's event then is kept
 * to be counted when it lets go), the attach (rtq_env.epoch) its slot
 * and copies are of, and its call tree's plan: one variable, so that the
 * function hooks find them at one address (rtquestion.c; the hot path of
 * questions, rtq_hot_count(), holds it too). */
struct rtq_thread {
    int busy;
    uint32_t epoch;
    struct cct_plan cct;
    /* a signal handler's question events kept (rtquestion.c): taken with
     * one instruction, counted when the thread lets go */
    unsigned int ndef;
};
extern __attribute__((tls_model("initial-exec"))) __thread struct rtq_thread rt_qt;

/* Count what signal handlers kept while the thread counted (rt_qt.ndef
 * is not 0), once it has let go. */
void rtq_let_go_slow(void);

/* The histogram bucket of integer V <protocol#question> (inline: a
 * question's hot path takes it at every event). */
static inline __attribute__((always_inline)) unsigned int rtq_bucket(int64_t v)
{
    uint64_t m;

    if (v == 0)
        return 64;
    if (v > 0)
        return 64 + (unsigned int)(64 - __builtin_clzll((uint64_t)v));
    m = (uint64_t)0 - (uint64_t)v;
    return 64 - (unsigned int)(64 - __builtin_clzll(m));
}

/* The entry's sequence word odd (an update begins) or even again (it
 * ends), by one add: a handler's update nested in the thread's keeps it
 * odd until the outer one ends, and it never goes back. */
static inline __attribute__((always_inline)) void rtq_seq_step(uint32_t *seq)
{
#if defined(__GNUC__) && defined(__x86_64__)
    __asm__ volatile("addl $1, %0" : "+m"(*seq) : : "memory");
#else
    __atomic_store_n(seq, __atomic_load_n(seq, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
#endif
}

/* Add an event of value IV to entry E (no value: IV 0, VALUE 0; a
 * histogram at HIST_OFF, 0: none), between two steps of its sequence
 * word <protocol#question>. */
static inline __attribute__((always_inline)) void
rtq_entry_add(struct dapto_qentry *e, int value, uint32_t hist_off, int64_t iv)
{
    rtq_seq_step(&e->seq);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    dapto_own_add1(&e->count); /* (a quick count may nest in this) */
    if (value) {
        /* (a handler's event of a key is kept while the thread holds
         * rt_qt.busy: only a plain count's entry has a nested update) */
        e->sum += (uint64_t)iv;
        if (iv < (int64_t)e->min)
            e->min = (uint64_t)iv;
        if (iv > (int64_t)e->max)
            e->max = (uint64_t)iv;
        if (hist_off != 0)
            ((uint64_t *)(void *)((unsigned char *)e + hist_off))[rtq_bucket(iv)]++;
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    rtq_seq_step(&e->seq);
}

/* The slot of plan H's entries by address that string S would be in. */
static inline __attribute__((always_inline)) unsigned int rtq_hot_addr(const char *s)
{
    uintptr_t a = (uintptr_t)s;

    /* (the low bits: strings packed side by side differ there) */
    return (unsigned int)(a ^ a >> 3 ^ a >> 6) & (RTQ_HOT_ADDRS - 1);
}

/* The 8 bytes at S, which lie on its page: those after its terminator
 * are read, never used (as strlen() reads: hence no address sanitizer). */
static inline DAPTO_NOASAN uint64_t rtq_word_unchecked(const unsigned char *s)
{
    uint64_t w;

    memcpy(&w, s, 8);
    return w;
}

/* Entry E of plan H when the string at S is still its key whole (its N
 * bytes, none a terminator, then a terminator): E, else NULL.  Nothing of
 * the entry is trusted: none of its bytes outside its text is read, nor
 * any of S after its terminator, except that a key shorter than a word
 * is read as the word while it lies on S's page, as strlen() reads
 * (those bytes are never used: hence no address sanitizer here). */
static inline DAPTO_NOASAN struct dapto_qentry *
rtq_hot_same(const struct rtq_hot *h, struct dapto_qentry *e, const unsigned char *s)
{
    const unsigned char *t = (const unsigned char *)e + h->text_off;
    uint64_t n = e->key[0], i;

    if (n > DAPTO_Q_TEXT)
        return NULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n < 8 && ((uintptr_t)s & 4095) <= 4096 - 8) {
        /* the key's N bytes, then S's terminator too */
        uint64_t key = (1ull << (8 * n)) - 1, ws, wt;

        memcpy(&ws, s, 8);
        memcpy(&wt, t, 8);
        /* (a text with a terminator inside is not a key: the hash finds) */
        if (((wt - 0x0101010101010101ull) & ~wt & 0x8080808080808080ull & key) != 0)
            return NULL;
        return (ws & (key << 8 | 0xff)) == (wt & key) ? e : NULL;
    }
#endif
    for (i = 0; i < n; i++)
        if (s[i] != t[i] || s[i] == '\0')
            return NULL;
    return s[n] == '\0' ? e : NULL;
}

/* The entry plan H keys ARGS (of thread TID) to, when it holds that key
 * at its first probe; NULL when not (a new key, a collision, a string the
 * record would cut: the general path).  A string key found at the address
 * it was last found at is not hashed again. */
static inline __attribute__((always_inline)) struct dapto_qentry *
rtq_hot_entry(struct rtq_hot *h, const union dapto_arg *args, uint32_t tid)
{
    struct dapto_qentry *e;
    const unsigned char *s = NULL;
    uint64_t kw, kh, hash;
    uint32_t n = 0;
    unsigned int a = 0;

    if (DAPTO_LIKELY(h->key == DAPTO_QK_NONE))
        return h->e;
    if (h->key == DAPTO_QK_TID) {
        kw = kh = tid;
    } else if (h->key == DAPTO_QK_INT) {
        kw = kh = (uint64_t)args[h->key_arg].i;
    } else {
        s = (const unsigned char *)(args[h->key_arg].s != NULL ? args[h->key_arg].s
                                                                 : "(null)");
        a = rtq_hot_addr((const char *)s);
        if (h->by_addr[a].s == (const char *)s) {
            e = h->by_addr[a].e;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            if (h->by_addr[a].m != 0 && ((uintptr_t)s & 4095) <= 4096 - 8) {
                /* (read as rtq_hot_same() reads: hence no sanitizer) */
                if ((rtq_word_unchecked(s) & h->by_addr[a].m) == h->by_addr[a].w) {
                    h->hits++;
                    return e;
                }
            } else
#endif
            if ((e = rtq_hot_same(h, e, s)) != NULL) {
                h->hits++;
                return e;
            }
        }
        while (n <= h->str_room && s[n] != '\0')
            n++;
        if (n > h->str_room)
            return NULL;
        kw = n;
        kh = rtq_hash_bytes(s, n);
    }
    hash = rtq_mix(0x9e3779b97f4a7c15ull ^ kh) | 1;
    e = (struct dapto_qentry *)(void *)(h->ents + (size_t)(rtq_mix(hash) & h->mask) *
                                                      h->ent_size);
    if (e->hash != hash || e->key[0] != kw ||
        (s != NULL && memcmp((unsigned char *)e + h->text_off, s,
                             n < DAPTO_Q_TEXT ? n : DAPTO_Q_TEXT) != 0))
        return NULL;
    if (s != NULL && n <= DAPTO_Q_TEXT) {
        /* its text is the key whole: found by its address next time */
        h->by_addr[a].s = (const char *)s;
        h->by_addr[a].e = e;
        h->by_addr[a].m = 0;
        if (n < 8) {
            /* its N bytes and terminator, as the entry's text holds them */
            uint64_t w = 0;

            memcpy(&w, s, n);
            h->by_addr[a].w = w;
            h->by_addr[a].m = n == 7 ? ~0ull : (1ull << (8 * (n + 1))) - 1;
        }
    }
    return e;
}

/* Count an event of the arguments ARGS of thread TID with plan H: 1, or 0
 * when H no longer holds or finds no entry (the general path must count
 * it, and plan again). */
static inline __attribute__((always_inline)) int
rtq_hot_count(struct rtq_hot *h, const union dapto_arg *args, uint32_t tid)
{
    struct dapto_qentry *e;

    if (__atomic_load_n(h->epoch_at, __ATOMIC_ACQUIRE) != h->epoch ||
        __atomic_load_n(h->check_at, __ATOMIC_RELAXED) != h->check || rt_qt.busy ||
        (e = rtq_hot_entry(h, args, tid)) == NULL)
        return 0;
    /* (a signal handler's event meanwhile is kept, counted after) */
    rt_qt.busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rtq_entry_add(e, h->value_arg != UINT32_MAX, h->hist_off,
                  h->value_arg != UINT32_MAX ? args[h->value_arg].i : 0);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rt_qt.busy = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (DAPTO_UNLIKELY(rt_qt.ndef != 0))
        rtq_let_go_slow();
    return 1;
}

/* Function FN was entered (ENTER) or left by thread TID: count it in the
 * thread's calling-context tree, question DAPTO_Q_CCT <protocol#cct>. */
void rtq_function(const struct rtq_env *env, int enter, uint64_t fn, uint32_t tid);

/* Event CODE happened in thread TID: counted under the thread's current
 * path in its calling-context tree, as its child DAPTO_CCT_EVENT | CODE,
 * never entered <protocol#cct>; no clock is read. */
void rtq_event(const struct rtq_env *env, uint32_t code, uint32_t tid);

/* Parents a leave looks through for its function. */
#define DAPTO_Q_CCT_DEPTH 4096

/* Forget the calling thread's slot and its checked copies: in a forked
 * child. */
void rtq_fork_child(void);

/* Forget the calling thread's checked copies of definitions (an area
 * laid out anew at the same address: tests). */
void rtq_forget(void);

#endif /* NOOSA_RTQUESTION_H */
