#include "select.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "impl.h"
#include "registry.h"

const size_t select_default_sizes[6] = { 16, 64, 256, 1024, 8192, 16384 };

/* Splits a comma list into words, calling f on each; stops at the first error. what names
 * the list for the message an empty one gets. */
static int each_word(const char *list, int (*f)(struct selection *, const char *, char *, size_t),
                     struct selection *s, const char *what, char *why, size_t n)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    int any = 0;
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        if (f(s, w, why, n))
            return -1;
        any = 1;
    }
    if (!any) {
        snprintf(why, n, "empty %s", what);
        return -1;
    }
    return 0;
}

static int add_alg(struct selection *s, const char *w, char *why, size_t n)
{
    if (!strcmp(w, "all")) {
        for (size_t i = 0; i < algo_count; i++)
            if (algo_table[i].in_default && add_alg(s, algo_table[i].id, why, n))
                return -1;
        return 0;
    }
    const struct algo *a = algo_find(w);
    if (!a) {
        int off = snprintf(why, n, "unknown algorithm '%s'; accepted:", w);
        for (size_t i = 0; i < algo_count && off > 0 && (size_t)off < n; i++)
            off += snprintf(why + off, n - (size_t)off, " %s", algo_table[i].id);
        return -1;
    }
    for (int i = 0; i < s->nalgs; i++)
        if (s->algs[i] == a)
            return 0;
    if (s->nalgs == SELECT_MAX) {
        snprintf(why, n, "too many algorithms");
        return -1;
    }
    s->algs[s->nalgs++] = a;
    return 0;
}

int select_algs(struct selection *s, const char *list, char *why, size_t n)
{
    s->nalgs = 0;
    return each_word(list, add_alg, s, "algorithm list; accepted: all, or names from 'accelscope --help'",
                     why, n);
}

int select_parse_size(const char *text, size_t *out, char *why, size_t n)
{
    const char *accepted = "accepted: 1 to 16 MiB, as bytes or with k/K/KiB or M/MiB (e.g. 16, 4k, 16M)";
    errno = 0;
    char *end;
    if (!isdigit((unsigned char)text[0])) {
        snprintf(why, n, "bad size '%s'; %s", text, accepted);
        return -1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    unsigned long long mul = 1;
    if (!strcasecmp(end, "k") || !strcasecmp(end, "kib") || !strcasecmp(end, "kb"))
        mul = 1024;
    else if (!strcasecmp(end, "m") || !strcasecmp(end, "mib") || !strcasecmp(end, "mb"))
        mul = 1024 * 1024;
    else if (*end && strcasecmp(end, "b")) {
        snprintf(why, n, "bad size '%s'; %s", text, accepted);
        return -1;
    }
    if (errno || v == 0 || v > ALGO_MAX_BYTES / mul) {
        snprintf(why, n, "size '%s' out of range; %s", text, accepted);
        return -1;
    }
    *out = (size_t)(v * mul);
    return 0;
}

static int add_size(struct selection *s, const char *w, char *why, size_t n)
{
    size_t v;
    if (select_parse_size(w, &v, why, n))
        return -1;
    for (int i = 0; i < s->nsizes; i++)
        if (s->sizes[i] == v)
            return 0;
    if (s->nsizes == SELECT_MAX) {
        snprintf(why, n, "too many sizes (at most %d)", SELECT_MAX);
        return -1;
    }
    s->sizes[s->nsizes++] = v;
    return 0;
}

int select_sizes(struct selection *s, const char *list, char *why, size_t n)
{
    s->nsizes = 0;
    return each_word(list, add_size, s, "size list; accepted: 1 to 16 MiB, e.g. 16,4k,16M", why, n);
}

static int add_path(struct selection *s, const char *w, char *why, size_t n)
{
    if (!strcmp(w, "all")) {
        for (int q = 0; q < PATH_COUNT; q++)
            s->paths[q] = 1;
        return 0;
    }
    int p = path_by_id(w);
    if (p < 0) {
        snprintf(why, n, "unknown path '%s'; accepted: c, asm, hw, kernel (or all)", w);
        return -1;
    }
    s->paths[p] = 1;
    return 0;
}

int select_paths(struct selection *s, const char *list, char *why, size_t n)
{
    memset(s->paths, 0, sizeof s->paths);
    return each_word(list, add_path, s, "path list; accepted: c, asm, hw, kernel, all", why, n);
}

static int add_impl(struct selection *s, const char *w, char *why, size_t n)
{
    int known = 0;
    for (size_t i = 0; i < registry_count() && !known; i++)
        known = !strcmp(registry_get(i)->name, w);
    if (!known) {
        /* Name every implementation once, in registry order. */
        int off = snprintf(why, n, "unknown implementation '%s'; accepted:", w);
        for (size_t i = 0; i < registry_count() && off > 0 && (size_t)off < n; i++) {
            const char *nm = registry_get(i)->name;
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++)
                seen = !strcmp(registry_get(j)->name, nm);
            if (!seen)
                off += snprintf(why + off, n - (size_t)off, " %s", nm);
        }
        return -1;
    }
    if (s->nimpls == SELECT_MAX) {
        snprintf(why, n, "too many implementation names");
        return -1;
    }
    snprintf(s->impls[s->nimpls++], sizeof s->impls[0], "%s", w);
    return 0;
}

int select_impls(struct selection *s, const char *list, char *why, size_t n)
{
    s->nimpls = 0;
    return each_word(list, add_impl, s, "implementation list; see 'accelscope info'", why, n);
}

int select_check(const struct selection *s, char *why, size_t n)
{
    for (int a = 0; a < s->nalgs; a++)
        for (int z = 0; z < s->nsizes; z++)
            if (algo_check_size(s->algs[a], s->sizes[z], why, n))
                return -1;
    return 0;
}

void select_defaults(struct selection *s)
{
    char why[16];
    memset(s, 0, sizeof *s);
    select_algs(s, "all", why, sizeof why);
    for (int i = 0; i < 6; i++)
        s->sizes[s->nsizes++] = select_default_sizes[i];
    select_paths(s, "all", why, sizeof why);
}
