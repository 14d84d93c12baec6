/* SPDX-License-Identifier: MIT */
/*
 * channel.c - the monitor's end of the channel <protocol#activate>.
 *
 * The region, ring consumer and mailbox primitives are the channel library
 * (lib/channel/region.h, lib/channel/ring.h, lib/channel/mailbox.h); records are validated and
 * decoded by the reader.  This module adds what needs the program's
 * process.  The region is never trusted after the program starts: the
 * geometry used is the private copy made at creation.
 *
 * Its code is a file a role behind channel.h, sharing struct channel
 * through channel-int.h <design#channel>.  This file: the channel made
 * and freed, what it tells of itself, the areas noosa fills for the
 * program (conditions, questions, relations), event states written with
 * process-memory writes <protocol#states>, and the program let go.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "channel-int.h"
#include "cond.h"
#include "target.h"
#include "xmalloc.h"

int channel_create(struct channel **out, const struct channel_opts *opts,
                   char **cause)
{
    return channel_adopt(out, opts, -1, -1, cause);
}

int channel_adopt(struct channel **out, const struct channel_opts *opts,
                  int memfd, int eventfd, char **cause)
{
    struct channel *ch = xcalloc(1, sizeof *ch);
    struct region_geom g;
    const char *why = NULL;
    int tsc;

    region_geom_default(&g);
    if (opts->ring_size != 0)
        g.ring_size = opts->ring_size;
    if (opts->thread_buffers) {
        /* <protocol#tbuf>: each buffer of the ring's size, within bounds */
        g.tb_count = CHANNEL_TBUFS;
        g.tb_size = g.ring_size < REGION_TBUF_MIN   ? REGION_TBUF_MIN
                    : g.ring_size > CHANNEL_TBUF_MAX ? CHANNEL_TBUF_MAX
                                                     : g.ring_size;
    }
    /* <protocol#ttrail>: slots for the events asked for, and the one
     * being written */
    while (g.tt_slots < REGION_TTRAIL_SLOTS_MAX &&
           g.tt_slots < (uint64_t)opts->trail_events + 1)
        g.tt_slots *= 2;
    tsc = !opts->no_tsc && clock_tsc_usable();
    g.flags = (tsc ? DAPTO_RF_TSC : 0) |
              (opts->overwrite ? DAPTO_RF_OVERWRITE : 0);
    if ((memfd < 0 ? region_create(&ch->region, &g, &why)
                   : region_adopt(&ch->region, &g, memfd, eventfd, &why)) != 0) {
        xcause(cause, "cannot create the channel: %s: %s", why,
               strerror(errno));
        free(ch);
        return -1;
    }
    ring_init(&ch->ring, &ch->region);
    tbuf_area_init(&ch->tb, &ch->region);
    ttrail_area_init(&ch->tt, &ch->region);
    ch->tbc = xcalloc(ch->tb.count + 1, sizeof *ch->tbc);
    for (uint32_t i = 0; i < ch->tb.count; i++)
        tbuf_cons_init(&ch->tb, i, &ch->tbc[i]);
    clock_init(&ch->clock, tsc);
    ch->reg = registry_create();
    ch->reader = reader_create(ch->reg, &ch->clock,
                               ch->region.geom.mbox_count);
    ch->default_state = opts->default_state;
    ch->ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    ch->more_ctail = UINT64_MAX;
    ch->status = CHANNEL_WAITING;
    ch->rec = xmalloc(DAPTO_RECORD_MAX);
    ch->res_data = xmalloc(DAPTO_MBOX_DATA);
    ch->stopped = xcalloc(ch->region.geom.mbox_count, sizeof *ch->stopped);
    ch->busy = xcalloc(ch->region.geom.mbox_count, 1);
    region_env(&ch->region, ch->env, sizeof ch->env);
    /* the directory covers the codes of the first aspects; events beyond
     * it have their conditions evaluated in noosa */
    ch->fentries = xcalloc(CHANNEL_FILTER_CODES, sizeof *ch->fentries);
    if (filter_space_init(&ch->fspace, &ch->region, CHANNEL_FILTER_CODES,
                          ch->fentries, &why) != 0)
        ch->no_filters = "the channel has no room for conditions";
    if (qarea_init(&ch->qarea, &ch->region, &why) != 0)
        ch->no_questions = why;
    if (relarea_init(&ch->relarea, &ch->region, &why) != 0)
        ch->no_relations = why;
    *out = ch;
    return 0;
}

