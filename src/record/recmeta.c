/* SPDX-License-Identifier: MIT */
/*
 * recmeta.c - the metadata of a recording (recread-int.h): read, its
 * format's version checked, the values of its env block, and the event
 * classes a newer minor version added, read from their TSDL declarations
 * just enough to step over their events <design#recordings>.  Nothing
 * else of TSDL is read: the layout of everything else is recfile.h's.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "dapto.h"
#include "protocol.h"
#include "recfile.h"
#include "recread-int.h"
#include "xmalloc.h"

/* The integer of "KEY = N;" in the env block, or -1. */
static long rmeta_int(const char *meta, const char *key)
{
    const char *p = meta;
    size_t klen = strlen(key);

    while ((p = strstr(p, key)) != NULL) {
        const char *q = p + klen;
        char *end;
        long v;

        if (p > meta && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) {
            p = q;
            continue;
        }
        while (*q == ' ')
            q++;
        if (*q++ != '=') {
            p = q;
            continue;
        }
        v = strtol(q, &end, 10);
        if (end != q && v >= 0)
            return v;
        p = q;
    }
    return -1;
}

const char *recread_env(struct recread *r, const char *key)
{
    const char *env = strstr(r->metadata, "\nenv {");
    const char *end, *p;
    size_t klen = strlen(key);
    char *out;
    size_t n = 0;

    if (env == NULL)
        return NULL;
    end = strstr(env, "\n};");
    for (p = env; (p = strstr(p, key)) != NULL && (end == NULL || p < end);
         p++) {
        const char *q = p + klen;

        if (p[-1] != ' ' || strncmp(q, " = \"", 4) != 0)
            continue;
        q += 4;
        out = xmalloc(strlen(q) + 1);
        while (*q != '\0' && *q != '"') {
            if (*q == '\\' && q[1] == 'x' && q[2] != '\0' && q[3] != '\0') {
                char hex[3] = {q[2], q[3], 0};
                out[n++] = (char)strtol(hex, NULL, 16);
                q += 4;
            } else if (*q == '\\' && q[1] != '\0') {
                out[n++] = q[1];
                q += 2;
            } else {
                out[n++] = *q++;
            }
        }
        out[n] = '\0';
        free(r->env_value);
        r->env_value = out;
        return out;
    }
    return NULL;
}

/* The size of a TSDL type this format uses, -1 for a string, 0 when it
 * is not one of them. */
static int rtype_size(const char *t, size_t n)
{
    static const struct {
        const char *name;
        int size;
    } types[] = {{"uint8_t", 1},  {"uint16_t", 2}, {"uint32_t", 4},
                 {"uint64_t", 8}, {"int32_t", 4},  {"int64_t", 8},
                 {"xptr_t", 8},   {"double_t", 8}, {"uint64_clock_t", 8},
                 {"string", -1}};

    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == n && memcmp(types[i].name, t, n) == 0)
            return types[i].size;
    return 0;
}

/* Read the classes of the metadata whose ids are noosa's (above the
 * program's codes) and not this reader's own, with fields of the types
 * the format uses, so that their events can be skipped exactly: the
 * classes a newer minor version adds <design#recordings>. */
void recmeta_classes(struct recread *r)
{
    const char *p = r->metadata;

    while ((p = strstr(p, "\nevent {")) != NULL) {
        const char *end = strstr(p + 1, "\n};");
        const char *idp = strstr(p, "\n    id = ");
        const char *np = strstr(p, "name = \"");
        const char *fp = strstr(p, "fields := struct {");
        struct rclass c;
        const char *q, *fend;
        unsigned long id;

        p++;
        if (end == NULL || idp == NULL || idp > end)
            break;
        id = strtoul(idp + 10, NULL, 10);
        if (id <= DAPTO_EVENT_CODE_MAX || id <= RECFILE_CLASS_LAST ||
            id > 0xffff)
            continue;
        memset(&c, 0, sizeof c);
        c.id = (unsigned int)id;
        if (np != NULL && np < end) {
            const char *nq = strchr(np + 8, '"');

            if (nq != NULL)
                c.name = xstrndup(np + 8, (size_t)(nq - np - 8));
        }
        if (fp != NULL && fp < end) {
            fend = strstr(fp, "};");
            q = fp + 18;
            while (fend != NULL && q < fend && c.nfields < RCLASS_FIELDS) {
                const char *semi = memchr(q, ';', (size_t)(fend - q));
                const char *t, *te, *nm, *ne, *br;
                struct rfield *f = &c.fields[c.nfields];
                int size;

                if (semi == NULL)
                    break;
                for (t = q; t < semi && (*t == ' ' || *t == '\n'); t++)
                    ;
                for (te = t; te < semi && *te != ' '; te++)
                    ;
                for (nm = te; nm < semi && *nm == ' '; nm++)
                    ;
                for (ne = nm; ne < semi && *ne != '[' && *ne != ' '; ne++)
                    ;
                size = rtype_size(t, (size_t)(te - t));
                if (size == 0 || nm == ne)
                    goto bad;
                f->size = size;
                f->lenref = -1;
                f->count = 1;
                br = memchr(nm, '[', (size_t)(semi - nm));
                if (br != NULL) {
                    const char *rb = memchr(br, ']', (size_t)(semi - br));

                    if (rb == NULL || size < 0)
                        goto bad;
                    if (br[1] >= '0' && br[1] <= '9') {
                        f->count = (unsigned int)strtoul(br + 1, NULL, 10);
                    } else {
                        /* the length is an earlier field, by name */
                        size_t ln = (size_t)(rb - br - 1);

                        f->lenref = -2;
                        /* find the declaration "TYPE NAME;" before it */
                        {
                            const char *d = fp + 18;
                            unsigned int k = 0;

                            while (k < c.nfields) {
                                const char *ds = memchr(d, ';', (size_t)(fend - d));
                                const char *dn;

                                if (ds == NULL)
                                    break;
                                dn = ds;
                                while (dn > d && dn[-1] != ' ')
                                    dn--;
                                if ((size_t)(ds - dn) == ln &&
                                    memcmp(dn, br + 1, ln) == 0)
                                    f->lenref = (int)k;
                                d = ds + 1;
                                k++;
                            }
                        }
                        if (f->lenref < 0)
                            goto bad;
                    }
                }
                c.nfields++;
                q = semi + 1;
            }
        }
        r->classes = xreallocarray(r->classes, r->nclasses + 1,
                                   sizeof *r->classes);
        r->classes[r->nclasses++] = c;
        continue;
    bad:
        free(c.name);
    }
}

