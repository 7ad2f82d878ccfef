#include "select.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "impl.h"
#include "engine.h"
#include "registry.h"
#include "text.h"

const size_t select_default_sizes[6] = { 16, 64, 256, 1024, 8192, 16384 };

/* Splits a comma list into words, calling f on each; stops at the first error. what names
 * the list for the message an empty one gets. The list is copied whole: no length limit. */
static int each_word(const char *list, int (*f)(struct selection *, const char *, char *, size_t),
                     struct selection *s, const char *what, char *why, size_t n)
{
    char *buf = strdup(list);
    if (!buf)
        abort();
    int any = 0, rc = 0;
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w && !rc;
         w = strtok_r(NULL, ", ", &save)) {
        rc = f(s, w, why, n) ? -1 : 0;
        any = 1;
    }
    free(buf);
    if (!rc && !any) {
        snprintf(why, n, "empty %s", what);
        rc = -1;
    }
    return rc;
}

static int add_alg(struct selection *s, const char *w, char *why, size_t n)
{
    if (!strcmp(w, "all")) {
        for (size_t i = 0; i < algo_count; i++)
            if (algo_table[i].in_default && add_alg(s, algo_table[i].id, why, n))
                return -1;
        return 0;
    }
    for (size_t i = 0; algo_in_group(w, &algo_table[0]) >= 0 && i < algo_count; i++)
        if (algo_in_group(w, &algo_table[i]) == 1 && add_alg(s, algo_table[i].id, why, n))
            return -1;
    if (algo_in_group(w, &algo_table[0]) >= 0)
        return 0;
    const struct algo *a = algo_find(w);
    if (!a) {
        int off = snprintf(why, n, "unknown algorithm '%s'; accepted: all, %s,", w, algo_groups);
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
    const char *accepted = "accepted: 1 to 16 MiB, as bytes (B) or with k, KiB or kB (1024) or "
                           "M, MiB or MB (1024^2), in any case (e.g. 16, 4k, 16M)";
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

/* Every implementation name once, in registry order, after "accepted:". */
static void list_impl_names(char *why, size_t n, int off)
{
    for (size_t i = 0; i < registry_count() && off > 0 && (size_t)off < n; i++) {
        const char *nm = registry_get(i)->name;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(registry_get(j)->name, nm);
        if (!seen)
            off += snprintf(why + off, n - (size_t)off, " %s", nm);
    }
}

/* Adds w to a list of implementation names (includes or excludes) once. */
static int add_name(char (*list)[SELECT_NAME], int *count, const char *w, char *why, size_t n)
{
    int known = 0;
    for (size_t i = 0; i < registry_count() && !known; i++)
        known = !strcmp(registry_get(i)->name, w);
    if (!known) {
        list_impl_names(why, n, snprintf(why, n, "unknown implementation '%s'; accepted:", w));
        return -1;
    }
    for (int i = 0; i < *count; i++)
        if (!strcmp(list[i], w))
            return 0;
    if (*count == SELECT_MAX || strlen(w) >= SELECT_NAME) {
        snprintf(why, n, "too many implementation names, or '%s' too long", w);
        return -1;
    }
    snprintf(list[(*count)++], SELECT_NAME, "%s", w);
    return 0;
}

static int add_impl(struct selection *s, const char *w, char *why, size_t n)
{
    return add_name(s->impls, &s->nimpls, w, why, n);
}

static int add_excl(struct selection *s, const char *w, char *why, size_t n)
{
    return add_name(s->excl, &s->nexcl, w, why, n);
}

int select_impls(struct selection *s, const char *list, char *why, size_t n)
{
    s->nimpls = 0;
    return each_word(list, add_impl, s, "implementation list; see 'accelscope info'", why, n);
}

int select_excludes(struct selection *s, const char *list, char *why, size_t n)
{
    s->nexcl = 0;
    return each_word(list, add_excl, s, "exclusion list; see 'accelscope info'", why, n);
}

/* The cap of the thread list being parsed (select_threads sets it for add_threads). */
static int thread_cap = 1;

/* One thread count (or all = the cap), into the ascending list once. */
static int add_threads(struct selection *s, const char *w, char *why, size_t n)
{
    char *end = NULL;
    long t = thread_cap;
    errno = 0;
    if (strcmp(w, "all"))
        t = strtol(w, &end, 10);
    if (end && (errno || end == w || *end || t < 1)) {
        snprintf(why, n, "bad thread count '%s'; accepted: 1 to %d (the CPUs this process may "
                 "use) or all, as a list, e.g. 1,2,all", w, thread_cap);
        return -1;
    }
    if (t > thread_cap) {
        snprintf(why, n, "thread count %s is more than the %d CPU%s this process may use; "
                 "accepted: 1 to %d, or all", w, thread_cap, thread_cap == 1 ? "" : "s", thread_cap);
        return -1;
    }
    int i = 0;
    while (i < s->nthreads && s->threads[i] < t)
        i++;
    if (i < s->nthreads && s->threads[i] == t)
        return 0;
    if (s->nthreads == SELECT_MAX) {
        snprintf(why, n, "too many thread counts; accepted: at most %d in a list", SELECT_MAX);
        return -1;
    }
    memmove(&s->threads[i + 1], &s->threads[i], (size_t)(s->nthreads - i) * sizeof s->threads[0]);
    s->threads[i] = (int)t;
    s->nthreads++;
    return 0;
}

int select_threads(struct selection *s, const char *list, int max, char *why, size_t n)
{
    struct selection t = *s;
    t.nthreads = 0;
    thread_cap = max;
    if (each_word(list, add_threads, &t, "thread list; accepted: 1 to the CPUs this process "
                  "may use, or all, e.g. 1,2,all", why, n))
        return -1; /* a bad list leaves the selection as it was */
    memcpy(s->threads, t.threads, sizeof t.threads);
    s->nthreads = t.nthreads;
    return 0;
}

int select_max_threads(const struct selection *s)
{
    return s->nthreads ? s->threads[s->nthreads - 1] : 1;
}

int select_time(struct selection *s, const char *text, char *why, size_t n)
{
    double v;
    if (text_decimal(text, &v) || !(v >= SELECT_MIN_TIME && v <= SELECT_MAX_TIME)) {
        snprintf(why, n, "bad --time '%s'; accepted: %g to %g seconds per cell", text,
                 SELECT_MIN_TIME, SELECT_MAX_TIME);
        return -1;
    }
    s->seconds = v;
    return 0;
}

static int name_in(char (*list)[SELECT_NAME], int count, const char *name)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(list[i], name))
            return 1;
    return 0;
}

