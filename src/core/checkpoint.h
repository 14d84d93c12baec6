/* SPDX-License-Identifier: MIT */
/*
 * checkpoint.h - checkpoints of a replay (<design#checkpoints>): the
 * state of everything that keeps a state from the events it is handed
 * (component stacks, profiles, breakpoints' hit counts, handlers' Tcl
 * variables ...), saved every so often while a recording plays, so that
 * a move back restarts from the nearest checkpoint before it and hands
 * the events from there on to them again, instead of from the start.
 *
 * Whatever keeps such a state is a *participant*: it joins with its
 * operations (a consumer of the dispatcher does so by giving them in its
 * consumer_ops).  A participant's state at a checkpoint is what the
 * events before it made it: a state changed otherwise (turned on or off,
 * reset, removed) is forgotten in every checkpoint (ckpts_forget()), and
 * a participant restored to a checkpoint that does not hold it starts
 * empty there and is *absent* (told of nothing) until the move ends.
 *
 * Nothing here knows what a state is: participants save and restore
 * their own, and say how many bytes a saved one holds, which the
 * checkpoints keep under a budget by letting every other one go.
 */
#ifndef NOOSA_CHECKPOINT_H
#define NOOSA_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

struct ckpt_ops {
    /* A copy of the state now (NULL for one that has nothing of its own
     * to keep: its state is kept by another participant, it only needs
     * the events), its size in *BYTES; owned by the checkpoints until
     * they give it back to release(). */
    void *(*save)(void *arg, size_t *bytes);
    /* Back to SAVED (kept by the checkpoints), or with NULL to the empty
     * state it had when it began. */
    void (*restore)(void *arg, const void *saved);
    void (*release)(void *arg, void *saved);
};

struct ckpts;
struct ckpt_part;

/* Checkpoints holding at most BUDGET bytes of saved states. */
struct ckpts *ckpts_create(size_t budget);
void ckpts_free(struct ckpts *ck);

/* A participant (OPS and ARG kept), and one that goes (what the
 * checkpoints hold of it released). */
struct ckpt_part *ckpts_join(struct ckpts *ck, const struct ckpt_ops *ops,
                             void *arg);
void ckpts_leave(struct ckpts *ck, struct ckpt_part *p);
/* P's state changed other than by events: let go of what every
 * checkpoint holds of it. */
void ckpts_forget(struct ckpts *ck, struct ckpt_part *p);
/* Whether P is absent: restored to a checkpoint that did not hold it,
 * and to be told of nothing until the move ends (ckpts_settle()). */
int ckpts_absent(const struct ckpt_part *p);
/* Whether there is any participant (a checkpoint is worth taking). */
int ckpts_active(const struct ckpts *ck);

/* Let go of every checkpoint (a new play, numbers that moved). */
void ckpts_clear(struct ckpts *ck);

/* Whether a checkpoint at SEQ (the number of the next event to hand
 * over) is due: none is near it, and the play has gone on long enough
 * since the last one taken (at least CKPTS_SPACING_NS, and twenty times
 * what taking the last cost, so that they cost at most 5%). */
int ckpts_due(const struct ckpts *ck, uint64_t seq);
/* Take a checkpoint at SEQ of every participant not absent. */
void ckpts_take(struct ckpts *ck, uint64_t seq);
/* The number of the latest checkpoint at or before SEQ, or UINT64_MAX
 * when there is none. */
uint64_t ckpts_before(const struct ckpts *ck, uint64_t seq);
/* Restore the checkpoint at SEQ (ckpts_before()'s): each participant to
 * its saved state, or empty and absent when it holds none. */
void ckpts_restore(struct ckpts *ck, uint64_t seq);
/* The move is over: every participant is told of events again. */
void ckpts_settle(struct ckpts *ck);

/* How many checkpoints there are, the bytes they hold, and the budget;
 * with a budget of 0 only the first (the play's start) is kept, so that
 * a move back plays from the start. */
size_t ckpts_count(const struct ckpts *ck);
size_t ckpts_bytes(const struct ckpts *ck);
size_t ckpts_budget(const struct ckpts *ck);
void ckpts_set_budget(struct ckpts *ck, size_t budget);
/* Take them every EVENTS events instead (0: by play time, the default):
 * moves whose cost does not depend on the machine's speed, for tests. */
void ckpts_set_every(struct ckpts *ck, uint64_t events);
uint64_t ckpts_every(const struct ckpts *ck);
/* The number of checkpoint I (0: the earliest), for listings. */
uint64_t ckpts_at(const struct ckpts *ck, size_t i);

/* Play time between checkpoints at least, in ns. */
#define CKPTS_SPACING_NS 10000000u
/* The budget by default. */
#define CKPTS_BUDGET (256u << 20)

#endif /* NOOSA_CHECKPOINT_H */
