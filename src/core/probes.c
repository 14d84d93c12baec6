/* SPDX-License-Identifier: MIT */
#include "config.h"

/*
 * probes.c - the USDT probes of a process as events <design#probes>.
 *
 * The objects the process maps are found through libdwfl (which applies
 * each one's load bias); an object's probes are read from its file once,
 * when it is first seen.  Probe sites are kept sorted by address, so that
 * a hit finds its site by bisection.  Events are keyed by provider and
 * name: the sites of one probe in several objects (or inlined several
 * times) are one event.  The aspect of a provider is made when its
 * probes are first seen; names that a later library adds to a provider
 * already described make another aspect, PROVIDER_2 (an aspect's events
 * never change).
 */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "dapto.h"
#include "patch.h"
#include "probes.h"
#include "protocol.h"
#include "target.h"
#include "usdt.h"
#include "xmalloc.h"

/* The longest string argument read from the program. */
#define PROBES_STR_MAX 512
/* The note that dapto's generated code adds for each aspect whose events
 * are also probes (the program tells them itself: they are not read as
 * probes too). */
#define PROBES_DAPTO_OWNER "dapto"

/* --- hints ---------------------------------------------------------------- */

struct hint {
    char *provider, *name;
    unsigned int n;
    char *names[USDT_MAX_ARGS];
    unsigned char kinds[USDT_MAX_ARGS];
    int role;
    char *format;
};

struct probe_hints {
    struct hint *h;
    unsigned int n;
};

struct probe_hints *probe_hints_create(void)
{
    return xcalloc(1, sizeof(struct probe_hints));
}

static void hint_clear_params(struct hint *x)
{
    for (unsigned int i = 0; i < USDT_MAX_ARGS; i++) {
        free(x->names[i]);
        x->names[i] = NULL;
        x->kinds[i] = 0;
    }
    x->n = 0;
}

void probe_hints_free(struct probe_hints *h)
{
    if (h == NULL)
        return;
    for (unsigned int i = 0; i < h->n; i++) {
        hint_clear_params(&h->h[i]);
        free(h->h[i].provider);
        free(h->h[i].name);
        free(h->h[i].format);
    }
    free(h->h);
    free(h);
}

static const struct hint *hint_find(const struct probe_hints *h,
                                    const char *provider, const char *name)
{
    for (unsigned int i = 0; h != NULL && i < h->n; i++)
        if (strcmp(h->h[i].provider, provider) == 0 &&
            strcmp(h->h[i].name, name) == 0)
            return &h->h[i];
    return NULL;
}

static struct hint *hint_get(struct probe_hints *h, const char *provider,
                             const char *name)
{
    struct hint *x = (struct hint *)hint_find(h, provider, name);

    if (x != NULL)
        return x;
    h->h = xreallocarray(h->h, h->n + 1, sizeof *h->h);
    x = &h->h[h->n++];
    memset(x, 0, sizeof *x);
    x->provider = xstrdup(provider);
    x->name = xstrdup(name);
    return x;
}