int select_excluded(const struct selection *s, const char *name)
{
    return name_in((char (*)[SELECT_NAME])s->excl, s->nexcl, name);
}

void select_toggle_excluded(struct selection *s, const char *name)
{
    for (int i = 0; i < s->nexcl; i++)
        if (!strcmp(s->excl[i], name)) {
            memmove(s->excl[i], s->excl[i + 1], (size_t)(s->nexcl - i - 1) * sizeof s->excl[0]);
            s->nexcl--;
            return;
        }
    if (s->nexcl < SELECT_MAX && strlen(name) < SELECT_NAME)
        snprintf(s->excl[s->nexcl++], SELECT_NAME, "%s", name);
}

int select_wants(const struct selection *s, const struct impl *im)
{
    if (!s->paths[im->path] || select_excluded(s, im->name))
        return 0;
    return !s->nimpls || name_in((char (*)[SELECT_NAME])s->impls, s->nimpls, im->name);
}

int select_check(const struct selection *s, char *why, size_t n)
{
    for (int a = 0; a < s->nalgs; a++)
        for (int z = 0; z < s->nsizes && algo_sized(s->algs[a]); z++)
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
    s->threads[s->nthreads++] = 1;
    s->seconds = ENGINE_DEFAULT_SECONDS;
}

/* Appends text to a growing string. */
static void put(char **buf, size_t *len, size_t *cap, const char *text)
{
    size_t t = strlen(text);
    if (*len + t + 1 > *cap) {
        *cap = (*len + t + 1) * 2;
        *buf = realloc(*buf, *cap);
        if (!*buf)
            abort();
    }
    memcpy(*buf + *len, text, t + 1);
    *len += t;
}