void channel_free(struct channel *ch)
{
    if (ch == NULL)
        return;
    region_close(&ch->region);
    reader_free(ch->reader);
    registry_free(ch->reg);
    free(ch->rec);
    free(ch->res_data);
    free(ch->res_values);
    free(ch->stopped);
    free(ch->busy);
    free(ch->message);
    free(ch->pending_error);
    free(ch->kept);
    free(ch->fentries);
    free(ch->tbc);
    free(ch);
}

int channel_filters(const struct channel *ch, const char **why)
{
    struct dapto_region_id id;
    const char *no = ch->no_filters;

    if (no == NULL && (ch->let_go || ch->status == CHANNEL_BROKEN))
        no = "the program is no longer monitored";
    if (no == NULL && !region_runtime_id(&ch->region, &id))
        no = "the program has not attached yet";
    if (no == NULL && (id.rt_major != DAPTO_PROTO_MAJOR ||
                       id.rt_median != DAPTO_PROTO_MEDIAN || id.rt_minor < 2))
        no = "the program's runtime is older than conditions in the "
             "program (protocol 1.0.2)";
    if (why != NULL)
        *why = no;
    return no == NULL;
}

int channel_set_filter(struct channel *ch, const struct registry_event *ev,
                       unsigned char uncond, const struct cond_clause *cl,
                       unsigned int n, uint16_t checked, uint16_t passed,
                       char **cause)
{
    unsigned char blob[DAPTO_FILTER_MAX], kinds[DAPTO_FILTER_ARGS];
    unsigned int i, np = ev->nparams < DAPTO_FILTER_ARGS ? ev->nparams
                                                          : DAPTO_FILTER_ARGS;
    const char *no = NULL;
    char msg[160];
    int len;

    if (!channel_filters(ch, &no)) {
        xcause(cause, "%s", no);
        return -1;
    }
    if (ev->code >= CHANNEL_FILTER_CODES) {
        xcause(cause, "event %s comes too late in the interface for "
               "conditions in the program", ev->name);
        return -1;
    }
    len = cond_filter(uncond, checked, passed, cl, n, blob, sizeof blob,
                      cause);
    if (len < 0)
        return -1;
    for (i = 0; i < np; i++)
        kinds[i] = ev->params[i].kind;
    /* noosa's own filters are checked as the program will check them */
    if (filter_check(blob, (size_t)len, kinds, np, msg, sizeof msg) != 0) {
        xcause(cause, "a condition of event %s was compiled wrong: %s",
               ev->name, msg);
        return -1;
    }
    if (filter_put(&ch->fspace, ev->code, blob, (size_t)len, &no) != 0) {
        xcause(cause, "%s", no);
        return -1;
    }
    return 0;
}

void channel_clear_filter(struct channel *ch, unsigned int code)
{
    if (ch->no_filters == NULL && code < CHANNEL_FILTER_CODES &&
        ch->fentries[code].off != 0)
        filter_remove(&ch->fspace, code);
}

struct qarea *channel_questions(struct channel *ch, const char **why)
{
    struct dapto_region_id id;
    const char *no = ch->no_questions;

    if (no == NULL)
        channel_filters(ch, &no);
    if (no == NULL && region_runtime_id(&ch->region, &id) && id.rt_minor < 3)
        no = "the program's runtime is older than questions in the program "
             "(protocol 1.0.3)";
    if (why != NULL)
        *why = no;
    return no == NULL ? &ch->qarea : NULL;
}

struct relarea *channel_relations(struct channel *ch, const char **why)
{
    struct dapto_region_id id;
    const char *no = ch->no_relations;

    if (no == NULL)
        channel_filters(ch, &no);
    if (no == NULL && region_runtime_id(&ch->region, &id) &&
        (id.rt_minor < DAPTO_RELATE_MINOR ||
         __atomic_load_n(&ch->region.hdr->rt_region, __ATOMIC_ACQUIRE) == 0))
        no = "the program's runtime is older than components and derived "
             "events in the program (protocol 1.0.5)";
    if (why != NULL)
        *why = no;
    return no == NULL ? &ch->relarea : NULL;
}

uint64_t channel_relation_state(const struct channel *ch, unsigned int index)
{
    uint64_t base = __atomic_load_n(&ch->region.hdr->rt_region, __ATOMIC_ACQUIRE);

    if (base == 0 || index >= DAPTO_REL_DERIVED)
        return 0;
    return base + ch->region.geom.rel_off + relarea_state_off(index);
}

uint64_t channel_start(const struct channel *ch)
{
    return ch->clock.start_ns;
}

void channel_set_start(struct channel *ch, uint64_t start_ns)
{
    ch->clock.start_ns = start_ns;
}

double channel_ns_per_tick(const struct channel *ch)
{
    return ch->clock.ns_per_tick;
}