/* The size of the event of class C whose fields start at B (LEFT bytes),
 * or -1 when it does not fit. */
static long rclass_skip(const struct rclass *c, const unsigned char *b,
                        size_t left)
{
    size_t n = 0;
    uint64_t vals[RCLASS_FIELDS];

    for (unsigned int i = 0; i < c->nfields; i++) {
        const struct rfield *f = &c->fields[i];
        uint64_t count = f->count;

        vals[i] = 0;
        if (f->size < 0) {
            const unsigned char *z = memchr(b + n, '\0', left - n);

            if (z == NULL)
                return -1;
            n = (size_t)(z - b) + 1;
            continue;
        }
        if (f->lenref >= 0)
            count = vals[f->lenref];
        if (count > (left - n) / (uint64_t)f->size)
            return -1;
        if (count == 1 && f->lenref < 0 && f->size <= 8) {
            uint64_t v = 0;

            memcpy(&v, b + n, (size_t)f->size);
            vals[i] = v;
        }
        n += (size_t)(count * (uint64_t)f->size);
    }
    return (long)n;
}

static struct rclass *rclass_of(struct recread *r, unsigned int id)
{
    for (size_t i = 0; i < r->nclasses; i++)
        if (r->classes[i].id == id)
            return &r->classes[i];
    return NULL;
}

/* Skip an event of a class this reader does not know, when the metadata
 * describes it: its size (the caller steps over it), or -1. */
long recmeta_skip_unknown(struct recread *r, const char *stream,
                          unsigned int id, const unsigned char *b,
                          size_t left)
{
    struct rclass *c = rclass_of(r, id);
    long n;

    if (c == NULL)
        return -1;
    n = rclass_skip(c, b, left);
    if (n >= 0 && !c->told) {
        c->told = 1;
        rnote(r, "%s: events of class %s (%u), newer than this noosa, "
              "skipped", stream, c->name != NULL ? c->name : "?", id);
    }
    return n;
}

static char *rslurp(const char *path, char **cause)
{
    FILE *f = fopen(path, "r");
    char *text = NULL;
    size_t len = 0, cap = 0, n;

    if (f == NULL) {
        xcause(cause, "%s: %s", path, strerror(errno));
        return NULL;
    }
    do {
        if (len + 4096 + 1 > cap) {
            cap = 2 * (len + 4096 + 1);
            text = xrealloc(text, cap);
        }
        n = fread(text + len, 1, 4096, f);
        len += n;
    } while (n > 0 && len < (64u << 20));
    fclose(f);
    text[len] = '\0';
    return text;
}

/* Read the metadata at PATH (of the recording in R->dir) and check its
 * format's version: -1 with *cause when it is not noosa's or is newer
 * than this reader reads. */
int recmeta_read(struct recread *r, const char *path, char **cause)
{
    const char *dir = r->dir;
    struct stat st;

    if (stat(path, &st) == 0) {
        r->meta_size = (uint64_t)st.st_size;
        r->meta_mtime = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
                        (uint64_t)st.st_mtim.tv_nsec;
    }
    r->metadata = rslurp(path, cause);
    if (r->metadata == NULL)
        return -1;
    if (strncmp(r->metadata, "/* CTF 1.8", 10) != 0 ||
        strstr(r->metadata, "noosa_format_major") == NULL) {
        xcause(cause, "%s is not a noosa recording (its metadata is not "
               "noosa's CTF)", dir);
        return -1;
    }
    r->major = (int)rmeta_int(r->metadata, "noosa_format_major");
    r->median = (int)rmeta_int(r->metadata, "noosa_format_median");
    r->minor = (int)rmeta_int(r->metadata, "noosa_format_minor");
    if (r->major < 0 || r->median < 0 || r->minor < 0) {
        xcause(cause, "%s: the metadata does not say the format's version",
               dir);
        return -1;
    }
    r->version = xasprintf("%d.%d.%d", r->major, r->median, r->minor);
    if (r->major > RECFILE_MAJOR ||
        (r->major == RECFILE_MAJOR && r->median > RECFILE_MEDIAN)) {
        xcause(cause, "%s is a recording of format %s, newer than this noosa "
               "reads (%d.%d.%d)", dir, r->version, RECFILE_MAJOR,
               RECFILE_MEDIAN, RECFILE_MINOR);
        return -1;
    }
    return 0;
}