/* " -X a,b,c" from count words got by word(i). */
static void put_list(char **buf, size_t *len, size_t *cap, const char *opt, int count,
                     const char *(*word)(const struct selection *, int, char *, size_t),
                     const struct selection *s)
{
    if (!count)
        return;
    put(buf, len, cap, opt);
    for (int i = 0; i < count; i++) {
        char w[SELECT_NAME + 8];
        put(buf, len, cap, i ? "," : " ");
        put(buf, len, cap, word(s, i, w, sizeof w));
    }
}

static const char *alg_word(const struct selection *s, int i, char *b, size_t n)
{
    (void)b, (void)n;
    return s->algs[i]->id;
}

static const char *size_word(const struct selection *s, int i, char *b, size_t n)
{
    snprintf(b, n, "%zu", s->sizes[i]);
    return b;
}

static const char *thread_word(const struct selection *s, int i, char *b, size_t n)
{
    snprintf(b, n, "%d", s->threads[i]);
    return b;
}

static const char *path_word(const struct selection *s, int i, char *b, size_t n)
{
    (void)b, (void)n;
    for (int p = 0; p < PATH_COUNT; p++)
        if (s->paths[p] && i-- == 0)
            return path_id[p];
    return "";
}

static const char *impl_word(const struct selection *s, int i, char *b, size_t n)
{
    (void)b, (void)n;
    return s->impls[i];
}

static const char *excl_word(const struct selection *s, int i, char *b, size_t n)
{
    (void)b, (void)n;
    return s->excl[i];
}

char *select_args(const struct selection *s)
{
    struct selection d;
    select_defaults(&d);
    char *buf = NULL, num[64];
    size_t len = 0, cap = 0;
    put(&buf, &len, &cap, "");
    int same_algs = s->nalgs == d.nalgs && !memcmp(s->algs, d.algs, sizeof d.algs[0] * (size_t)d.nalgs);
    int same_sizes = s->nsizes == d.nsizes && !memcmp(s->sizes, d.sizes, sizeof d.sizes[0] * (size_t)d.nsizes);
    int npaths = 0;
    for (int p = 0; p < PATH_COUNT; p++)
        npaths += s->paths[p] != 0;
    put_list(&buf, &len, &cap, " -a", same_algs ? 0 : s->nalgs, alg_word, s);
    put_list(&buf, &len, &cap, " -s", same_sizes ? 0 : s->nsizes, size_word, s);
    put_list(&buf, &len, &cap, " -p", npaths == PATH_COUNT ? 0 : npaths, path_word, s);
    put_list(&buf, &len, &cap, " -i", s->nimpls, impl_word, s);
    put_list(&buf, &len, &cap, " -x", s->nexcl, excl_word, s);
    int same_threads = s->nthreads == d.nthreads &&
                       !memcmp(s->threads, d.threads, sizeof d.threads[0] * (size_t)d.nthreads);
    put_list(&buf, &len, &cap, " -t", same_threads ? 0 : s->nthreads, thread_word, s);
    if (s->seconds != d.seconds) {
        /* The shortest form that reads back as the same double. */
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(num, sizeof num, " -T %.*g", prec, s->seconds);
            if (strtod(num + 4, NULL) == s->seconds)
                break;
        }
        put(&buf, &len, &cap, num);
    }
    if (s->decrypt)
        put(&buf, &len, &cap, " -d");
    memmove(buf, buf + (len && buf[0] == ' '), len + 1 - (len && buf[0] == ' '));
    return buf;
}