int64_t channel_ns(const struct channel *ch, uint64_t raw)
{
    return clock_ns(&ch->clock, raw);
}

int channel_paths(const struct channel *ch)
{
    struct dapto_region_id id;

    return ch != NULL && region_runtime_id(&ch->region, &id) &&
           id.rt_minor >= DAPTO_PATH_MINOR;
}

uint64_t channel_counter(const struct channel *ch, uint16_t id)
{
    return id == DAPTO_CNT_NONE ? 0 : filter_counter(&ch->region, id);
}

const char *channel_env(const struct channel *ch)
{
    return ch->env;
}

void channel_fds(const struct channel *ch, int fds[2])
{
    fds[0] = ch->region.memfd;
    fds[1] = ch->region.eventfd;
}

void channel_attach(struct channel *ch, struct target *t)
{
    ch->target = t;
}

int channel_fd(const struct channel *ch)
{
    return ch->region.eventfd;
}

enum channel_status channel_status(const struct channel *ch)
{
    return ch->status;
}

const char *channel_runtime_version(const struct channel *ch)
{
    return ch->version[0] != '\0' ? ch->version : NULL;
}

struct registry *channel_registry(const struct channel *ch)
{
    return ch->reg;
}

uint64_t channel_lost(const struct channel *ch)
{
    return ch->lost;
}

const struct region *channel_region(const struct channel *ch)
{
    return &ch->region;
}

struct reader *channel_reader(struct channel *ch)
{
    return ch->reader;
}

int channel_set_state(struct channel *ch, unsigned int code,
                      unsigned char state, char **cause)
{
    struct registry_event *e = registry_event(ch->reg, code);
    char *why = NULL;

    if (e == NULL) {
        xcause(cause, "no event with code %u", code);
        return -1;
    }
    if (e->state == state || ch->let_go)
        return 0; /* (let go: nothing reads the states any more) */
    if (ch->target == NULL) {
        xcause(cause, "the program is not running");
        return -1;
    }
    if (target_write(ch->target, e->state_addr, &state, 1, &why) != 0) {
        xcause(cause, "cannot set the state of event %s: %s", e->name, why);
        free(why);
        return -1;
    }
    e->state = state;
    return 0;
}

unsigned char channel_state(const struct channel *ch, unsigned int code)
{
    struct registry_event *e = registry_event(ch->reg, code);

    return e != NULL ? e->state : 0;
}

int channel_states_off(struct channel *ch, char **on)
{
    unsigned int code, limit = registry_event_limit(ch->reg);
    size_t len = 0;
    int n = 0;

    if (on != NULL)
        *on = NULL;
    if (ch->target == NULL || (ch->status != CHANNEL_ACTIVE &&
                               ch->status != CHANNEL_BROKEN &&
                               ch->status != CHANNEL_GONE))
        return 0;
    /* Every byte, whatever noosa believes it holds: what the program has
     * there is what counts. */
    for (code = 0; code < limit; code++) {
        struct registry_event *e = registry_event(ch->reg, code);
        unsigned char b = 0, off = DAPTO_STATE_OFF;

        if (e == NULL || e->state_addr == 0)
            continue;
        if (target_read(ch->target, e->state_addr, &b, 1, NULL) != 0)
            b = e->state == DAPTO_STATE_OFF ? 0xff : e->state;
        if (b != DAPTO_STATE_OFF &&
            target_write(ch->target, e->state_addr, &off, 1, NULL) != 0)
            continue;
        if (b != e->state) {
            n++;
            if (on != NULL) {
                size_t k = strlen(e->name);
                *on = xrealloc(*on, len + k + 3);
                if (len > 0) {
                    memcpy(*on + len, ", ", 2);
                    len += 2;
                }
                memcpy(*on + len, e->name, k + 1);
                len += k;
            }
        }
        e->state = DAPTO_STATE_OFF;
    }
    return n;
}

void channel_let_go(struct channel *ch)
{
    if (ch->let_go || (ch->status != CHANNEL_ACTIVE &&
                       ch->status != CHANNEL_BROKEN))
        return;
    /* (the program ignores the states from now on in every wait anyway) */
    channel_states_off(ch, NULL);
    ch->let_go = 1;
    region_let_go(&ch->region);
    memset(ch->stopped, 0, ch->region.geom.mbox_count * sizeof *ch->stopped);
    if (ch->status == CHANNEL_ACTIVE)
        ch->status = CHANNEL_GONE;
}

void channel_forget(struct channel *ch)
{
    ch->let_go = 1;
    ch->status = CHANNEL_GONE;
    ch->target = NULL;
    memset(ch->stopped, 0, ch->region.geom.mbox_count * sizeof *ch->stopped);
}