/* Whether S may name a parameter (as Tcl and conditions see it). */
static int name_ok(const char *s)
{
    if (s == NULL || *s == '\0' || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

/* The probe events of REG for PROVIDER:NAME (aspects PROVIDER and
 * PROVIDER_N made by probes), one at a time: I from 0. */
static struct registry_event *probe_event_in(struct registry *reg,
                                             const char *provider,
                                             const char *name,
                                             unsigned int *i)
{
    size_t plen = strlen(provider);

    for (; reg != NULL && *i < registry_naspects(reg); (*i)++) {
        struct registry_aspect *a = registry_aspect_at(reg, *i);

        if (strncmp(a->file, "probes ", 7) != 0 ||
            strncmp(a->name, provider, plen) != 0 ||
            (a->name[plen] != '\0' && a->name[plen] != '_'))
            continue;
        for (unsigned int j = 0; j < a->nevents; j++)
            if (strcmp(a->events[j].name, name) == 0) {
                (*i)++;
                return &a->events[j];
            }
    }
    return NULL;
}

/* The type name of a probe argument of SIZE bytes, signed or not, as
 * KIND shows it. */
static const char *arg_type(unsigned int size, int is_signed,
                            unsigned char kind)
{
    if (kind == DAPTO_K_DOUBLE)
        return size == 4 ? "float" : "double";
    static const char *const types[2][4] = {
        {"uint8", "uint16", "uint32", "uint64"},
        {"int8", "int16", "int32", "int64"}};

    if (kind == DAPTO_K_STR)
        return "str";
    if (kind == DAPTO_K_PTR)
        return "ptr";
    return types[is_signed != 0][size == 1 ? 0 : size == 2 ? 1
                                              : size == 4 ? 2
                                                          : 3];
}

/* The kind a probe argument of SIZE bytes has without a hint (IS_SIGNED
 * 2: a floating-point one). */
static unsigned char arg_kind(unsigned int size, int is_signed)
{
    if (is_signed == 2)
        return DAPTO_K_DOUBLE;
    return size < 4 || (size == 4 && is_signed) ? DAPTO_K_INT : DAPTO_K_LONG;
}

/* What hint X says of event EV, made from probes (KINDS: kinds too). */
static void hint_apply(const struct hint *x, struct registry_event *ev,
                       int kinds)
{
    for (unsigned int i = 0; x != NULL && i < x->n && i < ev->nparams; i++) {
        struct registry_param *p = &ev->params[i];
        unsigned char k = x->kinds[i];
        char dflt[16];

        snprintf(dflt, sizeof dflt, "arg%u", i + 1);
        /* an argument narrower than a pointer cannot be read as one */
        if (!kinds || p->kind == DAPTO_K_DOUBLE ||
            (k != 0 && p->kind == DAPTO_K_INT && k != DAPTO_K_INT))
            k = 0;
        registry_param_set(p, x->names[i] != NULL ? x->names[i] : dflt,
                           k == DAPTO_K_STR   ? "str"
                           : k == DAPTO_K_PTR ? "ptr"
                           : k == DAPTO_K_LONG ? "int64"
                           : k == DAPTO_K_INT  ? "int32"
                                               : NULL,
                           k);
    }
    registry_event_kinds(ev);
    registry_event_role(ev, x != NULL ? x->role : 0,
                        x != NULL ? x->format : NULL);
}

void probe_hints_apply(const struct probe_hints *h, struct registry *reg,
                       int kinds)
{
    for (unsigned int i = 0; reg != NULL && i < registry_naspects(reg); i++) {
        struct registry_aspect *a = registry_aspect_at(reg, i);
        size_t plen;

        if (strncmp(a->file, "probes ", 7) != 0)
            continue;
        /* the provider is the aspect's name, less a _N of its own */
        plen = strlen(a->name);
        for (unsigned int j = 0; j < a->nevents; j++) {
            const struct hint *x = NULL;

            for (unsigned int k = 0; h != NULL && k < h->n && x == NULL; k++)
                if (strcmp(h->h[k].name, a->events[j].name) == 0 &&
                    strncmp(h->h[k].provider, a->name,
                            strlen(h->h[k].provider)) == 0 &&
                    (strlen(h->h[k].provider) == plen ||
                     a->name[strlen(h->h[k].provider)] == '_'))
                    x = &h->h[k];
            if (x != NULL)
                hint_apply(x, &a->events[j], kinds);
        }
    }
}

int probe_hints_params(struct probe_hints *h, struct registry *reg,
                       const char *provider, const char *name,
                       unsigned int n, const char *const *names,
                       const unsigned char *kinds, char **cause)
{
    struct registry_event *ev;
    struct hint *x;
    unsigned int i = 0;

    if (n > USDT_MAX_ARGS) {
        xcause(cause, "a probe has at most %d arguments", USDT_MAX_ARGS);
        return -1;
    }
    for (unsigned int k = 0; k < n; k++) {
        if (names[k] != NULL && !name_ok(names[k])) {
            xcause(cause, "\"%s\" cannot name an argument (letters, digits "
                   "and underscores, not a digit first)", names[k]);
            return -1;
        }
        for (unsigned int j = 0; j < k; j++)
            if (names[k] != NULL && names[j] != NULL &&
                strcmp(names[k], names[j]) == 0) {
                xcause(cause, "two arguments are named %s", names[k]);
                return -1;
            }
        if (kinds[k] != 0 && kinds[k] != DAPTO_K_INT &&
            kinds[k] != DAPTO_K_LONG && kinds[k] != DAPTO_K_PTR &&
            kinds[k] != DAPTO_K_STR) {
            xcause(cause, "an argument is an int, a long, a ptr or a str");
            return -1;
        }
    }
    x = hint_get(h, provider, name);
    hint_clear_params(x);
    x->n = n;
    for (unsigned int k = 0; k < n; k++) {
        x->names[k] = names[k] != NULL ? xstrdup(names[k]) : NULL;
        x->kinds[k] = kinds[k];
    }
    while ((ev = probe_event_in(reg, provider, name, &i)) != NULL)
        hint_apply(x, ev, 1);
    return 0;
}

int probe_hints_kind(struct probe_hints *h, struct registry *reg,
                     const char *provider, const char *name, const char *arg,
                     unsigned char kind, char **cause)
{
    struct registry_event *ev;
    struct hint *x = (struct hint *)hint_find(h, provider, name);
    unsigned int i = 0;
    int index = -1;

    if (arg[0] >= '1' && arg[0] <= '9')
        index = atoi(arg) - 1;
    else if (strncmp(arg, "arg", 3) == 0 && arg[3] >= '1' && arg[3] <= '9')
        index = atoi(arg + 3) - 1;
    for (unsigned int k = 0; index < 0 && x != NULL && k < x->n; k++)
        if (x->names[k] != NULL && strcmp(x->names[k], arg) == 0)
            index = (int)k;
    ev = probe_event_in(reg, provider, name, &i);
    for (unsigned int k = 0; index < 0 && ev != NULL && k < ev->nparams; k++)
        if (strcmp(ev->params[k].name, arg) == 0)
            index = (int)k;
    if (index < 0 || index >= USDT_MAX_ARGS ||
        (ev != NULL && (unsigned int)index >= ev->nparams)) {
        xcause(cause, "%s:%s has no argument \"%s\" (argN, N, or the name "
               "a hint gave)", provider, name, arg);
        return -1;
    }
    x = hint_get(h, provider, name);
    if (x->n <= (unsigned int)index)
        x->n = (unsigned int)index + 1;
    x->kinds[index] = kind;
    i = 0;
    while ((ev = probe_event_in(reg, provider, name, &i)) != NULL)
        hint_apply(x, ev, 1);
    return 0;
}

int probe_hints_component(struct probe_hints *h, struct registry *reg,
                          const char *provider, const char *name, int role,
                          const char *format, char **cause)
{
    struct registry_event *ev;
    struct hint *x;
    unsigned int i = 0;

    if (role != 0 && (format == NULL || *format == '\0')) {
        xcause(cause, "a component needs a name");
        return -1;
    }
    x = hint_get(h, provider, name);
    free(x->format);
    x->format = role != 0 ? xstrdup(format) : NULL;
    x->role = role;
    while ((ev = probe_event_in(reg, provider, name, &i)) != NULL)
        registry_event_role(ev, role, format);
    return 0;
}

char *probe_hints_text(const struct probe_hints *h)
{
    char *text = xstrdup(""), *line;

    for (unsigned int i = 0; i < h->n; i++) {
        const struct hint *x = &h->h[i];
        char *args = xstrdup("");

        for (unsigned int k = 0; k < x->n; k++) {
            char *more = xasprintf("%s %s%s%s", args,
                                   x->names[k] != NULL ? x->names[k] : "-",
                                   x->kinds[k] != 0 ? ":" : "",
                                   x->kinds[k] == DAPTO_K_STR   ? "str"
                                   : x->kinds[k] == DAPTO_K_PTR ? "ptr"
                                   : x->kinds[k] == DAPTO_K_LONG ? "long"
                                   : x->kinds[k] == DAPTO_K_INT  ? "int"
                                                                 : "");
            free(args);
            args = more;
        }
        line = xasprintf("%s%s:%s%s%s%s%s%s\n", text, x->provider, x->name,
                         args, x->role != 0 ? " " : "",
                         x->role == REGISTRY_ROLE_ENTER   ? "enters "
                         : x->role == REGISTRY_ROLE_LEAVE ? "leaves "
                                                          : "",
                         x->role != 0 ? x->format : "", "");
        free(args);
        free(text);
        text = line;
    }
    return text;
}

size_t probe_component_name(const struct reader_item *item, char *buf,
                            size_t size)
{
    const struct registry_event *ev = item->event;
    const char *f = ev != NULL ? ev->role_format : NULL;
    size_t n = 0;

    if (size == 0)
        return 0;
    for (; f != NULL && *f != '\0' && n + 1 < size; f++) {
        const char *end;
        char val[64];
        const char *text = NULL;
        size_t len = 0;

        if (f[0] != '%' || f[1] != '{' || (end = strchr(f, '}')) == NULL) {
            buf[n++] = *f;
            continue;
        }
        for (unsigned int i = 0; i < ev->nparams && i < item->nvalues; i++) {
            const struct decode_value *v = &item->values[i];

            if (strlen(ev->params[i].name) != (size_t)(end - f - 2) ||
                strncmp(ev->params[i].name, f + 2, (size_t)(end - f - 2)) != 0)
                continue;
            switch (v->kind) {
            case DAPTO_K_STR:
                text = v->s;
                len = v->len;
                break;
            case DAPTO_K_INT:
                len = (size_t)snprintf(val, sizeof val, "%d", v->u.i);
                text = val;
                break;
            case DAPTO_K_LONG:
                len = (size_t)snprintf(val, sizeof val, "%" PRId64, v->u.l);
                text = val;
                break;
            case DAPTO_K_PTR:
                len = (size_t)snprintf(val, sizeof val, "0x%" PRIx64, v->u.p);
                text = val;
                break;
            default:
                break;
            }
        }
        if (text != NULL) {
            if (len > size - 1 - n)
                len = size - 1 - n;
            memcpy(buf + n, text, len);
            n += len;
        }
        f = end;
    }
    buf[n] = '\0';
    return n;
}

/* --- the probes of a process ---------------------------------------------- */

struct pobj {
    char *path;
    uint64_t bias, lo, hi;
    int seen;  /* in the last scan */
    int gone;  /* unmapped */
    struct patch_obj *patch; /* what patching needs to know, once read */
    int patch_tried;
    const char *no_patch;    /* why its sites cannot be patched */
};

struct psite {
    uint64_t addr; /* run-time addresses */
    uint64_t sema;
    unsigned int event;
    unsigned int obj;
    unsigned char nop;   /* bytes of the nop there; 0: none (unusable) */
    unsigned char nargs;
    unsigned char armed; /* its breakpoint is in */
    unsigned char patched; /* handled in the program: its jump is in */
    unsigned char plen;  /* bytes the jump replaced */
    unsigned char orig[PATCH_MAX];
    uint64_t tramp;      /* its trampoline (and description), 0 none */
    const char *why;     /* why it is not handled in the program */
    struct usdt_arg arg[USDT_MAX_ARGS];
    char *args; /* as the note says */
};

/* Room the runtime mapped for trampolines <protocol#probes>. */
struct parea {
    uint64_t addr, size, used;
};

/* A trampoline and its site's description take a slot of an area. */
#define PROBES_SLOT 512
#define PROBES_AREA (64 * 1024)

struct pevent {
    char *provider, *name;
    unsigned int code;
    unsigned int nparams;
    unsigned char state;
    unsigned char sign[USDT_MAX_ARGS]; /* of the first site's arguments */
    unsigned char size[USDT_MAX_ARGS];
};

struct probes {
    struct target *t;
    struct registry *reg;
    const struct probe_hints *hints;
    Dwfl *dwfl;
    void (*say)(void *, const char *);
    void *say_arg;

    struct pobj *objs;
    unsigned int nobjs;
    struct psite *sites; /* sorted by address */
    unsigned int nsites;
    struct pevent *events;
    unsigned int nevents;
    unsigned int next_code;
    uint64_t rbrk;     /* the dynamic linker's breakpoint, 0 none */
    uint64_t r_state;  /* the address of its r_debug's r_state */
    int no_rbrk;       /* looked for it, not there */

    /* probes handled in the program <protocol#probes>: whether its
     * runtime is attached (probes_runtime), its entry points, the areas
     * it mapped, the events' state bytes (in the first), or why not */
    int runtime;
    int inprog;         /* -1: not looked yet, 0: not possible, 1: yes */
    const char *no_inprog;
    uint64_t area_fn, hit_fn;
    struct parea *areas;
    unsigned int nareas;
    uint64_t states;

    /* the runtime's table of noosa's breakpoints <protocol#probes>: its
     * address (0: none found, looked for again when objects are added),
     * the breakpoints listed there */
    uint64_t traps;
    unsigned int traps_nobjs;
    uint64_t *trap_at;
    unsigned int ntraps;
    unsigned int rbrk_emul;
};

static const Dwfl_Callbacks probes_callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

static void say(struct probes *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void say(struct probes *p, const char *fmt, ...)
{
    va_list ap;
    char *text;

    if (p->say == NULL)
        return;
    va_start(ap, fmt);
    text = xvasprintf(fmt, ap);
    va_end(ap);
    p->say(p->say_arg, text);
    free(text);
}

struct probes *probes_create(struct target *t, struct registry *reg,
                             const struct probe_hints *hints,
                             void (*sayfn)(void *arg, const char *text),
                             void *arg)
{
    struct probes *p = xcalloc(1, sizeof *p);

    p->t = t;
    p->reg = reg;
    p->hints = hints;
    p->say = sayfn;
    p->say_arg = arg;
    p->next_code = PROBES_CODE_BASE;
    p->inprog = -1;
    p->dwfl = dwfl_begin(&probes_callbacks);
    return p;
}

void probes_free(struct probes *p)
{
    if (p == NULL)
        return;
    for (unsigned int i = 0; i < p->nobjs; i++) {
        free(p->objs[i].path);
        patch_obj_free(p->objs[i].patch);
    }
    free(p->areas);
    free(p->trap_at);
    for (unsigned int i = 0; i < p->nsites; i++) {
        for (unsigned int k = 0; k < p->sites[i].nargs; k++)
            free(p->sites[i].arg[k].sym);
        free(p->sites[i].args);
    }
    for (unsigned int i = 0; i < p->nevents; i++) {
        free(p->events[i].provider);
        free(p->events[i].name);
    }
    free(p->objs);
    free(p->sites);
    free(p->events);
    if (p->dwfl != NULL)
        dwfl_end(p->dwfl);
    free(p);
}

int probes_owns(const struct probes *p, unsigned int code)
{
    return p != NULL && code >= PROBES_CODE_BASE && code < p->next_code;
}

unsigned int probes_count(const struct probes *p)
{
    return p != NULL ? p->nsites : 0;
}

static struct pevent *event_of(struct probes *p, unsigned int code)
{
    return probes_owns(p, code) ? &p->events[code - PROBES_CODE_BASE] : NULL;
}

/* The bytes of the nop at the start of CODE (N bytes), or 0 when it is
 * not a nop (nop, 66 nop, the 0f 1f forms, endbr64). */
static unsigned int nop_length(const unsigned char *code, size_t n)
{
    size_t i = 0;
    unsigned int mod, rm, len;

    while (i < n && i < 4 && code[i] == 0x66)
        i++;
    if (i < n && code[i] == 0x90)
        return (unsigned int)i + 1;
    if (i == 0 && n >= 4 && code[0] == 0xf3 && code[1] == 0x0f &&
        code[2] == 0x1e && code[3] == 0xfa)
        return 4;
    if (i + 3 > n || code[i] != 0x0f || code[i + 1] != 0x1f ||
        (code[i + 2] & 0x38) != 0)
        return 0;
    mod = code[i + 2] >> 6;
    rm = code[i + 2] & 7;
    len = (unsigned int)i + 3;
    if (mod != 3 && rm == 4)
        len++; /* a SIB byte */
    if (mod == 1)
        len += 1;
    else if (mod == 2 || (mod == 0 && rm == 5))
        len += 4;
    return len <= n ? len : 0;
}

/* The run-time address of symbol NAME in module MOD, or 0. */
static uint64_t module_symbol(Dwfl_Module *mod, const char *name)
{
    int n = dwfl_module_getsymtab(mod);

    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *s = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL,
                                                NULL, NULL);

        if (s != NULL && sym.st_shndx != SHN_UNDEF && strcmp(s, name) == 0)
            return addr;
    }
    return 0;
}

/* What one scan gathers of one new object. */
struct gather {
    struct probes *p;
    Dwfl_Module *mod;
    const char *path;
    uint64_t bias;
    unsigned int obj;
    char **dapto;          /* aspects that the object's runtime tells */
    unsigned int ndapto;
    struct usdt_note *notes;
    unsigned int nnotes;
};

static void gather_note(void *arg, struct usdt_note *n)
{
    struct gather *g = arg;

    g->notes = xreallocarray(g->notes, g->nnotes + 1, sizeof *g->notes);
    g->notes[g->nnotes++] = *n;
    memset(n, 0, sizeof *n); /* (taken) */
}

static int gather_told(const struct gather *g, const char *provider);

static void gather_warn(void *arg, const char *provider, const char *text)
{
    struct gather *g = arg;

    /* (the runtime tells those events: their notes are not read) */
    if (provider == NULL || !gather_told(g, provider))
        say(g->p, "%s: %s", g->path, text);
}

/* The aspects named by the object's dapto notes (owner "dapto", type 1,
 * the aspect's name). */
static void gather_dapto(struct gather *g, const unsigned char *d, size_t len)
{
    size_t off = 0;

    while (len - off >= 12) {
        uint32_t namesz, descsz, type;
        size_t desc;

        memcpy(&namesz, d + off, 4);
        memcpy(&descsz, d + off + 4, 4);
        memcpy(&type, d + off + 8, 4);
        desc = off + 12 + (((size_t)namesz + 3) & ~(size_t)3);
        if (namesz > len - off - 12 || desc > len || descsz > len - desc)
            return;
        if (type == 1 && namesz == sizeof PROBES_DAPTO_OWNER &&
            memcmp(d + off + 12, PROBES_DAPTO_OWNER, namesz) == 0 &&
            descsz > 0 && memchr(d + desc, '\0', descsz) != NULL) {
            g->dapto = xreallocarray(g->dapto, g->ndapto + 1,
                                     sizeof *g->dapto);
            g->dapto[g->ndapto++] = xstrdup((const char *)d + desc);
        }
        off = desc + (((size_t)descsz + 3) & ~(size_t)3);
    }
}

/* Read the notes of the object G is about from its file. */
static void gather_file(struct gather *g)
{
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(g->mod, &bias);
    Elf_Scn *scn = NULL, *notes = NULL;
    size_t shstrndx;
    uint64_t base = 0;
    GElf_Ehdr ehdr;

    if (elf == NULL || gelf_getehdr(elf, &ehdr) == NULL ||
        elf_getshdrstrndx(elf, &shstrndx) != 0)
        return;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        const char *name;

        if (gelf_getshdr(scn, &sh) == NULL ||
            (name = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL)
            continue;
        if (strcmp(name, ".note.stapsdt") == 0 && sh.sh_type == SHT_NOTE)
            notes = scn; /* (read once the dapto notes are) */
        else if (strcmp(name, ".stapsdt.base") == 0)
            base = sh.sh_addr;
        else if (strcmp(name, ".note.dapto") == 0 && sh.sh_type == SHT_NOTE) {
            Elf_Data *data = elf_getdata(scn, NULL);

            if (data != NULL && data->d_buf != NULL)
                gather_dapto(g, data->d_buf, data->d_size);
        }
    }
    if (notes != NULL) {
        Elf_Data *data = elf_getdata(notes, NULL);

        if (data != NULL && data->d_buf != NULL)
            usdt_parse_notes(data->d_buf, data->d_size,
                             ehdr.e_ident[EI_CLASS] == ELFCLASS64, base,
                             gather_note, gather_warn, g);
    }
}

/* Whether the object of G tells PROVIDER's events itself (dapto). */
static int gather_told(const struct gather *g, const char *provider)
{
    for (unsigned int i = 0; i < g->ndapto; i++)
        if (strcmp(g->dapto[i], provider) == 0)
            return 1;
    return 0;
}

static struct pevent *event_find(struct probes *p, const char *provider,
                                 const char *name)
{
    for (unsigned int i = 0; i < p->nevents; i++)
        if (strcmp(p->events[i].provider, provider) == 0 &&
            strcmp(p->events[i].name, name) == 0)
            return &p->events[i];
    return NULL;
}

/* A description of an aspect <protocol#iface> in a growing buffer. */
struct desc {
    unsigned char *buf;
    size_t size;
    struct dapto_out o;
};

static void desc_begin(struct desc *d)
{
    d->o.base = d->o.p = d->buf;
    d->o.end = d->buf + d->size;
    d->o.count = 0;
    d->o.truncated = 0;
    d->o.aspect = NULL;
    d->o.index = 0;
}

/* Make the aspect NAME of the events FIRST .. FIRST+N-1 and add it to the
 * registry; NULL with a message when it cannot be. */
static struct registry_aspect *make_aspect(struct probes *p, const char *name,
                                           const char *path,
                                           unsigned int first, unsigned int n)
{
    struct desc d = {.size = 4096};
    struct registry_aspect *a;
    char *cause = NULL, file[512];

    snprintf(file, sizeof file, "probes %s", path);
    for (;;) {
        d.buf = xmalloc(d.size);
        desc_begin(&d);
        dapto_put_str(&d.o, name);
        dapto_put_str(&d.o, file);
        dapto_put_int(&d.o, DAPTO_ABI_VERSION);
        dapto_put_int(&d.o, (int)p->events[first].code);
        dapto_put_int(&d.o, (int)n);
        dapto_put_int(&d.o, 0);
        dapto_put_int(&d.o, 0);
        for (unsigned int i = first; i < first + n; i++) {
            const struct pevent *e = &p->events[i];
            char doc[160];

            snprintf(doc, sizeof doc, "probe %s:%s", e->provider, e->name);
            dapto_put_str(&d.o, e->name);
            dapto_put_str(&d.o, doc);
            dapto_put_int(&d.o, 0);
            dapto_put_ptr(&d.o, (const void *)(uintptr_t)PROBES_NO_STATE);
            dapto_put_int(&d.o, (int)e->nparams);
            /* as the hints say already, so that the description (which
             * a recording keeps) is what its records hold */
            const struct hint *x = hint_find(p->hints, e->provider, e->name);

            for (unsigned int k = 0; k < e->nparams; k++) {
                char an[16], adoc[64];
                unsigned char kind = arg_kind(e->size[k], e->sign[k]);
                const char *type = arg_type(e->size[k], e->sign[k], kind);

                snprintf(an, sizeof an, "arg%u", k + 1);
                snprintf(adoc, sizeof adoc, "argument %u (%u bytes, %s)",
                         k + 1, e->size[k],
                         e->sign[k] == 2 ? "floating-point"
                         : e->sign[k]    ? "signed"
                                         : "unsigned");
                if (x != NULL && k < x->n && x->kinds[k] != 0 &&
                    !(kind == DAPTO_K_INT && x->kinds[k] != DAPTO_K_INT) &&
                    kind != DAPTO_K_DOUBLE) {
                    kind = x->kinds[k];
                    type = kind == DAPTO_K_STR   ? "str"
                           : kind == DAPTO_K_PTR ? "ptr"
                           : kind == DAPTO_K_LONG ? "int64"
                                                  : "int32";
                }
                dapto_put_str(&d.o, x != NULL && k < x->n &&
                                            x->names[k] != NULL
                                        ? x->names[k]
                                        : an);
                dapto_put_str(&d.o, type);
                dapto_put_int(&d.o, kind);
                dapto_put_str(&d.o, adoc);
            }
        }
        if (!d.o.truncated)
            break;
        free(d.buf);
        d.size *= 4;
    }
    a = registry_add(p->reg, d.buf, (size_t)(d.o.p - d.o.base), &cause);
    free(d.buf);
    if (a == NULL) {
        say(p, "the probes of %s cannot be events: %s", path, cause);
        free(cause);
    }
    return a;
}

/* A name for a new aspect of PROVIDER that the registry does not have. */
static char *aspect_name(const struct probes *p, const char *provider)
{
    char *name = xstrdup(provider);

    for (unsigned int k = 2; registry_aspect_by_name(p->reg, name) != NULL;
         k++) {
        free(name);
        name = xasprintf("%s_%u", provider, k);
    }
    return name;
}

static int site_cmp(const void *a, const void *b)
{
    const struct psite *x = a, *y = b;

    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int site_sema(struct probes *p, struct psite *s, int on, char **cause);

static uint64_t any_symbol(struct probes *p, const char *name);

/* Breakpoint AT, replacing EMUL (target_break_insert's), in the
 * runtime's table of them, once, before it is written: so that the
 * program goes on past it should noosa be killed while attached
 * <protocol#probes>.  Only with a runtime that has the table. */
static void trap_note(struct probes *p, uint64_t at, unsigned int emul)
{
    uint64_t e;

    if (!p->runtime)
        return;
    if (p->traps == 0 && p->traps_nobjs != p->nobjs) {
        p->traps = any_symbol(p, "dapto_probe_traps");
        p->traps_nobjs = p->nobjs;
    }
    if (p->traps == 0 || p->ntraps == DAPTO_PROBE_TRAPS)
        return;
    for (unsigned int i = 0; i < p->ntraps; i++)
        if (p->trap_at[i] == at)
            return;
    e = at | (uint64_t)(emul == TARGET_EMUL_RET ? DAPTO_PROBE_TRAP_RET
                                                : emul)
                 << DAPTO_PROBE_TRAP_SHIFT;
    if (target_write(p->t, p->traps + 8 * (uint64_t)p->ntraps, &e, sizeof e,
                     NULL) != 0)
        return;
    p->trap_at = xreallocarray(p->trap_at, p->ntraps + 1, sizeof *p->trap_at);
    p->trap_at[p->ntraps++] = at;
}

/* A breakpoint at AT that a noosa killed while attached left, which the
 * runtime's table lists with what it replaced <protocol#probes>: the
 * first byte of CODE (LEN bytes read at AT) made again that instruction
 * (a ret, or a nop of the length the table says, the rest of it being
 * there still) and written back, 1; 0 when it is not one. */
static int trap_heal(struct probes *p, uint64_t at, unsigned char *code,
                     size_t len)
{
    static const unsigned char firsts[] = {0xc3, 0x90, 0x66, 0x0f, 0xf3};
    uint64_t e = 0;
    unsigned int i, k, emul;

    if (code[0] != 0xcc)
        return 0;
    if (p->traps == 0 && p->traps_nobjs != p->nobjs) {
        p->traps = any_symbol(p, "dapto_probe_traps");
        p->traps_nobjs = p->nobjs;
    }
    for (i = 0; p->traps != 0 && i < DAPTO_PROBE_TRAPS; i++) {
        if (target_read(p->t, p->traps + 8 * (uint64_t)i, &e, sizeof e,
                        NULL) != 0 ||
            e == 0)
            return 0;
        if ((e & ((UINT64_C(1) << DAPTO_PROBE_TRAP_SHIFT) - 1)) == at)
            break;
    }
    if (p->traps == 0 || i == DAPTO_PROBE_TRAPS)
        return 0;
    emul = (unsigned int)(e >> DAPTO_PROBE_TRAP_SHIFT);
    for (k = 0; k < sizeof firsts; k++) {
        code[0] = firsts[k];
        if (firsts[k] == 0xc3 ? emul == DAPTO_PROBE_TRAP_RET
                              : emul != DAPTO_PROBE_TRAP_RET &&
                                    nop_length(code, len) == emul) {
            if (target_write_code(p->t, at, code, 1, NULL) == 0)
                return 1;
            break;
        }
    }
    code[0] = 0xcc;
    return 0;
}

/* Arm or disarm site S (ON): its breakpoint, and its semaphore. */
static int site_arm(struct probes *p, struct psite *s, int on, char **cause)
{
    if (s->nop == 0 || s->armed == on)
        return 0;
    if (on)
        trap_note(p, s->addr, s->nop);
    if (on && target_break_insert(p->t, s->addr, s->nop, cause) != 0)
        return -1;
    if (!on)
        target_break_remove(p->t, s->addr, NULL);
    s->armed = (unsigned char)on;
    if (site_sema(p, s, on, cause) != 0)
        return on ? -1 : 0;
    return 0;
}

/* Resolve the symbols of note N's arguments in G's object (sym(%rip) is
 * the symbol's address, plus the offset): 0, or -1 with a message. */
static int resolve_args(struct probes *p, struct gather *g,
                        struct usdt_note *n)
{
    for (unsigned int k = 0; k < n->nargs; k++) {
        struct usdt_arg *a = &n->arg[k];
        uint64_t addr;

        if (a->sym == NULL)
            continue;
        addr = module_symbol(g->mod, a->sym);
        if (addr == 0) {
            say(p, "%s: probe %s:%s: argument %u names symbol %s, which the "
                "file does not define: the probe is left out", g->path,
                n->provider, n->name, k + 1, a->sym);
            return -1;
        }
        a->value += (int64_t)addr;
        a->reg = USDT_NOREG;
        free(a->sym);
        a->sym = NULL;
    }
    return 0;
}

/* A new event for note N (its code the next one). */
static void event_new(struct probes *p, const struct usdt_note *n)
{
    struct pevent *e;

    p->events = xreallocarray(p->events, p->nevents + 1, sizeof *p->events);
    e = &p->events[p->nevents++];
    memset(e, 0, sizeof *e);
    e->provider = xstrdup(n->provider);
    e->name = xstrdup(n->name);
    e->code = p->next_code++;
    e->nparams = n->nargs;
    for (unsigned int k = 0; k < n->nargs; k++) {
        /* (2: floating-point, as arg_kind() takes it) */
        e->sign[k] = n->arg[k].is_float ? 2 : n->arg[k].is_signed;
        e->size[k] = n->arg[k].size;
    }
}

/* Add the notes G gathered as sites (and new events: an aspect for each
 * provider's, their codes consecutive). */
static void gather_add(struct probes *p, struct gather *g,
                       void (*aspect)(void *, struct registry_aspect *),
                       void *arg)
{
    unsigned int first_new = p->nevents, nsites0 = p->nsites;

    for (unsigned int i = 0; i < g->nnotes; i++) {
        struct usdt_note *n = &g->notes[i];

        if (gather_told(g, n->provider) || resolve_args(p, g, n) != 0) {
            usdt_note_clear(n);
            continue;
        }
    }
    /* the new events, a provider's together, in order of appearance */
    for (unsigned int i = 0; i < g->nnotes; i++) {
        const char *prov = g->notes[i].provider;

        if (prov == NULL || event_find(p, prov, g->notes[i].name) != NULL)
            continue;
        for (unsigned int j = i; j < g->nnotes; j++) {
            struct usdt_note *n = &g->notes[j];

            if (n->provider == NULL || strcmp(n->provider, prov) != 0 ||
                event_find(p, n->provider, n->name) != NULL)
                continue;
            if (p->next_code > DAPTO_EVENT_CODE_MAX) {
                say(p, "%s: probe %s:%s: no event code left for probes",
                    g->path, n->provider, n->name);
                usdt_note_clear(n);
                continue;
            }
            event_new(p, n);
        }
    }
    for (unsigned int i = 0; i < g->nnotes; i++) {
        struct usdt_note *n = &g->notes[i];
        struct pevent *e;
        struct psite *s;
        unsigned char code[16];

        if (n->provider == NULL ||
            (e = event_find(p, n->provider, n->name)) == NULL)
            continue;
        p->sites = xreallocarray(p->sites, p->nsites + 1, sizeof *p->sites);
        s = &p->sites[p->nsites++];
        memset(s, 0, sizeof *s);
        s->addr = n->location + g->bias;
        s->sema = n->semaphore != 0 ? n->semaphore + g->bias : 0;
        s->event = (unsigned int)(e - p->events);
        s->obj = g->obj;
        s->nargs = (unsigned char)(n->nargs < e->nparams ? n->nargs
                                                         : e->nparams);
        memcpy(s->arg, n->arg, sizeof s->arg);
        memset(n->arg, 0, sizeof n->arg); /* (taken) */
        n->nargs = 0;
        s->args = n->args;
        n->args = NULL;
        if (target_read(p->t, s->addr, code, sizeof code, NULL) == 0)
            s->nop = (unsigned char)nop_length(code, sizeof code);
        if (s->nop == 0)
            say(p, "%s: probe %s:%s at 0x%" PRIx64 " is not at a nop: it "
                "cannot be monitored", g->path, e->provider, e->name,
                s->addr);
    }
    for (unsigned int i = first_new; i < p->nevents;) {
        const char *prov = p->events[i].provider;
        unsigned int j = i + 1;
        struct registry_aspect *a;
        char *name;

        while (j < p->nevents && strcmp(p->events[j].provider, prov) == 0)
            j++;
        name = aspect_name(p, prov);
        a = make_aspect(p, name, g->path, i, j - i);
        free(name);
        if (a != NULL) {
            for (unsigned int k = 0; k < a->nevents; k++)
                hint_apply(hint_find(p->hints, prov, a->events[k].name),
                           &a->events[k], 1);
            if (aspect != NULL)
                aspect(arg, a);
        }
        i = j;
    }
    /* new sites of events wanted already get their breakpoints */
    for (unsigned int i = nsites0; i < p->nsites; i++) {
        struct psite *s = &p->sites[i];
        char *cause = NULL;

        if ((p->events[s->event].state &
             (DAPTO_STATE_RECORD | DAPTO_STATE_STOP)) != 0 &&
            site_arm(p, s, 1, &cause) != 0) {
            say(p, "probe %s:%s at 0x%" PRIx64 ": %s",
                p->events[s->event].provider, p->events[s->event].name,
                s->addr, cause);
            free(cause);
        }
    }
    if (p->nsites > 1)
        qsort(p->sites, p->nsites, sizeof *p->sites, site_cmp);
}

/* The dynamic linker's breakpoint, once it is mapped (module MOD). */
static void find_rbrk(struct probes *p, Dwfl_Module *mod)
{
    uint64_t fn = module_symbol(mod, "_dl_debug_state");
    uint64_t rd = module_symbol(mod, "_r_debug");
    unsigned char code[16];
    unsigned int emul;
    char *cause = NULL;

    if (fn == 0 || rd == 0 ||
        target_read(p->t, fn, code, sizeof code, NULL) != 0)
        return;
    /* (one a killed noosa left: what it replaced, back) */
    trap_heal(p, fn, code, sizeof code);
    emul = code[0] == 0xc3 ? TARGET_EMUL_RET : nop_length(code, sizeof code);
    if (emul == 0) {
        say(p, "the dynamic linker's _dl_debug_state does not begin with a "
            "return or a nop: libraries loaded later are not looked at for "
            "probes");
        p->no_rbrk = 1;
        return;
    }
    trap_note(p, fn, emul);
    if (target_break_insert(p->t, fn, emul, &cause) != 0) {
        say(p, "libraries loaded later are not looked at for probes: %s",
            cause);
        free(cause);
        p->no_rbrk = 1;
        return;
    }
    p->rbrk = fn;
    p->rbrk_emul = emul;
    /* struct r_debug: int r_version, then r_map and r_brk (pointers),
     * then enum r_state */
    p->r_state = rd + 3 * sizeof(uint64_t);
}

struct scan {
    struct probes *p;
    void (*aspect)(void *, struct registry_aspect *);
    void *arg;
};

static int scan_module(Dwfl_Module *mod, void **userdata, const char *name,
                       Dwarf_Addr start, void *arg)
{
    struct scan *sc = arg;
    struct probes *p = sc->p;
    Dwarf_Addr lo, hi;
    GElf_Addr bias = 0;
    struct gather g;
    const char *path;
    unsigned int i;

    (void)userdata;
    (void)start;
    path = dwfl_module_info(mod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
    if (path == NULL)
        path = name;
    if (dwfl_module_getelf(mod, &bias) == NULL)
        return DWARF_CB_OK;
    for (i = 0; i < p->nobjs; i++)
        if (!p->objs[i].gone && p->objs[i].bias == bias &&
            p->objs[i].lo == lo && strcmp(p->objs[i].path, path) == 0) {
            p->objs[i].seen = 1;
            return DWARF_CB_OK;
        }
    p->objs = xreallocarray(p->objs, p->nobjs + 1, sizeof *p->objs);
    memset(&p->objs[p->nobjs], 0, sizeof *p->objs);
    p->objs[p->nobjs].path = xstrdup(path);
    p->objs[p->nobjs].bias = bias;
    p->objs[p->nobjs].lo = lo;
    p->objs[p->nobjs].hi = hi;
    p->objs[p->nobjs].seen = 1;
    memset(&g, 0, sizeof g);
    g.p = p;
    g.mod = mod;
    g.path = p->objs[p->nobjs].path;
    g.bias = bias;
    g.obj = p->nobjs++;
    gather_file(&g);
    gather_add(p, &g, sc->aspect, sc->arg);
    for (i = 0; i < g.nnotes; i++)
        usdt_note_clear(&g.notes[i]);
    free(g.notes);
    for (i = 0; i < g.ndapto; i++)
        free(g.dapto[i]);
    free(g.dapto);
    if (p->rbrk == 0 && !p->no_rbrk && strstr(path, "/ld-") != NULL)
        find_rbrk(p, mod);
    return DWARF_CB_OK;
}

void probes_scan(struct probes *p,
                 void (*aspect)(void *arg, struct registry_aspect *a),
                 void *arg)
{
    struct scan sc = {.p = p, .aspect = aspect, .arg = arg};

    if (p->dwfl == NULL)
        return;
    for (unsigned int i = 0; i < p->nobjs; i++)
        p->objs[i].seen = 0;
    dwfl_report_begin(p->dwfl);
    if (dwfl_linux_proc_report(p->dwfl, target_pid(p->t)) != 0) {
        dwfl_report_end(p->dwfl, NULL, NULL);
        return;
    }
    dwfl_report_end(p->dwfl, NULL, NULL);
    dwfl_getmodules(p->dwfl, scan_module, &sc, 0);
    /* objects unmapped since (dlclose): their sites are gone with them,
     * and so are their breakpoints and semaphores */
    for (unsigned int i = 0; i < p->nobjs; i++) {
        if (p->objs[i].seen || p->objs[i].gone)
            continue;
        p->objs[i].gone = 1;
        for (unsigned int k = 0; k < p->nsites; k++) {
            struct psite *s = &p->sites[k];

            if (s->obj != i)
                continue;
            if (s->armed) {
                target_break_remove(p->t, s->addr, NULL);
                if (s->sema != 0)
                    target_counter_forget(p->t, s->sema);
            }
            s->armed = 0;
            s->nop = 0;
        }
    }
}

/* The run-time address of symbol NAME in any object of the process, or
 * 0. */
static uint64_t any_symbol(struct probes *p, const char *name)
{
    for (unsigned int i = 0; i < p->nobjs; i++) {
        Dwfl_Module *mod;
        uint64_t addr;

        if (p->objs[i].gone)
            continue;
        mod = dwfl_addrmodule(p->dwfl, p->objs[i].lo);
        if (mod != NULL && (addr = module_symbol(mod, name)) != 0)
            return addr;
    }
    return 0;
}

/* Whether the program can handle probes itself <protocol#probes>: its
 * runtime is attached and has the entry points. */
static int inprog_ready(struct probes *p)
{
    if (p->inprog >= 0 || !p->runtime)
        return p->inprog > 0;
    p->area_fn = any_symbol(p, "dapto_probe_area");
    /* (_gp: it touches no register but the general ones and the flags,
     * which is all the trampoline saves) */
    p->hit_fn = any_symbol(p, "dapto_probe_hit_gp");
    if (p->area_fn == 0 || p->hit_fn == 0) {
        p->inprog = 0;
        p->no_inprog = "the program's runtime cannot handle probes "
                       "(it has no dapto_probe_hit_gp)";
        return 0;
    }
    p->inprog = 1;
    return 1;
}

/* A slot for a trampoline within 2 GiB of ADDR (a new area mapped by a
 * call in a stopped thread when none has room), or 0 with *WHY. */
static uint64_t slot_near(struct probes *p, uint64_t addr, const char **why)
{
    const uint64_t reach = ((uint64_t)1 << 31) - 2 * PROBES_AREA;
    uint64_t args[3] = {addr, PROBES_AREA, 0}, ret = 0;
    char *cause = NULL;
    pid_t tid;

    for (unsigned int i = 0; i < p->nareas; i++) {
        struct parea *a = &p->areas[i];
        uint64_t d = a->addr > addr ? a->addr - addr : addr - a->addr;

        if (d < reach && a->used + PROBES_SLOT <= a->size) {
            a->used += PROBES_SLOT;
            return a->addr + a->used - PROBES_SLOT;
        }
    }
    tid = target_main_thread(p->t);
    if (tid == 0 || target_inject(p->t, tid, p->area_fn, args, NULL, NULL,
                                  2000, &ret, &cause) != 0 ||
        (int64_t)ret < 0) {
        free(cause);
        *why = "the runtime could not map room for trampolines near it";
        return 0;
    }
    p->areas = xreallocarray(p->areas, p->nareas + 1, sizeof *p->areas);
    p->areas[p->nareas].addr = ret;
    p->areas[p->nareas].size = PROBES_AREA;
    /* the first area begins with the events' state bytes */
    p->areas[p->nareas].used = p->states == 0 ? 4096 : 0;
    if (p->states == 0)
        p->states = ret;
    p->nareas++;
    return slot_near(p, addr, why);
}

/* The description of site S for the runtime <protocol#probes>. */
static void site_desc(struct probes *p, const struct psite *s,
                      struct dapto_probe_site *d)
{
    const struct pevent *e = &p->events[s->event];
    const struct registry_event *rev = registry_event(p->reg, e->code);

    memset(d, 0, sizeof *d);
    d->magic = DAPTO_PROBE_MAGIC;
    d->code = (uint16_t)e->code;
    d->nargs = s->nargs;
    d->state = p->states + (e->code - PROBES_CODE_BASE);
    d->rip = s->addr + s->nop;
    for (unsigned int k = 0; k < s->nargs; k++) {
        const struct usdt_arg *a = &s->arg[k];
        struct dapto_probe_arg *x = &d->arg[k];

        x->kind = a->kind;
        x->size = a->size;
        x->flags = (a->is_signed ? DAPTO_PROBE_SIGNED : 0) |
                   (a->is_float ? DAPTO_PROBE_FLOAT : 0);
        x->vkind = rev != NULL && k < rev->nparams ? rev->params[k].kind
                                                    : DAPTO_K_LONG;
        x->reg = a->reg;
        x->index = a->index;
        x->scale = a->scale;
        x->shift = a->shift;
        x->value = a->value;
    }
}

/* Count site S's semaphore up or down (ON), unless another site of its
 * event with the same one is armed or patched. */
static int site_sema(struct probes *p, struct psite *s, int on, char **cause)
{
    if (s->sema == 0)
        return 0;
    for (unsigned int i = 0; i < p->nsites; i++) {
        const struct psite *o = &p->sites[i];

        if (o != s && o->event == s->event && o->sema == s->sema &&
            (o->armed || o->patched))
            return 0;
    }
    return target_counter_add(p->t, s->sema, on ? 1 : -1, cause);
}

/* Whether a thread of the process is inside [LO, HI). */
static int thread_inside(struct probes *p, uint64_t lo, uint64_t hi)
{
    pid_t tids[1024];
    unsigned int n = target_threads(p->t, tids, 1024);

    for (unsigned int i = 0; i < n; i++) {
        uint64_t pc;

        if (target_pc(p->t, tids[i], &pc) == 0 && pc > lo && pc < hi)
            return 1;
    }
    return 0;
}

/* Handle site S in the program (the process is paused): its trampoline
 * and description written, then its jump.  0, or -1 with *WHY. */
static int site_patch(struct probes *p, struct psite *s, const char **why)
{
    struct pobj *o = &p->objs[s->obj];
    unsigned char code[PATCH_MAX + 16], tramp[PATCH_TRAMP_MAX],
        jump[PATCH_MAX];
    struct dapto_probe_site d;
    struct patch_plan pl;
    size_t n;
    uint64_t slot;
    char *cause = NULL;

    if (!o->patch_tried) {
        o->patch_tried = 1;
        o->patch = patch_obj_open(o->path, o->bias, &cause);
        free(cause);
        cause = NULL;
    }
    if (o->patch == NULL) {
        *why = "its object's code cannot be read";
        return -1;
    }
    if (target_read(p->t, s->addr, code, sizeof code, NULL) != 0) {
        *why = "its code cannot be read";
        return -1;
    }
    if (patch_plan(o->patch, s->addr, s->nop, code, sizeof code, &pl, why) !=
        0)
        return -1;
    for (unsigned int i = 0; i < p->nsites; i++)
        if (p->sites[i].addr > s->addr && p->sites[i].addr < s->addr + pl.len) {
            *why = "another probe's site is inside its code";
            return -1;
        }
    if (thread_inside(p, s->addr, s->addr + pl.len)) {
        *why = "a thread was inside its code";
        return -1;
    }
    slot = s->tramp != 0 ? s->tramp : slot_near(p, s->addr, why);
    if (slot == 0)
        return -1;
    s->tramp = slot;
    n = patch_trampoline(tramp, slot, slot + PATCH_TRAMP_MAX, p->hit_fn, &pl);
    site_desc(p, s, &d);
    patch_jump(jump, &pl, slot);
    if (target_write_code(p->t, slot + PATCH_TRAMP_MAX, &d, sizeof d,
                          &cause) != 0 ||
        target_write_code(p->t, slot, tramp, n, &cause) != 0 ||
        target_write_code(p->t, s->addr, jump, pl.len, &cause) != 0) {
        free(cause);
        *why = "its code cannot be written";
        return -1;
    }
    target_patch_keep(p->t, s->addr, pl.orig, pl.len);
    memcpy(s->orig, pl.orig, pl.len);
    s->plen = (unsigned char)pl.len;
    s->patched = 1;
    s->why = NULL;
    return 0;
}

/* Put site S's code back (the process is paused). */
static void site_unpatch(struct probes *p, struct psite *s)
{
    if (!s->patched)
        return;
    target_write_code(p->t, s->addr, s->orig, s->plen, NULL);
    target_patch_forget(p->t, s->addr);
    s->patched = 0;
}

int probes_set_state(struct probes *p, unsigned int code, unsigned char state,
                     char **cause)
{
    struct pevent *e = event_of(p, code);
    unsigned int ev;
    int inprog, patch, bp, pause = 0, paused = 0, rc = 0;
    unsigned char st = state;

    if (e == NULL) {
        xcause(cause, "no probe event with code %u", code);
        return -1;
    }
    ev = (unsigned int)(e - p->events);
    e->state = state;
    inprog = inprog_ready(p);
    /* the trail alone arms no probe: under ptrace each hit would cost a
     * stop, and in the program every hit of probes nobody looks at
     * (python's line: every line) the trampoline and the code their
     * semaphores guard */
    bp = (state & (DAPTO_STATE_RECORD | DAPTO_STATE_STOP)) != 0;
    patch = inprog && bp;
    if (inprog && p->states != 0)
        target_write_code(p->t, p->states + (code - PROBES_CODE_BASE), &st,
                          1, NULL);
    for (unsigned int i = 0; i < p->nsites; i++) {
        const struct psite *s = &p->sites[i];

        if (s->event == ev && s->nop != 0 &&
            (patch ? !s->patched && s->why == NULL : s->patched))
            pause = 1;
    }
    if (pause) {
        char *why = NULL;

        if (target_pause(p->t, 2000, &why) == 0) {
            paused = 1;
        } else {
            say(p, "probes cannot be handled in the program now: %s", why);
            free(why);
            patch = 0;
        }
    }
    for (unsigned int i = 0; i < p->nsites; i++) {
        struct psite *s = &p->sites[i];
        char *why = NULL;

        if (s->event != ev || s->nop == 0)
            continue;
        if (patch && !s->patched && s->why == NULL && paused) {
            /* (the original bytes, not a breakpoint, are what moves) */
            if (s->armed)
                site_arm(p, s, 0, NULL);
            if (site_patch(p, s, &s->why) == 0)
                site_sema(p, s, 1, NULL);
        } else if (!patch && s->patched && paused) {
            site_unpatch(p, s);
            site_sema(p, s, 0, NULL);
        }
        if (s->patched || site_arm(p, s, bp, &why) == 0)
            continue;
        if (rc == 0)
            xcause(cause, "probe %s:%s at 0x%" PRIx64 ": %s", e->provider,
                   e->name, s->addr, why);
        free(why);
        rc = -1;
    }
    if (paused)
        target_unpause(p->t);
    if (inprog && p->states != 0)
        target_write_code(p->t, p->states + (code - PROBES_CODE_BASE), &st,
                          1, NULL);
    return rc;
}

void probes_runtime(struct probes *p)
{
    p->runtime = 1;
    /* the breakpoints written before it attached, in its table */
    if (p->rbrk != 0)
        trap_note(p, p->rbrk, p->rbrk_emul);
    for (unsigned int i = 0; i < p->nsites; i++)
        if (p->sites[i].armed)
            trap_note(p, p->sites[i].addr, p->sites[i].nop);
    if (!inprog_ready(p))
        return;
    /* the events wanted already are handled in the program from now on */
    for (unsigned int i = 0; i < p->nevents; i++)
        if (p->events[i].state != 0)
            probes_set_state(p, p->events[i].code, p->events[i].state, NULL);
}

static struct psite *site_at(struct probes *p, uint64_t addr)
{
    unsigned int lo = 0, hi = p->nsites;

    while (lo < hi) {
        unsigned int mid = (lo + hi) / 2;

        if (p->sites[mid].addr == addr)
            return &p->sites[mid];
        if (p->sites[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

#if defined(__x86_64__)
static uint64_t reg_value(const struct user_regs_struct *r, unsigned int reg)
{
    switch (reg) {
    case USDT_RAX: return r->rax;
    case USDT_RBX: return r->rbx;
    case USDT_RCX: return r->rcx;
    case USDT_RDX: return r->rdx;
    case USDT_RSI: return r->rsi;
    case USDT_RDI: return r->rdi;
    case USDT_RBP: return r->rbp;
    case USDT_RSP: return r->rsp;
    case USDT_R8: return r->r8;
    case USDT_R9: return r->r9;
    case USDT_R10: return r->r10;
    case USDT_R11: return r->r11;
    case USDT_R12: return r->r12;
    case USDT_R13: return r->r13;
    case USDT_R14: return r->r14;
    case USDT_R15: return r->r15;
    default: return 0;
    }
}

/* The value of argument A at site S (registers R): 0, or -1 when its
 * memory cannot be read. */
static int arg_value(struct probes *p, const struct psite *s,
                     const struct user_regs_struct *r,
                     const struct usdt_arg *a, uint64_t *out)
{
    uint64_t v = 0;

    switch (a->kind) {
    case USDT_ARG_CONST:
        v = (uint64_t)a->value;
        break;
    case USDT_ARG_REG:
        v = reg_value(r, a->reg) >> a->shift;
        break;
    default: {
        uint64_t addr = (uint64_t)a->value;

        if (a->reg == USDT_RIP)
            addr += s->addr + s->nop;
        else if (a->reg != USDT_NOREG)
            addr += reg_value(r, a->reg);
        if (a->index != USDT_NOREG)
            addr += reg_value(r, a->index) * a->scale;
        if (target_read(p->t, addr, &v, a->size, NULL) != 0)
            return -1;
        break;
    }
    }
    if (a->size < 8) {
        uint64_t mask = ((uint64_t)1 << (8 * a->size)) - 1;

        v &= mask;
        if (a->is_signed && !a->is_float && (v >> (8 * a->size - 1)) != 0)
            v |= ~mask;
    }
    *out = v;
    return 0;
}

/* The string at ADDR (at most PROBES_STR_MAX bytes), put into O. */
static void put_string(struct probes *p, struct dapto_out *o, uint64_t addr)
{
    char buf[PROBES_STR_MAX + 1];
    size_t n = 0;

    if (addr == 0) {
        dapto_put_str(o, NULL);
        return;
    }
    while (n < PROBES_STR_MAX) {
        /* a piece at a time, never across a page it need not read */
        size_t want = 64 - ((addr + n) & 63);

        if (want > PROBES_STR_MAX - n)
            want = PROBES_STR_MAX - n;
        if (target_read(p->t, addr + n, buf + n, want, NULL) != 0) {
            if (n == 0) {
                char bad[64];

                snprintf(bad, sizeof bad, "<unreadable 0x%" PRIx64 ">",
                         addr);
                dapto_put_str(o, bad);
                return;
            }
            break;
        }
        if (memchr(buf + n, '\0', want) != NULL) {
            n += want;
            break;
        }
        n += want;
    }
    buf[n] = '\0';
    dapto_put_str(o, buf);
}

enum probes_hit probes_hit(struct probes *p, pid_t tid, uint64_t addr,
                           unsigned char *rec, size_t *size)
{
    struct user_regs_struct r;
    struct dapto_record *h = (struct dapto_record *)(void *)rec;
    struct dapto_out o;
    struct psite *s;
    struct pevent *e;
    uint32_t st = 0;

    if (addr == p->rbrk && p->rbrk != 0) {
        /* r_state: RT_CONSISTENT (0) once a change is over */
        if (target_read(p->t, p->r_state, &st, sizeof st, NULL) == 0 &&
            st == 0)
            return PROBES_HIT_LIBS;
        return PROBES_HIT_NONE;
    }
    s = site_at(p, addr);
    if (s == NULL ||
        !((e = &p->events[s->event])->state &
          (DAPTO_STATE_RECORD | DAPTO_STATE_STOP)) ||
        target_regs(p->t, tid, &r) != 0)
        return PROBES_HIT_NONE;
    o.base = rec;
    o.p = rec + DAPTO_RECORD_HEADER;
    o.end = rec + DAPTO_EVENT_MAX;
    o.count = 0;
    o.truncated = 0;
    o.aspect = NULL;
    o.index = 0;
    for (unsigned int k = 0; k < s->nargs; k++) {
        const struct registry_event *rev = registry_event(p->reg, e->code);
        unsigned char kind = rev != NULL && k < rev->nparams
                                 ? rev->params[k].kind
                                 : DAPTO_K_LONG;
        uint64_t v;

        if (arg_value(p, s, &r, &s->arg[k], &v) != 0) {
            dapto_put_unknown(&o);
            continue;
        }
        if (s->arg[k].is_float && kind == DAPTO_K_DOUBLE) {
            double d;

            if (s->arg[k].size == 4) {
                float f;
                uint32_t w = (uint32_t)v;

                memcpy(&f, &w, 4);
                d = f;
            } else {
                memcpy(&d, &v, 8);
            }
            dapto_put_double(&o, d);
            continue;
        }
        switch (kind) {
        case DAPTO_K_INT:
            dapto_put_int(&o, (int)(int64_t)v);
            break;
        case DAPTO_K_PTR:
            dapto_put_ptr(&o, (const void *)(uintptr_t)v);
            break;
        case DAPTO_K_STR:
            put_string(p, &o, v);
            break;
        default:
            dapto_put_long(&o, (long)v);
            break;
        }
    }
    memset(h, 0, DAPTO_RECORD_HEADER);
    h->code = (uint16_t)e->code;
    h->flags = o.truncated ? DAPTO_RECF_TRUNC : 0;
    h->tid = (uint32_t)tid;
    h->len = (uint32_t)(o.p - rec - DAPTO_RECORD_HEADER);
    *size = ((size_t)(o.p - rec) + 7) & ~(size_t)7;
    h->size = (uint32_t)*size;
    memset(o.p, 0, *size - (size_t)(o.p - rec));
    return e->state & DAPTO_STATE_STOP ? PROBES_HIT_EVENT : PROBES_HIT_RECORD;
}
#else
enum probes_hit probes_hit(struct probes *p, pid_t tid, uint64_t addr,
                           unsigned char *rec, size_t *size)
{
    (void)p;
    (void)tid;
    (void)addr;
    (void)rec;
    (void)size;
    return PROBES_HIT_NONE;
}
#endif

char *probes_text(const struct probes *p)
{
    char *text = xstrdup(""), *more;

    if (p == NULL || p->nsites == 0)
        return text;
    free(text);
    text = xasprintf("%-12s %-28s %-18s %-18s %-8s %s\n", "Provider", "Name",
                     "Where", "Semaphore", "State", "Object");
    for (unsigned int i = 0; i < p->nsites; i++) {
        const struct psite *s = &p->sites[i];
        const struct pevent *e = &p->events[s->event];
        const struct pobj *o = &p->objs[s->obj];
        char sema[24] = "";
        const char *state = o->gone       ? "gone"
                            : s->nop == 0   ? "not a nop"
                            : s->patched    ? "program"
                            : s->armed      ? "ptrace"
                                            : "off";

        if (s->sema != 0)
            snprintf(sema, sizeof sema, "0x%016" PRIx64, s->sema);
        more = xasprintf("%s%-12s %-28s 0x%016" PRIx64 " %-18s %-8s %s\n"
                         "    arguments: %s\n%s%s%s",
                         text, e->provider, e->name, s->addr, sema, state,
                         o->path, s->args[0] != '\0' ? s->args : "none",
                         s->why != NULL && s->armed ? "    under ptrace: "
                                                    : "",
                         s->why != NULL && s->armed ? s->why : "",
                         s->why != NULL && s->armed ? "\n" : "");
        free(text);
        text = more;
    }
    return text;
}
